/**
 * Purchase analysis (采购分析): posted purchase inbound and return lines (view
 * erp_purchase_analysis; returns are negative on the bills themselves) summed in SQL per goods,
 * category, supplier, warehouse or month, exact on both databases. Meanings of every figure are
 * in schemas/analysis/purchase-analysis.json.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Services } from '../services.ts';
import { mustCaller, type Ctx } from '../http/context.ts';
import type { Row } from '../engine/store.ts';
import type { Model } from '../engine/model.ts';
import { badRequest } from '../errors.ts';
import { fillLookups } from '../engine/lookups.ts';
import { tenantPlaces } from '../engine/document/context.ts';
import { Dec, fixed, type Decimal, type Places } from '../../shared/money/index.ts';
import { valueParam } from '../system/params.ts';
import { addDays, lastDayOf, periodOf, validDay, type Period } from './period.ts';
import { readRollup } from '../engine/materialized.ts';
import { parsePaging } from '../engine/query.ts';
import { countOf, decimalReader, idParam, inTree, pageOf, percent, periodConditions, ratio, sortRows, textOf, viewPage, whereOf } from './report-rows.ts';

/**
 * The posted purchase lines, materialized (schemas/analysis/partner-purchase-line.json): the rows of
 * the view erp_purchase_analysis without the categories, kept in a table with indexes.
 */
const LINES = 'erp_partner_purchase_line';

type GroupBy = 'goods' | 'classify' | 'supplier' | 'depot' | 'month';
const GROUP_SQL: Record<GroupBy, string> = {
  goods: 'comm_info_id',
  classify: 'classify_id',
  supplier: 'supplier_id',
  depot: 'depot_id',
  month: 'substr(bill_date, 1, 7)',
};
/** The search form sends the Chinese names (its select shows the enum as it is). */
const GROUP_NAMES: Record<string, GroupBy> = { 商品: 'goods', 商品分类: 'classify', 分类: 'classify', 供应商: 'supplier', 仓库: 'depot', 月份: 'month' };

interface Figures {
  key: string;
  billCount: number;
  returnBillCount: number;
  goodsCount: number;
  supplierCount: number;
  inQty: Decimal;
  returnQty: Decimal;
  inAmt: Decimal;
  returnAmt: Decimal;
  totalAmt: Decimal;
  purchaseAmt: Decimal;
  taxAmt: Decimal;
  lastPurchaseDate: string | null;
}

function groupByOf(ctx: Ctx): GroupBy {
  const raw = (valueParam(ctx, 'groupBy') ?? 'goods').trim();
  const by = (raw in GROUP_SQL ? raw : GROUP_NAMES[raw]) as GroupBy | undefined;
  if (!by) throw badRequest('groupBy 只能是 goods（商品）、classify（商品分类）、supplier（供应商）、depot（仓库）或 month（月份）', { fieldErrors: { groupBy: '汇总维度不正确' } });
  return by;
}

/** The filters every purchase-analysis call takes, as SQL over the view (the tenant is added by the caller). */
function filtersOf(ctx: Ctx, tenantId: string, period: Period): RawBuilder<unknown>[] {
  const out = periodConditions('bill_date', period);
  for (const [name, column] of [['supplierId', 'supplier_id'], ['depotId', 'depot_id'], ['commInfoId', 'comm_info_id'], ['staffId', 'staff_id']] as const) {
    const id = idParam(ctx, name);
    if (id) out.push(sql`${sql.ref(column)} = ${id}`);
  }
  // Categories as the goods and suppliers have them now: through the goods and the supplier (the
  // lines of the materialized LINES keep neither category).
  const classifyId = idParam(ctx, 'classifyId');
  if (classifyId) out.push(sql`comm_info_id in (select g.id from erp_comm_info g where g.tenant_id = ${tenantId} and ${inTree('g.classify_id', 'erp_comm_classify', tenantId, classifyId)})`);
  const natureId = idParam(ctx, 'natureId');
  if (natureId && natureId !== '-1') out.push(sql`supplier_id in (select s.id from erp_supplier s where s.tenant_id = ${tenantId} and ${inTree('s.nature_id', 'erp_supplier_nature', tenantId, natureId)})`);
  const name = valueParam(ctx, 'bartererName')?.trim();
  if (name) out.push(sql`supplier_id in (select s.id from erp_supplier s where s.tenant_id = ${tenantId} and s.barterer_name like ${`%${name}%`})`);
  return out;
}

