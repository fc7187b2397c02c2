/**
 * 库存分析 (blade-report/inventoryanalysis): per goods its stock now (erp_stock_balance), what sales
 * took out over the last 30 and 90 days and at what cost (the stock ledger, read from its materialized
 * copy erp_ledger_stock: whole months from its monthly rollups, the days around them and the last
 * movements from its rows — schemas/analysis/ledger-stock.json), turnover days and how long it has
 * not left the warehouse; and the stock value per goods category. Summed in SQL, exact on
 * both databases (SQLite keeps decimals as integers scaled by 10^6). Meanings: the schema
 * schemas/analysis/inventory-analysis.json.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Services } from '../services.ts';
import type { Model } from '../engine/model.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller, type Ctx } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { fillLookups } from '../engine/lookups.ts';
import { parsePaging } from '../engine/query.ts';
import { tenantPlaces } from '../engine/document/context.ts';
import { Dec, fixed, type Decimal, type Places } from '../../shared/money/index.ts';
import { formatDate } from '../../shared/dates.ts';
import { valueParam } from '../system/params.ts';
import { readRollup, type KeyFilter } from '../engine/materialized.ts';
import { addDays } from './period.ts';
import { STORAGE_SCALE } from '../engine/model.ts';
import { percent, sortRows, textOf } from './report-rows.ts';
import { toField } from '../../shared/resource.ts';

/** The window turnover is measured over, and the idle days from which stock counts as slow-moving (积压). */
export const TURNOVER_DAYS = 90;
export const SLOW_DAYS = 90;
/** The materialized copy of the stock ledger with its monthly sales rollups (schemas/analysis/ledger-stock.json). */
const LEDGER = 'erp_ledger_stock';

interface GoodsFigures {
  commInfoId: string;
  qty: Decimal;
  value: Decimal;
  outQty30: Decimal;
  outQty90: Decimal;
  outCost90: Decimal;
  /** moved out (a posted outbound row) since the slow-moving window began */
  movedOut: boolean;
  /** the last movements' dates, once read (dated) */
  lastOutDate: string | null;
  lastInDate: string | null;
  dated: boolean;
  /** the goods' unit, category and code (none for a deleted goods, as the goods lookups give) */
  unitId: string | null;
  classifyId: string | null;
  code: string | null;
}

const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);

