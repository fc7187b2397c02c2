/**
 * The people reports: 业绩分析 per salesperson (view erp_staff_sales: posted sales and return
 * lines, with the money each salesperson received) and deliveries per driver (view
 * erp_driver_delivery: the live sales-outs on delivery runs). The supplier-portal and referral
 * reports are in people-partners.ts. Meanings are in the schemas under schemas/analysis/.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Services } from '../services.ts';
import { mustCaller, type Ctx } from '../http/context.ts';
import type { Row } from '../engine/store.ts';
import { badRequest } from '../errors.ts';
import { fillLookups } from '../engine/lookups.ts';
import { tenantPlaces } from '../engine/document/context.ts';
import { Dec, fixed, type Decimal } from '../../shared/money/index.ts';
import { addDays, periodOf } from './period.ts';
import { countOf, decimalReader, idParam, pageOf, percent, periodConditions, periodFor, ratio, sortRows, textOf, viewPage, whereOf } from './report-rows.ts';
import { registerPartnerPeopleHandlers, SALES_BILLS } from './people-partners.ts';
import { readRollup, type KeyFilter } from '../engine/materialized.ts';
import { LINES as SALES_LINES } from './sales.ts';

/** Money bills that bring a customer's money in (+) or pay it back (−), by their head's salesperson. */
const MONEY_BILLS: [table: string, sign: 1 | -1][] = [
  ['erp_receipt_head', 1],
  ['erp_ar_settle_head', 1],
  ['erp_prepayment_head', 1],
  ['erp_sales_refund_head', -1],
];

