/**
 * Small pieces every report family shares (purchase, people, sales and its statistics, customer
 * analysis, AR/AP balances and invoicing, cash flow, inventory and business analysis, the dashboard):
 * reading SQL sums as exact decimals on both databases (SQLite keeps decimals as integers scaled by
 * 10^6, PostgreSQL sums numeric), percentages and ratios, the filters every report takes (an id as
 * `x` or `x_equal`, a period, a category with its sub-categories), sorting by ascs/descs over the
 * answered rows, and the BladeX page shape.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Services } from '../services.ts';
import type { Ctx } from '../http/context.ts';
import type { Row } from '../engine/store.ts';
import type { Model } from '../engine/model.ts';
import { rowFromDb, STORAGE_SCALE } from '../engine/model.ts';
import { parsePaging } from '../engine/query.ts';
import { fillLookups } from '../engine/lookups.ts';
import { formatFigures, tenantPlaces } from '../engine/document/context.ts';
import { badRequest } from '../errors.ts';
import { Dec, fixed, type Decimal } from '../../shared/money/index.ts';
import { toField, toColumn } from '../../shared/resource.ts';
import { valueParam } from '../system/params.ts';
import { addDays, dayParam, periodOf, type Period } from './period.ts';

const SCALE = new Dec(10).pow(STORAGE_SCALE);

/** Reads a summed decimal column as an exact Decimal (unscaling SQLite's integers). */
export function decimalReader(services: Services): (v: unknown) => Decimal {
  const scaled = services.store.dialect === 'sqlite';
  return (v) => {
    // A scaled integer is unscaled by placing the point in its digits: no division per value.
    if (scaled && typeof v === 'number' && Number.isSafeInteger(v)) return new Dec(unscaled(v));
    const d = new Dec(v === null || v === undefined || v === '' ? '0' : String(v));
    return scaled ? d.div(SCALE) : d;
  };
}

/** The decimal text of an integer scaled by 10^STORAGE_SCALE (-1500000 → -1.500000). */
function unscaled(n: number): string {
  const digits = String(Math.abs(n)).padStart(STORAGE_SCALE + 1, '0');
  return `${n < 0 ? '-' : ''}${digits.slice(0, -STORAGE_SCALE)}.${digits.slice(-STORAGE_SCALE)}`;
}

export const countOf = (v: unknown) => Number(v ?? 0);
export const textOf = (v: unknown) => (v === null || v === undefined ? null : String(v));

/** An id filter sent as `name` (a report's own parameter) or `name_equal` (a search form's map filter). */
export function idParam(ctx: Ctx, name: string): string | undefined {
  return valueParam(ctx, name, `${name}_equal`)?.trim() || undefined;
}

/** A period over another date than the bill date (deliveryDate_datege / _datele), else the usual ones. */
export function periodFor(ctx: Ctx, field: string, title: string): Period {
  const from = dayParam(ctx, `${field}_datege`, `${title}开始日期`);
  const to = dayParam(ctx, `${field}_datele`, `${title}结束日期`);
  if (!from && !to) return periodOf(ctx);
  if (from && to && from > to) throw badRequest('开始日期不能晚于结束日期');
  return { from, to };
}

/** `column` within the period, both ends inclusive (a date or a date-time column). */
export function periodConditions(column: string, period: Period): RawBuilder<unknown>[] {
  const out: RawBuilder<unknown>[] = [];
  if (period.from) out.push(sql`${sql.ref(column)} >= ${period.from}`);
  if (period.to) out.push(sql`${sql.ref(column)} < ${addDays(period.to, 1)}`);
  return out;
}

/** `column` names the tree node or one of its descendants (tree rows keep `ancestors`: "0,a,b"). */
export function inTree(column: string, table: string, tenantId: string, nodeId: string): RawBuilder<unknown> {
  return sql`(${sql.ref(column)} = ${nodeId} or ${sql.ref(column)} in (select t.id from ${sql.table(table)} t where t.tenant_id = ${tenantId} and t.is_deleted = 0 and ',' || t.ancestors || ',' like ${`%,${nodeId},%`}))`;
}

export const whereOf = (conditions: RawBuilder<unknown>[]) => sql.join(conditions, sql` and `);

/** part ÷ whole × 100 at two places; 0.00 when the whole is zero. */
export const percent = (part: Decimal, whole: Decimal) => (whole.isZero() ? '0.00' : fixed(part.div(whole).times(100), 2));

/** whole ÷ count at the given places; 0 when there is nothing to divide by. */
export const ratio = (whole: Decimal, count: Decimal | number, places: number) => {
  const by = new Dec(count);
  return by.isZero() ? fixed(0, places) : fixed(whole.div(by), places);
};

/** A sort key: a row field (camelCase), ascending (1) or descending (-1). */
export interface SortKey {
  field: string;
  dir: 1 | -1;
}

/**
 * What settles rows equal on every key: a field compared as text, ascending (absent as ''); a key,
 * compared as the sort keys are; or a comparison of its own.
 */
export type TieBreak = string | SortKey | ((a: Row, b: Row) => number);

const numeric = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v));
const collator = new Intl.Collator();

/** A field value made comparable once per row (not once per comparison): a decimal, text, or absent. */
type SortValue = Decimal | string | null;
const sortValue = (v: unknown): SortValue => (v === null || v === undefined ? null : v instanceof Dec ? v : numeric(v) ? new Dec(String(v)) : String(v));

