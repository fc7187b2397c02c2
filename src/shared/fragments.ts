/**
 * Shared field sets: a bill head or line names the fragments it is made of (entity
 * `x-fragments`), and every reader — server, lint, type generator, client — merges them the same
 * way before reading the entity, so a bill file holds only what is its own.
 */
import type { EntitySchema, FieldSchema, LookupDef, ResourceFile } from './resource.ts';

export interface Fragment {
  fragment: string;
  description?: string;
  properties: Record<string, FieldSchema>;
  required?: string[];
  errorMessage?: { required?: Record<string, string> };
  /** Display names the fragment's reference fields bring (depotName from depotId…). */
  lookups?: LookupDef[];
}

export class FragmentError extends Error {}

/** The entity with its fragments merged in: fragment fields first, the file's own after (they win). */
export function resolveEntity(entity: EntitySchema, fragments: ReadonlyMap<string, Fragment>, resourceName = ''): EntitySchema {
  const names = (entity['x-fragments'] as string[] | undefined) ?? [];
  if (!names.length) return entity;
  const properties: Record<string, FieldSchema> = {};
  const required = new Set<string>();
  const messages: Record<string, string> = {};
  for (const name of names) {
    const fragment = fragments.get(name);
    if (!fragment) throw new FragmentError(`${resourceName}: unknown fragment ${name} (schemas/fragments/${name}.json)`);
    Object.assign(properties, fragment.properties);
    for (const r of fragment.required ?? []) required.add(r);
    Object.assign(messages, fragment.errorMessage?.required ?? {});
  }
  Object.assign(properties, entity.properties);
  for (const r of entity.required ?? []) required.add(r);
  Object.assign(messages, entity.errorMessage?.required ?? {});
  const { ['x-fragments']: _used, ...rest } = entity;
  void _used;
  const errorMessage = Object.keys(messages).length ? { ...(entity.errorMessage ?? {}), required: messages } : entity.errorMessage;
  return { ...rest, properties, ...(required.size ? { required: [...required] } : {}), ...(errorMessage ? { errorMessage } : {}) } as EntitySchema;
}

export function resolveResource(resource: ResourceFile, fragments: ReadonlyMap<string, Fragment>): ResourceFile {
  const names = resource.entity['x-fragments'] as string[] | undefined;
  if (!names?.length) return resource;
  const entity = resolveEntity(resource.entity, fragments, resource.resource);
  // The file's own lookups win over a fragment's for the same display field.
  const own = resource.lookups ?? [];
  const shared = names.flatMap((n) => fragments.get(n)?.lookups ?? []).filter((l) => !own.some((o) => o.field === l.field));
  const lookups = [...shared, ...own];
  return { ...resource, entity, ...(lookups.length ? { lookups } : {}) };
}
