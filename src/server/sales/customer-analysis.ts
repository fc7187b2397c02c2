/**
 * Customer analysis (客户分析): what each customer bought over a period, read from the view
 * erp_customer_analysis (every line of posted sales-outs, returns, retail sales and retail returns
 * that name a customer; returns negative) and summed in SQL, exact on both databases (SQLite keeps
 * decimals as integers scaled by 10^6, so SUM stays exact; PostgreSQL sums numeric). The shapes
 * are described in schemas/sales/customer-analysis.json.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Services } from '../services.ts';
import { mustCaller, type Ctx } from '../http/context.ts';
import type { Row } from '../engine/store.ts';
import type { Model } from '../engine/model.ts';
import { badRequest, notFound } from '../errors.ts';
import { fillLookups } from '../engine/lookups.ts';
import { parseFilters, type Condition } from '../engine/query.ts';
import { tenantPlaces } from '../engine/document/context.ts';
import { Dec, fixed, type Decimal, type Places } from '../../shared/money/index.ts';
import { formatDate } from '../../shared/dates.ts';
import { valueParam } from '../system/params.ts';
import { addDays, addMonths, lastDayOf, periodOf, validDay, type Period } from '../reports/period.ts';
import { decimalReader, pageOf, percent, ratio, sortRows } from '../reports/report-rows.ts';
import { addSums, present as presentSales, SALES_SUMS, salesSumsOf, type SalesSums } from '../reports/sales.ts';
import { customerSales } from '../reports/people-partners.ts';

export { periodOf, type Period };

const VIEW = 'erp_customer_analysis';
/** Sums of one group, as exact decimals (no tax: the view does not sum it). */
export interface Figures extends SalesSums {
  key: string;
  goodsCount: number;
  lineCount: number;
  lastSaleDate: string | null;
  firstSaleDate: string | null;
  extra: Row;
}

type GroupBy = 'customer' | 'goods' | 'classify' | 'month' | 'bill';
const GROUP_SQL: Record<GroupBy, string> = {
  customer: 'customer_id',
  goods: 'comm_info_id',
  classify: 'classify_id',
  month: 'substr(bill_date, 1, 7)',
  bill: 'bill_id',
};

interface AggregateOpts {
  period: Period;
  customerId?: string;
  by: GroupBy;
  /** Gifts are left out of preferences (a gift is not what the customer chose to buy). */
  noGifts?: boolean;
  /** bill grouping: newest first, at most this many. */
  limit?: number;
}

/** Σ over the view per group, in one statement; the tenant always bounds it. */
export async function aggregate(services: Services, tenantId: string, opts: AggregateOpts): Promise<Figures[]> {
  const { store } = services;
  const conditions: RawBuilder<unknown>[] = [sql`tenant_id = ${tenantId}`, sql`is_deleted = 0`];
  if (opts.customerId) conditions.push(sql`customer_id = ${opts.customerId}`);
  if (opts.period.from) conditions.push(sql`bill_date >= ${opts.period.from}`);
  if (opts.period.to) conditions.push(sql`bill_date < ${addDays(opts.period.to, 1)}`);
  if (opts.noGifts) conditions.push(sql`coalesce(is_gift, 1) <> 2`);
  const key = sql.raw(GROUP_SQL[opts.by]);
  const billColumns =
    opts.by === 'bill'
      ? sql`, max(bill_type) as bill_type, max(bill_no) as bill_no, max(bill_date) as bill_date, max(is_return) as is_return, max(staff_id) as staff_id, max(depot_id) as depot_id`
      : sql``;
  const order = opts.by === 'bill' ? sql` order by max(bill_date) desc, max(bill_no) desc${opts.limit ? sql` limit ${opts.limit}` : sql``}` : sql``;
  const result = await sql<Record<string, unknown>>`select ${key} as k, ${SALES_SUMS},
      count(distinct comm_info_id) as goods_count,
      count(*) as line_count,
      max(case when is_return = 1 then bill_date end) as last_sale_date,
      min(case when is_return = 1 then bill_date end) as first_sale_date${billColumns}
    from ${sql.table(VIEW)} where ${sql.join(conditions, sql` and `)} group by ${key}${order}`.execute(store.db);
  const dec = decimalReader(services);
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v).slice(0, 10));
  return result.rows.map((r) => ({
    key: r.k === null || r.k === undefined ? '' : String(r.k),
    ...salesSumsOf(r, dec),
    goodsCount: Number(r.goods_count ?? 0),
    lineCount: Number(r.line_count ?? 0),
    lastSaleDate: text(r.last_sale_date),
    firstSaleDate: text(r.first_sale_date),
    extra: opts.by === 'bill'
      ? { billType: r.bill_type, billNo: r.bill_no, billDate: r.bill_date === null ? null : String(r.bill_date), isReturn: Number(r.is_return), staffId: r.staff_id ?? null, depotId: r.depot_id ?? null }
      : {},
  }));
}

