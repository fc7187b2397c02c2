/**
 * 开票情况 (spec §7 Reports, bartererinvoice): how much of what was sold (posted sales-outs) or
 * bought (posted purchase-ins) is invoiced — per partner (arinvoice / apinvoice), per bill
 * (arinvoicebyorder / apinvoicebyorder), as invoiced vs not-yet-invoiced shares (…distribution) and
 * for one sales bill (selectArIsChargeById). The views erp_ar_invoice_line / erp_ap_invoice_line
 * (schemas/analysis/barterer-invoice.json, barterer-invoice-ap.json, where every figure is defined)
 * give each posted source line with what posted returns took back and what posted invoices cover;
 * here they are summed per bill in SQL, exact on both databases, and grouped further in decimals.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Services } from '../services.ts';
import type { Model } from '../engine/model.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller, type Ctx } from '../http/context.ts';
import { badRequest, notFound } from '../errors.ts';
import { fillLookups } from '../engine/lookups.ts';
import { tenantPlaces } from '../engine/document/context.ts';
import { Dec, fixed, type Decimal, type Places } from '../../shared/money/index.ts';
import { valueParam } from '../system/params.ts';
import { addDays, dayParam, periodOf, type Period } from './period.ts';
import { ID_ORDER, partnerFields, partnerParam, visiblePartners, type Side } from './partner-balance.ts';
import { decimalReader, pageOf, percent, sortRows } from './report-rows.ts';

const VIEW: Record<Side, string> = { AR: 'erp_ar_invoice_line', AP: 'erp_ap_invoice_line' };
const SOURCE: Record<Side, { resource: string; title: string }> = {
  AR: { resource: 'sales-out', title: '销售出库单' },
  AP: { resource: 'purchase-in', title: '采购入库单' },
};
const STATUS_NAMES: Record<string, string> = { '2601': '未开票', '2603': '部分开票', '2604': '已开票', '2606': '无需开票' };

/** One posted source bill: its amounts and how far it is invoiced. */
interface BillFigures {
  billId: string;
  billNo: string;
  billType: string;
  billDate: string;
  partnerId: string;
  staffId: string | null;
  total: Decimal;
  returned: Decimal;
  should: Decimal;
  invoiced: Decimal;
  open: Decimal;
  status: string;
}

interface Filters {
  period: Period;
  partnerId?: string;
  billId?: string;
  billNo?: string;
}

/** billDateStart / billDateEnd (the distribution calls' names), else the shared period parameters. */
function invoicePeriod(ctx: Ctx): Period {
  const from = dayParam(ctx, 'billDateStart', '开始日期');
  const to = dayParam(ctx, 'billDateEnd', '结束日期');
  if (!from && !to) return periodOf(ctx);
  if (from && to && from > to) throw badRequest('开始日期不能晚于结束日期');
  return { from, to };
}

