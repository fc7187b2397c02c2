/**
 * 库存分析 (blade-report/inventoryanalysis): per goods its stock now (erp_stock_balance), what sales
 * took out over the last 30 and 90 days and at what cost (erp_stock_ledger), turnover days and how
 * long it has not left the warehouse; and the stock value per goods category. Summed in SQL, exact on
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
import { addDays } from './period.ts';
import { decimalReader, percent, sortRows } from './report-rows.ts';

/** Bill types whose stock rows are sales: 零售单, 销售出库单, 销售退货单, 销售换货单, 零售退货单. */
const SALES_TYPES = ['0801', '0803', '0804', '0805', '0807'];
/** The window turnover is measured over, and the idle days from which stock counts as slow-moving (积压). */
export const TURNOVER_DAYS = 90;
export const SLOW_DAYS = 90;

interface GoodsFigures {
  commInfoId: string;
  qty: Decimal;
  value: Decimal;
  outQty30: Decimal;
  outQty90: Decimal;
  outCost90: Decimal;
  lastOutDate: string | null;
  lastInDate: string | null;
}

/** The last tie-break of goods rows: by goods code, else id, as text. */
const byGoodsCode = (a: Row, b: Row) => String(a.commInfoCode ?? a.commInfoId).localeCompare(String(b.commInfoCode ?? b.commInfoId));

const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);

