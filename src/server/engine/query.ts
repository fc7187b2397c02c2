import { sql, type Expression, type SqlBool, type ExpressionBuilder } from 'kysely';
import type { FieldModel, Model } from './model.ts';
import { toDb } from './model.ts';
import { normalizeDateTime } from '../../shared/dates.ts';
import { badRequest } from '../errors.ts';

/** Query keys that are never filters (CONTRACT §4.5). */
const RESERVED = new Set(['current', 'size', 'ascs', 'descs', 'blade-auth', 'tenantId', 'tenant_id', '_t']);

/** Map-style suffixes, longest first so `_notequal` wins over `_equal`. */
const SUFFIXES = [
  '_notequal', '_likeleft', '_likeright', '_notlike', '_datege', '_dategt', '_dateequal', '_datele', '_datelt',
  '_notnull', '_ignore', '_equal', '_like', '_null', '_ge', '_le', '_gt', '_lt',
] as const;

export interface Condition {
  /** keyword: the same contains-search over several fields, joined with OR. */
  any?: Condition[];
  field: FieldModel;
  op: string;
  value: unknown;
  /** SQLite trigram index serving contains-searches on this field (table.search). */
  fts?: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type EB = ExpressionBuilder<any, any>;

/** Parses filters from a query string. Unknown keys are ignored, as BladeX does for non-entity keys. */
export function parseFilters(model: Model, params: Record<string, unknown>, style: 'map' | 'entity'): Condition[] {
  const out: Condition[] = [];
  for (const [key, raw] of Object.entries(params)) {
    if (key === 'keyword' && raw !== undefined && raw !== '' && model.def.search?.length) {
      // Search-engine mode (pickers): one text matched against every search field of the table.
      const text = String(Array.isArray(raw) ? raw[raw.length - 1] : raw);
      const any = parseFilters(model, Object.fromEntries(model.def.search.map((f) => [f, text])), 'map');
      if (any.length) out.push({ ...any[0], any });
      continue;
    }
    if (RESERVED.has(key) || raw === undefined || raw === null || raw === '') continue;
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (typeof value === 'object') continue;
    let name = key;
    let op = style === 'map' ? '_like' : '_equal';
    const suffix = SUFFIXES.find((s) => key.endsWith(s));
    if (suffix) {
      name = key.slice(0, -suffix.length);
      op = suffix;
    }
    if (op === '_ignore') continue;
    const field = model.filterable.get(name);
    if (!field || field.secret) continue;
    // Numbers and ids compare exactly even without a suffix: LIKE on them is never what a caller means.
    if (op === '_like' && !suffix && (field.kind === 'integer' || field.kind === 'decimal' || name === 'id')) op = '_equal';
    const fts = model.def.search?.includes(name) && !model.platform ? `${model.table}_fts` : undefined;
    if (COMPARES.has(op)) checkNumber(field, String(value));
    out.push({ field, op, value: String(value), fts });
  }
  return out;
}

/** Operators that compare a number with a number (the others match text or test for null). */
const COMPARES = new Set(['_equal', '_notequal', '_ge', '_le', '_gt', '_lt']);
const NUMBER_TEXT = /^[-+]?(\d+\.?\d*|\.\d+)$/;

/**
 * A filter on a number column takes a number the column can hold: "abc" or 1e20 on an integer
 * answered 500 (decimal.js threw; PostgreSQL refused the bigint), now 400 naming the condition.
 */
function checkNumber(field: FieldModel, text: string) {
  if (field.kind !== 'integer' && field.kind !== 'decimal') return;
  const trimmed = text.trim();
  const ok = field.kind === 'integer' ? /^-?\d+$/.test(trimmed) && Number.isSafeInteger(Number(trimmed)) : NUMBER_TEXT.test(trimmed) && trimmed.replace(/^[-+]/, '').split('.')[0].length <= 18;
  if (!ok) throw badRequest(`查询条件 ${field.schema.title ?? field.name} 应为${field.kind === 'integer' ? '整数' : '数字'}`);
}

/** Trigrams that together cover every character of the text: every third one, and the last. */
export function coveringTrigrams(text: string): string[] {
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i + 3 <= chars.length; i += 3) out.push(chars.slice(i, i + 3).join(''));
  if (chars.length % 3) out.push(chars.slice(-3).join(''));
  return [...new Set(out)];
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function conditionSql(eb: EB, c: Condition, dialect: 'sqlite' | 'postgres'): Expression<SqlBool> {
  if (c.any) return eb.or(c.any.map((inner) => conditionSql(eb, inner, dialect)));
  const col = eb.ref(c.field.column);
  const text = String(c.value);
  const like = (pattern: string, not = false) =>
    sql<SqlBool>`${col} ${sql.raw(not ? 'not like' : 'like')} ${pattern} escape '\\'`;
  const typed = () => {
    const v = toDb(c.field, text, dialect);
    if (v === null || (typeof v === 'number' && Number.isNaN(v))) throw badRequest(`查询条件 ${c.field.schema.title} 的值不正确`);
    return v;
  };
  const date = () => {
    const v = normalizeDateTime(text);
    if (!v) throw badRequest(`查询条件 ${c.field.schema.title} 不是有效日期，应为 yyyy-MM-dd HH:mm:ss`);
    // A date-only column (bill dates, yyyy-MM-dd) compares with the day: '2026-01-05' >= '2026-01-05 00:00:00' would be false.
    return c.field.maxLength === 10 ? v.slice(0, 10) : v;
  };
  switch (c.op) {
    case '_like':
      // Three characters or more: the trigram index answers instead of scanning every row.
      // The index finds rows holding a set of trigrams covering the text (no positions to compare:
      // cheaper than a phrase); LIKE then checks those few rows for the whole text.
      if (dialect === 'sqlite' && c.fts && [...text].length >= 3) {
        const terms = coveringTrigrams(text).map((t) => `"${t.replace(/"/g, '""')}"`).join(' AND ');
        return sql<SqlBool>`(rowid in (select rowid from ${sql.ref(c.fts)} where ${sql.ref(c.field.column)} match ${terms}) and ${like(`%${escapeLike(text)}%`)})`;
      }
      return like(`%${escapeLike(text)}%`);
    case '_notlike':
      return like(`%${escapeLike(text)}%`, true);
    case '_likeleft':
      return like(`%${escapeLike(text)}`);
    case '_likeright':
      return like(`${escapeLike(text)}%`);
    case '_equal':
      return eb(c.field.column, '=', typed());
    case '_notequal':
      return eb(c.field.column, '<>', typed());
    case '_ge':
      return eb(c.field.column, '>=', typed());
    case '_le':
      return eb(c.field.column, '<=', typed());
    case '_gt':
      return eb(c.field.column, '>', typed());
    case '_lt':
      return eb(c.field.column, '<', typed());
    case '_datege':
      return eb(c.field.column, '>=', date());
    case '_dategt':
      return eb(c.field.column, '>', date());
    case '_datele':
      return eb(c.field.column, '<=', date());
    case '_datelt':
      return eb(c.field.column, '<', date());
    case '_dateequal':
      return sql<SqlBool>`substr(${col}, 1, 10) = ${date().slice(0, 10)}`;
    case '_in': {
      // Internal (data scopes): never parsed from a query string.
      const values = (c.value as unknown[]).map((v) => toDb(c.field, v, dialect));
      return values.length ? eb(c.field.column, 'in', values) : sql<SqlBool>`1 = 0`;
    }
    case '_null':
      return eb(c.field.column, 'is', null);
    case '_notnull':
      return eb(c.field.column, 'is not', null);
  }
  throw badRequest(`不支持的查询条件 ${c.op}`);
}

/** ascs/descs hold snake_case column names (comma-separated); anything not a known column is refused. */
export function parseSort(model: Model, params: Record<string, unknown>): { column: string; dir: 'asc' | 'desc' }[] {
  const byColumn = new Map([...model.filterable.values()].map((f) => [f.column, f]));
  const out: { column: string; dir: 'asc' | 'desc' }[] = [];
  for (const dir of ['ascs', 'descs'] as const) {
    const raw = params[dir];
    if (!raw) continue;
    for (const part of String(raw).split(',').map((s) => s.trim()).filter(Boolean)) {
      const column = byColumn.has(part) ? part : model.filterable.get(part)?.column;
      if (!column) throw badRequest(`排序字段 ${part} 不存在`);
      out.push({ column, dir: dir === 'ascs' ? 'asc' : 'desc' });
    }
  }
  if (!out.length && model.def.defaultSort) {
    for (const part of model.def.defaultSort.split(',')) {
      const [column, dir] = part.trim().split(/\s+/);
      if (byColumn.has(column)) out.push({ column, dir: dir === 'desc' ? 'desc' : 'asc' });
    }
  }
  if (!out.length && model.tree?.sortField) out.push({ column: model.filterable.get(model.tree.sortField)!.column, dir: 'asc' });
  // A stable tie-breaker keeps pages from repeating rows; same direction as the last key so one
  // index (tenant_id, key, id) serves the whole order without a sort.
  if (!out.some((o) => o.column === 'id')) out.push({ column: 'id', dir: out.length ? out[out.length - 1].dir : 'desc' });
  return out;
}

const MAX_PAGE = 1_000_000_000;

export function parsePaging(params: Record<string, unknown>): { current: number; size: number } {
  // A page beyond any table (1e20, Infinity) is the last page anyone could ask for: an empty one,
  // never an offset the databases refuse.
  let current = Math.floor(Number(params.current ?? 1));
  if (!Number.isFinite(current) || current < 1) current = 1;
  if (current > MAX_PAGE) current = MAX_PAGE;
  let size = Math.floor(Number(params.size ?? 10));
  if (!Number.isFinite(size) || size < 1) size = 10;
  // -1 (MyBatis "no paging") and huge sizes are capped: exports have their own streamed calls.
  if (size > 2000) size = 2000;
  return { current, size };
}
