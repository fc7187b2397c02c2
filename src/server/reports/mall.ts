/**
 * 商城统计 (商城管理 → 商城统计) and the mall's trade analyses: mall orders (sales orders placed
 * through the storefront, orderSource 2) per day or month (tradeanalysis list, sumtotal), per goods
 * (selectList), per customer (tradecustomeranalysis) and per partner who referred the customers
 * (recommendedanalysis). Sums run in SQL over the views erp_mall_trade_line (one row per line of a
 * counted order) and erp_mall_trade_order (one row per counted order), exact on both databases
 * (SQLite keeps decimals as integers scaled by 10^6, PostgreSQL sums numeric); who referred whom is
 * read from erp_customer_recommend_rank, as 推荐排行 reads it. Every query names the caller's tenant.
 * Which orders count and what every figure means: schemas/analysis/mall-*.json.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller, type Ctx } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { fillLookups } from '../engine/lookups.ts';
import { tenantPlaces } from '../engine/document/context.ts';
import { Dec, fixed, type Decimal, type Places } from '../../shared/money/index.ts';
import { valueParam } from '../system/params.ts';
import { MALL_STATUS } from '../mall/orders.ts';
import { addDays, addMonths, periodOf, type Period } from './period.ts';
import { countOf, decimalReader, idParam, pageOf, percent, periodConditions, ratio, sortedPage, sortRows, textOf, whereOf, type SortKey } from './report-rows.ts';

const LINES = 'erp_mall_trade_line';
const ORDERS = 'erp_mall_trade_order';
const PARTNERS = 'erp_mall_recommend_partner';
const REFERRALS = 'erp_customer_recommend_rank';
/** shipped (dictionary yes_no): 2 the order has a posted sales-out. */
const SHIPPED = 2;
/** A period of at most this many days (months) lists its days without orders too. */
const MAX_FILLED = 366;

type Bucket = 'day' | 'month';
/** dateType as sent → the code periodOf reads with queryDate, and the grouping of the trade list. */
const DATE_TYPES: Record<string, ['1' | '2' | '3', Bucket]> = {
  '1': ['1', 'day'], day: ['1', 'day'], 日: ['1', 'day'],
  '2': ['2', 'month'], month: ['2', 'month'], 月: ['2', 'month'],
  '3': ['3', 'month'], year: ['3', 'month'], 年: ['3', 'month'],
};

/** What a call narrows the orders to. */
interface MallFilter {
  period: Period;
  bucket: Bucket;
  customerId?: string;
  rangeId?: string;
  commInfoId?: string;
}

function mallFilter(ctx: Ctx): MallFilter {
  const raw = valueParam(ctx, 'dateType')?.trim().toLowerCase() ?? '';
  const type = raw ? DATE_TYPES[raw] : undefined;
  if (raw && !type) throw badRequest('dateType 只能是 1（日）、2（月）或 3（年）', { fieldErrors: { dateType: '统计方式只能是日或月' } });
  const params = { ...ctx.params };
  if (type) params.dateType = type[0];
  else delete params.dateType;
  return {
    period: periodOf({ ...ctx, params, body: undefined }),
    bucket: type?.[1] ?? 'day',
    customerId: idParam(ctx, 'customerId'),
    rangeId: idParam(ctx, 'rangeId'),
    commInfoId: idParam(ctx, 'commInfoId'),
  };
}

/** The WHERE of a filter over a mall view (the tenant always); the goods only on the lines. */
function mallWhere(f: MallFilter, tenantId: string, view: 'lines' | 'orders'): RawBuilder<unknown> {
  const c: RawBuilder<unknown>[] = [sql`tenant_id = ${tenantId}`, sql`is_deleted = 0`, ...periodConditions('bill_date', f.period)];
  if (f.customerId) c.push(sql`customer_id = ${f.customerId}`);
  if (f.rangeId) c.push(sql`range_id = ${f.rangeId}`);
  if (f.commInfoId && view === 'lines') c.push(sql`comm_info_id = ${f.commInfoId}`);
  return whereOf(c);
}

