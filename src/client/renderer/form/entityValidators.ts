/**
 * The browser's copy of each entity's compiled validator (issue 16 §6): the module the server
 * generates from the schema it runs on (GET /validators/<resource>.js: ajv's standalone code of
 * the very function it validates saves with), or, before a server that lacks that call (a real
 * BladeX backend serving our build), the copy the client build wrote from the same schemas.
 * Messages come from src/shared/entityCheck.ts on both sides.
 */
import { useEffect, useState } from 'react';
import type { CompiledValidator } from '../../../shared/entityCheck.ts';
import type { EntitySchema } from '../../../shared/resource.ts';

const byEntity = new WeakMap<EntitySchema, CompiledValidator>();
/** Which resource an entity belongs to (set as schemas load, src/client/renderer/common/useResource.ts). */
const names = new WeakMap<EntitySchema, string>();
const pending = new Map<string, Promise<CompiledValidator | undefined>>();
const settled = new WeakSet<EntitySchema>();

export function nameEntity(entity: EntitySchema, resource: string): void {
  names.set(entity, resource);
}

/** For tests and bench pages: a validator got another way (the same module text, imported). */
export function registerEntityValidator(entity: EntitySchema, validate: CompiledValidator): void {
  byEntity.set(entity, validate);
  settled.add(entity);
}

export function validatorOf(entity: EntitySchema): CompiledValidator | undefined {
  return byEntity.get(entity);
}

function importModule(resource: string): Promise<CompiledValidator | undefined> {
  let promise = pending.get(resource);
  if (!promise) {
    const url = `${import.meta.env.BASE_URL ?? '/'}validators/${encodeURIComponent(resource)}.js`;
    promise = import(/* @vite-ignore */ url).then(
      (module: { default?: CompiledValidator }) => module.default,
      () => {
        // Not there (offline, an unknown name): the checks written in entityCheck.ts still run,
        // the server checks the rest on save; the next form tries again.
        pending.delete(resource);
        return undefined;
      },
    );
    pending.set(resource, promise);
  }
  return promise;
}

/** Loads an entity's validator once; resolves undefined when it cannot be had. */
export function loadEntityValidator(entity: EntitySchema | undefined): Promise<CompiledValidator | undefined> {
  if (!entity) return Promise.resolve(undefined);
  const ready = byEntity.get(entity);
  if (ready) return Promise.resolve(ready);
  const resource = names.get(entity);
  if (!resource) {
    settled.add(entity);
    return Promise.resolve(undefined);
  }
  return importModule(resource).then((validate) => {
    if (validate) byEntity.set(entity, validate);
    settled.add(entity);
    return validate;
  });
}

/** True once the entity's validator has loaded (or cannot be had): a form checks nothing before. */
export function useEntityValidator(entity: EntitySchema | undefined): boolean {
  const [ready, setReady] = useState(() => !entity || settled.has(entity));
  useEffect(() => {
    if (!entity || settled.has(entity)) {
      setReady(true);
      return;
    }
    let active = true;
    setReady(false);
    void loadEntityValidator(entity).then(() => active && setReady(true));
    return () => {
      active = false;
    };
  }, [entity]);
  return ready;
}
