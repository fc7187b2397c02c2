/**
 * The bill pages that had no browser flow: 销售发票 from a posted sales-out, 采购退货单 and 采购换货单
 * generated from a posted inbound, the warehouse bills (其他入库单, 其他出库单, 报损单, 报溢单,
 * 调拨单 called out then in, 借入单, 借出单), the 付款单, 期初库存 and 会计期间. Each page: opened from its route, a bill
 * made through the UI and carried to 已记账, the history list showing its status, the stock or
 * open amounts moved by hand-computed figures, no page or console error; a screenshot each.
 *
 * Every inbound of goods A in the first warehouse is at 3.00 and of goods B at 5.00, so their
 * average costs there stay 3.00 and 5.00 whatever order the flows run in.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, approvedBill, lines, makeWorld, stockOf, type World } from '../support/bills.ts';
import { Dec } from '../../src/shared/money/index.ts';
import { launchBrowser, type Browser } from './support/browser.ts';
import { gotoFresh, settle, signIn } from './support/shell.ts';
import { billFlows } from './support/bills.ts';

describe('more bill pages in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let w: World;
  let page: Page;
  const consoleErrors: string[] = [];
  const names: Record<string, string> = {};
  let inboundNo = '';

  beforeAll(async () => {
    server = await startTestServer();
    api = await signedIn(server.url);
    w = await makeWorld(api, { goods: 2, depots: 2 });
    names.supplier = expectOk(await api.get('/blade-base/supplier/detail', { id: w.supplierId })).bartererName;
    names.customer = expectOk(await api.get('/blade-base/customer/detail', { id: w.customers[0] })).bartererName;
    for (const [i, id] of w.depots.entries()) names[`depot${i}`] = expectOk(await api.get('/blade-system/depot/detail', { id })).depotName;
    for (const [i, id] of w.goods.entries()) names[`goods${i}`] = expectOk(await api.get('/blade-base/comminfo/detail', { id })).commInfoName;
    // 20 A at 3.00 and 20 B at 5.00: 160.00 net, 180.80 with 13% tax owed to the supplier.
    const inbound = await inboundOf([{ goods: w.goods[0], qty: '20', purchasePrice: '3.00' }, { goods: w.goods[1], qty: '20', purchasePrice: '5.00' }]);
    inboundNo = inbound.billNo;
    browser = await launchBrowser();
    page = browser.page;
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    await signIn(page, server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const { cell, summary, rowCount, status, addGoods, typeCell, act, fromSourceList, fromSourceNumber: fromNumber, pickHead: pick, choose, open, carry, listed, done, leaf } = billFlows({ page: () => page, url: () => server.url, browser: () => browser, consoleErrors });
  const inboundOf = (specs: Parameters<typeof lines>[1]) =>
    approvedBill(api, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, specs) }, { post: true });
  const stock = (depot: number, goods: number) => stockOf(server, w.depots[depot], w.goods[goods]);
  const delta = (after: { qty: string; value: string }, before: { qty: string; value: string }) => [
    new Dec(after.qty).minus(before.qty).toFixed(2),
    new Dec(after.value).minus(before.value).toFixed(2),
  ];

  async function goods(bill: Locator, list: string[], rows: number) {
    await addGoods(bill, list);
    await expect.poll(() => rowCount(bill)).toBe(rows);
    await expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
  }

  // First: later returns and exchanges leave the supplier credits that could settle the inbound.
  test('付款单: 100.00 paid settles 100.00 of the 180.80 inbound, which stays open by 80.80', async () => {
    const bill = await open('payment', 'payment');
    await pick(bill, 'bartererId', names.supplier);
    await pick(bill, 'settlementId', '现金');
    await bill.locator('[data-field="precpAmt"] input').fill('100');
    await bill.getByTestId('settle-pick').click();
    const list = page.getByTestId('settle-list');
    await list.locator('.ant-table-row', { hasText: inboundNo }).click();
    await page.locator('.ant-modal-wrap:visible .ant-modal', { has: list }).getByRole('button', { name: /确\s*定|OK/ }).click();
    await expect.poll(() => rowCount(bill)).toBe(1);
    await expect.poll(() => cell(bill, 0, 'openAmt').innerText()).toBe('180.80');
    await typeCell(bill, 0, 'settleAmt', '100');
    await expect.poll(() => summary(bill, 'settleAmt').innerText()).toBe('100.00');
    const billNo = await carry(bill);
    const openBills = expectOk(await api.get('/blade-finance/payment/billlist', { bartererId: w.supplierId }));
    expect(openBills.find((r: { billNo: string }) => r.billNo === inboundNo)?.openAmt).toBe('80.80');
    await done('bills-payment-posted');
    await listed('payment', 'payment', billNo, '已记账');
    await done('bills-payment-list');
  });

  // Before any other bill moves A into the second warehouse: an opening is its first movement there.
  test('期初库存: 2 A opened in the second warehouse at 3.00 (6.00); a second opening of A there is refused', async () => {
    const bill = await open('openingStock', 'opening-inventory');
    await pick(bill, 'depotId', names.depot1);
    await goods(bill, [names.goods0], 1);
    await typeCell(bill, 0, 'qty', '2');
    await typeCell(bill, 0, 'costPrice', '3.00');
    await expect.poll(() => cell(bill, 0, 'costAmt').innerText()).toBe('6.00');
    const billNo = await carry(bill);
    expect(await stock(1, 0)).toMatchObject({ qty: '2.00', value: '6.00', rows: 1 });
    await done('bills-opening-stock-posted');
    const again = await approvedBill(api, '/blade-warehouse/openinginventoryhead', { depotId: w.depots[1], bodyList: [{ commInfoId: w.goods[0], unitId: w.unitId, qty: '1', costPrice: '3.00' }] });
    const refused = await api.post('/blade-warehouse/openinginventoryhead/accounting', { id: again.id, version: again.version });
    expect(refused.body.msg).toContain(`商品「${names.goods0}」在仓库「${names.depot1}」已有出入库记录`);
    await listed('openingStock', 'opening-inventory', billNo, '已记账');
    await done('bills-opening-stock-list');
  });

  test('销售发票: 4 sold at 11.30 invoiced from the posted sales-out; the sale shows 已开票', async () => {
    const out = await approvedBill(api, BASES.salesOut, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '4', taxPrice: '11.30' }]) }, { post: true });
    const bill = await open('salesInvoice', 'sales-invoice');
    await fromSourceList(bill, out.billNo);
    await expect.poll(() => rowCount(bill)).toBe(1);
    // 4 × 11.30 = 45.20 with tax; 45.20 / 1.13 = 40.00 net, 5.20 tax.
    await expect.poll(() => cell(bill, 0, 'totalAmt').innerText()).toBe('45.20');
    await expect.poll(() => cell(bill, 0, 'taxAmt').innerText()).toBe('5.20');
    await bill.locator('[data-field="invoiceNo"] input').fill('XSFP20261125');
    const billNo = await carry(bill);
    await done('bills-sales-invoice-posted');
    const sale = expectOk(await api.get(`${BASES.salesOut}/detail`, { id: out.id }));
    expect([sale.invoiceStatus, sale.bodyList[0].invoiceQty]).toEqual(['2604', '4.00']);
    await listed('salesInvoice', 'sales-invoice', billNo, '已记账');
    await done('bills-sales-invoice-list');
  });

  test('采购退货单: 2 of 5 A sent back from the inbound\'s number at its cost 3.00; the supplier is owed 6.78 less', async () => {
    const inbound = await inboundOf([{ goods: w.goods[0], qty: '5', purchasePrice: '3.00' }]);
    const before = await stock(0, 0);
    const bill = await open('purchaseReturn', 'purchase-return');
    await fromNumber(bill, inbound.billNo);
    await expect.poll(() => cell(bill, 0, 'qty').innerText()).toBe('-5.00');
    await typeCell(bill, 0, 'qty', '-2');
    // −2 × 3.00 = −6.00 net, −6.78 with 13% tax.
    await expect.poll(() => cell(bill, 0, 'totalAmt').innerText()).toBe('-6.78');
    const billNo = await carry(bill);
    expect(delta(await stock(0, 0), before)).toEqual(['-2.00', '-6.00']);
    await done('bills-purchase-return-posted');
    const saved = expectOk(await api.get(`${BASES.purchaseReturn}/list`, { billNo })).records[0];
    expect(saved.finalAmt).toBe('-6.78');
    await listed('purchaseReturn', 'purchase-return', billNo, '已记账');
    await done('bills-purchase-return-list');
  });

  test('采购换货单: 1 B back at 5.00 and 1 A in at 3.00 on one bill; the supplier is owed 2.26 less', async () => {
    const inbound = await inboundOf([{ goods: w.goods[1], qty: '5', purchasePrice: '5.00' }]);
    const before = [await stock(0, 0), await stock(0, 1)];
    const bill = await open('purchaseExchange', 'purchase-exchange');
    await fromNumber(bill, inbound.billNo);
    await expect.poll(() => cell(bill, 0, 'qty').innerText()).toBe('-5.00');
    await typeCell(bill, 0, 'qty', '-1');
    await goods(bill, [names.goods0], 2);
    await typeCell(bill, 1, 'qty', '1');
    await typeCell(bill, 1, 'purchasePrice', '3.00');
    await typeCell(bill, 1, 'taxRate', '13');
    await expect.poll(() => cell(bill, 1, 'totalAmt').innerText()).toBe('3.39');
    const billNo = await carry(bill);
    expect(delta(await stock(0, 0), before[0])).toEqual(['1.00', '3.00']);
    expect(delta(await stock(0, 1), before[1])).toEqual(['-1.00', '-5.00']);
    await done('bills-purchase-exchange-posted');
    // (3.00 − 5.00) × 1.13 = −2.26.
    expect(expectOk(await api.get('/blade-purchase/purchaseexchangehead/list', { billNo })).records[0].finalAmt).toBe('-2.26');
    await listed('purchaseExchange', 'purchase-exchange', billNo, '已记账');
    await done('bills-purchase-exchange-list');
  });

  test('其他入库单: 5 A given as a gift into the second warehouse at 2.50 each; it holds 5 worth 12.50', async () => {
    const before = await stock(1, 0);
    const bill = await open('otherIn', 'other-in');
    await pick(bill, 'depotId', names.depot1);
    await choose(bill, 'reasonType', '赠送入库');
    await goods(bill, [names.goods0], 1);
    await typeCell(bill, 0, 'qty', '5');
    await typeCell(bill, 0, 'costPrice', '2.50');
    await expect.poll(() => cell(bill, 0, 'costAmt').innerText()).toBe('12.50');
    const billNo = await carry(bill);
    expect(delta(await stock(1, 0), before)).toEqual(['5.00', '12.50']);
    await done('bills-other-in-posted');
    await listed('otherIn', 'other-in', billNo, '已记账');
    await done('bills-other-in-list');
  });

  test('其他出库单: 2 A given away from the first warehouse at their average cost 3.00', async () => {
    const before = await stock(0, 0);
    const bill = await open('otherOut', 'other-out');
    await pick(bill, 'depotId', names.depot0);
    await choose(bill, 'reasonType', '赠送出库');
    await goods(bill, [names.goods0], 1);
    await typeCell(bill, 0, 'qty', '2');
    const billNo = await carry(bill);
    await expect.poll(() => cell(bill, 0, 'costAmt').innerText()).toBe('6.00');
    expect(delta(await stock(0, 0), before)).toEqual(['-2.00', '-6.00']);
    await done('bills-other-out-posted');
    await listed('otherOut', 'other-out', billNo, '已记账');
    await done('bills-other-out-list');
  });

  test('报损单: 1 B broken, written off at its average cost 5.00', async () => {
    const before = await stock(0, 1);
    const bill = await open('lossInventory', 'loss-inventory');
    await pick(bill, 'depotId', names.depot0);
    await choose(bill, 'reasonType', '破损');
    await goods(bill, [names.goods1], 1);
    await typeCell(bill, 0, 'qty', '1');
    const billNo = await carry(bill);
    await expect.poll(() => cell(bill, 0, 'costAmt').innerText()).toBe('5.00');
    expect(delta(await stock(0, 1), before)).toEqual(['-1.00', '-5.00']);
    await done('bills-loss-posted');
    await listed('lossInventory', 'loss-inventory', billNo, '已记账');
    await done('bills-loss-list');
  });

  test('报溢单: 2 B found at the count, taken in at the book cost 5.00 (no price typed)', async () => {
    const before = await stock(0, 1);
    const bill = await open('profitInventory', 'profit-inventory');
    await pick(bill, 'depotId', names.depot0);
    await choose(bill, 'reasonType', '盘点盈余');
    await goods(bill, [names.goods1], 1);
    await typeCell(bill, 0, 'qty', '2');
    const billNo = await carry(bill);
    await expect.poll(() => cell(bill, 0, 'costAmt').innerText()).toBe('10.00');
    expect(delta(await stock(0, 1), before)).toEqual(['2.00', '10.00']);
    await done('bills-profit-posted');
    await listed('profitInventory', 'profit-inventory', billNo, '已记账');
    await done('bills-profit-list');
  });

  test('调拨单: 3 A called out of the first warehouse (in transit, 已调出), then called in to the second at 9.00', async () => {
    const before = [await stock(0, 0), await stock(1, 0)];
    const bill = await open('moveInventory', 'move-inventory');
    await pick(bill, 'outDepotId', names.depot0);
    await pick(bill, 'inDepotId', names.depot1);
    await goods(bill, [names.goods0], 1);
    await typeCell(bill, 0, 'qty', '3');
    const billNo = await carry(bill, [['callout', '已调出']]);
    await expect.poll(() => cell(bill, 0, 'costAmt').innerText()).toBe('9.00');
    // In transit: out of the first warehouse, not yet in the second.
    expect(delta(await stock(0, 0), before[0])).toEqual(['-3.00', '-9.00']);
    expect(delta(await stock(1, 0), before[1])).toEqual(['0.00', '0.00']);
    await done('bills-move-called-out');
    await act(bill, 'callin');
    await expect.poll(() => status(bill).innerText()).toBe('已记账');
    expect(delta(await stock(1, 0), before[1])).toEqual(['3.00', '9.00']);
    await done('bills-move-called-in');
    await listed('moveInventory', 'move-inventory', billNo, '已记账');
    await done('bills-move-list');
  });

  test('借入单: 4 B borrowed from the supplier into the second warehouse at 6.00 each', async () => {
    const before = await stock(1, 1);
    const bill = await open('borrowIn', 'borrow-in');
    await pick(bill, 'supplierId', names.supplier);
    await pick(bill, 'depotId', names.depot1);
    await goods(bill, [names.goods1], 1);
    await typeCell(bill, 0, 'qty', '4');
    // The second warehouse never held B: no average cost, so the clerk types one.
    await typeCell(bill, 0, 'costPrice', '6.00');
    await expect.poll(() => cell(bill, 0, 'costAmt').innerText()).toBe('24.00');
    const billNo = await carry(bill);
    expect(delta(await stock(1, 1), before)).toEqual(['4.00', '24.00']);
    await done('bills-borrow-in-posted');
    await listed('borrowIn', 'borrow-in', billNo, '已记账');
    await done('bills-borrow-in-list');
  });

  test('借出单: 1 A lent to the customer from the first warehouse at its average cost 3.00', async () => {
    const before = await stock(0, 0);
    const bill = await open('borrowOut', 'borrow-out');
    await pick(bill, 'customerId', names.customer);
    await pick(bill, 'depotId', names.depot0);
    await goods(bill, [names.goods0], 1);
    await typeCell(bill, 0, 'qty', '1');
    const billNo = await carry(bill);
    await expect.poll(() => cell(bill, 0, 'costAmt').innerText()).toBe('3.00');
    expect(delta(await stock(0, 0), before)).toEqual(['-1.00', '-3.00']);
    await done('bills-borrow-out-posted');
    await listed('borrowOut', 'borrow-out', billNo, '已记账');
    await done('bills-borrow-out-list');
  });

  test('库存查询 and 往来明细账: the goods moved above, per warehouse; the supplier payable row by row with its balance', async () => {
    await gotoFresh(page, `${server.url}${leaf('inventoryQuery').path}`);
    const stockList = page.getByTestId('list-inventory');
    const rowA = stockList.locator('.erp-grid-row', { hasText: names.goods0 }).filter({ hasText: names.depot0 }).first();
    await rowA.waitFor();
    const shown = await stock(0, 0);
    await expect.poll(() => rowA.innerText()).toContain(shown.value);
    await done('warehouse-inventory-query');

    await gotoFresh(page, `${server.url}${leaf('detailLedger').path}`);
    const ledger = page.getByTestId('list-party-ledger');
    const first = ledger.locator('.erp-grid-row', { hasText: inboundNo }).first();
    await first.waitFor();
    // The first inbound: 20 A at 3.00 and 20 B at 5.00 with 13% tax, owed to the supplier.
    await expect.poll(() => first.innerText()).toContain('180.80');
    await done('finance-party-ledger');
  });

  test('会计期间: the twelve months of last year generated from the toolbar; January closed, then reopened', async () => {
    const year = String(new Date().getFullYear() - 1);
    await gotoFresh(page, `${server.url}${leaf('accountingPeriod').path}`);
    const list = page.getByTestId('list-accounting-period');
    await list.waitFor();
    await settle(page);
    await page.getByTestId('list-toolbar').getByRole('button', { name: '生成期间', exact: true }).click();
    const prompt = page.locator('.ant-modal-wrap:visible .ant-modal', { hasText: '会计年度' });
    await prompt.locator('input').first().fill(year);
    await prompt.getByRole('button', { name: /确\s*定/ }).click();
    const january = list.locator('.erp-grid-row', { hasText: `${year}-01-31` }).first();
    await january.waitFor();
    expect(expectOk(await api.get('/blade-finance/accountingperiod/list', { periodYear: year, current: 1, size: 20 })).total).toBe(12);
    await january.locator('[data-testid=row-actions]').getByRole('button', { name: '结账', exact: true }).click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定/ }).click();
    await expect.poll(() => january.innerText()).toContain('已结账');
    await done('settings-accounting-periods');
    await january.locator('[data-testid=row-actions]').getByRole('button', { name: '反结账', exact: true }).click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定/ }).click();
    await expect.poll(() => january.innerText()).toContain('未结账');
    await done('settings-accounting-periods-reopened');
  });
});
