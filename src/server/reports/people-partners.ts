/**
 * The outside people reports: the supplier portal's state per supplier (view erp_srm_login_info:
 * no portal login exists yet, only the pushSrm outbox) and partners ranked by what the customers
 * they recommended bought (view erp_customer_recommend_rank for who recommended whom; sales from
 * the customer-analysis view erp_customer_analysis). Meanings are in schemas/analysis/.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Services } from '../services.ts';
import { mustCaller } from '../http/context.ts';
import type { Row } from '../engine/store.ts';
import { rowFromDb } from '../engine/model.ts';
import { badRequest, notFound } from '../errors.ts';
import { fillLookups } from '../engine/lookups.ts';
import { tenantPlaces } from '../engine/document/context.ts';
import { Dec, fixed, type Decimal, type Places } from '../../shared/money/index.ts';
import { valueParam } from '../system/params.ts';
import { periodOf, type Period } from './period.ts';
import { countOf, decimalReader, idParam, inTree, pageOf, percent, periodConditions, sortRows, textOf, viewPage, whereOf } from './report-rows.ts';
import { readRollup, type KeyFilter } from '../engine/materialized.ts';
import { LINES as SALES_LINES, salesSumsOf, type SalesSums } from './sales.ts';

/** Supplier-portal columns that wait for a portal: no supplier account or login exists yet. */
const NO_PORTAL = { portalAccount: null, portalStatus: '未开通', loginCount: 0, lastLoginTime: null };
const APPROVED = 2903;

export interface Sales {
  buyerCount: number;
  billCount: number;
  returnBillCount: number;
  outAmt: Decimal;
  returnAmt: Decimal;
  totalAmt: Decimal;
  salesAmt: Decimal;
  costAmt: Decimal;
  lastSaleDate: string | null;
}

const NO_SALES: Sales = { buyerCount: 0, billCount: 0, returnBillCount: 0, outAmt: new Dec(0), returnAmt: new Dec(0), totalAmt: new Dec(0), salesAmt: new Dec(0), costAmt: new Dec(0), lastSaleDate: null };

/** Posted sales bills, one row per bill (schemas/analysis/partner-sales-bill.json, materialized). */
export const SALES_BILLS = 'erp_partner_sales_bill';

export const addSales = (a: Sales, b: Sales): Sales => ({
  buyerCount: a.buyerCount + b.buyerCount,
  billCount: a.billCount + b.billCount,
  returnBillCount: a.returnBillCount + b.returnBillCount,
  outAmt: a.outAmt.plus(b.outAmt),
  returnAmt: a.returnAmt.plus(b.returnAmt),
  totalAmt: a.totalAmt.plus(b.totalAmt),
  salesAmt: a.salesAmt.plus(b.salesAmt),
  costAmt: a.costAmt.plus(b.costAmt),
  lastSaleDate: a.lastSaleDate === null || (b.lastSaleDate !== null && b.lastSaleDate > a.lastSaleDate) ? b.lastSaleDate : a.lastSaleDate,
});

/**
 * Each customer's posted sales over the period (customers: all, or these): the sums from the
 * monthly rollup `head` of the materialized sales lines (erp_sales_analysis; whole months from the
 * rollup, the days around them from its rows) — the lines erp_customer_analysis shows, since both
 * are the posted sales and return lines that name a customer — and the first and last sale day from
 * the posted sales bills (erp_partner_sales_bill). Customers without a line in the period are absent.
 */