export function registerPeopleHandlers(services: Services) {
  const { store } = services;
  registerPartnerPeopleHandlers(services);

  /** Staff ids of a department (the salesperson's own department, as the staff file says now). */
  const staffOfDept = (tenantId: string, deptId: string) => sql`(select st.id from erp_staff st where st.tenant_id = ${tenantId} and st.is_deleted = 0 and st.dept_id = ${deptId})`;

  services.register('staffReport.list', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const tenantId = caller.tenantId;
    const places = await tenantPlaces(services, tenantId);
    const period = periodOf(ctx);
    const dec = decimalReader(services);
    const staffFilter = (column: string): RawBuilder<unknown>[] => {
      const out: RawBuilder<unknown>[] = [];
      const staffId = idParam(ctx, 'staffId');
      if (staffId) out.push(sql`${sql.ref(column)} = ${staffId}`);
      const deptId = idParam(ctx, 'deptId');
      if (deptId) out.push(sql`${sql.ref(column)} in ${staffOfDept(tenantId, deptId)}`);
      return out;
    };
    // Sales per salesperson from the monthly rollup of the materialized sales lines (erp_sales_analysis,
    // head: whole months) and its rows (the days around them); customers from the posted sales bills
    // (erp_partner_sales_bill, one row per bill): the same lines as erp_staff_sales, so the same figures.
    const staffId = idParam(ctx, 'staffId');
    const deptId = idParam(ctx, 'deptId');
    let staffIds: string[] | undefined;
    if (deptId) {
      const members = (await sql<{ id: string }>`select st.id from erp_staff st where st.tenant_id = ${tenantId} and st.is_deleted = 0 and st.dept_id = ${deptId}`.execute(store.db)).rows.map((r) => String(r.id));
      staffIds = staffId ? members.filter((id) => id === staffId) : members;
    } else if (staffId) staffIds = [staffId];
    const filter: KeyFilter = staffIds ? { staff_id: staffIds } : {};
    // SQLite: the day compared as an expression, so the bills are read through the (salesperson,
    // customer, day) index that holds it, not the day index (a period is most of the table).
    // PostgreSQL reads the period by the day and hashes the pairs, which is faster there.
    const day = store.dialect === 'sqlite' ? sql`(bill_date || '')` : sql`bill_date`;
    const billWhere = whereOf([
      sql`tenant_id = ${tenantId}`,
      ...(period.from ? [sql`${day} >= ${period.from}`] : []),
      ...(period.to ? [sql`${day} < ${addDays(period.to, 1)}`] : []),
      ...(staffIds ? [staffIds.length ? sql`staff_id in (${sql.join(staffIds)})` : sql`1 = 0`] : []),
    ]);
    // Each salesperson's distinct customers and the whole's (a customer may buy from two). PostgreSQL:
    // one pass over the (salesperson, customer) pairs of the period (its count(distinct) sorts every
    // group: 3× slower); SQLite: two counts through the covering index (its CTE pass is 2× slower).
    const customerCounts = async (): Promise<Record<string, unknown>[]> => {
      if (store.dialect !== 'sqlite') {
        return (await sql<Record<string, unknown>>`with pairs as (select staff_id, customer_id from ${sql.table(SALES_BILLS)} where ${billWhere} and customer_id is not null group by staff_id, customer_id)
          select staff_id as k, count(*) as n, 0 as whole from pairs group by staff_id
          union all select null, count(distinct customer_id), 1 from pairs`.execute(store.db)).rows;
      }
      const [each, whole] = await Promise.all([
        sql<Record<string, unknown>>`select staff_id as k, count(distinct customer_id) as n, 0 as whole from ${sql.table(SALES_BILLS)} where ${billWhere} group by staff_id`.execute(store.db),
        sql<Record<string, unknown>>`select null as k, count(distinct customer_id) as n, 1 as whole from ${sql.table(SALES_BILLS)} where ${billWhere}`.execute(store.db),
      ]);
      return [...each.rows, ...whole.rows];
    };
    const [sales, customerRows] = await Promise.all([
      readRollup(services.registry, SALES_LINES, 'head', { tenantId, from: period.from, to: period.to, filter, group: 'staff_id' }).execute(store.db),
      customerCounts(),
    ]);
    const customers = { rows: customerRows };
    const customersOf = new Map(customers.rows.filter((r) => countOf(r.whole) === 0).map((r) => [textOf(r.k) ?? '', countOf(r.n)]));
    const overall = { customer_count: customers.rows.find((r) => countOf(r.whole) === 1)?.n };

    const money = sql.join(
      MONEY_BILLS.map(([table, sign]) => sql`select tenant_id, is_deleted, bill_status, bill_date, coalesce(staff_id, '') as staff_id, ${sql.raw(String(sign))} * coalesce(precp_amt, 0) as amt from ${sql.table(table)}`),
      sql` union all `,
    );
    const moneyWhere = whereOf([sql`tenant_id = ${tenantId}`, sql`is_deleted = 0`, sql`bill_status = '1306'`, ...periodConditions('bill_date', period), ...staffFilter('staff_id')]);
    const received = await sql<Record<string, unknown>>`select staff_id as k, sum(amt) as amt, count(*) as n from (${money}) m where ${moneyWhere} group by staff_id`.execute(store.db);

    interface Staff { outAmt: Decimal; returnAmt: Decimal; totalAmt: Decimal; salesAmt: Decimal; costAmt: Decimal; receivedAmt: Decimal; billCount: number; returnBillCount: number; customerCount: number; receiptCount: number }
    const zero = new Dec(0);
    const blank = (): Staff => ({ outAmt: zero, returnAmt: zero, totalAmt: zero, salesAmt: zero, costAmt: zero, receivedAmt: zero, billCount: 0, returnBillCount: 0, customerCount: 0, receiptCount: 0 });
    const byStaff = new Map<string, Staff>();
    const entry = (key: string) => {
      let s = byStaff.get(key);
      if (!s) byStaff.set(key, (s = blank()));
      return s;
    };
    const salesOf = (r: Record<string, unknown>) => ({
      outAmt: dec(r.out_amt), returnAmt: dec(r.return_amt), totalAmt: dec(r.total_amt), salesAmt: dec(r.sales_amt), costAmt: dec(r.cost_amt),
      billCount: countOf(r.bill_count), returnBillCount: countOf(r.return_bill_count), customerCount: customersOf.get(textOf(r.k) ?? '') ?? 0,
    });
    for (const r of sales.rows) Object.assign(entry(textOf(r.k) ?? ''), salesOf(r));
    for (const r of received.rows) Object.assign(entry(textOf(r.k) ?? ''), { receivedAmt: dec(r.amt), receiptCount: countOf(r.n) });

    const all = [...byStaff.values()];
    const whole = all.reduce((a, s) => a.plus(s.totalAmt), zero);
    const show = (s: Staff, share: boolean): Row => {
      const grossProfit = s.salesAmt.minus(s.costAmt);
      return {
        billCount: s.billCount,
        returnBillCount: s.returnBillCount,
        customerCount: s.customerCount,
        outAmt: fixed(s.outAmt, places.amount),
        returnAmt: fixed(s.returnAmt, places.amount),
        totalAmt: fixed(s.totalAmt, places.amount),
        salesAmt: fixed(s.salesAmt, places.amount),
        costAmt: fixed(s.costAmt, places.amount),
        grossProfit: fixed(grossProfit, places.amount),
        grossMargin: percent(grossProfit, s.salesAmt),
        avgBillAmt: ratio(s.totalAmt, s.billCount, places.amount),
        receivedAmt: fixed(s.receivedAmt, places.amount),
        receiptCount: s.receiptCount,
        ...(share ? { amountShare: percent(s.totalAmt, whole) } : {}),
      };
    };
    const staffRows = new Map((byStaff.size ? await store.find(services.m('staff'), tenantId, { where: { id: [...byStaff.keys()].filter(Boolean) } }) : []).map((s) => [String(s.id), s]));
    const rows = [...byStaff.entries()].map(([key, s]) => ({ id: key || '-', staffId: key || null, deptId: staffRows.get(key)?.deptId ?? null, ...show(s, true) }) as Row);
    await fillLookups(services, model, tenantId, rows);
    for (const r of rows) if (!r.staffId) r.staffName = '未指定业务员';
    sortRows(ctx, rows, { field: 'totalAmt', dir: -1 }, 'staffCode');
    rows.forEach((r, i) => (r.rank = i + 1));
    // The whole's customers are counted once in SQL (one customer may buy from two salespeople).
    const total = all.reduce(
      (a, s) => ({ ...a, outAmt: a.outAmt.plus(s.outAmt), returnAmt: a.returnAmt.plus(s.returnAmt), totalAmt: a.totalAmt.plus(s.totalAmt), salesAmt: a.salesAmt.plus(s.salesAmt), costAmt: a.costAmt.plus(s.costAmt), receivedAmt: a.receivedAmt.plus(s.receivedAmt), billCount: a.billCount + s.billCount, returnBillCount: a.returnBillCount + s.returnBillCount, receiptCount: a.receiptCount + s.receiptCount }),
      { ...blank(), customerCount: countOf(overall?.customer_count) },
    );
    return pageOf(ctx, rows, { summary: { staffCount: rows.length, ...show(total, false) }, dateFrom: period.from ?? null, dateTo: period.to ?? null });
  });

  /** Filters of the driver report over erp_driver_delivery (delivery date; driver, car, route, status). */
  function deliveryFilters(ctx: Ctx): { conditions: RawBuilder<unknown>[]; from: string | null; to: string | null } {
    const period = periodFor(ctx, 'deliveryDate', '配送');
    const conditions = periodConditions('delivery_date', period);
    for (const [name, column] of [['driverId', 'driver_id'], ['carId', 'car_id'], ['routeId', 'route_id'], ['deliveryStatus', 'delivery_status'], ['customerId', 'customer_id']] as const) {
      const value = idParam(ctx, name);
      if (value) conditions.push(sql`${sql.ref(column)} = ${value}`);
    }
    return { conditions, from: period.from ?? null, to: period.to ?? null };
  }

  /** Σ per driver (or over everything) of the runs, sales-outs, customers, quantities and amounts. */
  async function deliveries(tenantId: string, conditions: RawBuilder<unknown>[], perDriver: boolean) {
    const key = perDriver ? sql`driver_id` : sql`''`;
    const result = await sql<Record<string, unknown>>`select ${key} as k,
        count(distinct run_id) as run_count, count(*) as so_count,
        sum(case when delivery_status in ('3005', '3006') then 1 else 0 end) as finished_so_count,
        count(distinct nullif(customer_id, '')) as customer_count,
        sum(total_qty) as total_qty, sum(total_amt) as total_amt,
        sum(case when delivery_status in ('3005', '3006') then total_amt else 0 end) as finished_amt,
        max(delivery_date) as last_date
      from erp_driver_delivery where ${whereOf([sql`tenant_id = ${tenantId}`, sql`is_deleted = 0`, ...conditions])}${perDriver ? sql` group by driver_id` : sql``}`.execute(store.db);
    const dec = decimalReader(services);
    const places = await tenantPlaces(services, tenantId);
    return result.rows
      .filter((r) => countOf(r.so_count) > 0)
      .map((r) => {
        const soCount = countOf(r.so_count);
        const finished = countOf(r.finished_so_count);
        const runCount = countOf(r.run_count);
        return {
          key: textOf(r.k) ?? '',
          amount: dec(r.total_amt),
          row: {
            runCount,
            soCount,
            finishedSoCount: finished,
            finishedRate: percent(new Dec(finished), new Dec(soCount)),
            customerCount: countOf(r.customer_count),
            totalQty: fixed(dec(r.total_qty), places.quantity),
            totalAmt: fixed(dec(r.total_amt), places.amount),
            finishedAmt: fixed(dec(r.finished_amt), places.amount),
            avgRunAmt: ratio(dec(r.total_amt), runCount, places.amount),
            lastDeliveryDate: textOf(r.last_date)?.slice(0, 10) ?? null,
          } as Row,
        };
      });
  }

  services.register('driverReport.list', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const { conditions, from, to } = deliveryFilters(ctx);
    const groups = await deliveries(caller.tenantId, conditions, true);
    const rows = groups.map((g) => ({ id: g.key || '-', driverId: g.key || null, ...g.row }) as Row);
    await fillLookups(services, model, caller.tenantId, rows);
    for (const r of rows) if (!r.driverId) r.driverName = '未指定司机';
    sortRows(ctx, rows, { field: 'totalAmt', dir: -1 }, 'driverCode');
    const [overall] = await deliveries(caller.tenantId, conditions, false);
    const summary = { driverCount: rows.length, ...(overall?.row ?? (await emptyDeliveries(caller.tenantId))) };
    return pageOf(ctx, rows, { summary, dateFrom: from, dateTo: to });
  });

  async function emptyDeliveries(tenantId: string): Promise<Row> {
    const places = await tenantPlaces(services, tenantId);
    const none = fixed(0, places.amount);
    return { runCount: 0, soCount: 0, finishedSoCount: 0, finishedRate: '0.00', customerCount: 0, totalQty: fixed(0, places.quantity), totalAmt: none, finishedAmt: none, avgRunAmt: none, lastDeliveryDate: null };
  }

  services.register('driverReport.detailList', async (ctx, model) => {
    const caller = mustCaller(ctx);
    if (!idParam(ctx, 'driverId')) throw badRequest('请选择司机', { fieldErrors: { driverId: '请选择司机' } });
    const { conditions, from, to } = deliveryFilters(ctx);
    const page = await viewPage(ctx, services, model, caller.tenantId, conditions, 'delivery_date desc, run_no desc, bill_no asc, id asc');
    const [overall] = await deliveries(caller.tenantId, conditions, false);
    return { ...page, summary: overall?.row ?? (await emptyDeliveries(caller.tenantId)), dateFrom: from, dateTo: to };
  });
}