/** Σ over the posted lines (LINES) per group (or over everything when `by` is absent), in one statement. */
async function aggregate(services: Services, tenantId: string, conditions: RawBuilder<unknown>[], by?: GroupBy): Promise<Figures[]> {
  const key = by ? sql.raw(GROUP_SQL[by]) : sql`''`;
  const groupBy = by ? sql` group by ${sql.raw(GROUP_SQL[by])}` : sql``;
  // The goods' category as it is now (the lines keep none).
  const from = by === 'classify'
    ? sql`(select l.*, (select g.classify_id from erp_comm_info g where g.tenant_id = l.tenant_id and g.id = l.comm_info_id) as classify_id from ${sql.table(LINES)} l) v`
    : sql.table(LINES);
  const result = await sql<Record<string, unknown>>`select ${key} as k,
      count(distinct case when is_return = 1 then bill_id end) as bill_count,
      count(distinct case when is_return = 2 then bill_id end) as return_bill_count,
      count(distinct comm_info_id) as goods_count,
      count(distinct supplier_id) as supplier_count,
      sum(case when is_return = 1 then base_qty else 0 end) as in_qty,
      sum(case when is_return = 2 then 0 - base_qty else 0 end) as return_qty,
      sum(case when is_return = 1 then total_amt else 0 end) as in_amt,
      sum(case when is_return = 2 then 0 - total_amt else 0 end) as return_amt,
      sum(total_amt) as total_amt,
      sum(purchase_amt) as purchase_amt,
      sum(tax_amt) as tax_amt,
      max(case when is_return = 1 then bill_date end) as last_date,
      count(*) as line_count
    from ${from} where ${whereOf([sql`tenant_id = ${tenantId}`, sql`is_deleted = 0`, ...conditions])}${groupBy}`.execute(services.store.db);
  const dec = decimalReader(services);
  return result.rows
    .filter((r) => countOf(r.line_count) > 0)
    .map((r) => ({
      key: textOf(r.k) ?? '',
      billCount: countOf(r.bill_count),
      returnBillCount: countOf(r.return_bill_count),
      goodsCount: countOf(r.goods_count),
      supplierCount: countOf(r.supplier_count),
      ...measuresOf(r, dec),
      lastPurchaseDate: textOf(r.last_date)?.slice(0, 10) ?? null,
    }));
}

/**
 * The same figures per goods or per supplier (or over everything), for a period with no other
 * filter: the sums and bill counts from the monthly rollups of LINES (whole months; the days around
 * them from its rows — a bill has one supplier and lies in one month, so its count adds up across
 * months and suppliers). The distinct partners or goods of each group and its last purchase come
 * from the lines through the (goods, supplier, …, day) and (supplier, goods, …, day) indexes: for
 * every group, or (`countKeys`) only for the groups a page shows, which is what makes the default
 * order fast — counting the suppliers of all 5,000 goods is a distinct count over a year of lines.
 * Over everything, the distinct goods and suppliers are the goods and supplier rollups' groups.
 */
/** Per goods (or supplier): its distinct suppliers (or goods) and last purchase day in the period, for `keys` or all. */
async function groupCounts(services: Services, tenantId: string, period: Period, by: 'goods' | 'supplier', keys?: string[]): Promise<Map<string, { n: number; lastDate: string | null }>> {
  const key = by === 'goods' ? 'comm_info_id' : 'supplier_id';
  const other = by === 'goods' ? 'supplier_id' : 'comm_info_id';
  if (keys && !keys.length) return new Map();
  const only = keys ? [sql`${sql.ref(key)} in (${sql.join(keys)})`] : [];
  const rows = await sql<Record<string, unknown>>`select ${sql.ref(key)} as k, count(distinct ${sql.ref(other)}) as n, ${LAST_IN} as last_date
    from ${sql.table(LINES)} where ${whereOf([...linesInPeriod(tenantId, period), ...only])} group by ${sql.ref(key)}`.execute(services.store.db);
  return new Map(rows.rows.map((r) => [textOf(r.k) ?? '', { n: countOf(r.n), lastDate: textOf(r.last_date)?.slice(0, 10) ?? null }]));
}

/** The lines of a period, read through the indexes that hold the day (the day as an expression, not the day index). */
function linesInPeriod(tenantId: string, period: Period): RawBuilder<unknown>[] {
  const day = sql`(bill_date || '')`;
  return [sql`tenant_id = ${tenantId}`, ...(period.from ? [sql`${day} >= ${period.from}`] : []), ...(period.to ? [sql`${day} < ${addDays(period.to, 1)}`] : [])];
}

const LAST_IN = sql`max(case when is_return = 1 then bill_date end)`;

