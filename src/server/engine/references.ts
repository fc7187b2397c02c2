/**
 * References name what exists. An x-ref field names rows: an id that is new or changed on a save
 * must be a live row of the caller's tenant in the target resource. A row that was never there,
 * was deleted or belongs to another tenant is refused alike, with the field's message
 * (customer/submit took natureId "1", a category that does not exist). A value a save leaves as it
 * was is not checked again, so a bill whose customer was deleted since can still be edited and
 * flushed. A field of a dictionary (x-dict, x-dictBiz) names one of its live keys
 * (`…的取值不在允许范围内`, the message of a value outside a field's choices), unless the
 * dictionary only suggests values (x-dictOpen: 第三方平台).
 *
 * One read per target resource and save, whatever the number of lines. Targets that are views
 * (a report or a pending list) are not checked: what they show is decided elsewhere. */
import type { Services } from '../services.ts';
import type { Model } from './model.ts';
import type { Actor, Row } from './store.ts';
import { badRequest } from '../errors.ts';
import { dictionaryValues } from './lookups.ts';

const blank = (v: unknown) => v === undefined || v === null || v === '';

export interface ReferenceLine {
  /** The parent's field holding the lines, for `bodyList.3.goodsId` keys. */
  field: string;
}

/**
 * Refuses unknown references among `rows` (one record, or a bill's lines with `line`). `before`
 * gives a row's stored version (absent for new rows).
 */
export async function checkReferences(
  services: Services,
  actor: Actor,
  model: Model,
  rows: Row[],
  before: (row: Row) => Row | undefined = () => undefined,
  line?: ReferenceLine,
): Promise<void> {
  const properties = model.resource?.entity.properties;
  if (!properties) return;
  // target resource → the ids asked of it
  const wanted = new Map<Model, Set<string>>();
  const uses: { index: number; field: string; target: Model; ids: string[] }[] = [];
  for (const [field, prop] of Object.entries(properties)) {
    const ref = prop['x-ref'];
    if (!ref || prop['x-virtual']) continue;
    const target = services.registry.models.get(ref);
    if (!target || target.def.view) continue;
    rows.forEach((row, index) => {
      const value = row[field];
      if (blank(value) || typeof value === 'object') return;
      const stored = before(row)?.[field];
      if (!blank(stored) && String(stored) === String(value)) return;
      let ids = prop['x-multi'] ? String(value).split(',').filter(Boolean) : [String(value)];
      // A tree's root is no row (上级: 顶级).
      if (target.tree) ids = ids.filter((id) => id !== target.tree!.rootValue);
      if (!ids.length) return;
      let set = wanted.get(target);
      if (!set) wanted.set(target, (set = new Set()));
      for (const id of ids) set.add(id);
      uses.push({ index, field, target, ids });
    });
  }
  // Dictionary keys (x-dict, x-dictBiz) are references too: to the tenant's live items. A
  // dictionary the tenant has no items of yet constrains nothing.
  const keyErrors: { index: number; field: string }[] = [];
  for (const [field, prop] of Object.entries(properties)) {
    if (!(prop['x-dict'] || prop['x-dictBiz']) || prop['x-dictOpen'] || prop['x-virtual']) continue;
    let items: Map<string, string> | undefined;
    for (const [index, row] of rows.entries()) {
      const value = row[field];
      if (blank(value) || typeof value === 'object') continue;
      const stored = before(row)?.[field];
      if (!blank(stored) && String(stored) === String(value)) continue;
      items ??= await dictionaryValues(services, actor.tenantId, prop);
      if (!items?.size) break;
      const keys = prop['x-multi'] ? String(value).split(',').filter(Boolean) : [String(value)];
      if (!keys.every((k) => items!.has(k))) keyErrors.push({ index, field });
    }
  }
  if (!uses.length && !keyErrors.length) return;
  const found = new Map<Model, Set<string>>();
  for (const [target, ids] of wanted) {
    const key = target.tree?.keyField ?? 'id';
    const all = [...ids];
    const known = new Set<string>();
    // Chunks keep an import of many lines within SQLite's bound on parameters.
    for (let at = 0; at < all.length; at += 500) {
      for (const row of await services.store.find(target, actor.tenantId, { where: { [key]: all.slice(at, at + 500) } })) known.add(String(row[key]));
    }
    found.set(target, known);
  }
  const fieldErrors: Record<string, string> = {};
  const lineErrors: { index: number; field: string; message: string }[] = [];
  const messages: string[] = [];
  const refuse = (index: number, field: string, what: string) => {
    const message = `${properties[field].title ?? field}${what}`;
    if (line) {
      fieldErrors[`${line.field}.${index}.${field}`] = message;
      lineErrors.push({ index, field, message });
      messages.push(`第${index + 1}条：${message}`);
    } else if (!(field in fieldErrors)) {
      fieldErrors[field] = message;
      messages.push(message);
    }
  };
  for (const use of uses) if (!use.ids.every((id) => found.get(use.target)!.has(id))) refuse(use.index, use.field, '不存在或已删除');
  for (const { index, field } of keyErrors) refuse(index, field, '的取值不在允许范围内');
  if (messages.length) throw badRequest(messages.join('; '), line ? { fieldErrors, lineErrors } : { fieldErrors });
}
