/**
 * Refunds (销售退款单 0887, 采购退款单 0888) and the calls that draft them, on SQLite and PostgreSQL:
 * createPrecpInfo on a posted return pays the partner back the return's open credit, capped by the
 * partner's net credit (a customer who still owes gets the return off its receivable, no money);
 * generateUnOutRefund / generateUnInRefund draft a refund of money paid ahead on an order up to
 * what is not yet delivered; selectPurchaseExins lists a supplier's on-account expense bills with
 * their open amounts. The ledgers stay exact throughout (ledgerViolations answers []).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, approvedBill, lines, makeWorld, partyBalance, type World } from '../support/bills.ts';
import { uniqueToken } from '../support/resources.ts';
import { ledgerViolations } from '../support/ledger-invariants.ts';

const RECEIPT = '/blade-finance/receipt';
const PAYMENT = '/blade-finance/payment';
const PREPAYMENT = '/blade-finance/prepayment';
const SALES_REFUND = '/blade-finance/salesrefund';
const PURCHASE_REFUND = '/blade-finance/purchaserefund';
const EXIN = '/blade-finance/exinhead';
const INVOICE = '/blade-purchase/purchaseinvoicehead';

type Bill = Record<string, any>;
/** A return's line with the quantity changed and the figures left for the server to compute. */
const returning = (draft: Bill, qty: string): Bill => ({
  ...draft,
  bodyList: [{ ...draft.bodyList[0], qty, totalAmt: undefined, taxAmt: undefined, salesAmt: undefined, purchaseAmt: undefined, finalAmt: undefined }],
});

