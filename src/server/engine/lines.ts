/**
 * Line collections: an entity's array field marked `x-lines` (contacts, goods units, bill lines)
 * is stored as rows of another resource linked by `x-parentField`. Declared once, on the entity;
 * the form's line editor and the document engine read the same declaration.
 *
 * A save writes the lines in bulk: one read of the stored lines, one upsert per 30,000 values and
 * one removal of the lines no longer sent, whatever the number of lines.
 */
import type { Services } from '../services.ts';
import type { Model } from './model.ts';
import type { Actor, Row } from './store.ts';
import { validateEntity } from './validate.ts';
import { checkReferences } from './references.ts';
import { fillLookups } from './lookups.ts';
import { ApiError, badRequest, conflict } from '../errors.ts';
import { stripReadonly } from './records.ts';

export interface LineCollection {
  field: string;
  resource: string;
  parentField: string;
  title: string;
}

export function lineFields(model: Model): LineCollection[] {
  const out: LineCollection[] = [];
  for (const [field, schema] of Object.entries(model.resource?.entity.properties ?? {})) {
    if (schema['x-lines']) {
      out.push({ field, resource: String(schema['x-lines']), parentField: String(schema['x-parentField'] ?? 'parentId'), title: schema.title });
    }
  }
  return out;
}

function lineOrder(child: Model) {
  return [
    ...(child.fields.has('sort') ? [{ column: child.fields.get('sort')!.column, dir: 'asc' as const }] : []),
    { column: 'create_time', dir: 'asc' as const },
    { column: 'id', dir: 'asc' as const },
  ];
}

/**
 * Reads the line collections of `rows`; their display fields are filled too, unless the caller
 * fills them itself together with the head's (`lookups: false`, one batched read).
 */
export async function loadLines(services: Services, tenantId: string, model: Model, rows: Row[], opts: { lookups?: boolean } = {}): Promise<[Model, Row[]][]> {
  const loaded: [Model, Row[]][] = [];
  for (const line of lineFields(model)) {
    const child = services.m(line.resource);
    const ids = rows.map((r) => String(r.id));
    const children = ids.length
      ? await services.store.find(child, tenantId, { where: { [line.parentField]: ids }, orderBy: lineOrder(child) })
      : [];
    if (opts.lookups !== false) await fillLookups(services, child, tenantId, children);
    loaded.push([child, children]);
    const byParent = new Map<string, Row[]>();
    for (const c of children) {
      const key = String(c[line.parentField]);
      byParent.set(key, [...(byParent.get(key) ?? []), c]);
    }
    for (const row of rows) row[line.field] = byParent.get(String(row.id)) ?? [];
  }
  return loaded;
}

/** Every line checked before anything is written; messages say which line (第N条). */
export function validateLines(services: Services, model: Model, data: Row): void {
  for (const line of lineFields(model)) {
    const items = data[line.field];
    if (items === undefined) continue;
    if (!Array.isArray(items)) throw badRequest(`${line.title}应为列表`);
    const child = services.m(line.resource);
    const fieldErrors: Record<string, string> = {};
    const lineErrors: { index: number; id?: string; field: string; message: string }[] = [];
    const messages: string[] = [];
    items.forEach((item, i) => {
      if (!item || typeof item !== 'object' || Array.isArray(item)) {
        messages.push(`第${i + 1}条：应为对象`);
        return;
      }
      try {
        validateEntity(child.resource!.entity, { ...(item as Row), [line.parentField]: 'pending' });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        messages.push(`第${i + 1}条：${error.message}`);
        const id = (item as Row).id ? String((item as Row).id) : undefined;
        for (const [f, m] of Object.entries((error.data as { fieldErrors?: Record<string, string> })?.fieldErrors ?? {})) {
          fieldErrors[`${line.field}.${i}.${f}`] = m;
          lineErrors.push({ index: i, id, field: f, message: m });
        }
      }
    });
    if (messages.length) throw badRequest(messages.join('; '), { fieldErrors, lineErrors });
  }
}

