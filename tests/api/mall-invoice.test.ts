/**
 * 商城销售发票 (salesinvoiceheadmall) and billrule/mallgenerate, on SQLite and PostgreSQL: a mall
 * order (scdd, orderSource 2) shipped by a posted sales-out, 3 × 11.30 = 33.90; the mall invoice
 * lists only such lines, invoices 2 → 22.60 and leaves 1; the ordinary sales invoice shares the
 * limit (neither kind invoices what the other did) and the invoiced quantity written back is the
 * sum of both; flushes give quantities back; another tenant sees nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, approvedBill, lines, makeWorld, type World } from '../support/bills.ts';

const MALL = '/blade-sales/salesinvoiceheadmall';
const INVOICE = '/blade-sales/salesinvoicehead';

/** A line as selectByCustomerId offers it, taking `qty` instead: the server computes the figures again. */
const take = (line: Record<string, unknown>, qty: string) => ({ ...line, qty, salesAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined, discountAmt: undefined });
const figures = (rows: { qty: string; totalAmt: string; sourceBodyId: string }[]) => rows.map((l) => [l.sourceBodyId, l.qty, l.totalAmt]);

describe.each(databases())('mall sales invoice ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let customer: string;
  let mallOut: Record<string, any>;
  let mallLine: string;
  let plainLine: string;
  let mallOrder: Record<string, any>;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1 });
    customer = w.customers[0];
    const [g] = w.goods;
    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '20', purchasePrice: '4.00' }]) }, { post: true });
    // A mall order (订单来源 2 商城) of 3 shipped in full; a back-office order of 5 shipped too.
    mallOrder = await approvedBill(admin, BASES.salesOrder, { customerId: customer, depotId: w.depots[0], orderSource: '2', bodyList: lines(w, [{ goods: g, qty: '3', taxPrice: '11.30' }]) });
    const plainOrder = await approvedBill(admin, BASES.salesOrder, { customerId: customer, depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '5', taxPrice: '2.26' }]) });
    mallOut = await approvedBill(admin, BASES.salesOut, { customerId: customer, depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '3', taxPrice: '11.30', sourceBodyId: mallOrder.bodyList[0].id }]) }, { post: true });
    const plainOut = await approvedBill(admin, BASES.salesOut, { customerId: customer, depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '5', taxPrice: '2.26', sourceBodyId: plainOrder.bodyList[0].id }]) }, { post: true });
    mallLine = mallOut.bodyList[0].id;
    plainLine = plainOut.bodyList[0].id;
    expect(mallOut.totalAmt).toBe('33.90');
  });
  afterAll(async () => server?.close());

  const mallOpen = async (api = admin) => expectOk(await api.get(`${MALL}/selectByCustomerId`, { customerId: customer }), 'mall selectByCustomerId');
  const plainOpen = async () => expectOk(await admin.post(`${INVOICE}/selectByCustomerId?customerId=${customer}`, {}), 'selectByCustomerId');
  const outLine = async () => {
    const out = expectOk(await admin.get(`${BASES.salesOut}/detail`, { id: mallOut.id }));
    return { invoiceQty: out.bodyList[0].invoiceQty, invoiceStatus: out.invoiceStatus };
  };

  test('mall invoice 2 of the shipped 3 (22.60), numbered by the mall rule; the ordinary invoice cannot take those 2 again, nor the mall one what the ordinary took', async () => {
    // Only the line shipped from the mall order is offered: 3 × 11.30 = 33.90; the ordinary invoice offers both.
    const open = await mallOpen();
    expect(figures(open)).toEqual([[mallLine, '3.00', '33.90']]);
    expect(figures(await plainOpen())).toEqual([[mallLine, '3.00', '33.90'], [plainLine, '5.00', '11.30']]);

    const invoice = await approvedBill(admin, MALL, { customerId: customer, bodyList: [take(open[0], '2')] }, { post: true });
    // 2 × 11.30 = 22.60 incl. 13 %: 20.00 + 2.60.
    expect(invoice).toMatchObject({ billStatus: '1306', billType: '0808', totalQty: '2.00', salesAmt: '20.00', taxAmt: '2.60', totalAmt: '22.60' });
    const rule = expectOk(await admin.get('/blade-base/billrule/list', { billType_equal: '0808' })).records[0];
    expect(invoice.billNo.startsWith(`${rule.prefix}M`)).toBe(true);
    expect(await outLine()).toEqual({ invoiceQty: '2.00', invoiceStatus: '2603' });

    // The rest, 1 × 11.30, is still offered by both kinds.
    expect(figures(await mallOpen())).toEqual([[mallLine, '1.00', '11.30']]);
    expect(figures(await plainOpen())).toEqual([[mallLine, '1.00', '11.30'], [plainLine, '5.00', '11.30']]);

    // The ordinary invoice cannot take the invoiced 2 (3 shipped, 2 taken); it takes the last 1.
    const twice = await admin.post(`${INVOICE}/draft`, { customerId: customer, bodyList: [take(open[0], '2')] });
    expect(twice.body.success).toBe(false);
    expect(twice.body.msg).toContain('第1行：数量超过源单未完成数量（源单 3，已生成 2，本次 2）');
    const plain = await approvedBill(admin, INVOICE, { customerId: customer, bodyList: [take(open[0], '1')] }, { post: true });
    expect(plain).toMatchObject({ totalQty: '1.00', totalAmt: '11.30' });
    // Written back: 2 (mall) + 1 (ordinary) = 3, fully invoiced; nothing left for either kind.
    expect(await outLine()).toEqual({ invoiceQty: '3.00', invoiceStatus: '2604' });
    expect(await mallOpen()).toEqual([]);
    const again = await admin.post(`${MALL}/draft`, { customerId: customer, bodyList: [take(open[0], '1')] });
    expect(again.body.msg).toContain('第1行：数量超过源单未完成数量（源单 3，已生成 3，本次 1）');

    // The mall order's 销售历史 counts both invoices: 22.60 + 11.30 = 33.90.
    const history = expectOk(await admin.get('/blade-sales/salesorderhead/selectSalesHistoryByCustomerId', { customerId: customer, current: 1, size: 10 })).records;
    expect(history.find((r: { soNo: string }) => r.soNo === mallOrder.billNo)).toMatchObject({ invoiceAmt: '33.90', unInvoiceAmt: '0.00' });

    // Flushes give them back, each kind its own: ordinary flushed → 2 (the mall's) remain invoiced.
    expectOk(await admin.get(`${INVOICE}/flush`, { id: plain.id, version: plain.version }));
    expect(await outLine()).toEqual({ invoiceQty: '2.00', invoiceStatus: '2603' });
    expectOk(await admin.get(`${MALL}/flush`, { id: invoice.id, version: invoice.version }));
    expect(await outLine()).toEqual({ invoiceQty: '0.00', invoiceStatus: '2601' });
    expect(figures(await mallOpen())).toEqual([[mallLine, '3.00', '33.90']]);

    // selectCustomerInvoices: the customer's mall invoices with their amounts (the flushed one included).
    const mine = expectOk(await admin.post(`${MALL}/selectCustomerInvoices`, { customerId: customer }));
    expect(mine.total).toBe(1);
    expect(mine.records[0]).toMatchObject({ id: invoice.id, billStatus: '1308', totalQty: '2.00', totalAmt: '22.60', finalAmt: '22.60' });
    const refused = await admin.post(`${MALL}/selectCustomerInvoices`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('请选择客户');
  });

  test('a line not shipped from a mall order is refused; a cancelled mall draft gives its quantity back', async () => {
    const plainOffered = (await plainOpen()).find((l: { sourceBodyId: string }) => l.sourceBodyId === plainLine);
    const refused = await admin.post(`${MALL}/draft`, { customerId: customer, bodyList: [take(plainOffered, '1')] });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('第1行：只能开具商城订单出库的明细');

    const [line] = await mallOpen();
    const draft = expectOk(await admin.post(`${MALL}/draft`, { customerId: customer, bodyList: [take(line, '3')] }));
    expect(draft).toMatchObject({ billStatus: '1301', totalAmt: '33.90' });
    // A live draft takes its quantity: the ordinary invoice sees nothing of the mall line.
    expect((await plainOpen()).map((l: { sourceBodyId: string }) => l.sourceBodyId)).toEqual([plainLine]);
    expectOk(await admin.get(`${MALL}/cancel`, { id: draft.id, version: draft.version, remark: '开错' }));
    expect(figures(await mallOpen())).toEqual([[mallLine, '3.00', '33.90']]);
  });

  test('another tenant sees none of it', async () => {
    const other = await signedIn(server.url, '100001');
    expect(await mallOpen(other)).toEqual([]);
    expect(expectOk(await other.post(`${MALL}/selectCustomerInvoices`, { customerId: customer })).total).toBe(0);
    expect(expectOk(await other.get(`${MALL}/list`, { current: 1, size: 10 })).total).toBe(0);
    const mine = expectOk(await admin.get(`${MALL}/list`, { current: 1, size: 10, customerId: customer }));
    expect(mine.total).toBeGreaterThan(0);
    expect(expectOk(await other.get(`${MALL}/detail`, { id: mine.records[0].id }))).toBeNull();
  });

  test('billrule/mallgenerate numbers a mall bill from its type\'s rule with M after the prefix, sharing the serial', async () => {
    const rule = expectOk(await admin.get('/blade-base/billrule/list', { billType_equal: '0808' })).records[0];
    const mall = expectOk<string>(await admin.get('/blade-base/billrule/mallgenerate', { billType: '0808' }));
    const plain = expectOk<string>(await admin.get('/blade-base/billrule/generate', { billType: '0808' }));
    expect(mall.startsWith(`${rule.prefix}M`)).toBe(true);
    expect(plain.startsWith(`${rule.prefix}M`)).toBe(false);
    expect(Number(plain.slice(-4))).toBe(Number(mall.slice(-4)) + 1);
    expect((await admin.get('/blade-base/billrule/mallgenerate')).body.msg).toBe('缺少参数 billType');
  });
});
