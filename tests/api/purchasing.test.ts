/**
 * Purchasing (issue: purchasing, sales and retail complete), on SQLite and PostgreSQL: the order's
 * receipt progress and closing, over-receipt (OVER_RECEIPT and registered allowances), and a head
 * fee allocated over inbound lines into their cost (COST_ALLOCATION_MODEL 1 and 0, gifts included).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { Dec } from '../../src/shared/money/index.ts';
import { BASES, approvedBill, lines, makeGoods, makeWorld, partyBalance, stockOf, setConfig, type World } from '../support/bills.ts';

describe.each(databases())('purchasing ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 2 });
  });
  afterAll(async () => server?.close());

  const order = async (goods: string, qty: string) =>
    approvedBill(admin, BASES.purchaseOrder, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods, qty, purchasePrice: '5.00' }]) });
  const inbound = (orderLine: string, goods: string, qty: string) => ({
    supplierId: w.supplierId,
    depotId: w.depots[0],
    bodyList: lines(w, [{ goods, qty, purchasePrice: '5.00', sourceBodyId: orderLine }]),
  });
  const detail = async (base: string, id: string) => expectOk(await admin.get(`${base}/detail`, { id }));
  const openOrders = async () => expectOk(await admin.get(`${BASES.purchaseOrder}/unReceivePage`, { current: 1, size: 100 })).records.map((r: { id: string }) => r.id);

  test('order 10 → inbound 6 → over-receipt refused unless allowed → inbound 4 closes the order; a flush reopens it', async () => {
    const g = await makeGoods(admin, w.unitId, '订单进度商品');
    const po = await order(g, '10');
    const line = po.bodyList[0].id;
    expect(po).toMatchObject({ billStatus: '1304' });
    expect(await openOrders()).toContain(po.id);

    const first = await approvedBill(admin, BASES.purchaseIn, inbound(line, g, '6'), { post: true });
    let seen = await detail(BASES.purchaseOrder, po.id);
    expect(seen).toMatchObject({ billStatus: '1304', inStatus: '2703' });
    expect(seen.bodyList[0].inQty).toBe('6.00');

    // 6 + 5 > 10: refused, naming the line and the figures, and nothing is saved.
    const over = await admin.post(`${BASES.purchaseIn}/draft`, inbound(line, g, '5'));
    expect(over.body.success).toBe(false);
    expect(over.body.msg).toContain('第1行：数量超过源单未完成数量（源单 10，已生成 6，本次 5）');

    // A registered allowance of 1 on the line lets exactly 5 through (as a draft), not 6.
    expectOk(await admin.post('/blade-purchase/purchaseorderexceed/saveBatchOrderExceed', [{ orderBodyId: line, exceedQty: '1', remark: '供应商多送' }]));
    expect((await admin.post(`${BASES.purchaseIn}/draft`, inbound(line, g, '6'))).body.msg).toContain('允许超收 1');
    const allowed = expectOk(await admin.post(`${BASES.purchaseIn}/draft`, inbound(line, g, '5')));
    expectOk(await admin.post(`${BASES.purchaseIn}/cancel`, { id: allowed.id, version: allowed.version }));
    const refusedBatch = await admin.post('/blade-purchase/purchaseorderexceed/saveBatchOrderExceed', [{ orderBodyId: line, exceedQty: '0' }]);
    expect(refusedBatch.body.msg).toContain('第1条：超量数量必须大于0');

    // OVER_RECEIPT 2 (是): no limit.
    await setConfig(admin, 'OVER_RECEIPT', '2');
    try {
      const free = expectOk(await admin.post(`${BASES.purchaseIn}/draft`, inbound(line, g, '50')));
      expectOk(await admin.post(`${BASES.purchaseIn}/cancel`, { id: free.id, version: free.version }));
    } finally {
      await setConfig(admin, 'OVER_RECEIPT', '1');
    }

    const second = await approvedBill(admin, BASES.purchaseIn, inbound(line, g, '4'), { post: true });
    seen = await detail(BASES.purchaseOrder, po.id);
    expect(seen).toMatchObject({ billStatus: '1309', inStatus: '2704' });
    expect(seen.bodyList[0].inQty).toBe('10.00');
    expect(await openOrders()).not.toContain(po.id);
    const pull = await admin.get(`${BASES.purchaseIn}/pullOrderById`, { id: po.id });
    expect(pull.body.success).toBe(false);

    // Flushing the second inbound gives its 4 back: the order is open again, partly received.
    expectOk(await admin.post(`${BASES.purchaseIn}/flush`, { id: second.id, version: second.version }));
    seen = await detail(BASES.purchaseOrder, po.id);
    expect(seen).toMatchObject({ billStatus: '1304', inStatus: '2703' });
    expect(seen.bodyList[0].inQty).toBe('6.00');
    expect(await openOrders()).toContain(po.id);
    expect(first.billStatus).toBe('1306');
  });

  test('a sales order shipped in full closes (已完成, 已发货) and leaves unSendPage; flushing the outbound reopens it', async () => {
    const g = await makeGoods(admin, w.unitId, '发货进度商品');
    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '5', purchasePrice: '1.00' }]) }, { post: true });
    const so = await approvedBill(admin, BASES.salesOrder, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '5', taxPrice: '2.26' }]) });
    const unsent = async () => expectOk(await admin.get(`${BASES.salesOrder}/unSendPage`, { current: 1, size: 100 })).records.map((r: { id: string }) => r.id);
    expect(await unsent()).toContain(so.id);
    const out = await approvedBill(
      admin,
      BASES.salesOut,
      { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '5', taxPrice: '2.26', sourceBodyId: so.bodyList[0].id }]) },
      { post: true },
    );
    let seen = await detail(BASES.salesOrder, so.id);
    expect(seen).toMatchObject({ billStatus: '1309', sendStatus: '1904' });
    expect(seen.bodyList[0].outQty).toBe('5.00');
    expect(await unsent()).not.toContain(so.id);
    expectOk(await admin.post(`${BASES.salesOut}/flush`, { id: out.id, version: out.version }));
    seen = await detail(BASES.salesOrder, so.id);
    expect(seen).toMatchObject({ billStatus: '1304', sendStatus: '1902' });
    expect(seen.bodyList[0].outQty).toBe('0.00');
  });

  test('a fee of 6.00 by quantity share: A 10 @ 5.00 takes 5.00, gift B 2 takes 1.00 (unit cost 0.50000); by amount share it follows discount amounts', async () => {
    const a = await makeGoods(admin, w.unitId, '分摊商品A');
    const b = await makeGoods(admin, w.unitId, '分摊赠品B');
    const depot = w.depots[0];
    const body = (fee: string, extra: Parameters<typeof lines>[1] = []) => ({
      supplierId: w.supplierId,
      depotId: depot,
      feeAmt: fee,
      bodyList: lines(w, [{ goods: a, qty: '10', purchasePrice: '5.00' }, { goods: b, qty: '2', isGift: 2 }, ...extra]),
    });
    const bill = await approvedBill(admin, BASES.purchaseIn, body('6'), { post: true });
    expect(bill.feeAmt).toBe('6.00');
    expect(bill.bodyList.map((l: { feeAmt: string }) => l.feeAmt)).toEqual(['5.00', '1.00']);
    expect(bill.bodyList[1]).toMatchObject({ totalAmt: '0.00', costAmt: '1.00', costPrice: '0.50000' });
    expect(bill.bodyList[0]).toMatchObject({ costAmt: '55.00', costPrice: '5.50000' });
    expect(await stockOf(server, depot, a)).toMatchObject({ qty: '10.00', value: '55.00' });
    expect(await stockOf(server, depot, b)).toMatchObject({ qty: '2.00', value: '1.00' });

    await setConfig(admin, 'COST_ALLOCATION_MODEL', '0');
    try {
      // Weights are discount amounts: A 5.65 × 10 = 56.50, the gift 0, C 2.26 × 3 = 6.78 → 5.36, 0.00, 0.64; Σ = 6.00 exactly.
      const byAmount = expectOk(await admin.post(`${BASES.purchaseIn}/draft`, body('6.00', [{ goods: a, qty: '3', purchasePrice: '2.00' }])));
      expect(byAmount.bodyList.map((l: { feeAmt: string }) => l.feeAmt)).toEqual(['5.36', '0.00', '0.64']);
    } finally {
      await setConfig(admin, 'COST_ALLOCATION_MODEL', '1');
    }
    const negative = await admin.post(`${BASES.purchaseIn}/draft`, body('-1'));
    expect(negative.body.success).toBe(false);
  });

  test('purchase invoice: the supplier\'s posted inbound lines, invoiced in full to the cent; never more than received; a flush gives them back', async () => {
    const v = await makeWorld(admin, { goods: 2 });
    const po = await approvedBill(admin, BASES.purchaseOrder, { supplierId: v.supplierId, depotId: v.depots[0], bodyList: lines(v, [{ goods: v.goods[0], qty: '10', purchasePrice: '3.33' }]) });
    const take = (qty: string) => ({ supplierId: v.supplierId, depotId: v.depots[0], bodyList: lines(v, [{ goods: v.goods[0], qty, purchasePrice: '3.33', sourceBodyId: po.bodyList[0].id }]) });
    const in1 = await approvedBill(admin, BASES.purchaseIn, take('6'), { post: true });
    const in2 = await approvedBill(admin, BASES.purchaseIn, take('4'), { post: true });
    const draftOnly = expectOk(await admin.post(`${BASES.purchaseIn}/draft`, { supplierId: v.supplierId, depotId: v.depots[0], bodyList: lines(v, [{ goods: v.goods[1], qty: '1', purchasePrice: '1.00' }]) }));
    const INVOICE = '/blade-purchase/purchaseinvoicehead';

    const open = expectOk(await admin.post(`${INVOICE}/selectBySupplierId?supplierId=${v.supplierId}`, {}));
    expect(open.map((l: { sourceBillNo: string; qty: string }) => [l.sourceBillNo, l.qty])).toEqual([[in1.billNo, '6.00'], [in2.billNo, '4.00']]);
    expect(open.some((l: { sourceBillId: string }) => l.sourceBillId === draftOnly.id), 'a draft inbound is not invoiceable').toBe(false);
    const grouped = expectOk(await admin.post(`${INVOICE}/selectBySupplierIdGroupOrder?supplierId=${v.supplierId}`, {}));
    expect(grouped.map((g: { sourceBillNo: string; lines: unknown[] }) => [g.sourceBillNo, g.lines.length])).toEqual([[in1.billNo, 1], [in2.billNo, 1]]);

    const invoice = await approvedBill(admin, INVOICE, { supplierId: v.supplierId, invoiceNo: 'FP0001', invoiceDate: '2026-11-25', bodyList: open }, { post: true });
    expect(invoice).toMatchObject({ billStatus: '1306', totalQty: '10.00', totalAmt: new Dec(in1.totalAmt).plus(in2.totalAmt).toFixed(2), purchaseAmt: new Dec(in1.purchaseAmt).plus(in2.purchaseAmt).toFixed(2) });
    for (const inbound of [in1, in2]) {
      const seen = await detail(BASES.purchaseIn, inbound.id);
      expect(seen.invoiceStatus).toBe('2604');
      expect(seen.bodyList[0].invoiceQty).toBe(seen.bodyList[0].qty);
    }
    expect(expectOk(await admin.post(`${INVOICE}/selectBySupplierId?supplierId=${v.supplierId}`, {}))).toEqual([]);
    // supplierTicketOwn: the invoices the caller made (or of the suppliers they look after).
    const own = expectOk(await admin.get('/blade-purchase/supplierTicketOwn', { billNo: invoice.billNo, current: 1, size: 10 }));
    expect(own.records.map((r: { id: string }) => r.id)).toEqual([invoice.id]);
    const other = await signedIn(server.url, '100001');
    expect(expectOk(await other.get('/blade-purchase/supplierTicketOwn', { current: 1, size: 10 })).total).toBe(0);
    const groups = expectOk(await admin.get(`${INVOICE}/detailGroupOrder`, { id: invoice.id })).groups;
    expect(groups.map((g: { sourceBillNo: string }) => g.sourceBillNo)).toEqual([in1.billNo, in2.billNo]);

    // More than received, and a line that comes from no inbound: refused.
    const tooMuch = await admin.post(`${INVOICE}/draft`, { supplierId: v.supplierId, bodyList: [{ ...open[0], qty: '1', purchaseAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined }] });
    expect(tooMuch.body.msg).toContain('第1行：数量超过源单未完成数量（源单 6，已生成 6，本次 1）');
    const loose = await admin.post(`${INVOICE}/draft`, { supplierId: v.supplierId, bodyList: lines(v, [{ goods: v.goods[0], qty: '1', purchasePrice: '3.33' }]) });
    expect(loose.body.msg).toBe('第1行：请从采购入库单选择明细');

    expectOk(await admin.get(`${INVOICE}/manualInvoice`, { id: invoice.id, invoiceNo: 'FP0002', invoiceDate: '2026-11-26' }));
    const withNumber = await detail(INVOICE, invoice.id);
    expect(withNumber).toMatchObject({ invoiceNo: 'FP0002', invoiceDate: '2026-11-26' });
    expectOk(await admin.get(`${INVOICE}/flush`, { id: invoice.id, version: withNumber.version }));
    expect((await detail(BASES.purchaseIn, in1.id)).invoiceStatus).toBe('2601');
    expect(expectOk(await admin.post(`${INVOICE}/selectBySupplierId?supplierId=${v.supplierId}`, {}))).toHaveLength(2);
  });

  test('sales invoice: the customer\'s posted outbound lines, partly invoiced (部分开票)', async () => {
    const v = await makeWorld(admin, { goods: 1 });
    await approvedBill(admin, BASES.purchaseIn, { supplierId: v.supplierId, depotId: v.depots[0], bodyList: lines(v, [{ goods: v.goods[0], qty: '10', purchasePrice: '1.00' }]) }, { post: true });
    const out = await approvedBill(admin, BASES.salesOut, { customerId: v.customers[0], depotId: v.depots[0], bodyList: lines(v, [{ goods: v.goods[0], qty: '5', taxPrice: '9.99' }]) }, { post: true });
    const INVOICE = '/blade-sales/salesinvoicehead';
    const open = expectOk(await admin.post(`${INVOICE}/selectByCustomerId?customerId=${v.customers[0]}`, {}));
    expect(open.map((l: { qty: string; totalAmt: string }) => [l.qty, l.totalAmt])).toEqual([['5.00', '49.95']]);
    const part = { ...open[0], qty: '2', salesAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined };
    const invoice = await approvedBill(admin, INVOICE, { customerId: v.customers[0], bodyList: [part] }, { post: true });
    expect(invoice).toMatchObject({ totalQty: '2.00', totalAmt: '19.98' });
    const seen = await detail(BASES.salesOut, out.id);
    expect(seen.invoiceStatus).toBe('2603');
    expect(seen.bodyList[0].invoiceQty).toBe('2.00');
    expect(expectOk(await admin.post(`${INVOICE}/selectByCustomerId?customerId=${v.customers[0]}`, {}))[0].qty).toBe('3.00');
  });

  test('exchanges: goods taken back at their source cost and others sent out in one bill; the partner owes the difference', async () => {
    const v = await makeWorld(admin, { goods: 2 });
    const [a, b] = v.goods;
    const depot = v.depots[0];
    const inbound = await approvedBill(admin, BASES.purchaseIn, { supplierId: v.supplierId, depotId: depot, bodyList: lines(v, [{ goods: a, qty: '10', purchasePrice: '2.00' }, { goods: b, qty: '10', purchasePrice: '4.00' }]) }, { post: true });
    // A second inbound moves a's average away from the first sale's cost.
    const sale = await approvedBill(admin, BASES.salesOut, { customerId: v.customers[0], depotId: depot, bodyList: lines(v, [{ goods: a, qty: '3', taxPrice: '5.65' }]) }, { post: true });
    await approvedBill(admin, BASES.purchaseIn, { supplierId: v.supplierId, depotId: depot, bodyList: lines(v, [{ goods: a, qty: '7', purchasePrice: '5.00' }]) }, { post: true });
    const SX = '/blade-sales/scthdsalesorderhead';
    const draft = expectOk(await admin.get(`${SX}/generate`, { soNo: sale.billNo }));
    expect(draft.bodyList.map((l: { qty: string }) => l.qty)).toEqual(['-3.00']);
    const arBefore = await partyBalance(server, 'AR', v.customers[0]);
    const exchange = await approvedBill(
      admin,
      SX,
      { ...draft, bodyList: [{ ...draft.bodyList[0], qty: '-1', salesAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined }, ...lines(v, [{ goods: b, qty: '1', taxPrice: '9.04' }])] },
      { post: true },
    );
    // One a back at the sale's cost 2.00, one b out at 4.00; AR + (9.04 − 5.65) = 3.39.
    expect(exchange.bodyList.map((l: { qty: string; costAmt: string }) => [l.qty, l.costAmt])).toEqual([['-1.00', '-2.00'], ['1.00', '4.00']]);
    expect(exchange.finalAmt).toBe('3.39');
    expect(await stockOf(server, depot, a)).toMatchObject({ qty: '15.00', value: '51.00' });
    expect(await stockOf(server, depot, b)).toMatchObject({ qty: '9.00', value: '36.00' });
    expect(new Dec(await partyBalance(server, 'AR', v.customers[0])).minus(arBefore).toFixed(2)).toBe('3.39');
    // Taking back more than was sold is refused; a zero line too.
    const tooMany = await admin.post(`${SX}/draft`, { ...draft, bodyList: [{ ...draft.bodyList[0], qty: '-3', salesAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined }] });
    expect(tooMany.body.msg).toContain('累计退货数量不能超过源单数量（源单 3，已退 1，本次 3）');
    const zero = await admin.post(`${SX}/draft`, { customerId: v.customers[0], depotId: depot, bodyList: lines(v, [{ goods: b, qty: '0', taxPrice: '9.04' }]) });
    expect(zero.body.msg).toContain('数量不能为0');

    // Purchase side: one b back to the supplier at its inbound cost 4.00, one a in at 3.00.
    const PX = '/blade-purchase/purchaseexchangehead';
    const back = expectOk(await admin.get(`${PX}/generate`, { poNo: inbound.billNo }));
    const bLine = back.bodyList.find((l: { commInfoId: string }) => l.commInfoId === b);
    const px = await approvedBill(
      admin,
      PX,
      { ...back, bodyList: [{ ...bLine, qty: '-1', purchaseAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined }, ...lines(v, [{ goods: a, qty: '1', purchasePrice: '3.00' }])] },
      { post: true },
    );
    expect(px.bodyList.map((l: { qty: string; costAmt: string }) => [l.qty, l.costAmt])).toEqual([['-1.00', '-4.00'], ['1.00', '3.00']]);
    expect(await stockOf(server, depot, b)).toMatchObject({ qty: '8.00', value: '32.00' });
    expect(await stockOf(server, depot, a)).toMatchObject({ qty: '16.00', value: '54.00' });
  });

  test('purchaseWholeProcess: order → inbounds → return → invoice with quantities and amounts; purchaseCompletionRate', async () => {
    const v = await makeWorld(admin, { goods: 1 });
    const [g] = v.goods;
    const po = await approvedBill(admin, BASES.purchaseOrder, { supplierId: v.supplierId, depotId: v.depots[0], bodyList: lines(v, [{ goods: g, qty: '10', purchasePrice: '2.00' }]) });
    const take = (qty: string) => ({ supplierId: v.supplierId, depotId: v.depots[0], bodyList: lines(v, [{ goods: g, qty, purchasePrice: '2.00', sourceBodyId: po.bodyList[0].id }]) });
    const in1 = await approvedBill(admin, BASES.purchaseIn, take('6'), { post: true });
    const cancelled = expectOk(await admin.post(`${BASES.purchaseIn}/draft`, take('1')));
    expectOk(await admin.post(`${BASES.purchaseIn}/cancel`, { id: cancelled.id, version: cancelled.version }));
    const ret = expectOk(await admin.get(`${BASES.purchaseReturn}/generate`, { poNo: in1.billNo }));
    await approvedBill(admin, BASES.purchaseReturn, { ...ret, bodyList: [{ ...ret.bodyList[0], qty: '-1', purchaseAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined }] }, { post: true });
    // The invoice may cover only what was received and kept: 6 in, 1 returned → 5.
    const open = expectOk(await admin.post(`/blade-purchase/purchaseinvoicehead/selectBySupplierId?supplierId=${v.supplierId}`, {}));
    expect(open.map((l: { qty: string }) => l.qty)).toEqual(['5.00']);
    const over = await admin.post('/blade-purchase/purchaseinvoicehead/draft', { supplierId: v.supplierId, bodyList: [{ ...open[0], qty: '6', purchaseAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined }] });
    expect(over.body.msg).toContain('第1行：数量超过源单未完成数量（源单 5，已生成 0，本次 6）');
    await approvedBill(admin, '/blade-purchase/purchaseinvoicehead', { supplierId: v.supplierId, bodyList: open }, { post: true });

    const chain = expectOk(await admin.get(`${BASES.purchaseOrder}/purchaseWholeProcess`, { id: po.id }));
    expect(chain.order).toMatchObject({ billNo: po.billNo, qty: '10.00', amount: '22.60', inStatus: '2703' });
    expect(chain.steps.map((st: { step: string; qty: string; amount: string; bills: unknown[] }) => [st.step, st.qty, st.amount, st.bills.length])).toEqual([
      ['采购入库', '6.00', '13.56', 1],
      ['采购退货', '-1.00', '-2.26', 1],
      ['采购发票', '5.00', '11.30', 1],
    ]);
    expect(chain.steps[0].bills[0]).toMatchObject({ billNo: in1.billNo, billStatusName: '已记账' });
    const rate = expectOk(await admin.get(`${BASES.purchaseOrder}/purchaseCompletionRate`, { id: po.id }));
    expect(rate).toMatchObject({ orderedQty: '10.00', receivedQty: '6.00', rate: '60.00' });
    expect((await admin.get(`${BASES.purchaseOrder}/purchaseWholeProcess`, { id: '1' })).body.msg).toBe('采购订单不存在或已被删除');
  });
});