export async function customerSales(services: Services, tenantId: string, period: Period, customers?: string[]): Promise<Map<string, Sales & { sums: SalesSums; lineCount: number; firstSaleDate: string | null }>> {
  const db = services.store.db;
  // A long list of customers is read whole and picked here (one statement either way).
  const few = customers && customers.length <= 500 ? customers : undefined;
  const filter: KeyFilter = few ? { customer_id: few } : {};
  // First and last sale of each customer: two index look-ups each (customer, sale, day), the
  // customers taken from the customer file (a customer the lists show is one of its rows).
  const sold = whereOf([sql`b.tenant_id = k.tenant_id`, sql`b.customer_id = k.id`, sql`b.is_return = 1`, ...periodConditions('b.bill_date', period)]);
  const keys = whereOf([sql`k.tenant_id = ${tenantId}`, ...(few ? [sql`k.id in (${sql.join(few)})`] : [])]);
  const [sums, dates] = await Promise.all([
    readRollup(services.registry, SALES_LINES, 'head', { tenantId, from: period.from, to: period.to, filter, group: 'customer_id' }).execute(db),
    sql<Record<string, unknown>>`select k.id as k, (select min(b.bill_date) from ${sql.table(SALES_BILLS)} b where ${sold}) as first_date,
        (select max(b.bill_date) from ${sql.table(SALES_BILLS)} b where ${sold}) as last_date
      from erp_customer k where ${keys}`.execute(db),
  ]);
  const dec = decimalReader(services);
  const day = (v: unknown) => textOf(v)?.slice(0, 10) ?? null;
  const dated = new Map(dates.rows.map((r) => [textOf(r.k) ?? '', { first: day(r.first_date), last: day(r.last_date) }]));
  const wanted = customers ? new Set(customers) : undefined;
  const out = new Map<string, Sales & { sums: SalesSums; lineCount: number; firstSaleDate: string | null }>();
  for (const r of sums.rows) {
    const key = textOf(r.k) ?? '';
    if (!key || (wanted && !wanted.has(key))) continue;
    const s = salesSumsOf(r, dec);
    out.set(key, {
      buyerCount: 1,
      billCount: s.billCount,
      returnBillCount: s.returnBillCount,
      outAmt: s.outAmt,
      returnAmt: s.returnAmt,
      totalAmt: s.totalAmt,
      salesAmt: s.salesAmt,
      costAmt: s.costAmt,
      lastSaleDate: dated.get(key)?.last ?? null,
      firstSaleDate: dated.get(key)?.first ?? null,
      sums: s,
      lineCount: countOf(r.line_count),
    });
  }
  return out;
}

function showSales(s: Sales, places: Places, whole?: Decimal): Row {
  return {
    buyerCount: s.buyerCount,
    billCount: s.billCount,
    returnBillCount: s.returnBillCount,
    outAmt: fixed(s.outAmt, places.amount),
    returnAmt: fixed(s.returnAmt, places.amount),
    totalAmt: fixed(s.totalAmt, places.amount),
    salesAmt: fixed(s.salesAmt, places.amount),
    grossProfit: fixed(s.salesAmt.minus(s.costAmt), places.amount),
    ...(whole ? { amountShare: percent(s.totalAmt, whole) } : {}),
    lastSaleDate: s.lastSaleDate,
  };
}