/** The sums of the trade list over the lines view (orders and buyers counted once per group). */
const TRADE_SUMS = sql`count(distinct bill_id) as order_count,
      count(distinct customer_id) as buyer_count,
      sum(base_qty) as base_qty, sum(total_amt) as total_amt, sum(coupon_amt) as coupon_amt, sum(final_amt) as final_amt,
      count(distinct case when shipped = ${SHIPPED} then bill_id end) as shipped_count,
      count(distinct case when mall_status = ${MALL_STATUS.done} then bill_id end) as completed_count,
      count(distinct case when mall_status = ${MALL_STATUS.afterSale} then bill_id end) as after_sale_count`;

interface TradeSums {
  orderCount: number;
  buyerCount: number;
  baseQty: Decimal;
  totalAmt: Decimal;
  couponAmt: Decimal;
  finalAmt: Decimal;
  shippedCount: number;
  completedCount: number;
  afterSaleCount: number;
}

const NO_TRADE: TradeSums = { orderCount: 0, buyerCount: 0, baseQty: new Dec(0), totalAmt: new Dec(0), couponAmt: new Dec(0), finalAmt: new Dec(0), shippedCount: 0, completedCount: 0, afterSaleCount: 0 };

function tradeSumsOf(r: Record<string, unknown>, dec: (v: unknown) => Decimal): TradeSums {
  return {
    orderCount: countOf(r.order_count),
    buyerCount: countOf(r.buyer_count),
    baseQty: dec(r.base_qty),
    totalAmt: dec(r.total_amt),
    couponAmt: dec(r.coupon_amt),
    finalAmt: dec(r.final_amt),
    shippedCount: countOf(r.shipped_count),
    completedCount: countOf(r.completed_count),
    afterSaleCount: countOf(r.after_sale_count),
  };
}

/** Order amounts as the wire shows them: goods amount, savings, order amount and the average order. */
const amounts = (s: { orderCount: number; totalAmt: Decimal; couponAmt: Decimal; finalAmt: Decimal }, places: Places): Row => ({
  totalAmt: fixed(s.totalAmt, places.amount),
  couponAmt: fixed(s.couponAmt, places.amount),
  orderAmt: fixed(s.finalAmt, places.amount),
  avgOrderAmt: ratio(s.finalAmt, s.orderCount, places.amount),
});

const showTrade = (s: TradeSums, places: Places): Row => ({
  orderCount: s.orderCount,
  buyerCount: s.buyerCount,
  baseQty: fixed(s.baseQty, places.quantity),
  ...amounts(s, places),
  shippedCount: s.shippedCount,
  completedCount: s.completedCount,
  afterSaleCount: s.afterSaleCount,
});

/** Every day (month) of a closed period, when there are at most MAX_FILLED; else undefined. */
function bucketsOf(period: Period, bucket: Bucket): string[] | undefined {
  if (!period.from || !period.to) return undefined;
  const out: string[] = [];
  const [first, last, next] = bucket === 'day' ? [period.from, period.to, (d: string) => addDays(d, 1)] : [period.from.slice(0, 7), period.to.slice(0, 7), (m: string) => addMonths(m, 1)];
  for (let k = first; k <= last; k = next(k)) {
    if (out.length === MAX_FILLED) return undefined;
    out.push(k);
  }
  return out;
}

const dayOf = (v: unknown) => textOf(v)?.slice(0, 10) ?? null;

