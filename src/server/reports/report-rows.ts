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
import { toField } from '../../shared/resource.ts';
import { valueParam } from '../system/params.ts';
import { addDays, dayParam, periodOf, type Period } from './period.ts';

const SCALE = new Dec(10).pow(STORAGE_SCALE);

/** Reads a summed decimal column as an exact Decimal (unscaling SQLite's integers). */
export function decimalReader(services: Services): (v: unknown) => Decimal {
  const scaled = services.store.dialect === 'sqlite';
  return (v) => {
    const d = new Dec(v === null || v === undefined || v === '' ? '0' : String(v));
    return scaled ? d.div(SCALE) : d;
  };
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

/** Two field values in ascending order: absent first, decimals exactly, else as text. */
function compareValues(x: unknown, y: unknown): number {
  if (x === y) return 0;
  if (x === null || x === undefined) return -1;
  if (y === null || y === undefined) return 1;
  if (numeric(x) && numeric(y)) return new Dec(String(x)).comparedTo(String(y));
  return String(x).localeCompare(String(y));
}

/**
 * Sorts rows by ascs/descs over their own fields (camelCase or snake_case; an unknown one is a bad
 * request), else by `fallback` (one key or several); rows equal on every key by `tie`.
 */
export function sortRows(ctx: Ctx, rows: Row[], fallback: SortKey | SortKey[], tie: TieBreak): void {
  const keys: SortKey[] = [];
  for (const [name, dir] of [['ascs', 1], ['descs', -1]] as const) {
    const raw = ctx.query[name];
    if (!raw) continue;
    for (const part of String(raw).split(',').map((s) => s.trim()).filter(Boolean)) {
      const field = toField(part);
      if (rows.length && !(field in rows[0])) throw badRequest(`排序字段 ${part} 不存在`);
      keys.push({ field, dir });
    }
  }
  if (!keys.length) keys.push(...(Array.isArray(fallback) ? fallback : [fallback]));
  const last =
    typeof tie === 'function'
      ? tie
      : typeof tie === 'string'
        ? (a: Row, b: Row) => String(a[tie] ?? '').localeCompare(String(b[tie] ?? ''))
        : (a: Row, b: Row) => compareValues(a[tie.field], b[tie.field]) * tie.dir;
  rows.sort((a, b) => {
    for (const { field, dir } of keys) {
      const c = compareValues(a[field], b[field]);
      if (c) return c * dir;
    }
    return last(a, b);
  });
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
