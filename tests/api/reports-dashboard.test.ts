/**
 * The desk dashboard (blade-desk/index) on SQLite and PostgreSQL. Seeded: a purchase of 20 @ 4.00 net;
 * sales to three customers (one returned in part, one flushed, one invoiced, one dated two months ago),
 * a receipt, a draft, a bill waiting for approval and a stock warning. Every figure is recomputed here
 * from those inputs (amounts with tax ÷ 1.13, cost 4.00 a unit) or from the party ledger
 * (partyBalance); another tenant sees nothing; every call of the list answers.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { approvedBill, BASES, lines, makeWorld, partyBalance, type World } from '../support/bills.ts';
import { unanswered, type Call } from '../support/catalogue.ts';
import { Dec, type Decimal } from '../../src/shared/money/index.ts';
import { formatDate } from '../../src/shared/dates.ts';

const INDEX = '/blade-desk/index';
const CALLS: Call[] = ['artop10', 'invoicetop10', 'indexBusinessHistory', 'exin', 'staffview', 'indexcount'].map((p) => ['GET', `${INDEX}/${p}`]);
type Row = Record<string, any>;

const money = (d: Decimal | string | number) => new Dec(d).toFixed(2);
const net = (withTax: Decimal) => withTax.div('1.13');
/** yyyy-MM plus n months, computed here on its own. */
function monthPlus(month: string, n: number): string {
  const d = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1 + n, 1));
  return d.toISOString().slice(0, 7);
}