function zero(key = ''): Figures {
  const z = new Dec(0);
  return { key, billCount: 0, returnBillCount: 0, goodsCount: 0, lineCount: 0, salesQty: z, returnQty: z, outAmt: z, returnAmt: z, totalAmt: z, salesAmt: z, costAmt: z, lastSaleDate: null, firstSaleDate: null, extra: {} };
}

function add(a: Figures, b: Figures): Figures {
  const later = (x: string | null, y: string | null) => (x === null ? y : y === null ? x : x > y ? x : y);
  const earlier = (x: string | null, y: string | null) => (x === null ? y : y === null ? x : x < y ? x : y);
  return {
    ...addSums(a, b),
    goodsCount: a.goodsCount + b.goodsCount,
    lineCount: a.lineCount + b.lineCount,
    lastSaleDate: later(a.lastSaleDate, b.lastSaleDate),
    firstSaleDate: earlier(a.firstSaleDate, b.firstSaleDate),
  };
}

/** The figures of a group as the wire shows them: decimal strings at the tenant's places. */
export function present(f: Figures, places: Places): Row {
  return {
    ...presentSales(f, places),
    returnRate: percent(f.returnAmt, f.outAmt),
    avgBillAmt: ratio(f.totalAmt, f.billCount, places.amount),
    lastSaleDate: f.lastSaleDate,
    firstSaleDate: f.firstSaleDate,
  };
}

const QUADRANTS: Record<number, string> = { 1: '明星客户', 2: '规模客户', 3: '潜力客户', 4: '一般客户' };

/** Keys of the call that are the analysis' own, never customer filters. */
const OWN_KEYS = new Set(['customerId', 'queryDate', 'dateType', 'queryType', 'xValue', 'yValue', 'days', 'months', 'id']);

