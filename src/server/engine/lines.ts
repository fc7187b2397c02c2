import type { Ctx } from '../http/context.ts';
import { mustCaller } from '../http/context.ts';
import type { Model } from './model.ts';
import type { Row } from './store.ts';
import { validateEntity } from './validate.ts';
import { fillLookups } from './lookups.ts';
import { ApiError, badRequest } from '../http/envelope.ts';

/** Line collections of a resource: array fields stored as rows of another resource (contacts, bill lines). */
export function lineFields(model: Model): { field: string; resource: string; parentField: string }[] {
  const out = [];
  for (const [field, schema] of Object.entries(model.resource?.entity.properties ?? {})) {
    if (schema['x-lines']) out.push({ field, resource: String(schema['x-lines']), parentField: String(schema['x-parentField'] ?? 'parentId') });
  }
  return out;
}

export async function loadLines(ctx: Ctx, model: Model, rows: Row[]): Promise<void> {
  const caller = mustCaller(ctx);
  for (const line of lineFields(model)) {
    const child = ctx.services.m(line.resource);
    const ids = rows.map((r) => String(r.id));
    const children = ids.length
      ? await ctx.services.store.find(child, caller.tenantId, {
          where: { [line.parentField]: ids },
          orderBy: [
            ...(child.fields.has('sort') ? [{ column: child.fields.get('sort')!.column, dir: 'asc' as const }] : []),
            { column: 'create_time', dir: 'asc' },
            { column: 'id', dir: 'asc' },
          ],
        })
      : [];
    await fillLookups(ctx.services, child, caller.tenantId, children);
    for (const row of rows) row[line.field] = children.filter((c) => String(c[line.parentField]) === String(row.id));
  }
}

/** Every line checked before anything is written; messages say which line (第N条). */
export function validateLines(ctx: Ctx, model: Model, data: Row): void {
  for (const line of lineFields(model)) {
    const items = data[line.field];
    if (items === undefined) continue;
    if (!Array.isArray(items)) throw badRequest(`${model.resource?.entity.properties[line.field]?.title ?? line.field}应为列表`);
    const child = ctx.services.m(line.resource);
    const fieldErrors: Record<string, string> = {};
    const messages: string[] = [];
    items.forEach((item, i) => {
      try {
        validateEntity(child.resource!.entity, { ...(item as Row), [line.parentField]: 'pending' });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        messages.push(`第${i + 1}条：${error.message}`);
        for (const [f, m] of Object.entries((error.data as { fieldErrors?: Record<string, string> })?.fieldErrors ?? {})) {
          fieldErrors[`${line.field}.${i}.${f}`] = m;
        }
      }
    });
    if (messages.length) throw badRequest(messages.join('; '), { fieldErrors });
  }
}

/** Makes the stored lines equal the submitted ones: update by id, insert new, remove the rest. */
export async function saveLines(ctx: Ctx, model: Model, parentId: string, data: Row): Promise<void> {
  const caller = mustCaller(ctx);
  const { store } = ctx.services;
  for (const line of lineFields(model)) {
    const items = data[line.field];
    if (!Array.isArray(items)) continue;
    const child = ctx.services.m(line.resource);
    const existing = await store.find(child, caller.tenantId, { where: { [line.parentField]: parentId } });
    const existingIds = new Set(existing.map((e) => String(e.id)));
    const keep = new Set<string>();
    for (const [i, raw] of (items as Row[]).entries()) {
      const item: Row = { ...raw, [line.parentField]: parentId };
      if (!item.id) {
        for (const [name, schema] of Object.entries(child.resource?.entity.properties ?? {})) {
          if (schema.default !== undefined && (item[name] === undefined || item[name] === null || item[name] === '')) item[name] = schema.default;
        }
      }
      if (child.fields.has('sort') && item.sort === undefined) item.sort = i + 1;
      for (const rule of child.def.unique ?? []) {
        const where = Object.fromEntries(rule.fields.map((f) => [f, item[f]]));
        if (rule.fields.some((f) => item[f] === undefined || item[f] === '')) continue;
        const clash = await store.find(child, caller.tenantId, { where, limit: 2 });
        if (clash.some((c) => String(c.id) !== String(item.id ?? ''))) throw badRequest(`第${i + 1}条：${rule.message}`);
      }
      if (item.id && existingIds.has(String(item.id))) {
        keep.add(String(item.id));
        await store.update(child, caller, String(item.id), item);
      } else {
        delete item.id;
        await store.insert(child, caller, item);
      }
    }
    const gone = [...existingIds].filter((id) => !keep.has(id));
    if (gone.length) await store.softRemove(child, caller, gone);
  }
}