export function registerInventoryAnalysisHandlers(services: Services) {
  const { store } = services;
  const dec = decimalReader(services);
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

  /** Per goods in the call's scope (depotId, classifyId with its sub-categories, commInfoId): stock, sales out, last movements. */
  async function figures(ctx: Ctx): Promise<GoodsFigures[]> {
    const t = mustCaller(ctx).tenantId;
    const depotId = valueParam(ctx, 'depotId', 'depotId_equal');
    const classifyId = valueParam(ctx, 'classifyId', 'classifyId_equal');
    const commInfoId = valueParam(ctx, 'commInfoId', 'commInfoId_equal');
    const scope = (alias: string): RawBuilder<unknown> => {
      const parts: RawBuilder<unknown>[] = [sql`${sql.ref(`${alias}.tenant_id`)} = ${t}`, sql`${sql.ref(`${alias}.is_deleted`)} = 0`];
      if (depotId) parts.push(sql`${sql.ref(`${alias}.depot_id`)} = ${depotId}`);
      if (commInfoId) parts.push(sql`${sql.ref(`${alias}.comm_info_id`)} = ${commInfoId}`);
      return sql.join(parts, sql` and `);
    };
    const classes = classifyId ? await categoryAndBelow(t, classifyId) : undefined;
    const goodsFilter = classes ? sql` and g.classify_id in (${sql.join(classes)})` : sql``;
    const balance = services.internal.stockBalance.table;
    const ledger = services.internal.stockLedger.table;
    const today = formatDate();
    const d30 = addDays(today, -29);
    const d90 = addDays(today, 1 - TURNOVER_DAYS);
    const stock = await sql<Record<string, unknown>>`select b.comm_info_id, sum(b.qty) as qty, sum(b.value) as value
      from ${sql.table(balance)} b join erp_comm_info g on g.tenant_id = b.tenant_id and g.id = b.comm_info_id
      where ${scope('b')} and b.seq > 0${goodsFilter} group by b.comm_info_id`.execute(store.db);
    // Sales rows of bills not flushed (a flushed sale and its mirror both drop out); returns are positive rows.
    const sales = await sql<Record<string, unknown>>`select l.comm_info_id,
        sum(case when l.post_date >= ${d30} then l.qty else 0 end) as q30,
        sum(l.qty) as q90, sum(l.value) as v90
      from ${sql.table(ledger)} l where ${scope('l')} and l.post_date >= ${d90} and l.bill_type in (${sql.join(SALES_TYPES)})
        and not exists (select 1 from ${sql.table(ledger)} r where r.tenant_id = l.tenant_id and r.bill_id = l.bill_id and r.entry in ('reverse', 'revin'))
      group by l.comm_info_id`.execute(store.db);
    // Last movements as 库存查询 reads them: the last posted outbound row, else the last inbound one.
    const moves = await sql<Record<string, unknown>>`select l.comm_info_id,
        max(case when l.qty < 0 and l.entry = 'post' then l.post_date end) as last_out,
        max(case when l.qty > 0 and l.entry in ('post', 'postin') then l.post_date end) as last_in
      from ${sql.table(ledger)} l where ${scope('l')} group by l.comm_info_id`.execute(store.db);
    const salesBy = new Map(sales.rows.map((r) => [String(r.comm_info_id), r]));
    const movesBy = new Map(moves.rows.map((r) => [String(r.comm_info_id), r]));
    return stock.rows.map((r) => {
      const id = String(r.comm_info_id);
      const s = salesBy.get(id);
      const m = movesBy.get(id);
      return {
        commInfoId: id,
        qty: dec(r.qty),
        value: dec(r.value),
        outQty30: dec(s?.q30).neg(),
        outQty90: dec(s?.q90).neg(),
        outCost90: dec(s?.v90).neg(),
        lastOutDate: text(m?.last_out),
        lastInDate: text(m?.last_in),
      };
    });
  }

  /** value × window ÷ cost of the window's sales: the days the stock lasts at that pace; none without sales. */
  const turnover = (value: Decimal, cost: Decimal) => (cost.gt(0) ? fixed(value.times(TURNOVER_DAYS).div(cost), 1) : null);

  function present(f: GoodsFigures, places: Places): Row {
    const today = formatDate();
    const since = f.lastOutDate ?? f.lastInDate;
    const idleDays = since ? dayNumber(today) - dayNumber(since) : null;
    const slow = f.qty.gt(0) && idleDays !== null && idleDays >= SLOW_DAYS;
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
    const shown = list.map((f) => [f, present(f, places)] as const);
    const slow = shown.filter(([, r]) => r.isSlow === 2).map(([f]) => f);
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

  /** The goods rows of a call, with names from the goods, filtered by isSlow and sorted (ascs/descs; default value desc). */
  async function goodsRows(ctx: Ctx, model: Model): Promise<{ rows: Row[]; kept: GoodsFigures[]; places: Places }> {
    const caller = mustCaller(ctx);
    const places = await tenantPlaces(services, caller.tenantId);
    const slowOnly = valueParam(ctx, 'isSlow', 'isSlow_equal');
    if (slowOnly !== undefined && slowOnly !== '1' && slowOnly !== '2') throw badRequest('积压只能是 1（否）或 2（是）');
    const all = await figures(ctx);
    const ids = all.map((f) => f.commInfoId);
    const goods = new Map((ids.length ? await store.find(services.m('goods'), caller.tenantId, { where: { id: ids } }) : []).map((g) => [String(g.id), g]));
    const pairs = all
      .map((f) => {
        const g = goods.get(f.commInfoId);
        return [f, { ...present(f, places), unitId: g?.unitId ?? null, classifyId: g?.classifyId ?? null } as Row] as const;
      })
      .filter(([, r]) => slowOnly === undefined || String(r.isSlow) === slowOnly);
    const rows = pairs.map(([, r]) => r);
    await fillLookups(services, model, caller.tenantId, rows);
    sortRows(ctx, rows, { field: 'value', dir: -1 }, byGoodsCode);
    return { rows, kept: pairs.map(([f]) => f), places };
  }

  services.register('inventoryAnalysis.list', async (ctx, model) => {
    const { rows, kept, places } = await goodsRows(ctx, model);
    const { current, size } = parsePaging(ctx.query);
    return {
      records: rows.slice((current - 1) * size, current * size),
      total: rows.length,
      size,
      current,
      pages: Math.ceil(rows.length / size),
      summary: totals(kept, places),
    };
  });

  services.register('inventoryAnalysis.sumtotal', async (ctx, model) => {
    const { kept, places } = await goodsRows(ctx, model);
    return totals(kept, places);
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
