/**
 * 往来余额 and 开票情况 reports on SQLite and PostgreSQL. Balances: sales, a receipt, a purchase and
 * a payment on known days, a sale flushed today; every figure of businessbalance arlist / aplist,
 * their sumtotals and bartererbalance arlist (due / not due by credit days) recomputed here from the
 * seeded bills and reconciled with partyBalance(); a period, the category subtree, the bill-type
 * options. Invoices: a sale partly invoiced and partly returned, one fully invoiced, one not, one
 * returned whole, one flushed; a purchase partly invoiced. Another tenant sees nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { approvedBill, BASES, lines, makeWorld, partyBalance, type World } from '../support/bills.ts';
import { uniqueToken } from '../support/resources.ts';
import { unanswered, type Call } from '../support/catalogue.ts';
import { Dec, fixed, type Decimal } from '../../src/shared/money/index.ts';
import { formatDate } from '../../src/shared/dates.ts';

type Row = Record<string, any>;
const BALANCE = '/blade-report/businessbalance';
const ASOF = '/blade-report/bartererbalance';
const INVOICE = '/blade-report/bartererinvoice';
const pct = (part: Decimal, whole: Decimal) => (whole.isZero() ? '0.00' : fixed(part.div(whole).times(100), 2));
const sum = (xs: Decimal[]) => xs.reduce((s, x) => s.plus(x), new Dec(0));

/** One party-ledger movement as the seeded bills imply it: raising (inc) or lowering (dec) the balance. */
interface Move {
  party: string;
  day: string;
  amount: Decimal;
  side: 'inc' | 'dec';
}

/** The figures a balance report must show for a partner, recomputed from the movements. */
function expected(moves: Move[], party: string, from?: string, to?: string) {
  const upto = moves.filter((m) => m.party === party && (!to || m.day <= to));
  const inPeriod = upto.filter((m) => !from || m.day >= from);
  const begin = sum(upto.filter((m) => from && m.day < from).map((m) => m.amount));
  const inc = sum(inPeriod.filter((m) => m.side === 'inc').map((m) => m.amount));
  const dec = sum(inPeriod.filter((m) => m.side === 'dec').map((m) => m.amount)).neg();
  return { beginBalance: fixed(begin, 2), increaseAmt: fixed(inc, 2), decreaseAmt: fixed(dec, 2), endBalance: fixed(begin.plus(inc).minus(dec), 2) };
}
const shown = (r: Row) => ({ beginBalance: r.beginBalance, increaseAmt: r.increaseAmt, decreaseAmt: r.decreaseAmt, endBalance: r.endBalance });

