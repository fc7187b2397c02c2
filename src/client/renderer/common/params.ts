import type { QueryValue } from '../../api/http.ts';

export type Row = Record<string, unknown>;

function readPath(row: Row | undefined, path: string): unknown {
  let current: unknown = row;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Row)[part];
  }
  return current;
}

function toQueryValue(value: unknown): QueryValue {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) return value.join(',');
  if (typeof value === 'object') return JSON.stringify(value);
  return value as QueryValue;
}

/**
 * Turns a schema's action / tab parameters into query values: `$row.<field>` reads the row
 * (dot paths allowed), `$ids` is the selected ids comma-joined, anything else is a literal.
 */
export function resolveParams(
  params: Record<string, unknown> | undefined,
  row: Row | undefined,
  ids: string[] = [],
): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  for (const [key, raw] of Object.entries(params ?? {})) {
    if (raw === '$ids') out[key] = ids.join(',');
    else if (typeof raw === 'string' && raw.startsWith('$row.')) out[key] = toQueryValue(readPath(row, raw.slice(5)));
    else out[key] = toQueryValue(raw);
  }
  return out;
}