describe.each(databases())('dashboard ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  const today = formatDate();
  const thisMonth = today.slice(0, 7);
  const earlier = `${monthPlus(thisMonth, -2)}-15`;
  /** The seeded sales lines: month, amount with tax, quantity, staff (flushed ones are left out). */
  const sold: { month: string; total: Decimal; qty: number; staff?: string; bill: boolean }[] = [];
  /** Each posting and flush, in order: bill no, action, partner name, amount. */
  const events: [string, string, string, string][] = [];
  let names: Record<string, string>;
  let self: string;
  let other: string;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 2, customers: 3 });
    const name = async (path: string, id: string) => String(expectOk(await admin.get(path, { id })).bartererName);
    names = { supplier: await name('/blade-base/supplier/detail', w.supplierId) };
    for (const c of w.customers) names[c] = await name('/blade-base/customer/detail', c);
    const deptId = expectOk<{ id: string }[]>(await admin.get('/blade-system/dept/list'))[0].id;
    const me = expectOk(await admin.get('/blade-user/info'));
    const stamp = String(Date.now() % 1000000);
    self = String(expectOk(await admin.post('/blade-base/staff/submit', { staffCode: `DS${stamp}`, staffName: '业务员甲', deptId, isUser: 2, userId: me.id })).id);
    other = String(expectOk(await admin.post('/blade-base/staff/submit', { staffCode: `DT${stamp}`, staffName: '业务员乙', deptId })).id);
  });
  afterAll(async () => server?.close());

  test('seeded bills: every card, list and month agrees with what was posted', async () => {
    const [c0, c1, c2] = w.customers;
    const inbound = await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '20', purchasePrice: '4.00' }]) }, { post: true });
    events.push([inbound.billNo, '记账', names.supplier, money(new Dec(20).times(4).times('1.13'))]);
    const sale = async (customer: string, qty: string, price: string, extra: Row = {}) => {
      const bill = await approvedBill(admin, BASES.salesOut, { customerId: customer, depotId: w.depots[0], ...extra, bodyList: lines(w, [{ goods: w.goods[0], qty, taxPrice: price }]) }, { post: true });
      const total = new Dec(qty).times(price);
      events.push([bill.billNo, '记账', names[customer], money(total)]);
      sold.push({ month: String(extra.billDate ?? today).slice(0, 7), total, qty: Number(qty), staff: extra.staffId, bill: true });
      return bill;
    };
    const a = await sale(c0, '4', '9.04', { staffId: self });
    const b = await sale(c0, '1', '11.30', { staffId: self });
    const c = await sale(c1, '2', '5.65', { staffId: other });
    await sale(c1, '1', '2.26', { billDate: earlier });
    const d = await sale(c2, '1', '3.39', { staffId: other });
    const fresh = expectOk(await admin.get(`${BASES.salesOut}/detail`, { id: d.id }));
    expectOk(await admin.post(`${BASES.salesOut}/flush`, { id: fresh.id, version: fresh.version }));
    sold.splice(sold.findIndex((s) => s.total.eq('3.39')), 1);
    events.push([d.billNo, '冲红', names[c2], money(new Dec('-3.39'))]);

    const cash = String(expectOk(await admin.get('/blade-base/settlement/retail')).find((m: { settlementName: string }) => m.settlementName === '现金').id);
    const receipt = await approvedBill(admin, '/blade-finance/receipt', { bartererId: c0, settlementId: cash, precpAmt: '20', bodyList: [{ sourceBillId: a.id, settleAmt: '20' }] }, { post: true });
    events.push([receipt.billNo, '记账', names[c0], '20.00']);
    const ret = expectOk(await admin.get(`${BASES.salesReturn}/generate`, { soNo: b.billNo }));
    const back = await approvedBill(admin, BASES.salesReturn, { ...ret, staffId: self, bodyList: [{ ...ret.bodyList[0], qty: '-1', salesAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined }] }, { post: true });
    events.push([back.billNo, '记账', names[c0], '-11.30']);
    sold.push({ month: thisMonth, total: new Dec('-11.30'), qty: -1, staff: self, bill: false });
    // c's whole sale is invoiced.
    const open = (expectOk(await admin.post(`/blade-sales/salesinvoicehead/selectByCustomerId?customerId=${c1}`, {})) as Row[]).filter((l) => l.sourceBillNo === c.billNo || l.sourceBillId === c.id);
    expect(open).toHaveLength(1);
    const invoice = await approvedBill(admin, '/blade-sales/salesinvoicehead', { customerId: c1, bodyList: open }, { post: true });
    events.push([invoice.billNo, '记账', names[c1], '11.30']);
    // A draft, a bill waiting for approval, and goods 2 below its minimum.
    expectOk(await admin.post(`${BASES.salesOut}/draft`, { customerId: c0, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '1', taxPrice: '1.13' }]) }));
    expectOk(await admin.post(`${BASES.salesOut}/submit`, { customerId: c0, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '1', taxPrice: '1.13' }]) }));
    expectOk(await admin.post('/blade-warehouse/stockwarning/submit', { commInfoId: w.goods[1], depotId: w.depots[0], minQty: '5' }));
    expectOk(await admin.post('/blade-warehouse/stockwarning/submit', { commInfoId: w.goods[0], depotId: w.depots[0], minQty: '1' }));

    // artop10: the customers' balances in the party ledger, largest first, only those owing.
    const balances = await Promise.all(w.customers.map(async (id) => ({ id, balance: await partyBalance(server, 'AR', id) })));
    expect(balances.map((r) => r.balance)).toEqual([money(new Dec('36.16').plus('11.30').minus(20).minus('11.30')), money(new Dec('11.30').plus('2.26')), '0.00']);
    const owing = balances.filter((r) => new Dec(r.balance).gt(0)).sort((x, y) => new Dec(y.balance).comparedTo(x.balance));
    const top = expectOk(await admin.get(`${INDEX}/artop10`)) as Row[];
    expect(top).toEqual(owing.map((r, i) => ({ rank: i + 1, customerId: r.id, customerName: names[r.id], balance: r.balance })));

    // invoicetop10: sales net of returns less what was invoiced; c1's invoiced sale leaves its older one.
    const soldTo = (id: string, ...amounts: string[]) => ({ id, sold: amounts.reduce((s, v) => s.plus(v), new Dec(0)) });
    const uninvoiced = [soldTo(c0, '36.16', '11.30', '-11.30'), { ...soldTo(c1, '11.30', '2.26'), invoiced: new Dec('11.30') }];
    expect(expectOk(await admin.get(`${INDEX}/invoicetop10`))).toEqual(
      uninvoiced
        .map((r) => ({ customerId: r.id, customerName: names[r.id], salesTotal: money(r.sold), invoicedAmt: money((r as Row).invoiced ?? 0), uninvoicedAmt: money(r.sold.minus((r as Row).invoiced ?? 0)) }))
        .sort((x, y) => new Dec(y.uninvoicedAmt).comparedTo(x.uninvoicedAmt))
        .map((r, i) => ({ rank: i + 1, ...r })),
    );

    // indexBusinessHistory: every posting and flush above, newest first.
    const history = expectOk(await admin.get(`${INDEX}/indexBusinessHistory`)) as Row[];
    expect(history.map((r) => [r.billNo, r.actionName, r.partnerName, r.amount])).toEqual([...events].reverse());
    expect(history[0]).toMatchObject({ billTypeName: '销售发票', userName: expect.any(String) });
    expect(history[0].actionTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    // exin: twelve months ending this one; sales net of tax, cost 4.00 a unit, purchases 80.00 net this month.
    const exin = expectOk(await admin.get(`${INDEX}/exin`)) as Row[];
    expect(exin.map((r) => r.month)).toEqual(Array.from({ length: 12 }, (_, i) => monthPlus(thisMonth, i - 11)));
    for (const row of exin) {
      const lines = sold.filter((s) => s.month === row.month);
      const total = lines.reduce((s, l) => s.plus(l.total), new Dec(0));
      const cost = new Dec(lines.reduce((s, l) => s + l.qty, 0)).times(4);
      const purchase = row.month === thisMonth ? new Dec(80) : new Dec(0);
      expect(row, row.month).toEqual({
        month: row.month,
        salesAmt: money(net(total)),
        salesTotal: money(total),
        costAmt: money(cost),
        grossProfit: money(net(total).minus(cost)),
        purchaseAmt: money(purchase),
        purchaseTotal: money(purchase.times('1.13')),
      });
    }
    expect(exin.find((r) => r.month === monthPlus(thisMonth, -2))!.salesTotal).toBe('2.26');

    // staffview: this month's sales per salesman, the caller's own row marked.
    const perStaff = [self, other].map((id) => {
      const mine = sold.filter((s) => s.staff === id && s.month === thisMonth);
      const total = mine.reduce((s, l) => s.plus(l.total), new Dec(0));
      const cost = new Dec(mine.reduce((s, l) => s + l.qty, 0)).times(4);
      return { staffId: id, billCount: mine.filter((s) => s.bill).length, salesAmt: money(net(total)), salesTotal: money(total), grossProfit: money(net(total).minus(cost)), isSelf: id === self ? 2 : 1 };
    });
    const staff = expectOk(await admin.get(`${INDEX}/staffview`)) as Row[];
    expect(staff).toEqual(
      perStaff
        .sort((x, y) => new Dec(y.salesAmt).comparedTo(x.salesAmt))
        .map((r, i) => ({ rank: i + 1, staffName: r.staffId === self ? '业务员甲' : '业务员乙', deptName: expect.any(String), ...r })),
    );

    // indexcount: today's and this month's sales are the same bills here; AR and AP from the ledger.
    const month = sold.filter((s) => s.month === thisMonth);
    const monthTotal = month.reduce((s, l) => s.plus(l.total), new Dec(0));
    const counts = expectOk(await admin.get(`${INDEX}/indexcount`));
    // Submitting and approving the bills above sent the admin approval messages (消息中心).
    const inbox = expectOk(await admin.get('/blade-desk/messageinfo/selectMessageInfoPage', { current: 1, size: 500 })).records as Row[];
    const unread = inbox.filter((m) => String(m.readStatus) === '1').length;
    expect(unread).toBeGreaterThan(0);
    expect(counts).toEqual({
      today,
      todaySalesAmt: money(net(monthTotal)),
      todaySalesTotal: money(monthTotal),
      todayBillCount: month.filter((s) => s.bill).length,
      monthSalesAmt: money(net(monthTotal)),
      monthSalesTotal: money(monthTotal),
      monthBillCount: month.filter((s) => s.bill).length,
      arTotal: money(owing.reduce((s, r) => s.plus(r.balance), new Dec(0))),
      arCustomerCount: owing.length,
      apTotal: await partyBalance(server, 'AP', w.supplierId),
      apSupplierCount: 1,
      pendingCount: 1,
      draftCount: 1,
      lowStockCount: 1,
      unreadCount: unread,
    });
    // 最新消息: the admin's 20 newest messages, as the inbox lists them.
    const newest = expectOk(await admin.get(`${INDEX}/topMessages`)) as Row[];
    expect(newest.map((m) => m.id)).toEqual(inbox.slice(0, 20).map((m) => m.id));
    // The pending and draft counts are the 待审单据 and 草稿单据 pages' totals.
    expect(counts.pendingCount).toBe(expectOk(await admin.get('/blade-desk/pendingbill/list', { current: 1, size: 1 })).total);
  });

  test('another tenant sees nothing; every call answers; a bad size is refused in Chinese', async () => {
    expect(await unanswered(admin, CALLS)).toEqual([]);
    const theirs = await signedIn(server.url, '100001');
    expect(await unanswered(theirs, CALLS)).toEqual([]);
    for (const path of ['artop10', 'invoicetop10', 'indexBusinessHistory', 'staffview']) expect(expectOk(await theirs.get(`${INDEX}/${path}`)), path).toEqual([]);
    const exin = expectOk(await theirs.get(`${INDEX}/exin`)) as Row[];
    expect(exin).toHaveLength(12);
    expect(new Set(exin.flatMap((r) => [r.salesAmt, r.purchaseAmt, r.grossProfit]))).toEqual(new Set(['0.00']));
    expect(expectOk(await theirs.get(`${INDEX}/indexcount`))).toMatchObject({ todaySalesAmt: '0.00', monthSalesAmt: '0.00', arTotal: '0.00', apTotal: '0.00', pendingCount: 0, draftCount: 0, lowStockCount: 0, todayBillCount: 0 });
    const bad = await admin.get(`${INDEX}/artop10`, { size: 'x' });
    expect(bad.body.success).toBe(false);
    expect(bad.body.msg).toBe('条数应为 1 到 50 之间的整数');
  });
});