/** Unique rules of a line resource, checked within the submitted lines and against other parents' rows in one read per rule. */
async function checkLineUnique(services: Services, actor: Actor, child: Model, items: Row[], parentField: string) {
  for (const rule of child.def.unique ?? []) {
    const complete = items.map((item, i) => ({ item, i })).filter(({ item }) => rule.fields.every((f) => item[f] !== undefined && item[f] !== null && item[f] !== ''));
    if (!complete.length) continue;
    const seen = new Map<string, number>();
    for (const { item, i } of complete) {
      const key = rule.fields.map((f) => String(item[f])).join('|');
      if (seen.has(key)) throw badRequest(`第${i + 1}条：${rule.message}`);
      seen.set(key, i);
    }
    // Only rules that reach beyond the parent (a phone unique per tenant) can clash with stored rows of others.
    if (rule.fields.includes(parentField)) continue;
    const first = rule.fields[0];
    const stored = await services.store.find(child, actor.tenantId, { where: { [first]: [...new Set(complete.map(({ item }) => String(item[first])))] } });
    const mine = new Set(items.map((item) => String(item.id ?? '')));
    for (const { item, i } of complete) {
      const key = rule.fields.map((f) => String(item[f])).join('|');
      const clash = stored.find((s) => rule.fields.map((f) => String(s[f] ?? '')).join('|') === key && !mine.has(String(s.id)));
      if (clash) throw badRequest(`第${i + 1}条：${rule.message}`);
    }
  }
}

/**
 * Makes the stored lines equal the submitted ones: rows with a stored id are updated (a stale line
 * version is refused), the others inserted with new ids, the rest removed.
 */
export async function saveLines(
  services: Services,
  actor: Actor,
  model: Model,
  parentId: string,
  data: Row,
  opts: { trusted?: boolean } = {},
): Promise<Record<string, Row[]>> {
  const { store } = services;
  const saved: Record<string, Row[]> = {};
  for (const line of lineFields(model)) {
    const items = data[line.field];
    if (!Array.isArray(items)) continue;
    const child = services.m(line.resource);
    const existing = await store.find(child, actor.tenantId, { where: { [line.parentField]: parentId } });
    const stored = new Map(existing.map((e) => [String(e.id), e]));
    const rows: Row[] = [];
    for (const [i, raw] of (items as Row[]).entries()) {
      const id = raw.id !== undefined && raw.id !== null && raw.id !== '' ? String(raw.id) : undefined;
      const before = id ? stored.get(id) : undefined;
      if (before && raw.version !== undefined && raw.version !== null && raw.version !== '' && Number(raw.version) !== Number(before.version)) {
        throw conflict(`${line.title}第${i + 1}条已被他人修改，请刷新后重试`);
      }
      // Server-computed lines (documents) keep their read-only figures; a caller's lines never set them.
      const item: Row = { ...(opts.trusted ? raw : stripReadonly(child, raw)), [line.parentField]: parentId };
      if (before) item.id = id;
      else {
        delete item.id;
        for (const [name, schema] of Object.entries(child.resource?.entity.properties ?? {})) {
          if (schema.default !== undefined && (item[name] === undefined || item[name] === null || item[name] === '')) item[name] = schema.default;
        }
      }
      if (child.fields.has('sort') && (item.sort === undefined || item.sort === null || item.sort === '')) item.sort = i + 1;
      rows.push(item);
    }
    await checkLineUnique(services, actor, child, rows, line.parentField);
    await checkReferences(services, actor, child, rows, (row) => (row.id ? stored.get(String(row.id)) : undefined), { field: line.field });
    await store.upsertMany(child, actor, rows, stored);
    saved[line.field] = rows;
    const keep = new Set(rows.filter((r) => r.id).map((r) => String(r.id)));
    const gone = [...stored.keys()].filter((id) => !keep.has(id));
    if (gone.length) await store.softRemove(child, actor, gone);
  }
  return saved;
}
