import type { Dayjs } from 'dayjs';
import type { QueryValue } from '../../api/http.ts';
import type { FieldSchema, ResourceFile } from '../../../shared/resource.ts';
import { asSearchField, fieldOf, viewsOf, type SearchFieldDef, type SearchOp } from '../common/views.ts';

/** Search fields of a resource: declared, else like-searches on the table's search columns. */
export function searchFieldsOf(resource: ResourceFile): SearchFieldDef[] {
  const declared = viewsOf(resource).search;
  if (declared) return declared.map(asSearchField);
  return (resource.table.search ?? [])
    .filter((name) => fieldOf(resource, name))
    .map((field) => ({ field, op: 'like' }));
}

/** The operator a search field uses: declared, else derived (dictionaries and refs match exactly). */
export function searchOpOf(def: SearchFieldDef, field: FieldSchema | undefined): SearchOp {
  if (def.op) return def.op;
  if (def.widget === 'daterange') return 'daterange';
  if (field?.['x-dict'] || field?.['x-dictBiz'] || field?.['x-ref']) return 'equal';
  if (field?.type === 'integer' || field?.type === 'number') return 'equal';
  return 'like';
}

function isDayjs(value: unknown): value is Dayjs {
  return Boolean(
    value && typeof value === 'object' && 'format' in value && typeof (value as Dayjs).format === 'function',
  );
}

function scalar(value: unknown): QueryValue {
  if (value === null || value === undefined) return undefined;
  if (isDayjs(value)) return value.format('YYYY-MM-DD HH:mm:ss');
  if (Array.isArray(value)) return value.length ? value.join(',') : undefined;
  if (typeof value === 'string') return value.trim() || undefined;
  return value as QueryValue;
}

/**
 * Form values → the contract's map filters: like → bare key, equal → _equal, ge/le, range →
 * _ge + _le, daterange → _datege (start of day) + _datele (end of day); `param` renames.
 */
export function toFilterParams(
  resource: ResourceFile,
  defs: SearchFieldDef[],
  values: Record<string, unknown>,
): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  for (const def of defs) {
    const value = values[def.field];
    if (value === undefined || value === null || value === '') continue;
    const op = searchOpOf(def, fieldOf(resource, def.field));
    const name = def.param ?? def.field;
    if (op === 'range' || op === 'daterange') {
      const [from, to] = Array.isArray(value) ? value : [];
      if (op === 'daterange') {
        if (isDayjs(from))
          out[def.param ? `${def.param}Start` : `${def.field}_datege`] = from
            .startOf('day')
            .format('YYYY-MM-DD HH:mm:ss');
        if (isDayjs(to))
          out[def.param ? `${def.param}End` : `${def.field}_datele`] = to.endOf('day').format('YYYY-MM-DD HH:mm:ss');
      } else {
        if (scalar(from) !== undefined) out[`${def.field}_ge`] = scalar(from);
        if (scalar(to) !== undefined) out[`${def.field}_le`] = scalar(to);
      }
      continue;
    }
    const text = scalar(value);
    if (text === undefined) continue;
    if (def.param) out[def.param] = text;
    else if (op === 'like' || op === 'in') out[def.field] = text;
    else out[`${def.field}_${op}`] = text;
  }
  return out;
}

export function initialSearchValues(defs: SearchFieldDef[]): Record<string, unknown> {
  return Object.fromEntries(defs.filter((d) => d.default !== undefined).map((d) => [d.field, d.default]));
}
