/**
 * Money bills in the browser (issue: inventory and finance): on the 收款单 page the clerk picks the
 * customer, chooses an open sales-out with 选择单据, settles part of it, and posts; the sale is then
 * partly open. On the 预收款 page a prepayment is posted and the customer's next sale uses it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, approvedBill, lines, makeWorld, type World } from '../support/bills.ts';
import { launchBrowser, screenshot, type Browser } from './support/browser.ts';
import { seededLeaves, settle, signIn } from './support/shell.ts';
import { billPage } from './support/bills.ts';

const leaf = (code: string) => seededLeaves().find((m) => m.code === code)!;

describe('money bills in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let w: World;
  let page: Page;
  let customer = '';

  beforeAll(async () => {
    server = await startTestServer();
    api = await signedIn(server.url);
    w = await makeWorld(api, { goods: 1, customers: 2 });
    customer = expectOk(await api.get('/blade-base/customer/detail', { id: w.customers[0] })).bartererName;
    await approvedBill(api, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '50', purchasePrice: '5.00' }]) }, { post: true });
    browser = await launchBrowser();
    page = browser.page;
    await signIn(page, server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const { editor, rowCount, status, pickHead, typeCell, act, summary } = billPage(() => page);
  const sale = (c: string) =>
    approvedBill(api, BASES.salesOut, { customerId: c, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '4', taxPrice: '9.04' }]) }, { post: true });

  test('收款单: 20.00 received from the customer settles 20.00 of a 36.16 sale, which stays open by 16.16', async () => {
    const out = await sale(w.customers[0]);
    await page.goto(`${server.url}${leaf('receipt').path}`);
    const bill = editor('receipt');
    await bill.waitFor();
    await settle(page);
    await bill.getByTestId('settle-pick').click();
    await expect.poll(() => page.locator('.ant-message').innerText()).toContain('请选择结算单位！');
    await pickHead(bill, 'bartererId', customer);
    await pickHead(bill, 'settlementId', '现金');
    await bill.locator('[data-field="precpAmt"] input').fill('20');
    await bill.getByTestId('settle-pick').click();
    const list = page.getByTestId('settle-list');
    await list.locator('.ant-table-row', { hasText: out.billNo }).click();
    await page.locator('.ant-modal-wrap:visible .ant-modal', { has: list }).getByRole('button', { name: /确\s*定|OK/ }).click();
    await expect.poll(() => rowCount(bill)).toBe(1);
    await typeCell(bill, 0, 'settleAmt', '20');
    await expect.poll(() => summary(bill, 'settleAmt').innerText()).toBe('20.00');
    await act(bill, 'submit');
    await expect.poll(() => status(bill).innerText()).toBe('待审核');
    await act(bill, 'pass', '');
    await act(bill, 'accounting');
    await expect.poll(() => status(bill).innerText()).toBe('已记账');
    const open = expectOk(await api.get('/blade-finance/receipt/billlist', { bartererId: w.customers[0] }));
    expect(open.map((r: { billNo: string; openAmt: string }) => [r.billNo, r.openAmt])).toEqual([[out.billNo, '16.16']]);
    await screenshot(page, 'finance-receipt-posted');
    expect(browser.pageErrors).toEqual([]);
  });

  test('预收款: 50.00 in advance, posted; the next sale of 36.16 uses it, 13.84 left', async () => {
    const name = expectOk(await api.get('/blade-base/customer/detail', { id: w.customers[1] })).bartererName;
    await page.goto(`${server.url}${leaf('prepayment').path}`);
    const bill = editor('prepayment');
    await bill.waitFor();
    await settle(page);
    await pickHead(bill, 'bartererId', name);
    await pickHead(bill, 'settlementId', '现金');
    await bill.locator('[data-field="precpAmt"] input').fill('50');
    await act(bill, 'submit');
    await act(bill, 'pass', '');
    await act(bill, 'accounting');
    await expect.poll(() => status(bill).innerText()).toBe('已记账');
    await sale(w.customers[1]);
    const credit = expectOk(await api.get('/blade-finance/prepayment/precplist', { bartererId: w.customers[1] }));
    expect(credit.map((r: { openAmt: string }) => r.openAmt)).toEqual(['13.84']);
    await screenshot(page, 'finance-prepayment-posted');
    expect(browser.pageErrors).toEqual([]);
  });
});
