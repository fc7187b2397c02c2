/**
 * Sales statistics (销售统计): retail takings per day and settlement method (cashList) and per
 * method (payTypeList) from the view erp_sales_takings (posted retail sales and returns, one row
 * per bill, returns negative); sales per department (deptList) and the period's totals (total)
 * from the posted sales lines, as the sales analysis counts them. Meanings: schemas/analysis/sales-statistics.json.
 */
import { sql } from 'kysely';
import type { Services } from '../services.ts';
import type { Model } from '../engine/model.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller, type Ctx } from '../http/context.ts';
import { fillLookups } from '../engine/lookups.ts';
import { tenantPlaces } from '../engine/document/context.ts';
import { Dec, fixed } from '../../shared/money/index.ts';
import { filterSql, groupRows, present, salesFilter, sumSales, zero } from './sales.ts';
import { decimalReader, pageOf, percent, ratio, sortRows } from './report-rows.ts';

const TAKINGS = 'erp_sales_takings';

export function registerSalesStatisticsHandlers(services: Services) {
  /** Takings per group (day and method, or method): counts, sales, refunds (positive), net. */
  async function takings(ctx: Ctx, model: Model, byDay: boolean): Promise<Row[]> {
    const { tenantId } = mustCaller(ctx);
    const places = await tenantPlaces(services, tenantId);
    const f = await salesFilter(services, ctx, tenantId);
    const day = byDay ? sql`substr(bill_date, 1, 10)` : sql`''`;
    const result = await sql<Record<string, unknown>>`select ${day} as d, settlement_id as s,
        count(case when is_return = 1 then 1 end) as bill_count,
        count(case when is_return = 2 then 1 end) as return_bill_count,
        sum(case when is_return = 1 then final_amt else 0 end) as sale_amt,
        sum(case when is_return = 2 then 0 - final_amt else 0 end) as refund_amt,
        sum(final_amt) as net_amt
      from ${sql.table(TAKINGS)} where ${filterSql(f, tenantId, 'takings')}
      group by ${byDay ? sql`substr(bill_date, 1, 10), ` : sql``}settlement_id`.execute(services.store.db);
    const dec = decimalReader(services);
    const money = (v: unknown) => fixed(dec(v), places.amount);
    const rows: Row[] = result.rows.map((r) => ({
      ...(byDay ? { billDate: String(r.d) } : {}),
      settlementId: r.s ?? null,
      billCount: Number(r.bill_count ?? 0),
      returnBillCount: Number(r.return_bill_count ?? 0),
      saleAmt: money(r.sale_amt),
      refundAmt: money(r.refund_amt),
      netAmt: money(r.net_amt),
    }));
    await fillLookups(services, model, tenantId, rows);
    for (const row of rows) row.settlementName ||= '未指定结算方式';
    return rows;
  }

  services.register('salesReport.cashList', async (ctx, model) => {
    const rows = await takings(ctx, model, true);
    sortRows(ctx, rows, [{ field: 'billDate', dir: -1 }, { field: 'settlementName', dir: 1 }], { field: 'settlementId', dir: 1 });
    return pageOf(ctx, rows);
  });

  services.register('salesReport.payTypeList', async (ctx, model) => {
    const rows = await takings(ctx, model, false);
    const whole = rows.reduce((s, r) => s.plus(r.netAmt as string), new Dec(0));
    for (const row of rows) row.amountShare = percent(new Dec(row.netAmt as string), whole);
    sortRows(ctx, rows, [{ field: 'netAmt', dir: -1 }], { field: 'settlementName', dir: 1 });
    return rows;
  });

  services.register('salesReport.deptList', async (ctx, model) => {
    const { tenantId } = mustCaller(ctx);
    const places = await tenantPlaces(services, tenantId);
    const groups = await sumSales(services, tenantId, await salesFilter(services, ctx, tenantId), 'dept_id');
    const rows = await groupRows(services, model, tenantId, 'dept', groups, places);
    const whole = groups.reduce((s, g) => s.plus(g.totalAmt), new Dec(0));
    for (const row of rows) {
      row.deptId = row.groupKey;
      row.deptName = row.groupName;
      row.amountShare = percent(new Dec(row.totalAmt as string), whole);
    }
    sortRows(ctx, rows, [{ field: 'totalAmt', dir: -1 }], { field: 'deptId', dir: 1 });
    return pageOf(ctx, rows);
  });

  services.register('salesReport.total', async (ctx) => {
    const { tenantId } = mustCaller(ctx);
    const places = await tenantPlaces(services, tenantId);
    const f = await salesFilter(services, ctx, tenantId);
    const total = (await sumSales(services, tenantId, f))[0] ?? zero();
    return { ...present(total, places), avgBillAmt: ratio(total.outAmt, total.billCount, places.amount), dateFrom: f.period.from ?? null, dateTo: f.period.to ?? null };
  });
}