export function registerPartnerPeopleHandlers(services: Services) {
  const { store } = services;

  services.register('srmReport.loginInfoList', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const tenantId = caller.tenantId;
    const conditions: RawBuilder<unknown>[] = [];
    const supplierId = idParam(ctx, 'supplierId');
    if (supplierId) conditions.push(sql`supplier_id = ${supplierId}`);
    const name = valueParam(ctx, 'bartererName')?.trim();
    if (name) conditions.push(sql`barterer_name like ${`%${name}%`}`);
    const natureId = idParam(ctx, 'natureId');
    if (natureId && natureId !== '-1') conditions.push(inTree('nature_id', 'erp_supplier_nature', tenantId, natureId));
    const status = idParam(ctx, 'supplierStatus');
    if (status) {
      if (!/^\d+$/.test(status)) throw badRequest('合作状态必须是整数', { fieldErrors: { supplierStatus: '合作状态必须是整数' } });
      conditions.push(sql`supplier_status = ${Number(status)}`);
    }
    const pushed = valueParam(ctx, 'pushed')?.trim();
    if (pushed) {
      if (pushed !== '1' && pushed !== '2') throw badRequest('pushed 只能是 1（未推送）或 2（推送过）');
      conditions.push(sql`has_push = ${pushed === '2' ? 1 : 0}`);
    }
    const page = await viewPage(ctx, services, model, tenantId, conditions, 'has_push desc, last_push_time desc, barterer_code asc, id asc');
    for (const r of page.records as Row[]) Object.assign(r, NO_PORTAL);
    const totals = (
      await sql<Record<string, unknown>>`select count(*) as n, sum(order_count) as orders, sum(pushed_order_count) as pushed, sum(push_count) as pushes, sum(pending_count) as pending, sum(has_push) as suppliers
        from erp_srm_login_info where ${whereOf([sql`tenant_id = ${tenantId}`, sql`is_deleted = 0`, ...conditions])}`.execute(store.db)
    ).rows[0];
    const summary = {
      supplierCount: countOf(totals?.n),
      pushedSupplierCount: countOf(totals?.suppliers),
      orderCount: countOf(totals?.orders),
      pushedOrderCount: countOf(totals?.pushed),
      pushCount: countOf(totals?.pushes),
      pendingCount: countOf(totals?.pending),
      loginCount: 0,
    };
    return { ...page, summary };
  });

  /**
   * Sales of recommended customers over the period, per partner or (for one partner) per customer:
   * who recommended whom from erp_customer_recommend_rank, each customer's sales from the monthly
   * rollup of the sales lines (customerSales), added up per partner (a bill has one customer, a
   * customer one partner, so bill counts add up; buyers are the customers with a line).
   */
  async function recommendedSales(tenantId: string, period: Period, by: 'partner' | 'customer', partnerId?: string): Promise<Map<string, Sales>> {
    const links = await sql<Record<string, unknown>>`select customer_id, partner_id from erp_customer_recommend_rank where tenant_id = ${tenantId} and is_deleted = 0${partnerId ? sql` and partner_id = ${partnerId}` : sql``}`.execute(store.db);
    const partnerOf = new Map(links.rows.map((r) => [textOf(r.customer_id) ?? '', textOf(r.partner_id) ?? '']));
    partnerOf.delete('');
    const out = new Map<string, Sales>();
    if (!partnerOf.size) return out;
    for (const [customer, s] of await customerSales(services, tenantId, period, [...partnerOf.keys()])) {
      const key = by === 'partner' ? partnerOf.get(customer)! : customer;
      out.set(key, addSales(out.get(key) ?? NO_SALES, { ...s, buyerCount: 1 }));
    }
    return out;
  }

  /** Per partner: recommendations made (and approved), customers attributed. */
  async function partnerCounts(tenantId: string, partnerId?: string) {
    const only = (column: string) => (partnerId ? sql` and ${sql.ref(column)} = ${partnerId}` : sql``);
    const recommended = await sql<Record<string, unknown>>`select partner_id as k, count(*) as n, sum(case when audit_status = ${APPROVED} then 1 else 0 end) as approved
      from erp_customer_recommended where tenant_id = ${tenantId} and is_deleted = 0 and partner_id is not null${only('partner_id')} group by partner_id`.execute(store.db);
    const customers = await sql<Record<string, unknown>>`select partner_id as k, count(*) as n from erp_customer_recommend_rank where tenant_id = ${tenantId} and is_deleted = 0${only('partner_id')} group by partner_id`.execute(store.db);
    const out = new Map<string, { recommendCount: number; approvedCount: number; customerCount: number }>();
    const entry = (k: unknown) => {
      const key = textOf(k) ?? '';
      let c = out.get(key);
      if (!c) out.set(key, (c = { recommendCount: 0, approvedCount: 0, customerCount: 0 }));
      return c;
    };
    for (const r of recommended.rows) Object.assign(entry(r.k), { recommendCount: countOf(r.n), approvedCount: countOf(r.approved) });
    for (const r of customers.rows) entry(r.k).customerCount = countOf(r.n);
    return out;
  }


  services.register('recommendRank.page', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const tenantId = caller.tenantId;
    const places = await tenantPlaces(services, tenantId);
    const period = periodOf(ctx);
    const partnerId = idParam(ctx, 'partnerId');
    const counts = await partnerCounts(tenantId, partnerId);
    const sales = await recommendedSales(tenantId, period, 'partner', partnerId);
    const keys = [...new Set([...counts.keys(), ...sales.keys()])].filter(Boolean);
    const whole = [...sales.values()].reduce((a, s) => a.plus(s.totalAmt), new Dec(0));
    let rows = keys.map((key) => ({
      id: key,
      partnerId: key,
      ...(counts.get(key) ?? { recommendCount: 0, approvedCount: 0, customerCount: 0 }),
      ...showSales(sales.get(key) ?? NO_SALES, places, whole),
    }) as Row);
    await fillLookups(services, model, tenantId, rows);
    const name = valueParam(ctx, 'partnerName', 'userName')?.trim();
    if (name) rows = rows.filter((r) => String(r.partnerName ?? '').includes(name));
    for (const r of rows) if (!r.partnerName) r.partnerName = '（合伙人已删除）';
    // The ranking: net sales, then the customers brought in; ascs/descs may ask for another order.
    if (ctx.query.ascs || ctx.query.descs) sortRows(ctx, rows, { field: 'totalAmt', dir: -1 }, 'partnerName');
    else rows.sort((a, b) => new Dec(String(b.totalAmt)).comparedTo(String(a.totalAmt)) || Number(b.customerCount) - Number(a.customerCount) || String(a.partnerName).localeCompare(String(b.partnerName)));
    rows.forEach((r, i) => (r.rank = i + 1));
    const kept = new Set(rows.map((r) => String(r.partnerId)));
    const total = [...sales.entries()].filter(([k]) => kept.has(k)).reduce((a, [, s]) => addSales(a, s), NO_SALES);
    const sum = (field: string) => rows.reduce((n, r) => n + Number(r[field] ?? 0), 0);
    const summary = { partnerCount: rows.length, recommendCount: sum('recommendCount'), approvedCount: sum('approvedCount'), customerCount: sum('customerCount'), ...showSales(total, places) };
    return pageOf(ctx, rows, { summary, dateFrom: period.from ?? null, dateTo: period.to ?? null });
  });

  services.register('recommendRank.detail', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const tenantId = caller.tenantId;
    const partnerId = valueParam(ctx, 'partnerId', 'partnerId_equal', 'id')?.trim();
    if (!partnerId) throw badRequest('请选择合伙人', { fieldErrors: { partnerId: '请选择合伙人' } });
    const partner = (await store.find(services.m('partner'), tenantId, { where: { id: partnerId } }))[0];
    if (!partner) throw notFound('合伙人不存在或已被删除');
    const places = await tenantPlaces(services, tenantId);
    const period = periodOf(ctx);
    const found = await sql<Record<string, unknown>>`select * from erp_customer_recommend_rank where tenant_id = ${tenantId} and is_deleted = 0 and partner_id = ${partnerId}`.execute(store.db);
    const sales = await recommendedSales(tenantId, period, 'customer', partnerId);
    const total = [...sales.values()].reduce(addSales, NO_SALES);
    const rows = found.rows.map((r) => {
      const row = rowFromDb(model, r, store.dialect) as Row;
      const { buyerCount: _buyers, ...figures } = showSales(sales.get(String(row.customerId)) ?? NO_SALES, places, total.totalAmt);
      void _buyers;
      return { ...row, ...figures } as Row;
    });
    await fillLookups(services, model, tenantId, rows);
    sortRows(ctx, rows, { field: 'totalAmt', dir: -1 }, 'bartererCode');
    const counts = (await partnerCounts(tenantId, partnerId)).get(partnerId) ?? { recommendCount: 0, approvedCount: 0, customerCount: 0 };
    const head = { partnerId, partnerName: partner.userName ?? null, phone: partner.phone ?? null, recommendedCode: partner.recommendedCode ?? null, ...counts, ...showSales(total, places) };
    return pageOf(ctx, rows, { ...head, summary: head, dateFrom: period.from ?? null, dateTo: period.to ?? null });
  });
}