describe.each(databases())('partner balance and invoice reports ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let other: Api;
  let cash: string;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    other = await signedIn(server.url, '100001');
    cash = String(expectOk(await admin.get('/blade-base/settlement/retail')).find((m: Row) => m.settlementName === '现金').id);
  });
  afterAll(async () => server?.close());

  const sale = (w: World, customerId: string, billDate: string, qty: string, price: string) =>
    approvedBill(admin, BASES.salesOut, { customerId, depotId: w.depots[0], billDate, bodyList: lines(w, [{ goods: w.goods[0], qty, taxPrice: price }]) }, { post: true });
  const returnOf = async (out: Row, billDate: string, qty: string) => {
    const draft = expectOk(await admin.get(`${BASES.salesReturn}/generate`, { soNo: out.billNo }));
    return approvedBill(admin, BASES.salesReturn, { ...draft, billDate, bodyList: [{ ...draft.bodyList[0], qty, salesAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined }] }, { post: true });
  };
  const page = async (api: Api, path: string, query: Row = {}) => expectOk(await api.get(path, { current: 1, size: 50, ...query }), path);

  test('businessbalance arlist / aplist, sumtotals, bartererbalance arlist and the bill-type options', async () => {
    const w = await makeWorld(admin, { goods: 1, customers: 0 });
    const t = uniqueToken().slice(-6);
    const level = (await page(admin, '/blade-base/commcustomerlevel/list')).records[0];
    const natureTop = String(expectOk(await admin.post('/blade-base/customernature/submit', { natureName: `往来类${t}`, parentId: '0' })).id);
    const natureSub = String(expectOk(await admin.post('/blade-base/customernature/submit', { natureName: `往来子类${t}`, parentId: natureTop })).id);
    const customer = async (name: string, natureId: string, terms: Row) =>
      String(expectOk(await admin.post('/blade-base/customer/submit', { bartererName: `${name}${t}`, natureId, levelId: level?.id, ...terms })).id);
    // c1 and c2 on 30-day credit terms, c3 pays on delivery and sits in the sub-category.
    const c1 = await customer('甲客户', natureTop, { isPeriodContract: 2, periodDays: 30 });
    const c2 = await customer('乙客户', natureTop, { isPeriodContract: 2, periodDays: 30 });
    const c3 = await customer('丙客户', natureSub, { isPeriodContract: 1 });
    const moves: Move[] = [];
    const raise = (party: string, day: string, bill: Row) => moves.push({ party, day, amount: new Dec(bill.finalAmt), side: 'inc' });

    const inbound = await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], billDate: '2024-01-05', bodyList: lines(w, [{ goods: w.goods[0], qty: '50', purchasePrice: '4.00' }]) }, { post: true });
    raise(w.supplierId, '2024-01-05', inbound);
    const a = await sale(w, c1, '2024-01-10', '4', '9.04');
    raise(c1, '2024-01-10', a);
    const receipt = await approvedBill(admin, '/blade-finance/receipt', { bartererId: c1, settlementId: cash, billDate: '2024-02-03', precpAmt: '20', bodyList: [{ sourceBillId: a.id, settleAmt: '20' }] }, { post: true });
    moves.push({ party: c1, day: '2024-02-03', amount: new Dec(receipt.precpAmt).neg(), side: 'dec' });
    const b = await sale(w, c1, '2024-02-10', '1', '11.30');
    raise(c1, '2024-02-10', b);
    raise(c2, '2024-02-15', await sale(w, c2, '2024-02-15', '2', '5.00'));
    const payment = await approvedBill(admin, '/blade-finance/payment', { bartererId: w.supplierId, settlementId: cash, billDate: '2024-02-20', precpAmt: '50', bodyList: [{ sourceBillId: inbound.id, settleAmt: '50' }] }, { post: true });
    moves.push({ party: w.supplierId, day: '2024-02-20', amount: new Dec(payment.precpAmt).neg(), side: 'dec' });
    const d = await sale(w, c1, '2024-03-05', '1', '2.26');
    raise(c1, '2024-03-05', d);
    raise(c3, '2024-03-06', await sale(w, c3, '2024-03-06', '3', '3.39'));
    // Sold to c2 today and flushed today: the flush stays in the increase column and nets out.
    const flushed = await sale(w, c2, formatDate(), '1', '7.00');
    expectOk(await admin.post(`${BASES.salesOut}/flush`, { id: flushed.id, version: flushed.version }));
    raise(c2, formatDate(), flushed);
    moves.push({ party: c2, day: formatDate(), amount: new Dec(flushed.finalAmt).neg(), side: 'inc' });

    const mine = (rows: Row[]) => rows.filter((r) => [c1, c2, c3, w.supplierId].includes(r.bartererId));
    const ours = { bartererName: t };

    // No period: every closing balance is the partner's balance, to the cent.
    const all = mine((await page(admin, `${BALANCE}/arlist`, ours)).records);
    expect(all.map((r) => r.bartererId).sort()).toEqual([c1, c2, c3].sort());
    for (const c of [c1, c2, c3]) {
      const row = all.find((r) => r.bartererId === c)!;
      expect(shown(row)).toEqual(expected(moves, c));
      expect(row.endBalance).toBe(await partyBalance(server, 'AR', c));
    }
    expect(all.find((r) => r.bartererId === c1)).toMatchObject({ bartererName: `甲客户${t}`, kind: 'AR' });

    // February 2024: c1 opens with sale A, gets 11.30 more and pays 20.00; c2 starts owing.
    const feb = { ...ours, billDate_datege: '2024-02-01', billDate_datele: '2024-02-29' };
    const febRows = mine((await page(admin, `${BALANCE}/arlist`, feb)).records);
    expect(febRows.map((r) => r.bartererId).sort()).toEqual([c1, c2].sort());
    for (const r of febRows) expect(shown(r)).toEqual(expected(moves, r.bartererId, '2024-02-01', '2024-02-29'));
    expect(shown(febRows.find((r) => r.bartererId === c1)!)).toEqual({ beginBalance: '36.16', increaseAmt: '11.30', decreaseAmt: '20.00', endBalance: '27.46' });
    // This month (by queryDate + dateType): c2's sale and its flush cancel out.
    const month = mine((await page(admin, `${BALANCE}/arlist`, { ...ours, queryDate: formatDate().slice(0, 7), dateType: 2 })).records);
    expect(shown(month.find((r) => r.bartererId === c2)!)).toEqual({ ...expected(moves, c2, `${formatDate().slice(0, 7)}-01`), increaseAmt: '0.00' });

    // sumtotal: the same figures over every customer of the query (all pages), here just ours.
    const total = expectOk(await admin.get(`${BALANCE}/arlistsumtotal`, { ...feb, size: 1 }));
    const febSum = (f: 'beginBalance' | 'increaseAmt' | 'decreaseAmt' | 'endBalance') => fixed(sum([c1, c2].map((c) => new Dec(expected(moves, c, '2024-02-01', '2024-02-29')[f]))), 2);
    expect(total).toMatchObject({ partnerCount: 2, beginBalance: febSum('beginBalance'), increaseAmt: febSum('increaseAmt'), decreaseAmt: febSum('decreaseAmt'), endBalance: febSum('endBalance') });
    const paged = await page(admin, `${BALANCE}/arlist`, { ...feb, size: 1, current: 2 });
    expect([paged.total, paged.records.length, paged.pages]).toEqual([2, 1, 2]);

    // Category subtree: the top category holds all three, the sub-category only c3.
    expect(mine((await page(admin, `${BALANCE}/arlist`, { natureId: natureTop })).records).length).toBe(3);
    expect(mine((await page(admin, `${BALANCE}/arlist`, { natureId: natureSub })).records).map((r) => r.bartererId)).toEqual([c3]);
    expect((await page(admin, `${BALANCE}/arlist`, { customerId: c2 })).records.map((r: Row) => r.bartererId)).toEqual([c2]);

    // The supplier: 50 × 4.00 + 13% owed, 50.00 paid in February.
    const ap = (await page(admin, `${BALANCE}/aplist`, { bartererId: w.supplierId })).records;
    expect(ap.map(shown)).toEqual([expected(moves, w.supplierId)]);
    expect(ap[0].endBalance).toBe(await partyBalance(server, 'AP', w.supplierId));
    expect(expectOk(await admin.get(`${BALANCE}/aplistsumtotal`, { bartererId: w.supplierId, billDate_datege: '2024-02-01', billDate_datele: '2024-02-29' }))).toMatchObject({ partnerCount: 1, ...expected(moves, w.supplierId, '2024-02-01', '2024-02-29') });

    // Bill-type options of the 往来明细 tab.
    expect(expectOk(await admin.get(`${BALANCE}/arYwcheckSearchType`, { bartererId: c1 }))).toEqual([
      { key: '0803', value: '销售出库单', valueEn: expect.any(String) },
      { key: '0852', value: '收款单', valueEn: expect.any(String) },
    ]);
    const supplierNature = String(expectOk(await admin.get('/blade-base/supplier/detail', { id: w.supplierId })).natureId);
    const apTypes = expectOk(await admin.get(`${BALANCE}/apYwcheckSearchType`, { treeNatureId: supplierNature })).map((o: Row) => o.key);
    expect(apTypes).toEqual(expect.arrayContaining(['0812', '0854']));

    // As of 2024-02-29 (Feb by default): c2's 10.00 was raised within its 30 days, so nothing is due yet.
    const asOfFeb = mine((await page(admin, `${ASOF}/arlist`, { ...ours, queryDate: '2024-02-29' })).records);
    expect(asOfFeb.map((r) => r.bartererId)).toEqual([c1, c2]); // largest debt first
    for (const r of asOfFeb) expect(shown(r)).toEqual(expected(moves, r.bartererId, '2024-02-01', '2024-02-29'));
    // c1: January's debt is due, the 02-10 sale (within 30 days) not yet — payments settle the oldest first.
    expect(asOfFeb.map((r) => [r.periodDays, r.dueAmt, r.notDueAmt, r.lastReceiptDate])).toEqual([
      [30, fixed(new Dec(asOfFeb[0].endBalance).minus(b.finalAmt), 2), fixed(b.finalAmt, 2), '2024-02-03'],
      [30, '0.00', expected(moves, c2, '2024-02-01', '2024-02-29').endBalance, null],
    ]);
    // As of the end of March: c1's 2.26 of 03-05 is not yet due, the rest is; c3 (no terms) owes it all now.
    const march = mine((await page(admin, `${ASOF}/arlist`, { ...ours, queryDate: '2024-03' })).records);
    const c1March = march.find((r) => r.bartererId === c1)!;
    expect(shown(c1March)).toEqual(expected(moves, c1, '2024-03-01', '2024-03-31'));
    expect([c1March.dueAmt, c1March.notDueAmt]).toEqual([fixed(new Dec(c1March.endBalance).minus(d.finalAmt), 2), fixed(d.finalAmt, 2)]);
    expect(march.find((r) => r.bartererId === c3)).toMatchObject({ periodDays: 0, dueAmt: expected(moves, c3).endBalance, notDueAmt: '0.00' });
    const asOfTotal = expectOk(await admin.get(`${ASOF}/arlistsumtotal`, { ...ours, queryDate: '2024-03' }));
    expect(asOfTotal).toMatchObject({
      partnerCount: 3,
      endBalance: fixed(sum(march.map((r) => new Dec(r.endBalance))), 2),
      dueAmt: fixed(sum(march.map((r) => new Dec(r.dueAmt))), 2),
      dateFrom: '2024-03-01',
      dateTo: '2024-03-31',
    });

    // Bad input and another tenant.
    expect((await admin.get(`${BALANCE}/arlist`, { billDate_datege: '2024-13-01' })).body.msg).toBe('开始日期格式应为 yyyy-MM-dd');
    expect((await page(other, `${BALANCE}/arlist`)).total).toBe(0);
    expect((await page(other, `${ASOF}/arlist`, { queryDate: '2024-03' })).total).toBe(0);
    expect(expectOk(await other.get(`${BALANCE}/arYwcheckSearchType`, { bartererId: c1 }))).toEqual([]);
  });
  test('bartererinvoice: per customer, per bill, the pie, one bill; the purchase side', async () => {
    const w = await makeWorld(admin, { goods: 1, customers: 2 });
    const [c1, c2] = w.customers;
    const inbound = await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], billDate: '2024-01-05', bodyList: lines(w, [{ goods: w.goods[0], qty: '50', purchasePrice: '4.00' }]) }, { post: true });
    const a = await sale(w, c1, '2024-01-10', '4', '9.04'); // 1 returned, 1 invoiced, 20.00 received
    const b = await sale(w, c1, '2024-02-10', '1', '11.30'); // invoiced in full
    const c = await sale(w, c2, '2024-02-15', '2', '5.00'); // not invoiced
    const f = await sale(w, c2, '2024-02-16', '1', '5.00'); // returned whole: nothing to invoice
    const gone = await sale(w, c2, '2024-02-17', '3', '5.00'); // flushed: not counted
    expectOk(await admin.post(`${BASES.salesOut}/flush`, { id: gone.id, version: gone.version }));
    const aBack = await returnOf(a, '2024-01-12', '-1');
    const fBack = await returnOf(f, '2024-02-18', '-1');
    await approvedBill(admin, '/blade-finance/receipt', { bartererId: c1, settlementId: cash, precpAmt: '20', bodyList: [{ sourceBillId: a.id, settleAmt: '20' }] }, { post: true });
    const take = (line: Row, qty: string) => ({ ...line, qty, salesAmt: undefined, purchaseAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined, discountAmt: undefined });
    const open = expectOk(await admin.post(`/blade-sales/salesinvoicehead/selectByCustomerId?customerId=${c1}`, {})) as Row[];
    const aLine = open.find((l) => l.sourceBillId === a.id)!;
    const bLine = open.find((l) => l.sourceBillId === b.id)!;
    const inv = await approvedBill(admin, '/blade-sales/salesinvoicehead', { customerId: c1, bodyList: [take(aLine, '1'), take(bLine, bLine.qty)] }, { post: true });
    const invoicedOf = (billId: string) => sum(inv.bodyList.filter((l: Row) => l.sourceBillId === billId).map((l: Row) => new Dec(l.totalAmt)));

    // Expected per bill, from the bills themselves: amount, returned, invoiced.
    const figures = (bill: Row, back?: Row) => {
      const total = new Dec(bill.totalAmt);
      const returned = back ? new Dec(back.totalAmt).neg() : new Dec(0);
      const invoiced = invoicedOf(bill.id);
      const should = total.minus(returned);
      return { totalAmt: fixed(total, 2), returnAmt: fixed(returned, 2), shouldAmt: fixed(should, 2), invoiceAmt: fixed(invoiced, 2), unInvoiceAmt: fixed(should.minus(invoiced), 2), invoiceRate: pct(invoiced, should) };
    };
    const bills = [
      [a, figures(a, aBack), '2603'],
      [b, figures(b), '2604'],
      [c, figures(c), '2601'],
      [f, figures(f, fBack), '2606'],
    ] as const;
    const byOrder = (await page(admin, `${INVOICE}/arinvoicebyorder`, { bartererName: '' })).records.filter((r: Row) => [c1, c2].includes(r.bartererId));
    expect(byOrder.map((r: Row) => r.billNo)).toEqual([f, c, b, a].map((x) => x.billNo)); // newest first; the flushed one absent
    for (const [bill, fig, status] of bills) {
      expect(byOrder.find((r: Row) => r.billId === bill.id)).toMatchObject({ ...fig, invoiceStatus: status, billDate: bill.billDate.slice(0, 10) });
    }
    expect(byOrder.find((r: Row) => r.billId === a.id).invoiceStatusName).toBe('部分开票');
    const onlyOpen = (await page(admin, `${INVOICE}/arinvoicebyorder`, { customerId: c2, invoiceStatus: '2601' })).records;
    expect(onlyOpen.map((r: Row) => r.billId)).toEqual([c.id]);

    // Per customer: the bills' figures summed.
    const per = (await page(admin, `${INVOICE}/arinvoice`, { customerId: c1 })).records;
    const add = (key: 'totalAmt' | 'returnAmt' | 'shouldAmt' | 'invoiceAmt' | 'unInvoiceAmt', of: (typeof bills)[number][]) => fixed(sum(of.map(([, fig]) => new Dec(fig[key]))), 2);
    const c1Bills = bills.filter(([bill]) => bill.customerId === c1);
    expect(per).toEqual([
      expect.objectContaining({
        bartererId: c1,
        billCount: 2,
        unInvoicedBillCount: 1,
        totalAmt: add('totalAmt', c1Bills),
        returnAmt: add('returnAmt', c1Bills),
        shouldAmt: add('shouldAmt', c1Bills),
        invoiceAmt: add('invoiceAmt', c1Bills),
        unInvoiceAmt: add('unInvoiceAmt', c1Bills),
        invoiceRate: pct(new Dec(add('invoiceAmt', c1Bills)), new Dec(add('shouldAmt', c1Bills))),
      }),
    ]);
    // A period on the sales bill's date: January holds only A.
    const jan = (await page(admin, `${INVOICE}/arinvoice`, { customerId: c1, billDate_datege: '2024-01-01', billDate_datele: '2024-01-31' })).records;
    expect(jan.map((r: Row) => [r.billCount, r.shouldAmt, r.invoiceAmt])).toEqual([[1, bills[0][1].shouldAmt, bills[0][1].invoiceAmt]]);

    // The pie of c1's bills; c2's by billDateStart / billDateEnd.
    const pie = expectOk(await admin.get(`${INVOICE}/arinvoicedistribution`, { bartererId: c1 }));
    const should = new Dec(add('shouldAmt', c1Bills));
    const invoiced = new Dec(add('invoiceAmt', c1Bills));
    const rest = new Dec(add('unInvoiceAmt', c1Bills));
    expect(pie).toEqual([
      { key: 'invoiced', category: '已开票', amount: fixed(invoiced, 2), percent: pct(invoiced, should), billCount: 1 },
      { key: 'uninvoiced', category: '未开票', amount: fixed(rest, 2), percent: pct(rest, should), billCount: 1 },
    ]);
    const febPie = expectOk(await admin.get(`${INVOICE}/arinvoicedistribution`, { bartererId: c2, billDateStart: '2024-02-01', billDateEnd: '2024-02-15' }));
    expect(febPie.map((r: Row) => r.amount)).toEqual(['0.00', bills[2][1].unInvoiceAmt]);

    // One bill: A is partly invoiced; 20.00 of it received (its open item).
    const item = (await server.services.store.find(server.services.internal.openItem, '000000', { where: { billId: a.id } }))[0];
    expect(expectOk(await admin.get(`${INVOICE}/selectArIsChargeById`, { id: a.id }))).toMatchObject({
      ...bills[0][1],
      billNo: a.billNo,
      invoiceStatus: '2603',
      isInvoiced: false,
      receivedAmt: fixed(String(item.applied), 2),
      unReceivedAmt: fixed(new Dec(String(item.amount)).minus(String(item.applied)), 2),
    });
    expect(expectOk(await admin.get(`${INVOICE}/selectArIsChargeById`, { id: b.id }))).toMatchObject({ invoiceStatus: '2604', isInvoiced: true, unInvoiceAmt: '0.00' });
    expect((await admin.get(`${INVOICE}/selectArIsChargeById`, { id: gone.id })).body.msg).toContain('未记账（或已冲红）');
    expect((await admin.get(`${INVOICE}/selectArIsChargeById`, {})).body.msg).toBe('缺少参数 id');

    // Purchase side: 5 of the 50 received are invoiced.
    const apOpen = expectOk(await admin.post(`/blade-purchase/purchaseinvoicehead/selectBySupplierId?supplierId=${w.supplierId}`, {})) as Row[];
    const pinv = await approvedBill(admin, '/blade-purchase/purchaseinvoicehead', { supplierId: w.supplierId, bodyList: [take(apOpen[0], '5')] }, { post: true });
    const apShould = new Dec(inbound.totalAmt);
    const apInvoiced = new Dec(pinv.totalAmt);
    const apRow = { totalAmt: fixed(apShould, 2), returnAmt: '0.00', shouldAmt: fixed(apShould, 2), invoiceAmt: fixed(apInvoiced, 2), unInvoiceAmt: fixed(apShould.minus(apInvoiced), 2), invoiceRate: pct(apInvoiced, apShould) };
    expect((await page(admin, `${INVOICE}/apinvoice`, { supplierId: w.supplierId })).records).toEqual([expect.objectContaining({ bartererId: w.supplierId, billCount: 1, ...apRow })]);
    expect((await page(admin, `${INVOICE}/apinvoicebyorder`, { supplierId: w.supplierId })).records).toEqual([expect.objectContaining({ billId: inbound.id, invoiceStatus: '2603', ...apRow })]);
    const apPie = expectOk(await admin.get(`${INVOICE}/apinvoicedistribution`, { inOutId: inbound.id }));
    expect(apPie.map((r: Row) => [r.key, r.amount])).toEqual([['invoiced', apRow.invoiceAmt], ['uninvoiced', apRow.unInvoiceAmt]]);

    // Another tenant sees none of it.
    expect((await page(other, `${INVOICE}/arinvoice`)).total).toBe(0);
    expect((await page(other, `${INVOICE}/apinvoicebyorder`)).total).toBe(0);
    expect(expectOk(await other.get(`${INVOICE}/arinvoicedistribution`)).map((r: Row) => r.amount)).toEqual(['0.00', '0.00']);
    expect((await other.get(`${INVOICE}/selectArIsChargeById`, { id: a.id })).body.msg).toContain('不存在');
  });
  test('every call of the family answers with the contract envelope (bare: a Chinese refusal at most)', async () => {
    const calls: Call[] = [
      'businessbalance/arlist', 'businessbalance/arlistsumtotal', 'businessbalance/aplist', 'businessbalance/aplistsumtotal',
      'businessbalance/arYwcheckSearchType', 'businessbalance/apYwcheckSearchType', 'bartererbalance/arlist', 'bartererbalance/arlistsumtotal',
      'bartererinvoice/arinvoice', 'bartererinvoice/arinvoicebyorder', 'bartererinvoice/arinvoicedistribution', 'bartererinvoice/selectArIsChargeById',
      'bartererinvoice/apinvoice', 'bartererinvoice/apinvoicebyorder', 'bartererinvoice/apinvoicedistribution',
      'cashflow/list', 'cashflow/sumtotal', 'cashflow/daily',
    ].map((p) => ['GET', `/blade-report/${p}`]);
    expect(await unanswered(admin, calls)).toEqual([]);
  });
});