function numberParam(ctx: Ctx, name: string, fallback: number, min: number, max: number): number {
  const raw = valueParam(ctx, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw badRequest(`${name} 应为 ${min} 到 ${max} 之间的整数`);
  return n;
}

function decParam(ctx: Ctx, name: string, title: string): Decimal | undefined {
  const raw = valueParam(ctx, name);
  if (raw === undefined) return undefined;
  if (!/^-?\d+(\.\d+)?$/.test(raw.trim())) throw badRequest(`${title}必须是数字`, { fieldErrors: { [name]: `${title}必须是数字` } });
  return new Dec(raw.trim());
}

export function registerCustomerAnalysisHandlers(services: Services) {
  const { store } = services;
  const customers = () => services.m('customer');

  /** The customer rows a call may see: by id, its filters and the caller's data scope on customers. */
  async function visibleCustomers(ctx: Ctx, ids: string[], filters: Condition[] = [], names = true): Promise<Map<string, Row>> {
    const caller = mustCaller(ctx);
    const model = customers();
    const scope = await services.perms.dataScope(caller, model);
    const conditions = scope ? [...filters, scope] : filters;
    const out = new Map<string, Row>();
    for (let i = 0; i < ids.length; i += 5000) {
      const rows = await store.find(model, caller.tenantId, { where: { id: ids.slice(i, i + 5000) }, conditions });
      if (names) await fillLookups(services, model, caller.tenantId, rows);
      for (const r of rows) out.set(String(r.id), r);
    }
    return out;
  }

  /** customerId (or id) of a single-customer call, visible to the caller. */
  async function oneCustomer(ctx: Ctx): Promise<Row> {
    const id = valueParam(ctx, 'customerId', 'id');
    if (!id) throw badRequest('缺少参数 customerId', { fieldErrors: { customerId: '请选择客户' } });
    const found = (await visibleCustomers(ctx, [id])).get(id);
    if (!found) throw notFound('客户不存在或已被删除');
    return found;
  }

  const customerFields = (c: Row | undefined): Row => ({
    bartererCode: c?.bartererCode ?? null,
    bartererName: c?.bartererName ?? null,
    natureName: c?.natureName ?? null,
    levelName: c?.levelName ?? null,
    staffId: c?.staffId ?? null,
    staffName: c?.staffName ?? null,
  });

  services.register('customerAnalysis.list', async (ctx) => {
    const caller = mustCaller(ctx);
    const places = await tenantPlaces(services, caller.tenantId);
    const period = periodOf(ctx);
    const customerId = valueParam(ctx, 'customerId');
    // Each customer's sums from the monthly rollup of the materialized sales lines, its first and last
    // sale from the posted bills (customerSales): the lines of this view, so the same figures.
    const perCustomer = await customerSales(services, caller.tenantId, period, customerId ? [customerId] : undefined);
    const groups: Figures[] = [...perCustomer].map(([key, s]) => ({ key, ...s.sums, goodsCount: 0, lineCount: s.lineCount, lastSaleDate: s.lastSaleDate, firstSaleDate: s.firstSaleDate, extra: {} }));
    // Customer filters: the map rules on the customer's own fields (bartererName contains, staffId_equal …).
    const query = Object.fromEntries(Object.entries(ctx.query).filter(([k]) => !OWN_KEYS.has(k) && !k.startsWith('billDate')));
    // Display names (category, level, salesperson) only for the page's customers unless a sort asks for any field.
    const sortAsked = Boolean(ctx.query.ascs || ctx.query.descs);
    const seen = await visibleCustomers(ctx, groups.map((g) => g.key), parseFilters(customers(), query, 'map'), sortAsked);
    const kept = groups.filter((g) => seen.has(g.key));
    const total = kept.reduce(add, zero());
    const overall = present(total, places);
    const xValue = decParam(ctx, 'xValue', '横轴阈值') ?? (kept.length ? total.totalAmt.div(kept.length) : new Dec(0));
    const yValue = decParam(ctx, 'yValue', '纵轴阈值') ?? new Dec(overall.grossMargin as string);
    const rows = kept.map((g) => {
      const row: Row = { id: g.key, customerId: g.key, ...customerFields(seen.get(g.key)), ...present(g, places) };
      row.amountShare = percent(g.totalAmt, total.totalAmt);
      const high = g.totalAmt.gte(xValue);
      const good = new Dec(row.grossMargin as string).gte(yValue);
      row.quadrant = high ? (good ? 1 : 2) : good ? 3 : 4;
      row.quadrantName = QUADRANTS[row.quadrant as number];
      return row;
    });
    // Default: net sales, largest first; ties by customer.
    sortRows(ctx, rows, { field: 'totalAmt', dir: -1 }, 'customerId');
    const named = async (page: Row) => {
      if (sortAsked) return page;
      const shown = (page.records as Row[]).map((r) => seen.get(String(r.customerId))).filter((c): c is Row => c !== undefined);
      if (shown.length) await fillLookups(services, customers(), caller.tenantId, shown);
      for (const r of page.records as Row[]) Object.assign(r, customerFields(seen.get(String(r.customerId))));
      return page;
    };
    return named(pageOf(ctx, rows, {
      summary: { customerCount: rows.length, ...overall },
      xValue: fixed(xValue, places.amount),
      yValue: fixed(yValue, 2),
      dateFrom: period.from ?? null,
      dateTo: period.to ?? null,
    }));
  });

  services.register('customerAnalysis.detail', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const customer = await oneCustomer(ctx);
    const id = String(customer.id);
    const places = await tenantPlaces(services, caller.tenantId);
    const period = periodOf(ctx);
    const [head] = await aggregate(services, caller.tenantId, { period, customerId: id, by: 'customer' });
    const goods = await goodsRows(caller.tenantId, model, await aggregate(services, caller.tenantId, { period, customerId: id, by: 'goods' }), places);
    goods.sort((a, b) => new Dec(b.totalAmt as string).comparedTo(a.totalAmt as string) || String(a.commInfoId).localeCompare(String(b.commInfoId)));
    return { id, customerId: id, ...customerFields(customer), ...present(head ?? zero(id), places), dateFrom: period.from ?? null, dateTo: period.to ?? null, goods };
  });

  /** Per-goods rows with the goods' names, base unit and category (as the goods are now). */
  async function goodsRows(tenantId: string, model: Model, groups: Figures[], places: Places): Promise<Row[]> {
    const ids = groups.map((g) => g.key).filter(Boolean);
    const goods = new Map((ids.length ? await store.find(services.m('goods'), tenantId, { where: { id: ids } }) : []).map((g) => [String(g.id), g]));
    const rows = groups.map((g) => {
      const item = goods.get(g.key);
      const qty = g.salesQty.minus(g.returnQty);
      return {
        commInfoId: g.key,
        unitId: item?.unitId ?? null,
        classifyId: item?.classifyId ?? null,
        ...present(g, places),
        avgPrice: ratio(g.salesAmt, qty, places.price),
      } as Row;
    });
    await fillLookups(services, model, tenantId, rows);
    return rows;
  }

  services.register('customerAnalysis.recently', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const customer = await oneCustomer(ctx);
    const id = String(customer.id);
    const places = await tenantPlaces(services, caller.tenantId);
    const queryType = valueParam(ctx, 'queryType') ?? '1';
    if (queryType !== '1' && queryType !== '2') throw badRequest('queryType 只能是 1（最近天数）或 2（最近单据数）');
    let period: Period = {};
    let limit: number;
    if (queryType === '2') limit = numberParam(ctx, 'size', 10, 1, 100);
    else {
      const days = numberParam(ctx, 'days', 30, 1, 3660);
      const today = formatDate();
      period = { from: addDays(today, 1 - days), to: today };
      limit = 500;
    }
    const bills = await aggregate(services, caller.tenantId, { period, customerId: id, by: 'bill', limit });
    const typeNames = new Map((services.registry.dicts.find((d) => d.code === 'bill_type')?.items ?? []).map((i) => [i.key, i.value]));
    const records = bills.map((b) => {
      const shown = present(b, places);
      return {
        id: b.key,
        billId: b.key,
        ...b.extra,
        billTypeName: typeNames.get(String(b.extra.billType)) ?? b.extra.billType,
        lineCount: b.lineCount,
        qty: shown.qty,
        totalAmt: shown.totalAmt,
        salesAmt: shown.salesAmt,
        costAmt: shown.costAmt,
        grossProfit: shown.grossProfit,
        grossMargin: shown.grossMargin,
      } as Row;
    });
    await fillLookups(services, model, caller.tenantId, records);
    const total = present(bills.reduce(add, zero(id)), places);
    return {
      customerId: id,
      bartererName: customer.bartererName ?? null,
      queryType: Number(queryType),
      dateFrom: period.from ?? (bills.length ? String(bills[bills.length - 1].extra.billDate).slice(0, 10) : null),
      dateTo: period.to ?? (bills.length ? String(bills[0].extra.billDate).slice(0, 10) : null),
      ...total,
      records,
    };
  });

  services.register('customerAnalysis.recentlyTrend', async (ctx) => {
    const caller = mustCaller(ctx);
    const customer = await oneCustomer(ctx);
    const id = String(customer.id);
    const places = await tenantPlaces(services, caller.tenantId);
    const count = numberParam(ctx, 'months', 12, 1, 36);
    const raw = valueParam(ctx, 'queryDate')?.trim();
    let last = formatDate().slice(0, 7);
    if (raw) {
      if (!/^\d{4}-\d{2}/.test(raw) || !validDay(`${raw.slice(0, 7)}-01`)) throw badRequest('查询月份格式应为 yyyy-MM', { fieldErrors: { queryDate: '查询月份格式应为 yyyy-MM' } });
      last = raw.slice(0, 7);
    }
    const first = addMonths(last, 1 - count);
    const period = { from: `${first}-01`, to: lastDayOf(last) };
    const byMonth = new Map((await aggregate(services, caller.tenantId, { period, customerId: id, by: 'month' })).map((g) => [g.key, g]));
    const months = Array.from({ length: count }, (_, i) => addMonths(first, i)).map((month) => {
      const f = byMonth.get(month) ?? zero(month);
      const shown = present(f, places);
      return {
        month,
        billCount: f.billCount,
        returnBillCount: f.returnBillCount,
        qty: shown.qty,
        outAmt: shown.outAmt,
        returnAmt: shown.returnAmt,
        totalAmt: shown.totalAmt,
        salesAmt: shown.salesAmt,
        costAmt: shown.costAmt,
        grossProfit: shown.grossProfit,
        grossMargin: shown.grossMargin,
      };
    });
    const total = present([...byMonth.values()].reduce(add, zero(id)), places);
    return { customerId: id, bartererName: customer.bartererName ?? null, dateFrom: period.from, dateTo: period.to, ...total, months };
  });

  services.register('customerAnalysis.preference', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const customer = await oneCustomer(ctx);
    const id = String(customer.id);
    const places = await tenantPlaces(services, caller.tenantId);
    const period = periodOf(ctx);
    const size = numberParam(ctx, 'size', 10, 1, 50);
    const goods = await aggregate(services, caller.tenantId, { period, customerId: id, by: 'goods', noGifts: true });
    const classes = await aggregate(services, caller.tenantId, { period, customerId: id, by: 'classify', noGifts: true });
    const all = goods.reduce(add, zero(id));
    const totalQty = all.salesQty.minus(all.returnQty);
    const net = (f: Figures) => ({ amount: f.totalAmt, qty: f.salesQty.minus(f.returnQty) });
    const ranked = (groups: Figures[], by: 'amount' | 'qty') =>
      groups
        .filter((g) => net(g)[by].gt(0))
        .sort((a, b) => {
          const other = by === 'amount' ? 'qty' : 'amount';
          return net(b)[by].comparedTo(net(a)[by]) || net(b)[other].comparedTo(net(a)[other]) || a.key.localeCompare(b.key);
        })
        .slice(0, size);
    const shape = (g: Figures, rank: number): Row => {
      const { amount, qty } = net(g);
      return {
        rank,
        qty: fixed(qty, places.quantity),
        totalAmt: fixed(amount, places.amount),
        salesAmt: fixed(g.salesAmt, places.amount),
        grossProfit: fixed(g.salesAmt.minus(g.costAmt), places.amount),
        billCount: g.billCount,
        amountShare: percent(amount, all.totalAmt),
        qtyShare: percent(qty, totalQty),
      };
    };
    const goodsInfo = new Map(
      (goods.length ? await store.find(services.m('goods'), caller.tenantId, { where: { id: goods.map((g) => g.key) } }) : []).map((g) => [String(g.id), g]),
    );
    const goodsList = async (by: 'amount' | 'qty') => {
      const rows = ranked(goods, by).map((g, i) => ({ commInfoId: g.key, unitId: goodsInfo.get(g.key)?.unitId ?? null, classifyId: goodsInfo.get(g.key)?.classifyId ?? null, ...shape(g, i + 1) }) as Row);
      return fillLookups(services, model, caller.tenantId, rows);
    };
    const classList = async (by: 'amount' | 'qty') => {
      const rows = ranked(classes, by).map((g, i) => ({ classifyId: g.key || null, goodsCount: g.goodsCount, ...shape(g, i + 1) }) as Row);
      await fillLookups(services, model, caller.tenantId, rows);
      for (const r of rows) if (!r.classifyName) r.classifyName = '未分类';
      return rows;
    };
    return {
      customerId: id,
      bartererName: customer.bartererName ?? null,
      dateFrom: period.from ?? null,
      dateTo: period.to ?? null,
      totalAmt: fixed(all.totalAmt, places.amount),
      totalQty: fixed(totalQty, places.quantity),
      goodsByAmount: await goodsList('amount'),
      goodsByQty: await goodsList('qty'),
      classifyByAmount: await classList('amount'),
      classifyByQty: await classList('qty'),
    };
  });
}