async function fromRollups(services: Services, tenantId: string, period: Period, by?: 'goods' | 'supplier', countKeys?: string[], known?: { goods?: number; suppliers?: number }): Promise<Figures[]> {
  const db = services.store.db;
  const key = by === 'goods' ? 'comm_info_id' : by === 'supplier' ? 'supplier_id' : undefined;
  const rollup = (name: 'goods' | 'supplier', group?: string) =>
    readRollup(services.registry, LINES, name, { tenantId, from: period.from, to: period.to, filter: {}, group }).execute(db);
  const groupsWithLines = async (name: 'goods' | 'supplier') =>
    (await rollup(name, name === 'goods' ? 'comm_info_id' : 'supplier_id')).rows.filter((r) => countOf(r.line_count) > 0).length;
  const countsOf = async (): Promise<Counts> => {
    if (by) return groupCounts(services, tenantId, period, by, countKeys);
    // The last inbound day through the day index, newest first.
    const lastDay = whereOf([sql`tenant_id = ${tenantId}`, sql`is_return = 1`, ...periodConditions('bill_date', period)]);
    const [goods, suppliers, last] = await Promise.all([
      known?.goods ?? groupsWithLines('goods'),
      known?.suppliers ?? groupsWithLines('supplier'),
      sql<Record<string, unknown>>`select bill_date as last_date from ${sql.table(LINES)} where ${lastDay} order by bill_date desc limit 1`.execute(db),
    ]);
    return new Map([['', { n: 0, goods, suppliers, lastDate: textOf(last.rows[0]?.last_date)?.slice(0, 10) ?? null }]]);
  };
  const [sums, counted] = await Promise.all([rollup(by ?? 'supplier', key), countsOf()]);
  return rolledFigures(services, sums.rows.filter((r) => countOf(r.line_count) > 0), by, counted);
}

/** A row's summed quantities and amounts (the same columns whether read from the lines or the rollups). */
function measuresOf(r: Record<string, unknown>, dec: ReturnType<typeof decimalReader>) {
  return {
    inQty: dec(r.in_qty),
    returnQty: dec(r.return_qty),
    inAmt: dec(r.in_amt),
    returnAmt: dec(r.return_amt),
    totalAmt: dec(r.total_amt),
    purchaseAmt: dec(r.purchase_amt),
    taxAmt: dec(r.tax_amt),
  };
}

type Counts = Map<string, { n: number; lastDate: string | null; goods?: number; suppliers?: number }>;

/** Rollup rows (k and the measures) as figures, with each group's counts where known. */
function rolledFigures(services: Services, rows: Record<string, unknown>[], by: 'goods' | 'supplier' | undefined, counted: Counts): Figures[] {
  const dec = decimalReader(services);
  return rows.map((r) => {
    const k = textOf(r.k) ?? '';
    const c = counted.get(k);
    const one = k ? 1 : 0;
    return {
      key: k,
      billCount: countOf(r.bill_count),
      returnBillCount: countOf(r.return_bill_count),
      goodsCount: by === 'goods' ? one : by === 'supplier' ? (c?.n ?? 0) : (c?.goods ?? 0),
      supplierCount: by === 'supplier' ? one : by === 'goods' ? (c?.n ?? 0) : (c?.suppliers ?? 0),
      ...measuresOf(r, dec),
      lastPurchaseDate: c?.lastDate ?? null,
    };
  });
}

/**
 * One page of goods (or suppliers) in the default order — net purchases, largest first, then the
 * key — ordered and cut in SQL over the rollup (the database orders 5,000 goods; only the page's 20
 * are decoded and counted), with the number of groups.
 */
async function rolledPage(services: Services, tenantId: string, period: Period, by: 'goods' | 'supplier', current: number, size: number): Promise<{ groups: Figures[]; total: number }> {
  const db = services.store.db;
  const grouped = readRollup(services.registry, LINES, by, { tenantId, from: period.from, to: period.to, filter: {}, group: by === 'goods' ? 'comm_info_id' : 'supplier_id' });
  const rows = (await sql<Record<string, unknown>>`select g.*, count(*) over () as group_total from (${grouped}) g where g.line_count > 0
    order by g.total_amt desc, g.k asc limit ${size} offset ${(current - 1) * size}`.execute(db)).rows;
  const total = rows.length ? countOf(rows[0].group_total) : countOf((await sql<{ n: unknown }>`select count(*) as n from (${grouped}) g where g.line_count > 0`.execute(db)).rows[0]?.n);
  const counted = await groupCounts(services, tenantId, period, by, rows.map((r) => textOf(r.k) ?? ''));
  return { groups: rolledFigures(services, rows, by, counted), total };
}