export function registerMallReportHandlers(services: Services) {
  const db = () => services.store.db;
  const dec = decimalReader(services);

  async function tradeTotal(f: MallFilter, tenantId: string, places: Places): Promise<Row> {
    const key = sql.raw(`substr(bill_date, 1, ${f.bucket === 'day' ? 10 : 7})`);
    const found = await sql<Record<string, unknown>>`select ${TRADE_SUMS}, count(distinct ${key}) as day_count
      from ${sql.table(LINES)} where ${mallWhere(f, tenantId, 'lines')}`.execute(db());
    const r = found.rows[0] ?? {};
    return { ...showTrade(tradeSumsOf(r, dec), places), dayCount: countOf(r.day_count), dateFrom: f.period.from ?? null, dateTo: f.period.to ?? null };
  }

  /** tradeanalysis/list: one row per day (month) of orders, or of the period when it is given. */
  services.register('mallReport.trade', async (ctx) => {
    const { tenantId } = mustCaller(ctx);
    const f = mallFilter(ctx);
    const places = await tenantPlaces(services, tenantId);
    // Literal lengths: PostgreSQL matches the grouped expression to the selected one as written.
    const key = sql.raw(`substr(bill_date, 1, ${f.bucket === 'day' ? 10 : 7})`);
    const [grouped, summary] = await Promise.all([
      sql<Record<string, unknown>>`select ${key} as k, ${TRADE_SUMS}
        from ${sql.table(LINES)} where ${mallWhere(f, tenantId, 'lines')} group by ${key}`.execute(db()),
      tradeTotal(f, tenantId, places),
    ]);
    const found = new Map(grouped.rows.map((r) => [String(r.k), tradeSumsOf(r, dec)]));
    const keys = bucketsOf(f.period, f.bucket) ?? [...found.keys()];
    const rows: Row[] = keys.map((k) => ({ tradeDate: k, ...showTrade(found.get(k) ?? NO_TRADE, places) }));
    sortRows(ctx, rows, { field: 'tradeDate', dir: 1 }, 'tradeDate');
    return pageOf(ctx, rows, { summary, dateFrom: f.period.from ?? null, dateTo: f.period.to ?? null });
  });

  services.register('mallReport.tradeTotal', async (ctx) => {
    const { tenantId } = mustCaller(ctx);
    return tradeTotal(mallFilter(ctx), tenantId, await tenantPlaces(services, tenantId));
  });

  /** tradeanalysis/selectList: one row per goods, largest order amount first. */
  services.register('mallReport.tradeGoods', async (ctx, model) => {
    const { tenantId } = mustCaller(ctx);
    const f = mallFilter(ctx);
    const places = await tenantPlaces(services, tenantId);
    const grouped = await sql<Record<string, unknown>>`select comm_info_id as k, ${TRADE_SUMS}
      from ${sql.table(LINES)} where ${mallWhere(f, tenantId, 'lines')} group by comm_info_id`.execute(db());
    const sums = grouped.rows.map((r) => ({ key: String(r.k ?? ''), s: tradeSumsOf(r, dec) }));
    const whole = sums.reduce((t, g) => t.plus(g.s.finalAmt), new Dec(0));
    const ids = sums.map((g) => g.key).filter(Boolean);
    // The base unit of each goods (quantities are in base units).
    const goods = new Map((ids.length ? await services.store.find(services.m('goods'), tenantId, { where: { id: ids } }) : []).map((g) => [String(g.id), g]));
    const rows: Row[] = sums.map(({ key, s }) => ({
      commInfoId: key || null,
      unitId: goods.get(key)?.unitId ?? null,
      baseQty: fixed(s.baseQty, places.quantity),
      orderCount: s.orderCount,
      buyerCount: s.buyerCount,
      ...amounts(s, places),
      amountShare: percent(s.finalAmt, whole),
    }));
    await fillLookups(services, model, tenantId, rows);
    for (const row of rows) delete row.avgOrderAmt;
    sortRows(ctx, rows, { field: 'orderAmt', dir: -1 }, 'commInfoId');
    return rows;
  });

  /** Each customer's mall orders over the filter, from the orders view. */
  async function customerRows(f: MallFilter, tenantId: string, places: Places): Promise<Row[]> {
    const found = await sql<Record<string, unknown>>`select customer_id as k, max(range_id) as range_id, count(*) as order_count,
        sum(total_amt) as total_amt, sum(coupon_amt) as coupon_amt, sum(final_amt) as final_amt,
        min(bill_date) as first_date, max(bill_date) as last_date
      from ${sql.table(ORDERS)} where ${mallWhere(f, tenantId, 'orders')} group by customer_id`.execute(db());
    const sums = found.rows.map((r) => ({ r, s: { orderCount: countOf(r.order_count), totalAmt: dec(r.total_amt), couponAmt: dec(r.coupon_amt), finalAmt: dec(r.final_amt) } }));
    const whole = sums.reduce((t, g) => t.plus(g.s.finalAmt), new Dec(0));
    return sums.map(({ r, s }) => ({
      customerId: textOf(r.k),
      rangeId: textOf(r.range_id),
      orderCount: s.orderCount,
      ...amounts(s, places),
      amountShare: percent(s.finalAmt, whole),
      firstOrderDate: dayOf(r.first_date),
      lastOrderDate: dayOf(r.last_date),
    }));
  }

  async function customersTotal(f: MallFilter, tenantId: string, places: Places): Promise<Row> {
    const found = await sql<Record<string, unknown>>`select count(distinct customer_id) as customer_count, count(*) as order_count,
        sum(total_amt) as total_amt, sum(coupon_amt) as coupon_amt, sum(final_amt) as final_amt,
        min(bill_date) as first_date, max(bill_date) as last_date
      from ${sql.table(ORDERS)} where ${mallWhere(f, tenantId, 'orders')}`.execute(db());
    const r = found.rows[0] ?? {};
    const s = { orderCount: countOf(r.order_count), totalAmt: dec(r.total_amt), couponAmt: dec(r.coupon_amt), finalAmt: dec(r.final_amt) };
    return {
      customerCount: countOf(r.customer_count),
      orderCount: s.orderCount,
      ...amounts(s, places),
      amountShare: s.orderCount ? '100.00' : '0.00',
      firstOrderDate: dayOf(r.first_date),
      lastOrderDate: dayOf(r.last_date),
      dateFrom: f.period.from ?? null,
      dateTo: f.period.to ?? null,
    };
  }

  /** tradecustomeranalysis/list: one row per customer who ordered, largest order amount first. */
  services.register('mallReport.customers', async (ctx, model) => {
    const { tenantId } = mustCaller(ctx);
    const f = mallFilter(ctx);
    const places = await tenantPlaces(services, tenantId);
    const [rows, summary] = await Promise.all([customerRows(f, tenantId, places), customersTotal(f, tenantId, places)]);
    const fallback: SortKey[] = [{ field: 'orderAmt', dir: -1 }];
    const fill = async (page: Row[]) => {
      await fillLookups(services, model, tenantId, page);
    };
    return sortedPage(ctx, rows, fallback, 'customerId', fill, { summary, dateFrom: f.period.from ?? null, dateTo: f.period.to ?? null });
  });

  services.register('mallReport.customersTotal', async (ctx) => {
    const { tenantId } = mustCaller(ctx);
    return customersTotal(mallFilter(ctx), tenantId, await tenantPlaces(services, tenantId));
  });

  /**
   * Every partner of the tenant with the customers referred to them (erp_customer_recommend_rank:
   * the customer file's partner, else the latest approved referral) and those customers' mall
   * orders over the filter. A customer has one partner, so every figure adds up over partners.
   */
  async function partnerRows(ctx: Ctx, f: MallFilter, tenantId: string, places: Places): Promise<Row[]> {
    const c: RawBuilder<unknown>[] = [sql`p.tenant_id = ${tenantId}`, sql`p.is_deleted = 0`];
    const partnerId = idParam(ctx, 'partnerId');
    if (partnerId) c.push(sql`p.partner_id = ${partnerId}`);
    const name = valueParam(ctx, 'partnerName')?.trim();
    if (name) {
      const pattern = `%${name.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
      c.push(sql`p.partner_id in (select n.id from erp_partner n where n.tenant_id = ${tenantId} and n.is_deleted = 0 and n.user_name like ${pattern} escape '\\')`);
    }
    const found = await sql<Record<string, unknown>>`select p.partner_id as k, count(r.customer_id) as customer_count, count(o.customer_id) as buyer_count,
        sum(o.order_count) as order_count, sum(o.total_amt) as total_amt, sum(o.coupon_amt) as coupon_amt, sum(o.final_amt) as final_amt
      from ${sql.table(PARTNERS)} p
      left join ${sql.table(REFERRALS)} r on r.tenant_id = p.tenant_id and r.partner_id = p.partner_id
      left join (select customer_id, count(*) as order_count, sum(total_amt) as total_amt, sum(coupon_amt) as coupon_amt, sum(final_amt) as final_amt
          from ${sql.table(ORDERS)} where ${mallWhere({ ...f, customerId: undefined, rangeId: undefined }, tenantId, 'orders')} group by customer_id) o
        on o.customer_id = r.customer_id
      where ${whereOf(c)} group by p.partner_id`.execute(db());
    const sums = found.rows.map((r) => ({
      partnerId: String(r.k),
      customerCount: countOf(r.customer_count),
      buyerCount: countOf(r.buyer_count),
      orderCount: countOf(r.order_count),
      totalAmt: dec(r.total_amt),
      couponAmt: dec(r.coupon_amt),
      finalAmt: dec(r.final_amt),
    }));
    const whole = sums.reduce((t, s) => t.plus(s.finalAmt), new Dec(0));
    return sums.map((s) => ({
      partnerId: s.partnerId,
      customerCount: s.customerCount,
      buyerCount: s.buyerCount,
      conversionRate: percent(new Dec(s.buyerCount), new Dec(s.customerCount)),
      orderCount: s.orderCount,
      ...amounts(s, places),
      amountShare: percent(s.finalAmt, whole),
    }));
  }

  function partnersTotal(rows: Row[], f: MallFilter, places: Places): Row {
    const add = (field: string) => rows.reduce((t, r) => t.plus(String(r[field])), new Dec(0));
    const count = (field: string) => rows.reduce((t, r) => t + Number(r[field]), 0);
    const s = { orderCount: count('orderCount'), totalAmt: add('totalAmt'), couponAmt: add('couponAmt'), finalAmt: add('orderAmt') };
    const [customers, buyers] = [count('customerCount'), count('buyerCount')];
    return {
      partnerCount: rows.length,
      customerCount: customers,
      buyerCount: buyers,
      conversionRate: percent(new Dec(buyers), new Dec(customers)),
      orderCount: s.orderCount,
      ...amounts(s, places),
      amountShare: s.finalAmt.isZero() ? '0.00' : '100.00',
      dateFrom: f.period.from ?? null,
      dateTo: f.period.to ?? null,
    };
  }

  /** recommendedanalysis/list: one row per partner, largest mall order amount first. */
  services.register('mallReport.recommended', async (ctx, model) => {
    const { tenantId } = mustCaller(ctx);
    const f = mallFilter(ctx);
    const places = await tenantPlaces(services, tenantId);
    const rows = await partnerRows(ctx, f, tenantId, places);
    const summary = partnersTotal(rows, f, places);
    const fallback: SortKey[] = [{ field: 'orderAmt', dir: -1 }, { field: 'customerCount', dir: -1 }];
    const fill = async (page: Row[]) => {
      await fillLookups(services, model, tenantId, page);
    };
    return sortedPage(ctx, rows, fallback, 'partnerId', fill, { summary, dateFrom: f.period.from ?? null, dateTo: f.period.to ?? null });
  });

  services.register('mallReport.recommendedTotal', async (ctx) => {
    const { tenantId } = mustCaller(ctx);
    const f = mallFilter(ctx);
    const places = await tenantPlaces(services, tenantId);
    return partnersTotal(await partnerRows(ctx, f, tenantId, places), f, places);
  });
}