export function registerInventoryAnalysisHandlers(services: Services) {
  const { store } = services;
  // Decimals as SQL sums them (SQLite: integers scaled by 10^6), read with their exponent rather than divided: 5,000 goods × 6 figures.
  const scaled = store.dialect === 'sqlite';
  const ZERO = new Dec(0);
  const dec = (v: unknown, negate = false) => {
    if (v === null || v === undefined || v === '') return ZERO;
    const text = String(v);
    const signed = !negate ? text : text.startsWith('-') ? text.slice(1) : `-${text}`;
    return new Dec(scaled ? `${signed}e-${STORAGE_SCALE}` : signed);
  };
  const text = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v).slice(0, 10));

  /** The category and every category under it. */
  async function categoryAndBelow(tenantId: string, id: string): Promise<string[]> {
    const all = await store.find(services.m('goods-category'), tenantId, {});
    const children = new Map<string, string[]>();
    for (const c of all) {
      const parent = String(c.parentCommClassifyId ?? '');
      children.set(parent, [...(children.get(parent) ?? []), String(c.id)]);
    }
    const out = new Set([id]);
    const queue = [id];
    while (queue.length) for (const child of children.get(queue.shift()!) ?? []) if (!out.has(child)) (out.add(child), queue.push(child));
    return [...out];
  }

  /** The call's scope: tenant, warehouse, goods, and the goods category with its sub-categories. */
  async function scopeOf(ctx: Ctx) {
    const tenantId = mustCaller(ctx).tenantId;
    const depotId = valueParam(ctx, 'depotId', 'depotId_equal');
    const classifyId = valueParam(ctx, 'classifyId', 'classifyId_equal');
    const commInfoId = valueParam(ctx, 'commInfoId', 'commInfoId_equal');
    return { tenantId, depotId, commInfoId, classes: classifyId ? await categoryAndBelow(tenantId, classifyId) : undefined };
  }
  type Scope = Awaited<ReturnType<typeof scopeOf>>;

  /**
   * Per goods in the call's scope (depotId, classifyId with its sub-categories, commInfoId): stock,
   * sales out, and whether it moved out since the slow-moving window began; the dates of the last
   * movements of the goods in stock that did not (they may be slow-moving), the others' by `withDates`.
   */
  async function figures(ctx: Ctx): Promise<{ list: GoodsFigures[]; scope: Scope }> {
    const scope = await scopeOf(ctx);
    const { tenantId: t, depotId, commInfoId, classes } = scope;
    const where = (alias: string): RawBuilder<unknown> => {
      const parts: RawBuilder<unknown>[] = [sql`${sql.ref(`${alias}.tenant_id`)} = ${t}`, sql`${sql.ref(`${alias}.is_deleted`)} = 0`];
      if (depotId) parts.push(sql`${sql.ref(`${alias}.depot_id`)} = ${depotId}`);
      if (commInfoId) parts.push(sql`${sql.ref(`${alias}.comm_info_id`)} = ${commInfoId}`);
      return sql.join(parts, sql` and `);
    };
    const goodsFilter = classes ? sql` and g.classify_id in (${sql.join(classes)})` : sql``;
    const balance = services.internal.stockBalance.table;
    const today = formatDate();
    const d30 = addDays(today, -29);
    const d90 = addDays(today, 1 - TURNOVER_DAYS);
    const dSlow = addDays(today, 1 - SLOW_DAYS);
    // The goods' unit, category and code as the goods list shows them (a deleted goods has none).
    const live = (column: string) => sql`max(case when g.is_deleted = 0 then ${sql.ref(`g.${column}`)} end)`;
    const stockQuery = sql<Record<string, unknown>>`select b.comm_info_id, sum(b.qty) as qty, sum(b.value) as value,
        ${live('unit_id')} as unit_id, ${live('classify_id')} as classify_id, ${live('comm_info_code')} as comm_info_code
      from ${sql.table(balance)} b join erp_comm_info g on g.tenant_id = b.tenant_id and g.id = b.comm_info_id
      where ${where('b')} and b.seq > 0${goodsFilter} group by b.comm_info_id`;
    // Sales rows of bills not flushed (a flushed sale and its mirror both drop out; returns are positive
    // rows) and the count of posted outbound rows: whole months from the ledger copy's rollup, the
    // days around them from its rows.
    const rollup = depotId ? 'goods_depot' : 'goods';
    const filter: KeyFilter = { ...(depotId ? { depot_id: depotId } : {}), ...(commInfoId ? { comm_info_id: commInfoId } : {}) };
    const since = async (from?: string) =>
      new Map((await readRollup(services.registry, LEDGER, rollup, { tenantId: t, from, filter, group: 'comm_info_id' }).execute(store.db)).rows.map((r) => [String(r.k), r]));
    // One after the other on SQLite, side by side on PostgreSQL's pool.
    const [stock, s30, s90] = await Promise.all([stockQuery.execute(store.db), since(d30), since(d90)]);
    const recent = dSlow === d90 ? s90 : await since(dSlow);
    const list: GoodsFigures[] = stock.rows.map((r) => {
      const id = String(r.comm_info_id);
      const s = s90.get(id);
      return {
        commInfoId: id,
        qty: dec(r.qty),
        value: dec(r.value),
        outQty30: dec(s30.get(id)?.sale_qty, true),
        outQty90: dec(s?.sale_qty, true),
        outCost90: dec(s?.sale_value, true),
        movedOut: Number(recent.get(id)?.out_count ?? 0) > 0,
        lastOutDate: null,
        lastInDate: null,
        dated: false,
        unitId: textOf(r.unit_id),
        classifyId: textOf(r.classify_id),
        code: textOf(r.comm_info_code),
      };
    });
    // Goods in stock that did not move out since the slow-moving window began may be slow-moving:
    // their last movements decide it (the others moved out lately, so are not).
    await withDates(scope, list.filter((f) => f.qty.gt(0) && !f.movedOut));
    return { scope, list };
  }

  /**
   * The last movements of these goods as 库存查询 reads them: the last posted outbound row, else the
   * last inbound one; each a seek on the ledger copy's index (tenant, goods, move, date).
   */
  async function withDates(scope: Scope, list: GoodsFigures[]): Promise<void> {
    const undated = list.filter((f) => !f.dated);
    if (!undated.length) return;
    const { tenantId: t, depotId } = scope;
    const last = (move: 'out' | 'in') =>
      sql`(select max(l.post_date) from ${sql.table(LEDGER)} l where l.tenant_id = ${t} and l.comm_info_id = g.id and l.move = ${move}${depotId ? sql` and l.depot_id = ${depotId}` : sql``})`;
    const found = new Map<string, Record<string, unknown>>();
    for (let i = 0; i < undated.length; i += 5000) {
      const ids = undated.slice(i, i + 5000).map((f) => f.commInfoId);
      const rows = await sql<Record<string, unknown>>`select g.id, ${last('out')} as last_out, ${last('in')} as last_in
        from erp_comm_info g where g.tenant_id = ${t} and g.id in (${sql.join(ids)})`.execute(store.db);
      for (const r of rows.rows) found.set(String(r.id), r);
    }
    for (const f of undated) {
      const m = found.get(f.commInfoId);
      f.lastOutDate = text(m?.last_out);
      f.lastInDate = text(m?.last_in);
      f.dated = true;
    }
  }

  /** value × window ÷ cost of the window's sales: the days the stock lasts at that pace; none without sales. */
  const turnover = (value: Decimal, cost: Decimal) => (cost.gt(0) ? fixed(value.times(TURNOVER_DAYS).div(cost), 1) : null);

  /** Days since the last outbound movement (else the last inbound one); none without either. */
  const idleOf = (f: GoodsFigures, today: string) => {
    const since = f.lastOutDate ?? f.lastInDate;
    return since ? dayNumber(today) - dayNumber(since) : null;
  };
  /**
   * In stock and idle SLOW_DAYS or more: slow-moving (积压). Goods not dated yet moved out since the
   * window began (figures dates every other goods in stock), so their last movement is recent.
   */
  const slowOf = (f: GoodsFigures, today: string) => {
    if (!f.qty.gt(0)) return false;
    if (f.dated) {
      const idleDays = idleOf(f, today);
      return idleDays !== null && idleDays >= SLOW_DAYS;
    }
    return !f.movedOut;
  };

  function present(f: GoodsFigures, places: Places): Row {
    const today = formatDate();
    const idleDays = idleOf(f, today);
    const slow = slowOf(f, today);
    return {
      id: f.commInfoId,
      commInfoId: f.commInfoId,
      qty: fixed(f.qty, places.quantity),
      unitCost: f.qty.gt(0) ? fixed(f.value.div(f.qty), places.price) : fixed(0, places.price),
      value: fixed(f.value, places.amount),
      outQty30: fixed(f.outQty30, places.quantity),
      outQty90: fixed(f.outQty90, places.quantity),
      outCost90: fixed(f.outCost90, places.amount),
      dailyCost: fixed(f.outCost90.div(TURNOVER_DAYS), places.amount),
      turnoverDays: turnover(f.value, f.outCost90),
      lastOutDate: f.lastOutDate,
      lastInDate: f.lastInDate,
      idleDays,
      isSlow: slow ? 2 : 1,
    };
  }

  function totals(list: GoodsFigures[], places: Places): Row {
    const sum = (k: 'qty' | 'value' | 'outQty30' | 'outQty90' | 'outCost90', of = list) => of.reduce<Decimal>((s, f) => s.plus(f[k]), new Dec(0));
    const today = formatDate();
    const slow = list.filter((f) => slowOf(f, today));
    const value = sum('value');
    const cost = sum('outCost90');
    return {
      goodsCount: list.length,
      qty: fixed(sum('qty'), places.quantity),
      value: fixed(value, places.amount),
      outQty30: fixed(sum('outQty30'), places.quantity),
      outQty90: fixed(sum('outQty90'), places.quantity),
      outCost90: fixed(cost, places.amount),
      dailyCost: fixed(cost.div(TURNOVER_DAYS), places.amount),
      turnoverDays: turnover(value, cost),
      slowCount: slow.length,
      slowValue: fixed(sum('value', slow), places.amount),
    };
  }

  /** The goods figures of a call, filtered by isSlow (1 no, 2 yes). */
  async function kept(ctx: Ctx): Promise<{ list: GoodsFigures[]; scope: Scope }> {
    const slowOnly = valueParam(ctx, 'isSlow', 'isSlow_equal');
    if (slowOnly !== undefined && slowOnly !== '1' && slowOnly !== '2') throw badRequest('积压只能是 1（否）或 2（是）');
    const { list, scope } = await figures(ctx);
    const today = formatDate();
    return { scope, list: slowOnly === undefined ? list : list.filter((f) => (slowOf(f, today) ? '2' : '1') === slowOnly) };
  }

  /** A goods row as answered (before names): the figures, the goods' unit and category. */
  const rowOf = (f: GoodsFigures, places: Places): Row => ({ ...present(f, places), unitId: f.unitId, classifyId: f.classifyId });
  /** The last tie-break of goods rows: the goods code as the lookup gives it, else the id, as text. */
  const byCode = (a: GoodsFigures, b: GoodsFigures) => (a.code ?? a.commInfoId).localeCompare(b.code ?? b.commInfoId);

  /**
   * The goods rows of a call, sorted (ascs/descs; default value desc, then goods code), with their
   * names. `page`: only the rows of the page the caller takes are made and named when the order
   * needs neither (the default order sorts the figures by the value as answered).
   */
  async function goodsRows(ctx: Ctx, model: Model, page?: { current: number; size: number }): Promise<{ rows: Row[]; total: number; kept: GoodsFigures[]; places: Places }> {
    const caller = mustCaller(ctx);
    const places = await tenantPlaces(services, caller.tenantId);
    const { list, scope } = await kept(ctx);
    const requested = ['ascs', 'descs'].some((k) => String(ctx.query[k] ?? '').trim() !== '');
    if (page && !requested) {
      // The value as answered (at the tenant's places) as an integer of its last place: exact and quick to compare.
      const shown = list.map((f) => ({ f, value: BigInt(fixed(f.value, places.amount).replace('.', '')) }));
      shown.sort((a, b) => (a.value === b.value ? byCode(a.f, b.f) : a.value < b.value ? 1 : -1));
      const taken = shown.slice((page.current - 1) * page.size, page.current * page.size).map(({ f }) => f);
      await withDates(scope, taken);
      const rows = taken.map((f) => rowOf(f, places));
      await fillLookups(services, model, caller.tenantId, rows);
      return { rows, total: list.length, kept: list, places };
    }
    await withDates(scope, list);
    const pairs = list.map((f) => [f, rowOf(f, places)] as const);
    const rows = pairs.map(([, r]) => r);
    await fillLookups(services, model, caller.tenantId, rows);
    const figuresOf = new Map(pairs.map(([f, r]) => [r, f]));
    sortRows(ctx, rows, { field: 'value', dir: -1 }, (a, b) => byCode(figuresOf.get(a)!, figuresOf.get(b)!));
    return { rows: page ? rows.slice((page.current - 1) * page.size, page.current * page.size) : rows, total: rows.length, kept: list, places };
  }

  services.register('inventoryAnalysis.list', async (ctx, model) => {
    const { current, size } = parsePaging(ctx.query);
    const { rows, total, kept, places } = await goodsRows(ctx, model, { current, size });
    return {
      records: rows,
      total,
      size,
      current,
      pages: Math.ceil(total / size),
      summary: totals(kept, places),
    };
  });

  services.register('inventoryAnalysis.sumtotal', async (ctx) => {
    const places = await tenantPlaces(services, mustCaller(ctx).tenantId);
    return totals((await kept(ctx)).list, places);
  });

  services.register('inventoryAnalysis.classify', async (ctx, model) => {
    const { rows, kept, places } = await goodsRows(ctx, model);
    const byClass = new Map<string, { classifyName: string; goodsCount: number; qty: Decimal; value: Decimal }>();
    const byGoods = new Map(kept.map((f) => [f.commInfoId, f]));
    rows.forEach((r) => {
      const key = String(r.classifyId ?? '');
      const f = byGoods.get(String(r.commInfoId))!;
      const known = byClass.get(key) ?? { classifyName: String(r.classifyName ?? '') || '未分类', goodsCount: 0, qty: new Dec(0), value: new Dec(0) };
      byClass.set(key, { ...known, goodsCount: known.goodsCount + 1, qty: known.qty.plus(f.qty), value: known.value.plus(f.value) });
    });
    const whole = kept.reduce<Decimal>((s, f) => s.plus(f.value), new Dec(0));
    return [...byClass.entries()]
      .sort(([ka, a], [kb, b]) => b.value.comparedTo(a.value) || ka.localeCompare(kb))
      .map(([classifyId, c]) => ({
        classifyId: classifyId || null,
        classifyName: c.classifyName,
        goodsCount: c.goodsCount,
        qty: fixed(c.qty, places.quantity),
        value: fixed(c.value, places.amount),
        valueShare: percent(c.value, whole),
      }));
  });
}