/** Two values in ascending order: absent first, decimals exactly, else as text. */
function compareSortValues(x: SortValue, y: SortValue): number {
  if (x === y) return 0;
  if (x === null) return -1;
  if (y === null) return 1;
  if (typeof x !== 'string' && typeof y !== 'string') return x.comparedTo(y);
  return collator.compare(String(x), String(y));
}

/** The name a client sent for a field (as it wrote it, snake_case or camelCase). */
const fieldName = (ctx: Ctx, field: string) =>
  [ctx.query.ascs, ctx.query.descs].flatMap((raw) => String(raw ?? '').split(',').map((s) => s.trim())).find((part) => part && toField(part) === field) ?? toColumn(field);

/** The ascs/descs keys of the request (camelCase fields), in order. */
export function requestedKeys(ctx: Ctx): SortKey[] {
  const keys: SortKey[] = [];
  for (const [name, dir] of [['ascs', 1], ['descs', -1]] as const) {
    const raw = ctx.query[name];
    if (!raw) continue;
    for (const part of String(raw).split(',').map((s) => s.trim()).filter(Boolean)) keys.push({ field: toField(part), dir });
  }
  return keys;
}

/**
 * Sorts rows by ascs/descs over their own fields (camelCase or snake_case; an unknown one is a bad
 * request), else by `fallback` (one key or several); rows equal on every key by `tie`. Each row's
 * keys are read once, so thousands of groups sort in a few milliseconds.
 */
export function sortRows(ctx: Ctx, rows: Row[], fallback: SortKey | SortKey[], tie: TieBreak): void {
  const keys = requestedKeys(ctx);
  for (const { field } of keys) if (rows.length && !(field in rows[0])) throw badRequest(`排序字段 ${fieldName(ctx, field)} 不存在`);
  if (!keys.length) keys.push(...(Array.isArray(fallback) ? fallback : [fallback]));
  const tieKey = typeof tie === 'object' ? tie : undefined;
  const all = tieKey ? [...keys, tieKey] : keys;
  const decorated = rows.map((row) => ({ row, values: all.map((k) => sortValue(row[k.field])) }));
  const last =
    typeof tie === 'function'
      ? (a: Row, b: Row) => tie(a, b)
      : typeof tie === 'string'
        ? (a: Row, b: Row) => collator.compare(String(a[tie] ?? ''), String(b[tie] ?? ''))
        : undefined;
  decorated.sort((a, b) => {
    for (let i = 0; i < all.length; i++) {
      const c = compareSortValues(a.values[i], b.values[i]);
      if (c) return c * all[i].dir;
    }
    return last ? last(a.row, b.row) : 0;
  });
  decorated.forEach((d, i) => (rows[i] = d.row));
}

/**
 * Sorts and pages rows whose display fields (names, codes) `fill` adds: when the order needs none
 * of them, only the page's rows are filled, so a report of 5,000 groups looks up 20 names.
 */
export async function sortedPage(ctx: Ctx, rows: Row[], fallback: SortKey | SortKey[], tie: TieBreak, fill: (rows: Row[]) => Promise<void>, extra: Row = {}): Promise<Row> {
  const needsFill = rows.length > 0 && (requestedKeys(ctx).some((k) => !(k.field in rows[0])) || (typeof tie === 'string' && !(tie in rows[0])) || typeof tie === 'function');
  if (needsFill) await fill(rows);
  sortRows(ctx, rows, fallback, tie);
  const page = pageOf(ctx, rows, extra);
  if (!needsFill) await fill(page.records as Row[]);
  return page;
}

/** The BladeX page shape around one page of records out of `total`. */
export function pageShape(ctx: Ctx, records: Row[], total: number, extra: Row = {}): Row {
  const { current, size } = parsePaging(ctx.query);
  return { records, total, size, current, pages: Math.ceil(total / size), orders: [], ...extra };
}

/** One page of rows already in order, in the BladeX page shape, with extra keys (summary, period). */
export function pageOf(ctx: Ctx, rows: Row[], extra: Row = {}): Row {
  const { current, size } = parsePaging(ctx.query);
  return { records: rows.slice((current - 1) * size, current * size), total: rows.length, size, current, pages: Math.ceil(rows.length / size), orders: [], ...extra };
}

/**
 * One page of a view's own rows matching `conditions` (the tenant is added here), newest first by
 * `order`, as the generic lists answer them: display names filled, figures at the tenant's places.
 */
export async function viewPage(ctx: Ctx, services: Services, model: Model, tenantId: string, conditions: RawBuilder<unknown>[], order: string): Promise<Row> {
  const { current, size } = parsePaging(ctx.query);
  const where = whereOf([sql`tenant_id = ${tenantId}`, sql`is_deleted = 0`, ...conditions]);
  const db = services.store.db;
  const counted = await sql<{ n: unknown }>`select count(*) as n from ${sql.table(model.table)} where ${where}`.execute(db);
  const total = countOf(counted.rows[0]?.n);
  const found = await sql<Record<string, unknown>>`select * from ${sql.table(model.table)} where ${where} order by ${sql.raw(order)} limit ${size} offset ${(current - 1) * size}`.execute(db);
  const rows = found.rows.map((r) => rowFromDb(model, r, services.store.dialect) as Row);
  await fillLookups(services, model, tenantId, rows);
  formatFigures(model, rows, await tenantPlaces(services, tenantId));
  return { records: rows, total, size, current, pages: Math.ceil(total / size), orders: [] };
}