export function registerInvoiceReportHandlers(services: Services) {
  const { store } = services;
  const dec = decimalReader(services);

  /** Σ per posted source bill, in one statement bounded by the tenant. */
  async function bills(tenantId: string, side: Side, f: Filters): Promise<BillFigures[]> {
    const where: RawBuilder<unknown>[] = [sql`tenant_id = ${tenantId}`];
    if (f.period.from) where.push(sql`bill_date >= ${f.period.from}`);
    if (f.period.to) where.push(sql`bill_date < ${addDays(f.period.to, 1)}`);
    if (f.partnerId) where.push(sql`barterer_id = ${f.partnerId}`);
    if (f.billId) where.push(sql`bill_id = ${f.billId}`);
    if (f.billNo) where.push(sql`bill_no like ${`%${f.billNo.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`);
    const rows = await sql<Record<string, unknown>>`select bill_id as k, max(bill_no) as bill_no, max(bill_type) as bill_type, max(bill_date) as bill_date,
        max(barterer_id) as partner_id, max(staff_id) as staff_id,
        sum(total_amt) as total_amt, sum(return_amt) as return_amt, sum(should_amt) as should_amt,
        sum(invoice_amt) as invoice_amt, sum(un_invoice_amt) as un_invoice_amt,
        sum(case when invoice_qty < qty - return_qty then 1 else 0 end) as open_lines,
        sum(case when invoice_qty <> 0 then 1 else 0 end) as started_lines,
        sum(case when qty - return_qty > 0 then 1 else 0 end) as due_lines
      from ${sql.table(VIEW[side])} where ${sql.join(where, sql` and `)} group by bill_id`.execute(store.db);
    return rows.rows.map((r) => {
      const open = Number(r.open_lines ?? 0);
      const started = Number(r.started_lines ?? 0);
      // Everything returned and nothing invoiced: nothing is left to invoice.
      const status = !Number(r.due_lines ?? 0) && !started ? '2606' : open === 0 ? '2604' : started ? '2603' : '2601';
      return {
        billId: String(r.k),
        billNo: String(r.bill_no ?? ''),
        billType: String(r.bill_type ?? ''),
        billDate: String(r.bill_date ?? '').slice(0, 10),
        partnerId: String(r.partner_id ?? ''),
        staffId: r.staff_id === null || r.staff_id === undefined ? null : String(r.staff_id),
        total: dec(r.total_amt),
        returned: dec(r.return_amt),
        should: dec(r.should_amt),
        invoiced: dec(r.invoice_amt),
        open: dec(r.un_invoice_amt),
        status,
      };
    });
  }

  interface Sums {
    billCount: number;
    openBillCount: number;
    total: Decimal;
    returned: Decimal;
    should: Decimal;
    invoiced: Decimal;
    open: Decimal;
  }
  const zero = (): Sums => ({ billCount: 0, openBillCount: 0, total: new Dec(0), returned: new Dec(0), should: new Dec(0), invoiced: new Dec(0), open: new Dec(0) });
  const addBill = (s: Sums, b: BillFigures): Sums => ({
    billCount: s.billCount + 1,
    openBillCount: s.openBillCount + (b.status === '2601' || b.status === '2603' ? 1 : 0),
    total: s.total.plus(b.total),
    returned: s.returned.plus(b.returned),
    should: s.should.plus(b.should),
    invoiced: s.invoiced.plus(b.invoiced),
    open: s.open.plus(b.open),
  });
  const amounts = (s: Pick<Sums, 'total' | 'returned' | 'should' | 'invoiced' | 'open'>, places: Places): Row => ({
    totalAmt: fixed(s.total, places.amount),
    returnAmt: fixed(s.returned, places.amount),
    shouldAmt: fixed(s.should, places.amount),
    invoiceAmt: fixed(s.invoiced, places.amount),
    unInvoiceAmt: fixed(s.open, places.amount),
    invoiceRate: percent(s.invoiced, s.should),
  });

  /** The bills of a call: its period, partner, bill and bill-number filters, partners it may see. */
  async function visibleBills(ctx: Ctx, side: Side, extra: Partial<Filters> = {}) {
    const caller = mustCaller(ctx);
    const places = await tenantPlaces(services, caller.tenantId);
    const filters: Filters = { period: invoicePeriod(ctx), partnerId: partnerParam(ctx, side), billId: valueParam(ctx, 'inOutId'), billNo: valueParam(ctx, 'billNo'), ...extra };
    const found = await bills(caller.tenantId, side, filters);
    const seen = await visiblePartners(services, ctx, side, [...new Set(found.map((b) => b.partnerId))]);
    return { list: found.filter((b) => seen.has(b.partnerId)), seen, places, period: filters.period };
  }

  const perPartner = (side: Side) => async (ctx: Ctx) => {
    const { list, seen, places, period } = await visibleBills(ctx, side);
    const groups = new Map<string, Sums>();
    for (const b of list) groups.set(b.partnerId, addBill(groups.get(b.partnerId) ?? zero(), b));
    const rows = [...groups].map(([id, s]) => ({ id, bartererId: id, ...partnerFields(seen.get(id)), billCount: s.billCount, unInvoicedBillCount: s.openBillCount, ...amounts(s, places) }) as Row);
    sortRows(ctx, rows, [{ field: 'unInvoiceAmt', dir: -1 }, { field: 'bartererCode', dir: 1 }], ID_ORDER);
    const all = list.reduce(addBill, zero());
    return pageOf(ctx, rows, { summary: { partnerCount: rows.length, billCount: all.billCount, unInvoicedBillCount: all.openBillCount, ...amounts(all, places) }, dateFrom: period.from ?? null, dateTo: period.to ?? null });
  };

  const billRow = (b: BillFigures, partner: Row | undefined, places: Places): Row => ({
    id: b.billId,
    billId: b.billId,
    billNo: b.billNo,
    billType: b.billType,
    billDate: b.billDate,
    bartererId: b.partnerId,
    bartererCode: partner?.bartererCode ?? null,
    bartererName: partner?.bartererName ?? null,
    staffId: b.staffId,
    ...amounts(b, places),
    invoiceStatus: b.status,
    invoiceStatusName: STATUS_NAMES[b.status],
  });

  const perBill = (side: Side) => async (ctx: Ctx, model: Model) => {
    const { list, seen, places, period } = await visibleBills(ctx, side);
    const status = valueParam(ctx, 'invoiceStatus');
    const rows = list.filter((b) => !status || b.status === status).map((b) => billRow(b, seen.get(b.partnerId), places));
    sortRows(ctx, rows, [{ field: 'billDate', dir: -1 }, { field: 'billNo', dir: -1 }], ID_ORDER);
    const page = pageOf(ctx, rows, { dateFrom: period.from ?? null, dateTo: period.to ?? null });
    await fillLookups(services, model, mustCaller(ctx).tenantId, page.records as Row[]);
    return page;
  };

  /** Two slices for a pie: invoiced and not yet invoiced (of what is to be invoiced), with bill counts. */
  const distribution = (side: Side) => async (ctx: Ctx) => {
    const { list, places } = await visibleBills(ctx, side);
    const all = list.reduce(addBill, zero());
    return [
      { key: 'invoiced', category: '已开票', amount: fixed(all.invoiced, places.amount), percent: percent(all.invoiced, all.should), billCount: all.billCount - all.openBillCount },
      { key: 'uninvoiced', category: '未开票', amount: fixed(all.open, places.amount), percent: percent(all.open, all.should), billCount: all.openBillCount },
    ];
  };

  services.register('invoiceReport.arByPartner', perPartner('AR'));
  services.register('invoiceReport.apByPartner', perPartner('AP'));
  services.register('invoiceReport.arByBill', perBill('AR'));
  services.register('invoiceReport.apByBill', perBill('AP'));
  services.register('invoiceReport.arDistribution', distribution('AR'));
  services.register('invoiceReport.apDistribution', distribution('AP'));

  /** One sales bill (id): how far it is invoiced, and how much of it was received. */
  services.register('invoiceReport.arChargeById', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const id = valueParam(ctx, 'id', 'billId', 'inOutId');
    if (!id) throw badRequest('缺少参数 id', { fieldErrors: { id: '请选择销售出库单' } });
    const head = await store.get(services.m(SOURCE.AR.resource), caller.tenantId, id);
    if (!head) throw notFound(`${SOURCE.AR.title}不存在或已被删除`);
    if (String(head.billStatus) !== '1306') throw badRequest(`${SOURCE.AR.title}${String(head.billNo ?? '')}未记账（或已冲红），没有可开票的金额`);
    const { list, seen, places } = await visibleBills(ctx, 'AR', { period: {}, partnerId: undefined, billNo: undefined, billId: id });
    if (!list.length) throw notFound(`${SOURCE.AR.title}不存在或已被删除`);
    const bill = list[0];
    const item = (await store.find(services.internal.openItem, caller.tenantId, { where: { billId: id, reversed: 0 } }))[0];
    const owed = new Dec(String(item?.amount ?? '0'));
    const received = new Dec(String(item?.applied ?? '0'));
    const row: Row = {
      ...billRow(bill, seen.get(bill.partnerId), places),
      isInvoiced: bill.status === '2604',
      receivedAmt: fixed(received, places.amount),
      unReceivedAmt: fixed(owed.minus(received), places.amount),
    };
    await fillLookups(services, model, caller.tenantId, [row]);
    return row;
  });
}