const ZERO: Figures = (() => {
  const z = new Dec(0);
  return { key: '', billCount: 0, returnBillCount: 0, goodsCount: 0, supplierCount: 0, inQty: z, returnQty: z, inAmt: z, returnAmt: z, totalAmt: z, purchaseAmt: z, taxAmt: z, lastPurchaseDate: null };
})();

/** The figures as the wire shows them; average prices only where one goods' quantities add up. */
function present(f: Figures, places: Places, withPrices: boolean, whole?: Decimal): Row {
  const baseQty = f.inQty.minus(f.returnQty);
  return {
    billCount: f.billCount,
    returnBillCount: f.returnBillCount,
    goodsCount: f.goodsCount,
    supplierCount: f.supplierCount,
    inQty: fixed(f.inQty, places.quantity),
    returnQty: fixed(f.returnQty, places.quantity),
    baseQty: fixed(baseQty, places.quantity),
    inAmt: fixed(f.inAmt, places.amount),
    returnAmt: fixed(f.returnAmt, places.amount),
    totalAmt: fixed(f.totalAmt, places.amount),
    purchaseAmt: fixed(f.purchaseAmt, places.amount),
    taxAmt: fixed(f.taxAmt, places.amount),
    avgPrice: withPrices ? ratio(f.purchaseAmt, baseQty, places.price) : null,
    avgTaxPrice: withPrices ? ratio(f.totalAmt, baseQty, places.price) : null,
    returnRate: percent(f.returnAmt, f.inAmt),
    ...(whole ? { amountShare: percent(f.totalAmt, whole) } : {}),
    lastPurchaseDate: f.lastPurchaseDate,
  };
}

/** Totals of a whole query: no average price (quantities of different goods do not add up). */
function totals(f: Figures, places: Places): Row {
  const { avgPrice: _price, avgTaxPrice: _taxPrice, ...figures } = present(f, places, false);
  void _price;
  void _taxPrice;
  return figures;
}

