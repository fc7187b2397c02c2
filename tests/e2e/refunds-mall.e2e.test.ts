/**
 * 商城销售发票, 销售退款单 and 采购退款单 in the browser, each opened from its menu route and carried to
 * 已记账 with figures worked by hand: 2 of a mall order's 3 shipped at 11.30 invoiced (22.60); a
 * customer who paid 36.16 for a sale and returned 1 (9.04) paid back 9.04 from the return's credit
 * (balance 0.00); a supplier paid 11.30 for an inbound of which 1 (5.65) went back refunds 5.65.
 * No page or console error; a screenshot each.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { approvedBill, BASES, lines, makeWorld, partyBalance, type World } from '../support/bills.ts';
import { launchBrowser, type Browser } from './support/browser.ts';
import { signIn } from './support/shell.ts';
import { billFlows } from './support/bills.ts';

describe('mall invoices and refunds in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let w: World;
  let page: Page;
  let cash = '';
  const consoleErrors: string[] = [];
  const names: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer();
    api = await signedIn(server.url);
    w = await makeWorld(api, { goods: 1, customers: 2 });
    names.supplier = expectOk(await api.get('/blade-base/supplier/detail', { id: w.supplierId })).bartererName;
    for (const [i, id] of w.customers.entries()) names[`customer${i}`] = expectOk(await api.get('/blade-base/customer/detail', { id })).bartererName;
    cash = String(expectOk(await api.get('/blade-base/settlement/retail')).find((m: { settlementName: string }) => m.settlementName === '现金').id);
    browser = await launchBrowser();
    page = browser.page;
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    await signIn(page, server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const { cell, summary, rowCount, typeCell, fromSourceList, pickHead: pick, open, carry, listed, done } = billFlows({ page: () => page, url: () => server.url, browser: () => browser, consoleErrors });
  const goodsLine = (qty: string, price: Record<string, string>) => lines(w, [{ goods: w.goods[0], qty, ...price }]);

  /** 选择单据: the chosen item of the settle dialog becomes the one line, settled by `amount`. */
  async function settleOne(bill: Locator, billNo: string, amount: string) {
    await bill.getByTestId('settle-pick').click();
    const list = page.getByTestId('settle-list');
    await list.locator('.ant-table-row', { hasText: billNo }).click();
    await page.locator('.ant-modal-wrap:visible .ant-modal', { has: list }).getByRole('button', { name: /确\s*定|OK/ }).click();
    await expect.poll(() => rowCount(bill)).toBe(1);
    await expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
    await typeCell(bill, 0, 'settleAmt', amount);
    await expect.poll(() => summary(bill, 'settleAmt').innerText()).toBe(Number(amount).toFixed(2));
  }

  test('商城销售发票: 2 of a mall order shipped 3 at 11.30 invoiced, 22.60; 1 stays to invoice', async () => {
    await approvedBill(api, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: goodsLine('20', { purchasePrice: '4.00' }) }, { post: true });
    const order = await approvedBill(api, BASES.salesOrder, { customerId: w.customers[0], depotId: w.depots[0], orderSource: '2', bodyList: goodsLine('3', { taxPrice: '11.30' }) });
    const out = await approvedBill(api, BASES.salesOut, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '3', taxPrice: '11.30', sourceBodyId: order.bodyList[0].id }]) }, { post: true });
    const bill = await open('salesInvoiceMall', 'sales-invoice-mall');
    await fromSourceList(bill, out.billNo);
    await expect.poll(() => rowCount(bill)).toBe(1);
    await typeCell(bill, 0, 'qty', '2');
    await expect.poll(() => cell(bill, 0, 'totalAmt').innerText()).toBe('22.60');
    const billNo = await carry(bill);
    expect(billNo).toMatch(/M\d{12}/);
    const left = expectOk(await api.get('/blade-sales/salesinvoiceheadmall/selectByCustomerId', { customerId: w.customers[0] }));
    expect(JSON.stringify(left)).toContain(out.billNo);
    await done('sales-mall-invoice-posted');
    await listed('salesInvoiceMall', 'sales-invoice-mall', billNo);
    await done('sales-mall-invoice-list');
  });

  test('销售退款单: the customer paid 36.16 and returned 1 (9.04); 9.04 paid back from the return, balance 0.00', async () => {
    const customer = w.customers[1];
    const sale = await approvedBill(api, BASES.salesOut, { customerId: customer, depotId: w.depots[0], bodyList: goodsLine('4', { taxPrice: '9.04' }) }, { post: true });
    await approvedBill(api, '/blade-finance/receipt', { bartererId: customer, settlementId: cash, precpAmt: '36.16', bodyList: [{ sourceBillId: sale.id, settleAmt: '36.16' }] }, { post: true });
    const back = expectOk(await api.get(`${BASES.salesReturn}/generate`, { soNo: sale.billNo }));
    const ret = await approvedBill(api, BASES.salesReturn, { ...back, bodyList: back.bodyList.map((l: Record<string, unknown>) => ({ ...l, qty: '-1', salesAmt: null, taxAmt: null, totalAmt: null, finalAmt: null })) }, { post: true });
    expect(await partyBalance(server, 'AR', customer)).toBe('-9.04');
    const bill = await open('salesRefund', 'sales-refund');
    await pick(bill, 'bartererId', names.customer1);
    await pick(bill, 'settlementId', '现金');
    await settleOne(bill, ret.billNo, '9.04');
    const billNo = await carry(bill);
    expect(await partyBalance(server, 'AR', customer)).toBe('0.00');
    await done('finance-sales-refund-posted');
    await listed('salesRefund', 'sales-refund', billNo);
    await done('finance-sales-refund-list');
  });

  test('采购退款单: paid 11.30 for 2 in, 1 sent back (5.65); the supplier refunds 5.65, nothing owed either way', async () => {
    const before = await partyBalance(server, 'AP', w.supplierId);
    const inbound = await approvedBill(api, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: goodsLine('2', { purchasePrice: '5.00' }) }, { post: true });
    await approvedBill(api, '/blade-finance/payment', { bartererId: w.supplierId, settlementId: cash, precpAmt: '11.30', bodyList: [{ sourceBillId: inbound.id, settleAmt: '11.30' }] }, { post: true });
    const back = expectOk(await api.get(`${BASES.purchaseReturn}/generate`, { poNo: inbound.billNo }));
    const ret = await approvedBill(api, BASES.purchaseReturn, { ...back, bodyList: back.bodyList.map((l: Record<string, unknown>) => ({ ...l, qty: '-1', purchaseAmt: null, taxAmt: null, totalAmt: null, finalAmt: null })) }, { post: true });
    const bill = await open('purchaseRefund', 'purchase-refund');
    await pick(bill, 'bartererId', names.supplier);
    await pick(bill, 'settlementId', '现金');
    await settleOne(bill, ret.billNo, '5.65');
    const billNo = await carry(bill);
    expect(await partyBalance(server, 'AP', w.supplierId)).toBe(before);
    await done('finance-purchase-refund-posted');
    await listed('purchaseRefund', 'purchase-refund', billNo);
    await done('finance-purchase-refund-list');
  });
});
