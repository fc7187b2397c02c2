/**
 * The purchase and sales inquiries (read-only views, table.view), on SQLite and PostgreSQL:
 * orders with their progress, posted lines with returns negative and gross profit, prices per
 * goods and partner (last, average, lowest, highest). A view is never written, and a write to a
 * table it reads is seen at once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, approvedBill, lines, makeWorld, type World } from '../support/bills.ts';

describe.each(databases())('inquiries ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 2 });
  });
  afterAll(async () => server?.close());

  const rows = async (path: string, query: Record<string, unknown>) => expectOk(await admin.get(path, { current: 1, size: 50, ...query })).records;

  test('purchase: order progress, posted lines and prices per goods and supplier', async () => {
    const [g] = w.goods;
    const po = await approvedBill(admin, BASES.purchaseOrder, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '10', purchasePrice: '4.00' }]) });
    let order = (await rows('/blade-purchase/purchaseorderinquiry/list', { supplierId: w.supplierId })).find((r: { id: string }) => r.id === po.id);
    expect(order).toMatchObject({ totalQty: '10.00', inQty: '0.00', openQty: '10.00', inStatus: null });
    const take = (qty: string, price: string) => ({ supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty, purchasePrice: price, sourceBodyId: po.bodyList[0].id }]) });
    await approvedBill(admin, BASES.purchaseIn, take('6', '4.00'), { post: true });
    order = (await rows('/blade-purchase/purchaseorderinquiry/list', { supplierId: w.supplierId })).find((r: { id: string }) => r.id === po.id);
    expect(order, 'a write to the order is seen at once').toMatchObject({ inQty: '6.00', openQty: '4.00', inStatus: '2703', bartererName: expect.stringContaining('供应商') });
    const second = await approvedBill(admin, BASES.purchaseIn, take('2', '5.00'), { post: true });

    const details = await rows('/blade-purchase/purchasedetailinquiry/list', { supplierId: w.supplierId, commInfoId: g });
    expect(details.map((d: { qty: string; purchasePrice: string }) => [d.qty, d.purchasePrice]).sort()).toEqual([['2.00', '5.00000'], ['6.00', '4.00000']]);
    expect(details[0]).toMatchObject({ billType: '0812', commInfoName: expect.any(String), depotName: expect.any(String) });

    const [price] = await rows('/blade-purchase/purchasepriceinquiry/list', { supplierId: w.supplierId, commInfoId: g });
    // 6 × 4.00 + 2 × 5.00 = 34.00 over 8: 4.25000.
    expect(price).toMatchObject({ lastPrice: '5.00000', avgPrice: '4.25000', minPrice: '4.00000', maxPrice: '5.00000', billCount: 2, totalQty: '8.00', totalAmt: '34.00', lastDate: second.billDate });

    // A return shows as a negative line.
    const ret = expectOk(await admin.get(`${BASES.purchaseReturn}/generate`, { poNo: second.billNo }));
    await approvedBill(admin, BASES.purchaseReturn, ret, { post: true });
    const after = await rows('/blade-purchase/purchasedetailinquiry/list', { supplierId: w.supplierId, commInfoId: g, billType: '0813' });
    expect(after.map((d: { qty: string }) => d.qty)).toEqual(['-2.00']);

    const write = await admin.post('/blade-purchase/purchasedetailinquiry/submit', { qty: '1' });
    expect(write.status).toBe(404);
    await expect(server.services.store.insert(server.services.m('purchase-detail-inquiry'), { tenantId: '000000', userId: '1' }, { qty: '1' })).rejects.toThrow('查询视图，不能写入');
  });

  test('sales: lines with cost and gross profit; price per customer', async () => {
    const [, g] = w.goods;
    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '10', purchasePrice: '2.00' }]) }, { post: true });
    await approvedBill(admin, BASES.salesOut, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '3', taxPrice: '5.65' }]) }, { post: true });
    const [line] = await rows('/blade-sales/salesdetailinquiry/list', { customerId: w.customers[0], commInfoId: g });
    expect(line).toMatchObject({ billType: '0803', qty: '3.00', salesAmt: '15.00', costAmt: '6.00', grossProfit: '9.00' });
    const [price] = await rows('/blade-sales/salespriceinquiry/list', { customerId: w.customers[0], commInfoId: g });
    expect(price).toMatchObject({ lastPrice: '5.00000', avgPrice: '5.00000', totalQty: '3.00' });
    const so = await approvedBill(admin, BASES.salesOrder, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '4', taxPrice: '5.65' }]) });
    const [order] = await rows('/blade-sales/salesorderinquiry/list', { customerId: w.customers[0] });
    expect(order).toMatchObject({ id: so.id, totalQty: '4.00', outQty: '0.00', openQty: '4.00', billStatus: '1304' });
  });

  test('销售历史 (the customer tab): shipped, returned and invoiced per order', async () => {
    const v = await makeWorld(admin, { goods: 1 });
    const [g] = v.goods;
    await approvedBill(admin, BASES.purchaseIn, { supplierId: v.supplierId, depotId: v.depots[0], bodyList: lines(v, [{ goods: g, qty: '10', purchasePrice: '1.00' }]) }, { post: true });
    const so = await approvedBill(admin, BASES.salesOrder, { customerId: v.customers[0], depotId: v.depots[0], bodyList: lines(v, [{ goods: g, qty: '5', taxPrice: '2.26' }]) });
    const out = await approvedBill(admin, BASES.salesOut, { customerId: v.customers[0], depotId: v.depots[0], bodyList: lines(v, [{ goods: g, qty: '3', taxPrice: '2.26', sourceBodyId: so.bodyList[0].id }]) }, { post: true });
    const ret = expectOk(await admin.get(`${BASES.salesReturn}/generate`, { soNo: out.billNo }));
    await approvedBill(admin, BASES.salesReturn, { ...ret, bodyList: [{ ...ret.bodyList[0], qty: '-1', salesAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined }] }, { post: true });
    const open = expectOk(await admin.post(`/blade-sales/salesinvoicehead/selectByCustomerId?customerId=${v.customers[0]}`, {}));
    await approvedBill(admin, '/blade-sales/salesinvoicehead', { customerId: v.customers[0], bodyList: open }, { post: true });
    const [row] = await rows('/blade-sales/salesorderhead/selectSalesHistoryByCustomerId', { customerId: v.customers[0] });
    expect(row).toMatchObject({
      soNo: so.billNo,
      saleStatusName: '已审核',
      finalAmt: '11.30',
      totalQty: '5.00',
      sendQty: '3.00',
      unsendQty: '2.00',
      returnQty: '1.00',
      returnAmt: '2.26',
      invoiceAmt: '4.52',
      unInvoiceAmt: '6.78',
      settlementAmt: '0.00',
      depotName: expect.any(String),
    });
  });

  test('order tracking lines: ordered, done and open per line; salesorderhead/purchase (ids) drafts a purchase order like saveSalesToPurchase', async () => {
    const v = await makeWorld(admin, { goods: 1 });
    const [g] = v.goods;
    const po = await approvedBill(admin, BASES.purchaseOrder, { supplierId: v.supplierId, depotId: v.depots[0], bodyList: lines(v, [{ goods: g, qty: '8', purchasePrice: '1.00' }]) });
    await approvedBill(admin, BASES.purchaseIn, { supplierId: v.supplierId, depotId: v.depots[0], bodyList: lines(v, [{ goods: g, qty: '5', purchasePrice: '1.00', sourceBodyId: po.bodyList[0].id }]) }, { post: true });
    const [pt] = await rows('/blade-purchase/purchaseorderbody/purchaseOrderTrack', { supplierId: v.supplierId });
    expect(pt).toMatchObject({ billNo: po.billNo, qty: '8.00', inQty: '5.00', openQty: '3.00', commInfoName: expect.any(String) });
    const so = await approvedBill(admin, BASES.salesOrder, { customerId: v.customers[0], depotId: v.depots[0], bodyList: lines(v, [{ goods: g, qty: '4', taxPrice: '2.26' }]) });
    const [st] = await rows('/blade-sales/salesorderbody/salesOrderTrack', { customerId: v.customers[0] });
    expect(st).toMatchObject({ billNo: so.billNo, qty: '4.00', outQty: '0.00', openQty: '4.00' });
    expectOk(await admin.post('/blade-base/comminfo/submit', { ...expectOk<Record<string, unknown>>(await admin.get('/blade-base/comminfo/detail', { id: g })), supplierId: v.supplierId }));
    const made = expectOk(await admin.get(`${BASES.salesOrder}/purchase`, { ids: so.id }));
    const order = expectOk(await admin.get(`${BASES.purchaseOrder}/detail`, { id: made[0].id }));
    expect(order.bodyList[0]).toMatchObject({ qty: '4.00', remark: `以销定采：销售订单 ${so.billNo} 未出库 4` });
  });

  test('another tenant sees none of these rows in any inquiry', async () => {
    const b = await signedIn(server.url, '100001');
    for (const path of [
      '/blade-purchase/purchaseorderinquiry/list',
      '/blade-purchase/purchasedetailinquiry/list',
      '/blade-purchase/purchasepriceinquiry/list',
      '/blade-sales/salesorderinquiry/list',
      '/blade-sales/salesdetailinquiry/list',
      '/blade-sales/salespriceinquiry/list',
      '/blade-sales/salesorderhead/selectSalesHistoryByCustomerId',
      '/blade-purchase/purchaseorderbody/purchaseOrderTrack',
      '/blade-sales/salesorderbody/salesOrderTrack',
    ]) {
      expect((await rows(path, {})).length, `${path} (A)`).toBeGreaterThan(0);
      expect(expectOk(await b.get(path, { current: 1, size: 50 })).records, `${path} (B)`).toEqual([]);
    }
  });
});