export function registerPurchaseReportHandlers(services: Services) {
  const { store } = services;

  /** The dimension's own fields of each group row (ids, then codes and names through the schema's lookups). */
  async function describeGroups(tenantId: string, model: Model, by: GroupBy, rows: Row[]): Promise<void> {
    const keys = rows.map((r) => String(r.groupKey)).filter(Boolean);
    if (by === 'goods') {
      const goods = new Map((keys.length ? await store.find(services.m('goods'), tenantId, { where: { id: keys } }) : []).map((g) => [String(g.id), g]));
      for (const r of rows) Object.assign(r, { commInfoId: r.groupKey, unitId: goods.get(String(r.groupKey))?.unitId ?? null, classifyId: goods.get(String(r.groupKey))?.classifyId ?? null });
    } else if (by === 'classify') for (const r of rows) r.classifyId = r.groupKey || null;
    else if (by === 'supplier') {
      const suppliers = new Map((keys.length ? await store.find(services.m('supplier'), tenantId, { where: { id: keys } }) : []).map((s) => [String(s.id), s]));
      for (const r of rows) {
        const s = suppliers.get(String(r.groupKey));
        Object.assign(r, { supplierId: r.groupKey, supplierNatureId: s?.natureId ?? null, contactPerson: s?.contactPerson ?? null, telephone: s?.telephone ?? null });
      }
    } else if (by === 'depot') for (const r of rows) r.depotId = r.groupKey;
    else for (const r of rows) r.month = r.groupKey;
    await fillLookups(services, model, tenantId, rows);
    for (const r of rows) {
      const [code, name] =
        by === 'goods' ? [r.commInfoCode, r.commInfoName]
        : by === 'classify' ? [null, r.classifyName || '未分类']
        : by === 'supplier' ? [r.bartererCode, r.bartererName]
        : by === 'depot' ? [r.depotCode, r.depotName]
        : [null, r.month];
      r.groupCode = code || null;
      r.groupName = name || null;
    }
  }

  async function analysis(ctx: Ctx, model: Model, by: GroupBy): Promise<Row> {
    const caller = mustCaller(ctx);
    const places = await tenantPlaces(services, caller.tenantId);
    const period = periodOf(ctx);
    const conditions = filtersOf(ctx, caller.tenantId, period);
    // A period and no other filter, per goods or supplier: the rollups answer.
    const plain = conditions.length === periodConditions('bill_date', period).length && (by === 'goods' || by === 'supplier');
    const defaultOrder = !ctx.query.ascs && !ctx.query.descs;
    if (plain && defaultOrder) {
      // Ordered and paged in SQL: only the page's groups are decoded, counted and described.
      const { current, size } = parsePaging(ctx.query);
      const page = await rolledPage(services, caller.tenantId, period, by, current, size);
      // Over everything, the groups are the distinct goods (or suppliers): not read again.
      const known = by === 'goods' ? { goods: page.total } : { suppliers: page.total };
      const overall = (await fromRollups(services, caller.tenantId, period, undefined, undefined, known))[0] ?? ZERO;
      const rows = page.groups.map((g) => ({ id: g.key || '-', groupBy: by, groupKey: g.key, ...present(g, places, by === 'goods', overall.totalAmt) }) as Row);
      await describeGroups(caller.tenantId, model, by, rows);
      const summary = { groupCount: page.total, ...totals(overall, places) };
      return { records: rows, total: page.total, size, current, pages: Math.ceil(page.total / size), orders: [], summary, groupBy: by, dateFrom: period.from ?? null, dateTo: period.to ?? null };
    }
    const groups = plain ? await fromRollups(services, caller.tenantId, period, by) : await aggregate(services, caller.tenantId, conditions, by);
    // The totals come from SQL over the whole query: a bill or goods in two groups counts once.
    // Over everything, the groups just read are the distinct goods (or suppliers): not read again.
    const known = by === 'goods' ? { goods: groups.length } : by === 'supplier' ? { suppliers: groups.length } : undefined;
    const overall = (plain ? await fromRollups(services, caller.tenantId, period, undefined, undefined, known) : await aggregate(services, caller.tenantId, conditions))[0] ?? ZERO;
    const rowOf = (g: Figures) => ({ id: g.key || '-', groupBy: by, groupKey: g.key, ...present(g, places, by === 'goods', overall.totalAmt) }) as Row;
    const summary = { groupCount: groups.length, ...totals(overall, places) };
    const extra = { summary, groupBy: by, dateFrom: period.from ?? null, dateTo: period.to ?? null };
    if (defaultOrder) {
      // The default order (net purchases as shown, largest first; then the key) needs no names:
      // only the page's groups are described.
      const shown = groups.map((g) => ({ g, amount: new Dec(fixed(g.totalAmt, places.amount)) }));
      shown.sort((a, b) => b.amount.comparedTo(a.amount) || a.g.key.localeCompare(b.g.key));
      const { current, size } = parsePaging(ctx.query);
      const rows = shown.slice((current - 1) * size, current * size).map((x) => rowOf(x.g));
      await describeGroups(caller.tenantId, model, by, rows);
      return { records: rows, total: groups.length, size, current, pages: Math.ceil(groups.length / size), orders: [], ...extra };
    }
    const rows = groups.map(rowOf);
    await describeGroups(caller.tenantId, model, by, rows);
    sortRows(ctx, rows, { field: 'totalAmt', dir: -1 }, 'groupKey');
    return pageOf(ctx, rows, extra);
  }

  services.register('purchaseAnalysis.list', async (ctx, model) => analysis(ctx, model, groupByOf(ctx)));
  services.register('purchaseAnalysis.bySupplier', async (ctx, model) => analysis(ctx, model, 'supplier'));

  services.register('purchaseAnalysis.detail', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const places = await tenantPlaces(services, caller.tenantId);
    const period = periodOf(ctx);
    const conditions = filtersOf(ctx, caller.tenantId, period);
    const month = valueParam(ctx, 'month')?.trim();
    if (month) {
      if (!/^\d{4}-\d{2}$/.test(month) || !validDay(`${month}-01`)) throw badRequest('月份格式应为 yyyy-MM', { fieldErrors: { month: '月份格式应为 yyyy-MM' } });
      conditions.push(...periodConditions('bill_date', { from: `${month}-01`, to: lastDayOf(month) }));
    }
    const isReturn = valueParam(ctx, 'isReturn', 'isReturn_equal')?.trim();
    if (isReturn) {
      if (isReturn !== '1' && isReturn !== '2') throw badRequest('isReturn 只能是 1（入库）或 2（退货）');
      conditions.push(sql`is_return = ${Number(isReturn)}`);
    }
    const page = await viewPage(ctx, services, model, caller.tenantId, conditions, 'bill_date desc, bill_no desc, id asc');
    const [all] = await aggregate(services, caller.tenantId, conditions);
    return { ...page, summary: { lineCount: page.total, ...totals(all ?? ZERO, places) }, dateFrom: period.from ?? null, dateTo: period.to ?? null };
  });
}
