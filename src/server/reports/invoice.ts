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
import { parsePaging } from '../engine/query.ts';
import { readRollup, type KeyFilter } from '../engine/materialized.ts';
import { addDays, dayParam, periodOf, type Period } from './period.ts';
import { ID_ORDER, namePage, partnerFields, partnerParam, sortAsked, visiblePartners, type Side } from './partner-balance.ts';
import { decimalReader, pageOf, percent, sortRows } from './report-rows.ts';

/**
 * The figures of the lines views erp_ar_invoice_line / erp_ap_invoice_line, read from materialized
 * tables: per posted source bill (schemas/analysis/partner-ar-invoice-bill.json, …-ap-…) and the
 * posted return and invoice lines naming a source line (partner-ar-invoice-move.json, …-ap-…), each
 * with that source line's bill, quantity and amount.
 */
const TABLES: Record<Side, { bills: string; moves: string }> = {
  AR: { bills: 'erp_partner_ar_invoice_bill', moves: 'erp_partner_ar_invoice_move' },
  AP: { bills: 'erp_partner_ap_invoice_bill', moves: 'erp_partner_ap_invoice_move' },
};
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

  /** The filters over the per-bill table (alias a). */
  function billWhere(tenantId: string, f: Filters, dayUnindexed = false): RawBuilder<unknown> {
    const where: RawBuilder<unknown>[] = [sql`a.tenant_id = ${tenantId}`];
    // dayUnindexed: the day compared as an expression, so that a few bills are looked up by id
    // rather than every bill of the period read by day.
    const day = dayUnindexed ? sql`(a.bill_date || '')` : sql`a.bill_date`;
    if (f.period.from) where.push(sql`${day} >= ${f.period.from}`);
    if (f.period.to) where.push(sql`${day} < ${addDays(f.period.to, 1)}`);
    if (f.partnerId) where.push(sql`a.barterer_id = ${f.partnerId}`);
    if (f.billId) where.push(sql`a.bill_id = ${f.billId}`);
    if (f.billNo) where.push(sql`a.bill_no like ${`%${f.billNo.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`);
    return sql.join(where, sql` and `);
  }

  /**
   * The source lines posted returns or invoices name (the materialized moves), summed per bill
   * (`ids`: only these bills): what those lines are (own_total, own_due: lines with a positive
   * quantity) and what they become with what was taken back or invoiced (the lines view's sums of
   * them: return_amt, should_part, invoice_amt, open_part, open_lines, started_lines, due_lines).
   * A bill's other lines are as the per-bill table counts them. The move rows carry their source
   * line's bill, quantity and amount (a posted line never changes), so the year's source lines
   * are not read: on PostgreSQL that join was a scan of every sales-out line.
   */
  function movedQuery(tenantId: string, side: Side, ids?: string[]): RawBuilder<Record<string, unknown>> {
    const t = TABLES[side];
    const only = ids ? sql` and source_head_id in (${sql.join(ids)})` : sql``;
    return sql<Record<string, unknown>>`select mv.head_id as bill_id, sum(mv.total_amt) as own_total, sum(case when mv.qty > 0 then 1 else 0 end) as own_due,
          sum(mv.ra) as return_amt, sum(mv.total_amt - mv.ra) as should_part, sum(mv.ia) as invoice_amt, sum(mv.total_amt - mv.ra - mv.ia) as open_part,
          sum(case when mv.iq < mv.qty - mv.rq then 1 else 0 end) as open_lines,
          sum(case when mv.iq <> 0 then 1 else 0 end) as started_lines,
          sum(case when mv.qty - mv.rq > 0 then 1 else 0 end) as due_lines
        from (
          select source_head_id as head_id, source_qty as qty, source_total_amt as total_amt,
            sum(case when kind = 1 then 0 - qty else 0 end) as rq, sum(case when kind = 1 then 0 - total_amt else 0 end) as ra,
            sum(case when kind = 2 then qty else 0 end) as iq, sum(case when kind = 2 then total_amt else 0 end) as ia
          from ${sql.table(t.moves)} where tenant_id = ${tenantId} and source_head_id is not null${only}
          group by source_body_id, source_head_id, source_qty, source_total_amt
        ) mv
        group by mv.head_id`;
  }

  /** A bill's invoice status from its line counts (columns of the query aliased `f`). */
  const STATUS = sql`case when f.due_lines = 0 and f.started_lines = 0 then '2606' when f.open_lines = 0 then '2604' when f.started_lines > 0 then '2603' else '2601' end`;

  /** The per-bill table `a` joined with movedQuery `m`: a bill's figures as the lines view sums them. */
  const FIGURES = sql`a.total_amt, coalesce(m.return_amt, 0) as return_amt,
        a.total_amt - coalesce(m.own_total, 0) + coalesce(m.should_part, 0) as should_amt,
        coalesce(m.invoice_amt, 0) as invoice_amt,
        a.total_amt - coalesce(m.own_total, 0) + coalesce(m.open_part, 0) as un_invoice_amt,
        a.due_lines - coalesce(m.own_due, 0) + coalesce(m.open_lines, 0) as open_lines,
        coalesce(m.started_lines, 0) as started_lines,
        a.due_lines - coalesce(m.own_due, 0) + coalesce(m.due_lines, 0) as due_lines`;

  /**
   * Per posted source bill, in one statement bounded by the tenant: the bill's own figures from the
   * materialized per-bill table (amount, lines with a positive quantity), corrected for the lines
   * posted returns or invoices name (movedQuery) — exactly the sums of the lines view VIEW, without
   * reading every line. `ids`: only these bills.
   * Columns: bill_id, bill_no, bill_type, bill_date, partner_id, staff_id, the amounts, status.
   */
  function billsQuery(tenantId: string, side: Side, f: Filters, ids?: string[]): RawBuilder<Record<string, unknown>> {
    const t = TABLES[side];
    const where = ids ? sql`${billWhere(tenantId, f)} and a.bill_id in (${sql.join(ids)})` : billWhere(tenantId, f);
    return sql<Record<string, unknown>>`select f.*, ${STATUS} as status from (
      select a.bill_id, a.bill_no, a.bill_type, a.bill_date, a.barterer_id as partner_id, a.staff_id, ${FIGURES}
      from ${sql.table(t.bills)} a left join (${movedQuery(tenantId, side, ids)}) m on m.bill_id = a.bill_id
      where ${where}
    ) f`;
  }

  /**
   * Σ per partner (key: the partner id, '' for none) of the bills of `f` without a bill filter: the
   * monthly rollup of the per-bill table (bills, amount, bills with a line to invoice) corrected for
   * the bills whose lines returns or invoices named (their figures as the lines give them).
   */
  async function partnerSums(tenantId: string, side: Side, f: Filters): Promise<Map<string, Sums>> {
    const t = TABLES[side];
    const filter: KeyFilter = f.partnerId ? { barterer_id: f.partnerId } : {};
    const [rolled, moved] = await Promise.all([
      readRollup(services.registry, t.bills, 'partner', { tenantId, from: f.period.from, to: f.period.to, filter, group: 'barterer_id' }).execute(store.db),
      sql<Record<string, unknown>>`select f.k, sum(f.own_total) as own_total, sum(case when f.own_open then 1 else 0 end) as own_open,
          sum(f.return_amt) as return_amt, sum(f.should_part) as should_part, sum(f.invoice_amt) as invoice_amt, sum(f.open_part) as open_part,
          sum(case when f.due_lines = 0 and f.started_lines = 0 then 0 when f.open_lines = 0 then 0 else 1 end) as open_bills
        from (
          select coalesce(a.barterer_id, '') as k, m.own_total, a.due_lines > 0 as own_open, m.return_amt, m.should_part, m.invoice_amt, m.open_part,
            a.due_lines - m.own_due + m.open_lines as open_lines, m.started_lines, a.due_lines - m.own_due + m.due_lines as due_lines
          from (${movedQuery(tenantId, side)}) m join ${sql.table(t.bills)} a on a.tenant_id = ${tenantId} and a.bill_id = m.bill_id
          where ${billWhere(tenantId, f, true)}
        ) f group by f.k`.execute(store.db),
    ]);
    const out = new Map<string, Sums>();
    for (const r of rolled.rows) {
      const total = dec(r.total_amt);
      out.set(String(r.k ?? ''), { billCount: Number(r.line_count ?? 0), openBillCount: Number(r.open_bills ?? 0), total, returned: new Dec(0), should: total, invoiced: new Dec(0), open: total });
    }
    for (const r of moved.rows) {
      const s = out.get(String(r.k ?? ''));
      if (!s) continue;
      const rest = s.total.minus(dec(r.own_total));
      Object.assign(s, {
        openBillCount: s.openBillCount - Number(r.own_open ?? 0) + Number(r.open_bills ?? 0),
        returned: dec(r.return_amt),
        should: rest.plus(dec(r.should_part)),
        invoiced: dec(r.invoice_amt),
        open: rest.plus(dec(r.open_part)),
      });
    }
    return out;
  }

  const billOf = (r: Record<string, unknown>): BillFigures => ({
    billId: String(r.bill_id),
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
    status: String(r.status),
  });

  /** Every posted source bill of the filters, with its figures. */
  async function bills(tenantId: string, side: Side, f: Filters): Promise<BillFigures[]> {
    return (await billsQuery(tenantId, side, f).execute(store.db)).rows.map(billOf);
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

  const filtersOf = (ctx: Ctx, side: Side): Filters => ({ period: invoicePeriod(ctx), partnerId: partnerParam(ctx, side), billId: valueParam(ctx, 'inOutId'), billNo: valueParam(ctx, 'billNo') });

  /** Per partner, summed in SQL over the bills (a partner's bills are all shown or all hidden). */
  const perPartner = (side: Side) => async (ctx: Ctx) => {
    const caller = mustCaller(ctx);
    const places = await tenantPlaces(services, caller.tenantId);
    const filters = filtersOf(ctx, side);
    const groups = filters.billId || filters.billNo ? new Map<string, Sums>() : await partnerSums(caller.tenantId, side, filters);
    // A bill filter: the bills themselves, summed here.
    const found = filters.billId || filters.billNo
      ? await sql<Record<string, unknown>>`select partner_id as k, count(*) as bill_count, sum(case when status in ('2601', '2603') then 1 else 0 end) as open_bills,
          sum(total_amt) as total_amt, sum(return_amt) as return_amt, sum(should_amt) as should_amt, sum(invoice_amt) as invoice_amt, sum(un_invoice_amt) as un_invoice_amt
        from (${billsQuery(caller.tenantId, side, filters)}) q group by partner_id`.execute(store.db)
      : { rows: [] };
    for (const r of found.rows) {
      const key = String(r.k ?? '');
      const s: Sums = { billCount: Number(r.bill_count ?? 0), openBillCount: Number(r.open_bills ?? 0), total: dec(r.total_amt), returned: dec(r.return_amt), should: dec(r.should_amt), invoiced: dec(r.invoice_amt), open: dec(r.un_invoice_amt) };
      const before = groups.get(key);
      groups.set(key, before ? { billCount: before.billCount + s.billCount, openBillCount: before.openBillCount + s.openBillCount, total: before.total.plus(s.total), returned: before.returned.plus(s.returned), should: before.should.plus(s.should), invoiced: before.invoiced.plus(s.invoiced), open: before.open.plus(s.open) } : s);
    }
    const seen = await visiblePartners(services, ctx, side, [...groups.keys()], sortAsked(ctx));
    const kept = [...groups].filter(([id]) => seen.has(id));
    const rows = kept.map(([id, s]) => ({ id, bartererId: id, ...partnerFields(seen.get(id)), billCount: s.billCount, unInvoicedBillCount: s.openBillCount, ...amounts(s, places) }) as Row);
    sortRows(ctx, rows, [{ field: 'unInvoiceAmt', dir: -1 }, { field: 'bartererCode', dir: 1 }], ID_ORDER);
    const all = kept.reduce<Sums>((a, [, s]) => ({ billCount: a.billCount + s.billCount, openBillCount: a.openBillCount + s.openBillCount, total: a.total.plus(s.total), returned: a.returned.plus(s.returned), should: a.should.plus(s.should), invoiced: a.invoiced.plus(s.invoiced), open: a.open.plus(s.open) }), zero());
    const period = filters.period;
    const page = pageOf(ctx, rows, { summary: { partnerCount: rows.length, billCount: all.billCount, unInvoicedBillCount: all.openBillCount, ...amounts(all, places) }, dateFrom: period.from ?? null, dateTo: period.to ?? null });
    // Display names only for the page's partners, unless a sort asked for any field.
    if (!sortAsked(ctx)) await namePage(services, ctx, side, page.records as Row[], seen);
    return page;
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

  /**
   * Per bill, newest first: the page is cut in SQL (the partners the call may not see left out by
   * id); an order asked for with ascs/descs sorts every bill here instead.
   */
  const perBill = (side: Side) => async (ctx: Ctx, model: Model) => {
    const status = valueParam(ctx, 'invoiceStatus');
    const caller = mustCaller(ctx);
    const filters = filtersOf(ctx, side);
    const period = filters.period;
    const query = billsQuery(caller.tenantId, side, filters);
    const partners = await sql<{ k: unknown }>`select distinct a.barterer_id as k from ${sql.table(TABLES[side].bills)} a where ${billWhere(caller.tenantId, filters)}`.execute(store.db);
    const ids = [...new Set(partners.rows.map((r) => String(r.k ?? '')))];
    // The bill rows show the partner's code and name (its own fields): no display names needed.
    const seen = await visiblePartners(services, ctx, side, ids, false);
    const hidden = ids.filter((id) => !seen.has(id));
    const places = await tenantPlaces(services, caller.tenantId);
    let rows: Row[];
    let total: number;
    if (ctx.query.ascs || ctx.query.descs || Math.min(hidden.length, seen.size) > 5000) {
      const list = (await query.execute(store.db)).rows.map(billOf).filter((b) => seen.has(b.partnerId));
      const all = list.filter((b) => !status || b.status === status).map((b) => billRow(b, seen.get(b.partnerId), places));
      sortRows(ctx, all, [{ field: 'billDate', dir: -1 }, { field: 'billNo', dir: -1 }], ID_ORDER);
      const { current, size } = parsePaging(ctx.query);
      rows = all.slice((current - 1) * size, current * size);
      total = all.length;
    } else {
      // The partners the call may not see, left out by id (the shorter list of the two).
      const visible = (column: RawBuilder<unknown>) =>
        hidden.length <= seen.size
          ? hidden.length ? sql`coalesce(${column}, '') not in (${sql.join(hidden)})` : sql`1 = 1`
          : seen.size ? sql`${column} in (${sql.join([...seen.keys()])})` : sql`1 = 0`;
      const { current, size } = parsePaging(ctx.query);
      const order = sql`order by substr(a.bill_date, 1, 10) desc, a.bill_no desc, a.bill_id asc`;
      if (status) {
        // The status needs every bill's figures: the page is cut from all of them.
        const where = sql`${visible(sql.ref('a.partner_id'))} and a.status = ${status}`;
        const [counted, found] = await Promise.all([
          sql<{ n: unknown }>`select count(*) as n from (${query}) a where ${where}`.execute(store.db),
          sql<Record<string, unknown>>`select a.* from (${query}) a where ${where} ${order} limit ${size} offset ${(current - 1) * size}`.execute(store.db),
        ]);
        total = Number(counted.rows[0]?.n ?? 0);
        rows = found.rows.map(billOf).map((b) => billRow(b, seen.get(b.partnerId), places));
      } else {
        // The page's bills from the per-bill table alone, then their figures.
        const table = sql.table(TABLES[side].bills);
        const where = sql`${billWhere(caller.tenantId, filters)} and ${visible(sql.ref('a.barterer_id'))}`;
        const [counted, found] = await Promise.all([
          sql<{ n: unknown }>`select count(*) as n from ${table} a where ${where}`.execute(store.db),
          // id is the bill's id: the (day, number, partner) index holds all this reads.
          sql<{ bill_id: unknown }>`select a.id as bill_id from ${table} a where ${where} order by substr(a.bill_date, 1, 10) desc, a.bill_no desc, a.id asc limit ${size} offset ${(current - 1) * size}`.execute(store.db),
        ]);
        total = Number(counted.rows[0]?.n ?? 0);
        const ids = found.rows.map((r) => String(r.bill_id));
        const figures = ids.length ? new Map((await billsQuery(caller.tenantId, side, filters, ids).execute(store.db)).rows.map((r) => [String(r.bill_id), billOf(r)])) : new Map<string, BillFigures>();
        rows = ids.map((id) => figures.get(id)!).filter(Boolean).map((b) => billRow(b, seen.get(b.partnerId), places));
      }
    }
    const { current, size } = parsePaging(ctx.query);
    const page = { records: rows, total, size, current, pages: Math.ceil(total / size), orders: [], dateFrom: period.from ?? null, dateTo: period.to ?? null };
    await fillLookups(services, model, caller.tenantId, page.records);
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
