/**
 * Receipts, payments and prepayments settling open bills (issue: inventory and finance,
 * acceptance 2 and 3), on SQLite and PostgreSQL: a receipt pays part of a sales-out, never more
 * than is open (checked on save and again when posting, under lock); what it does not apply stays
 * as credit; a prepayment is used by the customer's next sale and comes back when that sale is
 * flushed; the partner's balance always equals its open bills less its unapplied credit.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, approvedBill, lines, makeWorld, partyBalance, setConfig, type World } from '../support/bills.ts';

const RECEIPT = '/blade-finance/receipt';
const PAYMENT = '/blade-finance/payment';
const PREPAYMENT = '/blade-finance/prepayment';

interface Item {
  billId: string;
  billNo: string;
  openAmt: string;
  settledAmt: string;
}

describe.each(databases())('settlement ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let cash: string;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1, customers: 5 });
    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '100', purchasePrice: '5.00' }]) }, { post: true });
    const methods = expectOk(await admin.get('/blade-base/settlement/retail'));
    cash = String(methods.find((m: { settlementName: string }) => m.settlementName === '现金').id);
  });
  afterAll(async () => server?.close());

  /** A posted sales-out of 4 × 9.04 = 36.16 to the customer. */
  const sale = (customer: string) =>
    approvedBill(admin, BASES.salesOut, { customerId: customer, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '4', taxPrice: '9.04' }]) }, { post: true });
  const items = async (base: string, which: 'billlist' | 'precplist', partner: string): Promise<Item[]> => expectOk(await admin.get(`${base}/${which}`, { bartererId: partner }));
  const openOf = async (base: string, partner: string, billId: string) => (await items(base, 'billlist', partner)).find((i) => i.billId === billId)?.openAmt ?? '0.00';
  const receipt = (customer: string, amount: string, settle: [string, string][]) => ({
    bartererId: customer,
    settlementId: cash,
    precpAmt: amount,
    bodyList: settle.map(([billId, settleAmt]) => ({ sourceBillId: billId, settleAmt })),
  });

  test('acceptance 2: 36.16 owed; 20.00 received and applied → 16.16; 20.00 more refused; 16.16 applied leaves 3.84 credit; flushing the first → 20.00 owed', async () => {
    const c = w.customers[0];
    const out = await sale(c);
    expect(out.finalAmt).toBe('36.16');
    expect(await openOf(RECEIPT, c, out.id)).toBe('36.16');

    const r1 = await approvedBill(admin, RECEIPT, receipt(c, '20', [[out.id, '20']]), { post: true });
    expect(r1).toMatchObject({ precpAmt: '20.00', settlementAmt: '20.00', billStatus: '1306' });
    expect(r1.bodyList[0]).toMatchObject({ sourceBillNo: out.billNo, sourceBillType: '0803', billAmt: '36.16', openAmt: '36.16', settleAmt: '20.00' });
    expect(await openOf(RECEIPT, c, out.id)).toBe('16.16');

    const over = await admin.post(`${RECEIPT}/submit`, receipt(c, '20', [[out.id, '20']]));
    expect(over.body).toMatchObject({ success: false, msg: `第1行：核销金额 20.00 超过单据${out.billNo}的未结金额 16.16` });

    const r2 = await approvedBill(admin, RECEIPT, receipt(c, '20', [[out.id, '16.16']]), { post: true });
    expect(r2.settlementAmt).toBe('16.16');
    expect(await items(RECEIPT, 'billlist', c)).toEqual([]);
    expect((await items(RECEIPT, 'precplist', c)).map((i) => [i.billNo, i.openAmt])).toEqual([[r2.billNo, '3.84']]);
    expect(await partyBalance(server, 'AR', c)).toBe('-3.84');

    expectOk(await admin.post(`${RECEIPT}/flush`, { id: r1.id, version: r1.version }));
    expect(await openOf(RECEIPT, c, out.id)).toBe('20.00');
    expect((await items(RECEIPT, 'precplist', c)).map((i) => i.openAmt)).toEqual(['3.84']);
    expect(await partyBalance(server, 'AR', c), 'balance = open 20.00 − credit 3.84').toBe('16.16');
  });

  test('two receipts saved against the same 36.16 while both fit: the second is refused when posted, naming what is left', async () => {
    const c = w.customers[1];
    const out = await sale(c);
    const a = await approvedBill(admin, RECEIPT, receipt(c, '30', [[out.id, '30']]));
    const b = await approvedBill(admin, RECEIPT, receipt(c, '30', [[out.id, '30']]));
    expectOk(await admin.post(`${RECEIPT}/accounting`, { id: a.id, version: a.version }));
    const refused = await admin.post(`${RECEIPT}/accounting`, { id: b.id, version: b.version });
    expect(refused.body).toMatchObject({ success: false, msg: `第1行：核销金额 30.00 超过单据${out.billNo}的未结金额 6.16` });
    expect(expectOk(await admin.get(`${RECEIPT}/detail`, { id: b.id })).billStatus, 'nothing of it was written').toBe('1304');
    expect(await openOf(RECEIPT, c, out.id)).toBe('6.16');
    expect(await partyBalance(server, 'AR', c)).toBe('6.16');
  });

  test('acceptance 3: a prepayment of 50.00 is used by a sale of 36.16 (13.84 left); flushing the sale gives back 50.00', async () => {
    const c = w.customers[2];
    const pre = await approvedBill(admin, PREPAYMENT, { bartererId: c, settlementId: cash, precpAmt: '50' }, { post: true });
    expect((await items(PREPAYMENT, 'precplist', c)).map((i) => [i.billNo, i.openAmt])).toEqual([[pre.billNo, '50.00']]);
    const out = await sale(c);
    expect(await items(RECEIPT, 'billlist', c), 'the sale is paid by the prepayment').toEqual([]);
    expect((await items(PREPAYMENT, 'precplist', c)).map((i) => i.openAmt)).toEqual(['13.84']);
    expect(await partyBalance(server, 'AR', c)).toBe('-13.84');

    expectOk(await admin.post(`${BASES.salesOut}/flush`, { id: out.id, version: out.version }));
    expect((await items(PREPAYMENT, 'precplist', c)).map((i) => i.openAmt)).toEqual(['50.00']);
    expect(await partyBalance(server, 'AR', c)).toBe('-50.00');
  });

  test('with PREPAYMENT_AUTO_USE 1 (否) a sale leaves the prepayment alone, for a receipt to settle by hand', async () => {
    const c = w.customers[3];
    await setConfig(admin, 'PREPAYMENT_AUTO_USE', '1');
    try {
      await approvedBill(admin, PREPAYMENT, { bartererId: c, settlementId: cash, precpAmt: '10' }, { post: true });
      const out = await sale(c);
      expect(await openOf(RECEIPT, c, out.id)).toBe('36.16');
      expect((await items(PREPAYMENT, 'precplist', c)).map((i) => i.openAmt)).toEqual(['10.00']);
    } finally {
      await setConfig(admin, 'PREPAYMENT_AUTO_USE', '2');
    }
  });

  test('按单收款: mergecollect drafts two open sales in full, the amount is their sum; batchaudit approves; settlebodydist names the receipt', async () => {
    const c = w.customers[4];
    const [a, b] = [await sale(c), await sale(c)];
    const draft = expectOk(await admin.get('/blade-finance/arsettle/mergecollect', { bartererId: c, billIds: `${a.id},${b.id}` }));
    expect(draft).toMatchObject({ bartererId: c, precpAmt: '72.32', bartererName: expect.any(String) });
    expect(draft.bodyList.map((l: { sourceBillNo: string; settleAmt: string }) => [l.sourceBillNo, l.settleAmt])).toEqual([
      [a.billNo, '36.16'],
      [b.billNo, '36.16'],
    ]);
    const first = expectOk(await admin.post('/blade-finance/arsettle/submit', { ...draft, settlementId: cash, precpAmt: '1', bodyList: [{ ...draft.bodyList[0], settleAmt: '30' }] }));
    expect(first.precpAmt, 'the amount is what the lines settle, whatever was sent').toBe('30.00');
    const second = expectOk(await admin.post('/blade-finance/arsettle/submit', { ...draft, settlementId: cash, bodyList: [draft.bodyList[1]] }));
    const audited = expectOk(await admin.post('/blade-finance/arsettle/batchaudit', { ids: `${first.id},${second.id},nope` }));
    expect(audited).toMatchObject({ total: 3, passed: 2 });
    expect(audited.results[2]).toMatchObject({ id: 'nope', success: false, msg: '单据不存在或已被删除' });
    for (const bill of [first, second]) {
      const now = expectOk(await admin.get('/blade-finance/arsettle/detail', { id: bill.id }));
      expectOk(await admin.post('/blade-finance/arsettle/accounting', { id: now.id, version: now.version }));
    }
    expect((await items('/blade-finance/arsettle', 'billlist', c)).map((i) => [i.billNo, i.openAmt])).toEqual([[a.billNo, '6.16']]);
    expect((await items(RECEIPT, 'precplist', c)).length, 'no unapplied money').toBe(0);
    const dist = expectOk(await admin.get('/blade-finance/arsettle/settlebodydist', { billId: a.id }));
    expect(dist.map((d: { billNo: string; settleAmt: string }) => [d.billNo, d.settleAmt])).toEqual([[first.billNo, '30.00']]);
    expect((await admin.post('/blade-finance/arsettle/submit', { bartererId: c, settlementId: cash, bodyList: [] })).body.msg).toBe('请选择要核销的单据');
  });

  test('a payment settles a purchase-in; refusals: no amount, lines beyond the money, another partner\'s bill, a bill twice', async () => {
    const inbound = await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '2', purchasePrice: '5.00' }]) }, { post: true });
    expect(inbound.finalAmt).toBe('11.30');
    const open = await openOf(PAYMENT, w.supplierId, inbound.id);
    expect(open).toBe('11.30');
    const pay = (amount: string, settle: [string, string][]) => ({ bartererId: w.supplierId, settlementId: cash, precpAmt: amount, bodyList: settle.map(([sourceBillId, settleAmt]) => ({ sourceBillId, settleAmt })) });
    expect((await admin.post(`${PAYMENT}/submit`, pay('', []))).body.msg).toBe('请输入付款金额');
    expect((await admin.post(`${PAYMENT}/submit`, pay('0', []))).body.msg).toBe('付款金额必须大于0');
    expect((await admin.post(`${PAYMENT}/submit`, pay('5', [[inbound.id, '6']]))).body.msg).toBe('核销金额合计 6.00 超过付款金额 5.00');
    expect((await admin.post(`${PAYMENT}/submit`, pay('20', [[inbound.id, '5'], [inbound.id, '5']]))).body.msg).toBe('第2行：与第1行是同一张单据');
    const someoneElse = await sale(w.customers[0]);
    expect((await admin.post(`${PAYMENT}/submit`, pay('5', [[someoneElse.id, '5']]))).body.msg).toBe('第1行：单据不是该往来单位已记账且未结清的应付单据');
    const before = await partyBalance(server, 'AP', w.supplierId);
    const paid = await approvedBill(admin, PAYMENT, pay('11.30', [[inbound.id, '11.30']]), { post: true });
    expect(paid.settlementAmt).toBe('11.30');
    expect(await openOf(PAYMENT, w.supplierId, inbound.id)).toBe('0.00');
    expect(await partyBalance(server, 'AP', w.supplierId)).toBe((Number(before) - 11.3).toFixed(2));
  });
  test('precpbody: the lines of a draft receipt added, changed and removed one at a time; the receipt is saved again each time; a posted one refuses', async () => {
    const c = w.customers[3];
    const out = await sale(c); // 36.16 owed
    const draft = expectOk(await admin.post(`${RECEIPT}/draft`, receipt(c, '30', [])));
    const line = expectOk(await admin.post('/blade-finance/precpbody/submit', { headId: draft.id, sourceBillId: out.id, settleAmt: '20' }));
    expect(line).toMatchObject({ headId: draft.id, sourceBillId: out.id, settleAmt: '20.00' });
    let head = expectOk(await admin.get(`${RECEIPT}/detail`, { id: draft.id }));
    expect([head.settlementAmt, head.bodyList.length, head.version > draft.version]).toEqual(['20.00', 1, true]);
    // More than the money is refused, and nothing changes.
    const over = await admin.post('/blade-finance/precpbody/submit', { id: line.id, headId: draft.id, sourceBillId: out.id, settleAmt: '31' });
    expect(over.body.success).toBe(false);
    expectOk(await admin.post('/blade-finance/precpbody/submit', { id: line.id, headId: draft.id, sourceBillId: out.id, settleAmt: '25' }));
    const listed = expectOk(await admin.get('/blade-finance/precpbody/list', { headId: draft.id, current: 1, size: 10 }));
    expect(listed.records.map((r: { settleAmt: string }) => Number(r.settleAmt))).toEqual([25]);
    // A receipt may settle nothing: its money is then unapplied credit.
    expectOk(await admin.post('/blade-finance/precpbody/remove', undefined, { ids: line.id }));
    head = expectOk(await admin.get(`${RECEIPT}/detail`, { id: draft.id }));
    expect([head.settlementAmt ?? '0.00', head.bodyList.length]).toEqual(['0.00', 0]);
    const posted = await approvedBill(admin, RECEIPT, { ...receipt(c, '10', [[out.id, '10']]) }, { post: true });
    const refused = await admin.post('/blade-finance/precpbody/submit', { headId: posted.id, sourceBillId: out.id, settleAmt: '1' });
    expect(refused.body.msg).toContain('已记账');
  });
});