describe.each(databases())('refunds ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let cash: string;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1, customers: 4 });
    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '100', purchasePrice: '5.00' }]) }, { post: true });
    const methods = expectOk(await admin.get('/blade-base/settlement/retail'));
    cash = String(methods.find((m: { settlementName: string }) => m.settlementName === '现金').id);
  });
  afterAll(async () => server?.close());

  const supplier = async () => {
    const natures = expectOk(await admin.get('/blade-base/suppliernature/list', { current: 1, size: 1 }));
    const nature = (Array.isArray(natures) ? natures : natures.records)[0];
    const token = uniqueToken().slice(-6);
    return String(expectOk(await admin.post('/blade-base/supplier/submit', { bartererCode: `R${token}`, bartererName: `退款供应商${token}`, natureId: nature?.id ?? '0' })).id);
  };
  /** A posted sales-out of 4 × 9.04 = 36.16. */
  const sale = (customer: string) =>
    approvedBill(admin, BASES.salesOut, { customerId: customer, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '4', taxPrice: '9.04' }]) }, { post: true });
  const salesReturn = async (out: Bill, qty: string, post = true) =>
    approvedBill(admin, BASES.salesReturn, returning(expectOk(await admin.get(`${BASES.salesReturn}/generate`, { soNo: out.billNo })), qty), { post });
  const money = (base: string, partner: string, amount: string, settle: [string, string][] = []) =>
    approvedBill(admin, base, { bartererId: partner, settlementId: cash, precpAmt: amount, ...(settle.length ? { bodyList: settle.map(([sourceBillId, settleAmt]) => ({ sourceBillId, settleAmt })) } : {}) }, { post: true });
  const createPrecpInfo = (base: string, bill: Bill) => admin.post(`${base}/createPrecpInfo`, undefined, { id: bill.id, version: bill.version });
  const detail = async (base: string, id: string) => expectOk(await admin.get(`${base}/detail`, { id }));
  const openItem = async (billId: string) => (await server.services.store.find(server.services.internal.openItem, '000000', { where: { billId } }))[0];
  const voucher = async (billId: string) =>
    (await server.services.store.find(server.services.internal.glEntry, '000000', { where: { billId } })).map((r) => [r.entry, r.account, String(r.partyId ?? ''), Number(r.amount).toFixed(2)]).sort();
  const countOf = async (resource: string) => (await server.services.store.find(server.services.m(resource), '000000', {})).length;

  test('sales return: no refund while the customer still owes 27.12; once paid, the 9.04 credit is refunded (Dr 应收 / Cr 银行) and the balance is 0.00', async () => {
    const c = w.customers[0];
    const out = await sale(c);
    expect(out.finalAmt).toBe('36.16');
    const ret = await salesReturn(out, '-1');
    expect(ret).toMatchObject({ finalAmt: '-9.04', billStatus: '1306' });
    expect(await partyBalance(server, 'AR', c)).toBe('27.12');

    const owes = await createPrecpInfo(BASES.salesReturn, ret);
    expect(owes.status).toBe(400);
    expect(owes.body.msg).toBe('客户目前仍欠款 27.12，没有可退给客户的余额（退货金额已冲减应收）');

    await money(RECEIPT, c, '36.16', [[out.id, '36.16']]);
    expect(await partyBalance(server, 'AR', c), 'paid in full, then 9.04 returned').toBe('-9.04');

    const stale = await admin.post(`${BASES.salesReturn}/createPrecpInfo`, undefined, { id: ret.id, version: Number(ret.version) - 1 });
    expect(stale.status).toBe(400);
    expect(stale.body.msg).toMatch(/^单据已被.*修改（当前状态：已记账），请刷新后重试$/);

    const refundsBefore = await countOf('sales-refund');
    const draft = expectOk(await createPrecpInfo(BASES.salesReturn, ret));
    expect(draft).toMatchObject({ billStatus: '1301', billType: '0887', bartererId: c, precpAmt: '9.04', settlementAmt: '9.04', sourceBillId: ret.id, sourceBillNo: ret.billNo });
    expect(draft.bodyList).toHaveLength(1);
    expect(draft.bodyList[0]).toMatchObject({ sourceBillId: ret.id, sourceBillNo: ret.billNo, sourceBillType: '0804', billAmt: '9.04', openAmt: '9.04', settleAmt: '9.04' });
    expect(await countOf('sales-refund')).toBe(refundsBefore + 1);
    expect(await partyBalance(server, 'AR', c), 'a draft writes no ledger').toBe('-9.04');

    const again = await createPrecpInfo(BASES.salesReturn, await detail(BASES.salesReturn, ret.id));
    expect(again.body).toMatchObject({ success: false, msg: `销售退货单${ret.billNo}已生成退款单${draft.billNo}（草稿），不能重复生成` });

    const noMethod = await admin.post(`${SALES_REFUND}/submit`, { ...draft });
    expect(noMethod.body).toMatchObject({ success: false });
    expect(noMethod.body.msg).toContain('请选择结算方式');

    const posted = await approvedBill(admin, SALES_REFUND, { ...draft, settlementId: cash }, { post: true });
    expect(posted).toMatchObject({ billStatus: '1306', precpAmt: '9.04' });
    expect(await partyBalance(server, 'AR', c), '−9.04 + 9.04').toBe('0.00');
    expect(await openItem(ret.id)).toMatchObject({ applied: expect.stringMatching(/^9\.04/) });
    expect(expectOk(await admin.get(`${RECEIPT}/precplist`, { bartererId: c }))).toEqual([]);
    expect(await voucher(posted.id)).toEqual([
      ['post', '1002', '', '-9.04'],
      ['post', '1122', c, '9.04'],
    ]);
    const paidBack = expectOk(await admin.get(`${SALES_REFUND}/settlebodydist`, { billId: posted.id }));
    expect(paidBack.map((d: Bill) => [d.billNo, d.settleAmt])).toEqual([[ret.billNo, '9.04']]);

    // Flushing the refund gives the credit back; a new refund may then be drafted.
    expectOk(await admin.post(`${SALES_REFUND}/flush`, { id: posted.id, version: posted.version }));
    expect(await partyBalance(server, 'AR', c)).toBe('-9.04');
    const redo = expectOk(await createPrecpInfo(BASES.salesReturn, await detail(BASES.salesReturn, ret.id)));
    expect(redo.precpAmt).toBe('9.04');

    const unposted = await salesReturn(out, '-1', false);
    const notPosted = await createPrecpInfo(BASES.salesReturn, unposted);
    expect(notPosted.body).toMatchObject({ success: false, msg: `销售退货单${unposted.billNo}当前状态为「已审核」，只有「已记账」的退货单可以生成退款单` });
    expect(await ledgerViolations(server.services)).toEqual([]);
  });

  test('sales return of a partly paid sale: 36.16 less 30.00 received less 9.04 returned = −2.88, so 2.88 is refunded and 6.16 of the credit stays', async () => {
    const c = w.customers[1];
    const out = await sale(c);
    await money(RECEIPT, c, '30', [[out.id, '30']]);
    const ret = await salesReturn(out, '-1');
    expect(await partyBalance(server, 'AR', c)).toBe('-2.88');
    const draft = expectOk(await createPrecpInfo(BASES.salesReturn, ret));
    expect(draft.precpAmt).toBe('2.88');
    expect(draft.bodyList[0]).toMatchObject({ openAmt: '9.04', settleAmt: '2.88' });
    await approvedBill(admin, SALES_REFUND, { ...draft, settlementId: cash }, { post: true });
    expect(await partyBalance(server, 'AR', c)).toBe('0.00');
    const credits = expectOk(await admin.get(`${RECEIPT}/precplist`, { bartererId: c }));
    expect(credits.map((i: Bill) => [i.billNo, i.openAmt])).toEqual([[ret.billNo, '6.16']]);
    const used = await createPrecpInfo(BASES.salesReturn, await detail(BASES.salesReturn, ret.id));
    expect(used.body.msg).toContain('已生成退款单');
    expect(await ledgerViolations(server.services)).toEqual([]);
  });

  test('purchase return: 2 of 10 × 5.00 (+13%) returned; while 45.20 is still owed nothing is refunded; once 56.50 is paid the supplier owes 11.30, refunded Dr 银行 / Cr 应付', async () => {
    const s = await supplier();
    const inbound = await approvedBill(admin, BASES.purchaseIn, { supplierId: s, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '10', purchasePrice: '5.00' }]) }, { post: true });
    expect(inbound.finalAmt).toBe('56.50');
    const ret = await approvedBill(admin, BASES.purchaseReturn, returning(expectOk(await admin.get(`${BASES.purchaseReturn}/generate`, { poNo: inbound.billNo })), '-2'), { post: true });
    expect(ret.finalAmt).toBe('-11.30');
    const owed = await createPrecpInfo(BASES.purchaseReturn, ret);
    expect(owed.body).toMatchObject({ success: false, msg: '目前仍欠供应商 45.20，供应商没有需要退回的款项（退货金额已冲减应付）' });

    await money(PAYMENT, s, '56.50', [[inbound.id, '56.50']]);
    expect(await partyBalance(server, 'AP', s)).toBe('-11.30');
    const draft = expectOk(await createPrecpInfo(BASES.purchaseReturn, ret));
    expect(draft).toMatchObject({ billType: '0888', bartererId: s, precpAmt: '11.30', sourceBillNo: ret.billNo });
    expect(draft.bodyList[0]).toMatchObject({ sourceBillId: ret.id, sourceBillType: '0813', settleAmt: '11.30' });
    const posted = await approvedBill(admin, PURCHASE_REFUND, { ...draft, settlementId: cash }, { post: true });
    expect(await partyBalance(server, 'AP', s)).toBe('0.00');
    expect(await voucher(posted.id)).toEqual([
      ['post', '1002', '', '11.30'],
      ['post', '2202', s, '-11.30'],
    ]);
    expect(expectOk(await admin.get(`${PAYMENT}/precplist`, { bartererId: s }))).toEqual([]);
    expect(await ledgerViolations(server.services)).toEqual([]);
  });

  test('generateUnOutRefund: 50.00 prepaid, 2 of 5 × 9.04 shipped (18.08 taken from the prepayment) → a draft refund of the 27.12 not shipped, nothing written', async () => {
    const c = w.customers[2];
    const prepaid = await money(PREPAYMENT, c, '50');
    const so = await approvedBill(admin, BASES.salesOrder, { customerId: c, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '5', taxPrice: '9.04' }]) });
    expect(so.finalAmt).toBe('45.20');
    await approvedBill(admin, BASES.salesOut, { customerId: c, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '2', taxPrice: '9.04', sourceBodyId: so.bodyList[0].id }]) }, { post: true });
    expect(await partyBalance(server, 'AR', c), '18.08 − 50.00').toBe('-31.92');

    const before = await countOf('sales-refund');
    const draft = expectOk(await admin.get(`${BASES.salesReturn}/generateUnOutRefund`, { soNo: so.billNo }));
    expect(await countOf('sales-refund'), 'nothing written').toBe(before);
    expect(draft).toMatchObject({ bartererId: c, precpAmt: '27.12', sourceBillNo: so.billNo, remark: `销售订单${so.billNo}未发货部分退款（未发货金额 27.12）` });
    expect(draft.id).toBeUndefined();
    expect(draft.bodyList).toEqual([expect.objectContaining({ sourceBillId: prepaid.id, sourceBillType: '0886', billAmt: '50.00', openAmt: '31.92', settleAmt: '27.12' })]);

    await approvedBill(admin, SALES_REFUND, { ...draft, settlementId: cash }, { post: true });
    expect(await partyBalance(server, 'AR', c), '−31.92 + 27.12').toBe('-4.80');

    const unknown = await admin.get(`${BASES.salesReturn}/generateUnOutRefund`, { soNo: 'NO-SUCH-ORDER' });
    expect(unknown.body).toMatchObject({ success: false, msg: '销售订单NO-SUCH-ORDER不存在' });
    const nothing = await admin.get(`${BASES.salesReturn}/generateUnOutRefund`, { soNo: (await approvedBill(admin, BASES.salesOrder, { customerId: w.customers[3], depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '1', taxPrice: '9.04' }]) })).billNo });
    expect(nothing.body).toMatchObject({ success: false, msg: '客户没有未使用的预收款或收款，无需退款' });
    expect(await ledgerViolations(server.services)).toEqual([]);
  });

  test('generateUnInRefund: 100.00 paid ahead, 4 of 10 × 5.00 (+13%) received (22.60 taken) → a draft refund of the 33.90 not received', async () => {
    const s = await supplier();
    const paid = await money(PAYMENT, s, '100');
    const po = await approvedBill(admin, BASES.purchaseOrder, { supplierId: s, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '10', purchasePrice: '5.00' }]) });
    expect(po.finalAmt).toBe('56.50');
    await approvedBill(admin, BASES.purchaseIn, { supplierId: s, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '4', purchasePrice: '5.00', sourceBodyId: po.bodyList[0].id }]) }, { post: true });
    expect(await partyBalance(server, 'AP', s)).toBe('-77.40');
    const draft = expectOk(await admin.get(`${BASES.purchaseReturn}/generateUnInRefund`, { poNo: po.billNo }));
    expect(draft).toMatchObject({ bartererId: s, precpAmt: '33.90', sourceBillNo: po.billNo });
    expect(draft.bodyList).toEqual([expect.objectContaining({ sourceBillId: paid.id, sourceBillType: '0854', openAmt: '77.40', settleAmt: '33.90' })]);
    await approvedBill(admin, PURCHASE_REFUND, { ...draft, settlementId: cash }, { post: true });
    expect(await partyBalance(server, 'AP', s), '−77.40 + 33.90').toBe('-43.50');
    expect(await ledgerViolations(server.services)).toEqual([]);
  });

  test("selectPurchaseExins: the invoice's supplier's posted on-account 费用单 with their open amounts, filtered by the body", async () => {
    const s = await supplier();
    const other = await supplier();
    const items = expectOk(await admin.get('/blade-base/exinitem/select', { current: 1, size: 100 })).records as { id: string; expendName: string }[];
    const item = (name: string) => items.find((i) => i.expendName === name)!.id;
    const expense = async (partner: string, onAccount: 1 | 2, bodyList: { expendId: string; amount: string }[]) => {
      const saved = expectOk(await admin.post(`${EXIN}/submit`, { expendType: 6002, onAccount, supplierId: partner, settlementId: onAccount === 2 ? undefined : cash, bodyList }));
      const approved = expectOk(await admin.post(`${EXIN}/audit`, { id: saved.id, version: saved.version, remark: '同意' }));
      return expectOk(await admin.post(`${EXIN}/accounting`, { id: approved.id, version: approved.version }));
    };
    const e1 = await expense(s, 2, [{ expendId: item('房租'), amount: '1200' }, { expendId: item('水电费'), amount: '86.50' }]);
    const e2 = await expense(s, 2, [{ expendId: item('房租'), amount: '50' }]);
    await expense(s, 1, [{ expendId: item('房租'), amount: '7' }]); // paid on the spot: not on account
    await expense(other, 2, [{ expendId: item('房租'), amount: '9' }]); // another supplier's
    await money(PAYMENT, s, '286.50', [[e1.id, '286.50']]);

    await approvedBill(admin, BASES.purchaseIn, { supplierId: s, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '1', purchasePrice: '1.00' }]) }, { post: true });
    const open = expectOk(await admin.post(`${INVOICE}/selectBySupplierId?supplierId=${s}`, {}));
    const invoice = expectOk(await admin.post(`${INVOICE}/draft`, { supplierId: s, bodyList: open }));

    const all = expectOk(await admin.post(`${INVOICE}/selectPurchaseExins?id=${invoice.id}`, {}));
    expect(all.map((e: Bill) => [e.billNo, e.expendNames, e.finalAmt, e.settledAmt, e.openAmt])).toEqual([
      [e1.billNo, '房租、水电费', '1286.50', '286.50', '1000.00'],
      [e2.billNo, '房租', '50.00', '0.00', '50.00'],
    ]);
    expect(expectOk(await admin.post(`${INVOICE}/selectPurchaseExins?id=${invoice.id}`, { billNo: e2.billNo })).map((e: Bill) => e.id)).toEqual([e2.id]);
    expect(expectOk(await admin.post(`${INVOICE}/selectPurchaseExins?id=${invoice.id}`, { expendId: item('水电费') })).map((e: Bill) => e.id)).toEqual([e1.id]);
    expect(expectOk(await admin.post(`${INVOICE}/selectPurchaseExins?id=${invoice.id}`, { billDateStart: '2099-01-01' }))).toEqual([]);
    expect(expectOk(await admin.post(`${INVOICE}/selectPurchaseExins`, { supplierId: other })).map((e: Bill) => e.openAmt)).toEqual(['9.00']);

    await money(PAYMENT, s, '50', [[e2.id, '50']]);
    expect(expectOk(await admin.post(`${INVOICE}/selectPurchaseExins?id=${invoice.id}`, {})).map((e: Bill) => e.id)).toEqual([e1.id]);
    expect(expectOk(await admin.post(`${INVOICE}/selectPurchaseExins?id=${invoice.id}`, { openOnly: false })).map((e: Bill) => e.openAmt)).toEqual(['1000.00', '0.00']);
    const missing = await admin.post(`${INVOICE}/selectPurchaseExins`, {});
    expect(missing.body).toMatchObject({ success: false, msg: '请先选择采购发票（id）或供应商（supplierId）' });
    expect(await ledgerViolations(server.services)).toEqual([]);
  });
});
