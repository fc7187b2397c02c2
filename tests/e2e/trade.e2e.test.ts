/**
 * Issue 11 (purchasing, sales and retail), in the browser: a counter sale checked out on the 零售单
 * page, a purchase invoice made from a posted inbound on the 采购发票 page, a freight allocated over
 * that inbound on the 采购费用分摊单 page, an exchange on the 销售换货单 page, and the inquiry pages
 * showing what was posted. Each page: open, act, see the result; no page error; screenshots.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, approvedBill, lines, makeGoods, makeWorld, stockOf, type World } from '../support/bills.ts';
import { launchBrowser, screenshot, type Browser } from './support/browser.ts';
import { expectMessage, gotoFresh, seededLeaves, settle, signIn } from './support/shell.ts';
import { billPage } from './support/bills.ts';

const leaf = (code: string) => seededLeaves().find((m) => m.code === code)!;

describe('trade pages in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let w: World;
  let page: Page;
  const names: Record<string, string> = {};
  let inboundNo = '';

  beforeAll(async () => {
    server = await startTestServer();
    api = await signedIn(server.url);
    w = await makeWorld(api, { goods: 2 });
    names.supplier = expectOk(await api.get('/blade-base/supplier/detail', { id: w.supplierId })).bartererName;
    names.depot = expectOk(await api.get('/blade-system/depot/detail', { id: w.depots[0] })).depotName;
    for (const [i, id] of w.goods.entries()) names[`goods${i}`] = expectOk(await api.get('/blade-base/comminfo/detail', { id })).commInfoName;
    const inbound = await approvedBill(
      api,
      BASES.purchaseIn,
      { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, w.goods.map((g) => ({ goods: g, qty: '20', purchasePrice: '3.00' }))) },
      { post: true },
    );
    inboundNo = inbound.billNo;
    browser = await launchBrowser();
    page = browser.page;
    await signIn(page, server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const { editor, cell, rowCount, status, pickHead, addGoods, typeCell, act, fromSourceList, fromSourceNumber } = billPage(() => page);

  test('零售单: two goods at the counter, 100.00 handed over, checked out in one step; stock leaves at once', async () => {
    await page.goto(`${server.url}${leaf('retail').path}`);
    const bill = editor('retail');
    await bill.waitFor();
    // The new bill's form fills its defaults once the page's calls are done: pick after that.
    await settle(page);
    await pickHead(bill, 'depotId', names.depot);
    await pickHead(bill, 'settlementId', '现金');
    await addGoods(bill, [names.goods0, names.goods1]);
    await expect.poll(() => rowCount(bill)).toBe(2);
    // A walk-in sale has no partner to take a default tax rate from: the clerk picks 13%.
    await typeCell(bill, 0, 'qty', '2');
    await typeCell(bill, 0, 'taxPrice', '11.30');
    await typeCell(bill, 0, 'taxRate', '13');
    await typeCell(bill, 1, 'qty', '1');
    await typeCell(bill, 1, 'taxPrice', '22.60');
    await typeCell(bill, 1, 'taxRate', '13');
    await bill.locator('[data-field="receivedAmt"] input').fill('100');
    await act(bill, 'account');
    await expect.poll(() => status(bill).innerText()).toBe('已记账');
    const list = expectOk(await api.get('/blade-sales/lsdsalesorderhead/list', { current: 1, size: 10 }));
    const sale = expectOk(await api.get('/blade-sales/lsdsalesorderhead/detail', { id: list.records[0].id }));
    expect(sale).toMatchObject({ finalAmt: '45.20', receivedAmt: '100.00', changeAmt: '54.80', billStatus: '1306' });
    expect(await stockOf(server, w.depots[0], w.goods[0])).toMatchObject({ qty: '18.00' });
    await screenshot(page, 'trade-retail-checked-out');

    await page.goto(`${server.url}${leaf('retail').historyPath}`);
    await page.getByTestId('list-retail').locator('.erp-grid-row', { hasText: list.records[0].billNo }).first().waitFor();
    expect(browser.pageErrors).toEqual([]);
  });

  test('采购发票: made from a posted inbound, submitted, approved and posted; the inbound shows 已开票', async () => {
    await page.goto(`${server.url}${leaf('purchaseInvoice').path}`);
    const bill = editor('purchase-invoice');
    await bill.waitFor();
    await fromSourceList(bill, inboundNo);
    await expect.poll(() => rowCount(bill)).toBe(2);
    await bill.locator('[data-field="invoiceNo"] input').fill('FP20261125');
    await act(bill, 'submit');
    await expect.poll(() => status(bill).innerText()).toBe('待审核');
    await act(bill, 'pass', '');
    await act(bill, 'accounting');
    await expect.poll(() => status(bill).innerText()).toBe('已记账');
    const inbound = expectOk(await api.get(`${BASES.purchaseIn}/list`, { billNo: inboundNo })).records[0];
    expect(inbound.invoiceStatus).toBe('2604');
    await screenshot(page, 'trade-purchase-invoice-posted');
    expect(browser.pageErrors).toEqual([]);
  });

  test('采购费用分摊单: a freight of 8.00 over a posted inbound, posted; the goods\' stock value rises by their shares', async () => {
    expectOk(await api.post('/blade-base/expenditem/submit', { expendCode: 'YF01', expendName: '运费', expendType: '6002' }));
    const before = await Promise.all(w.goods.map((g) => stockOf(server, w.depots[0], g)));
    await page.goto(`${server.url}${leaf('purchaseFeeAllocation').path}`);
    const bill = editor('purchase-fee');
    await bill.waitFor();
    await fromSourceList(bill, inboundNo);
    await expect.poll(() => rowCount(bill)).toBe(2);
    await pickHead(bill, 'expendId', '运费');
    await bill.locator('[data-field="feeAmt"] input').fill('8');
    await act(bill, 'submit');
    await expect.poll(() => status(bill).innerText()).toBe('待审核');
    await act(bill, 'pass', '');
    await act(bill, 'accounting');
    await expect.poll(() => status(bill).innerText()).toBe('已记账');
    const after = await Promise.all(w.goods.map((g) => stockOf(server, w.depots[0], g)));
    // 20 and 20 received: 4.00 each by quantity share; quantities unchanged.
    expect(after.map((s, i) => [s.qty, (Number(s.value) - Number(before[i].value)).toFixed(2)])).toEqual(before.map((s) => [s.qty, '4.00']));
    await screenshot(page, 'trade-purchase-fee-posted');
    expect(browser.pageErrors).toEqual([]);
  });

  test('销售换货单: one of two sold units comes back from the sale\'s number and another goods goes out in its place', async () => {
    const out = await approvedBill(api, BASES.salesOut, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '2', taxPrice: '11.30' }]) }, { post: true });
    const before = await Promise.all(w.goods.map((g) => stockOf(server, w.depots[0], g)));
    await page.goto(`${server.url}${leaf('salesExchange').path}`);
    const bill = editor('sales-exchange');
    await bill.waitFor();
    await fromSourceNumber(bill, out.billNo);
    await expect.poll(() => cell(bill, 0, 'qty').innerText()).toBe('-2.00');
    await typeCell(bill, 0, 'qty', '-1');
    await addGoods(bill, [names.goods1]);
    await expect.poll(() => rowCount(bill)).toBe(2);
    await typeCell(bill, 1, 'qty', '1');
    await typeCell(bill, 1, 'taxPrice', '11.30');
    await typeCell(bill, 1, 'taxRate', '13');
    await act(bill, 'submit');
    await expect.poll(() => status(bill).innerText()).toBe('待审核');
    await act(bill, 'pass', '');
    await act(bill, 'accounting');
    await expect.poll(() => status(bill).innerText()).toBe('已记账');
    const after = await Promise.all(w.goods.map((g) => stockOf(server, w.depots[0], g)));
    expect(after.map((s, i) => (Number(s.qty) - Number(before[i].qty)).toFixed(2))).toEqual(['1.00', '-1.00']);
    await screenshot(page, 'trade-sales-exchange-posted');
    expect(browser.pageErrors).toEqual([]);
  });

  test('inquiries: price, detail and order pages list what was posted', async () => {
    await page.goto(`${server.url}${leaf('purchasePriceInquiry').path}`);
    const prices = page.getByTestId('list-purchase-price-inquiry');
    await prices.locator('.erp-grid-row', { hasText: names.goods0 }).first().waitFor();
    expect(await prices.locator('.erp-grid-row', { hasText: names.goods0 }).first().innerText()).toContain('3.00000');
    await screenshot(page, 'trade-purchase-price-inquiry');
    await page.goto(`${server.url}${leaf('salesDetailInquiry').path}`);
    const details = page.getByTestId('list-sales-detail-inquiry');
    await details.locator('.erp-grid-row', { hasText: names.goods0 }).first().waitFor();
    await screenshot(page, 'trade-sales-detail-inquiry');
    await page.goto(`${server.url}${leaf('purchaseDetailInquiry').path}`);
    const bought = page.getByTestId('list-purchase-detail-inquiry');
    await bought.locator('.erp-grid-row', { hasText: names.goods0 }).first().waitFor();
    await screenshot(page, 'trade-purchase-detail-inquiry');
    await page.goto(`${server.url}${leaf('salesPriceInquiry').path}`);
    await page.getByTestId('list-sales-price-inquiry').getByTestId('data-grid').waitFor();
    expect(await page.getByText('页面尚未构建').count()).toBe(0);
    await screenshot(page, 'trade-sales-price-inquiry');
    expect(browser.pageErrors).toEqual([]);
  });

  test('缺货补货: a shortage row chosen and turned into a purchase order draft', async () => {
    const g = await makeGoods(api, w.unitId, '缺货演示商品', { supplierId: w.supplierId });
    await approvedBill(api, BASES.salesOrder, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '5', taxPrice: '3.39' }]) });
    await page.goto(`${server.url}${leaf('shortageReplenish').path}`);
    const list = page.getByTestId('list-shortage-replenish');
    const row = list.locator('.erp-grid-row', { hasText: '缺货演示商品' }).first();
    await row.waitFor();
    expect(await row.innerText()).toContain('5.00');
    await row.locator('.erp-grid-checkbox').first().check();
    await page.getByRole('button', { name: '生成采购订单' }).click();
    await page.locator('.ant-modal-wrap:visible .ant-modal').getByRole('button', { name: /确\s*定|OK/ }).click();
    await expectMessage(page, '已生成采购订单草稿');
    const drafts = expectOk(await api.get(`${BASES.purchaseOrder}/list`, { billStatus: '1301', current: 1, size: 50 })).records;
    const made = [];
    for (const d of drafts) made.push(expectOk(await api.get(`${BASES.purchaseOrder}/detail`, { id: d.id })));
    expect(made.flatMap((o) => o.bodyList).find((l: { commInfoId: string }) => l.commInfoId === g)).toMatchObject({ qty: '5.00', remark: '缺货补货：订单需求 5，库存 0，在途 0' });
    await expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
    await screenshot(page, 'trade-shortage-replenish');
    expect(browser.pageErrors).toEqual([]);
  });

  test('库存预警, 预警补货, 智能补货 and 以销定采 show their rows; 以销定采 turns a sales order into a purchase order draft', async () => {
    const g = await makeGoods(api, w.unitId, '策略演示商品', { supplierId: w.supplierId });
    await approvedBill(api, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '4', purchasePrice: '2.00' }]) }, { post: true });
    await approvedBill(api, BASES.salesOut, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '3', taxPrice: '4.52' }]) }, { post: true });
    expectOk(await api.post('/blade-warehouse/stockwarning/submit', { commInfoId: g, depotId: w.depots[0], minQty: '2', maxQty: '10' }));
    const so = await approvedBill(api, BASES.salesOrder, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '2', taxPrice: '4.52' }]) });

    for (const [code, testId, shot] of [
      ['stockWarning', 'list-stock-warning', 'trade-stock-warning'],
      ['warningReplenish', 'list-warning-replenish', 'trade-warning-replenish'],
      ['smartReplenish', 'list-smart-replenish', 'trade-smart-replenish'],
    ] as const) {
      await page.goto(`${server.url}${leaf(code).path}`);
      await page.getByTestId(testId).locator('.erp-grid-row', { hasText: '策略演示商品' }).first().waitFor();
      await screenshot(page, shot);
    }

    await page.goto(`${server.url}${leaf('orderReplenish').path}`);
    const row = page.getByTestId('list-order-replenish').locator('.erp-grid-row', { hasText: so.billNo }).first();
    await row.waitFor();
    await row.locator('.erp-grid-checkbox').first().check();
    await page.getByRole('button', { name: '以销定采' }).first().click();
    await page.locator('.ant-modal-wrap:visible .ant-modal').getByRole('button', { name: /确\s*定|OK/ }).click();
    await expectMessage(page, '已生成采购订单草稿');
    await expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
    await screenshot(page, 'trade-order-replenish');
    const drafts = expectOk(await api.get(`${BASES.purchaseOrder}/list`, { billStatus: '1301', current: 1, size: 50 })).records;
    const remarks = [];
    for (const d of drafts) remarks.push(...expectOk(await api.get(`${BASES.purchaseOrder}/detail`, { id: d.id })).bodyList.map((l: { remark: string }) => l.remark));
    expect(remarks).toContain(`以销定采：销售订单 ${so.billNo} 未出库 2`);
    expect(browser.pageErrors).toEqual([]);
  });
  test('采购订单查询: the purchase order of this run listed with its status', async () => {
    const order = await approvedBill(api, BASES.purchaseOrder, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '3', purchasePrice: '2.00' }]) });
    await gotoFresh(page, `${server.url}${leaf('purchaseOrderInquiry').path}`);
    const row = page.getByTestId('list-purchase-order-inquiry').locator('.erp-grid-row', { hasText: order.billNo }).first();
    await row.waitFor();
    expect(await row.innerText()).toContain('已审核');
    await screenshot(page, 'trade-purchase-order-inquiry');
    expect(browser.pageErrors).toEqual([]);
  });

  test('销售订单查询: an order of 2 at 11.30 listed with its amount', async () => {
    const order = await approvedBill(api, BASES.salesOrder, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '2', taxPrice: '11.30' }]) });
    // Fifteen tabs are open by now: start from a clean tab bar (a sixteenth page would be refused).
    await gotoFresh(page, `${server.url}${leaf('salesOrderInquiry').path}`);
    const orders = page.getByTestId('list-sales-order-inquiry');
    const orderRow = orders.locator('.erp-grid-row', { hasText: order.billNo }).first();
    await orderRow.waitFor();
    expect(await orderRow.innerText()).toContain('22.60');
    await screenshot(page, 'trade-sales-order-inquiry');
    expect(browser.pageErrors).toEqual([]);
  });
});
