/**
 * The partner tabs' reports on SQLite and PostgreSQL (客户详情 → 对账 / 往来明细; the supplier's
 * apcheck / apYwcheck): a customer with a sale of 36.16 paid 20.00 and a second sale of 11.30 — per
 * bill amounts, what was received on each, what stays open (Σ = the balance, 27.46), settlement
 * status; the ledger rows with the running balance; the partner matched exactly; another tenant sees
 * nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { approvedBill, BASES, lines, makeWorld, partyBalance, type World } from '../support/bills.ts';
import { Dec } from '../../src/shared/money/index.ts';

type Row = Record<string, string>;
const figures = (r: Row) => [r.billNo, r.billTypeName, Number(r.arBillAmt).toFixed(2), Number(r.arBillPay).toFixed(2), Number(r.arFinalBalance).toFixed(2)];

describe.each(databases())('partner reports ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1, customers: 2 });
  });
  afterAll(async () => server?.close());

  test('对账 and 往来明细 of a customer: 36.16 sold, 20.00 received on it, 11.30 sold; the other customer and another tenant apart', async () => {
    const inbound = await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '20', purchasePrice: '4.00' }]) }, { post: true });
    const c = w.customers[0];
    const sale = (qty: string, price: string, customer = c) =>
      approvedBill(admin, BASES.salesOut, { customerId: customer, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty, taxPrice: price }]) }, { post: true });
    const first = await sale('4', '9.04');
    const cash = String(expectOk(await admin.get('/blade-base/settlement/retail')).find((m: { settlementName: string }) => m.settlementName === '现金').id);
    const receipt = await approvedBill(admin, '/blade-finance/receipt', { bartererId: c, settlementId: cash, precpAmt: '20', bodyList: [{ sourceBillId: first.id, settleAmt: '20' }] }, { post: true });
    const second = await sale('1', '11.30');
    await sale('1', '5.00', w.customers[1]);

    const check = expectOk(await admin.get('/blade-report/bartererbalance/archeck', { bartererId: c, current: 1, size: 20 })).records as Row[];
    expect(check.map(figures)).toEqual([
      [first.billNo, '销售出库单', '36.16', '20.00', '16.16'],
      [receipt.billNo, '收款单', '0.00', '20.00', '0.00'],
      [second.billNo, '销售出库单', '11.30', '0.00', '11.30'],
    ]);
    expect(check.map((r) => r.settlementStatus)).toEqual(['部分结算', '已结算', '未结算']);
    const open = check.reduce((s, r) => s.plus(r.arFinalBalance), new Dec(0)).toFixed(2);
    expect(open).toBe(await partyBalance(server, 'AR', c));
    expect(open).toBe('27.46');

    const detail = expectOk(await admin.get('/blade-report/businessbalance/arYwcheck', { bartererId: c, current: 1, size: 20 })).records as Row[];
    expect(detail.map(figures)).toEqual([
      [first.billNo, '销售出库单', '36.16', '0.00', '36.16'],
      [receipt.billNo, '收款单', '0.00', '20.00', '16.16'],
      [second.billNo, '销售出库单', '11.30', '0.00', '27.46'],
    ]);

    // The supplier's side: the inbound of 20 × 4.00 + 13% = 90.40 owed.
    const payable = expectOk(await admin.get('/blade-report/businessbalance/apcheck', { bartererId: w.supplierId, current: 1, size: 20 })).records as Row[];
    expect(payable.map((r) => [r.billNo, Number(r.apBillAmt).toFixed(2), Number(r.apFinalBalance).toFixed(2), r.settlementStatus])).toEqual([[inbound.billNo, '90.40', '90.40', '未结算']]);
    const payableRows = expectOk(await admin.get('/blade-report/businessbalance/apYwcheck', { bartererId: w.supplierId, current: 1, size: 20 })).records as Row[];
    expect(payableRows.map((r) => Number(r.apFinalBalance).toFixed(2))).toEqual(['90.40']);

    const bare = await admin.get('/blade-report/bartererbalance/archeck', { current: 1, size: 20 });
    expect(bare.body.msg).toBe('请选择客户');
    const other = await signedIn(server.url, '100001');
    expect(expectOk(await other.get('/blade-report/bartererbalance/archeck', { bartererId: c, current: 1, size: 20 })).total).toBe(0);
    expect(expectOk(await other.get('/blade-report/businessbalance/arYwcheck', { bartererId: c, current: 1, size: 20 })).total).toBe(0);
  });
});
