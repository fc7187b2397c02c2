/**
 * The finance bill pages without a browser flow yet: 应收调整单 and 应付调整单 (财务管理) and 期初财务
 * (系统设置). Each page: opened from its route, a bill made through the UI (partner picked, reason
 * or type chosen, signed amount typed) and carried to 已记账, the partner's balance moved by the
 * typed amount, the history list showing it 已记账, no page or console error; a screenshot each.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { makeWorld, partyBalance, type World } from '../support/bills.ts';
import { launchBrowser, type Browser } from './support/browser.ts';
import { signIn } from './support/shell.ts';
import { billFlows } from './support/bills.ts';

describe('finance adjustment and opening pages in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let w: World;
  let page: Page;
  const consoleErrors: string[] = [];
  const names: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer();
    api = await signedIn(server.url);
    w = await makeWorld(api, { customers: 2 });
    names.supplier = expectOk(await api.get('/blade-base/supplier/detail', { id: w.supplierId })).bartererName;
    for (const [i, id] of w.customers.entries()) names[`customer${i}`] = expectOk(await api.get('/blade-base/customer/detail', { id })).bartererName;
    browser = await launchBrowser();
    page = browser.page;
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    await signIn(page, server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const { pickHead: pick, choose, open, carry, listed, done } = billFlows({ page: () => page, url: () => server.url, browser: () => browser, consoleErrors });

  async function amount(bill: Locator, fieldName: string, text: string) {
    const input = bill.locator(`[data-field="${fieldName}"] input`);
    await input.fill(text);
    await input.press('Tab');
  }

  test('应收调整单: 10.00 尾差 raised on the customer is open 10.00 for a receipt', async () => {
    const bill = await open('arSupplement', 'ar-supplement');
    await pick(bill, 'bartererId', names.customer0);
    await choose(bill, 'reasonType', '尾差');
    await amount(bill, 'finalAmt', '10');
    await bill.locator('[data-field="remark"] input, [data-field="remark"] textarea').first().fill('对账尾差调增');
    const billNo = await carry(bill);
    expect(await partyBalance(server, 'AR', w.customers[0])).toBe('10.00');
    const openBills = expectOk(await api.get('/blade-finance/receipt/billlist', { bartererId: w.customers[0] }));
    expect(openBills.map((i: { billNo: string; openAmt: string }) => [i.billNo, i.openAmt])).toEqual([[billNo, '10.00']]);
    await done('finance-ar-supplement-posted');
    await listed('arSupplement', 'ar-supplement', billNo);
    await done('finance-ar-supplement-list');
  });

  test('应付调整单: −3.00 折让 lowers what is owed to the supplier by 3.00', async () => {
    const before = await partyBalance(server, 'AP', w.supplierId);
    const bill = await open('apSupplement', 'ap-supplement');
    await pick(bill, 'bartererId', names.supplier);
    await choose(bill, 'reasonType', '折让');
    await amount(bill, 'finalAmt', '-3');
    const billNo = await carry(bill);
    expect(await partyBalance(server, 'AP', w.supplierId)).toBe((Number(before) - 3).toFixed(2));
    const credit = expectOk(await api.get('/blade-finance/payment/precplist', { bartererId: w.supplierId }));
    expect(credit.map((i: { billNo: string; openAmt: string }) => [i.billNo, i.openAmt])).toEqual([[billNo, '3.00']]);
    await done('finance-ap-supplement-posted');
    await listed('apSupplement', 'ap-supplement', billNo);
    await done('finance-ap-supplement-list');
  });

  test('期初财务: a customer opening of 100.00 (the type shows the customer picker) posts a receivable of 100.00', async () => {
    const bill = await open('openingFinance', 'opening-barterer');
    await choose(bill, 'bartererType', '供应商');
    const shown = (field: string) => bill.locator(`[data-field="${field}"]`).isVisible();
    await expect.poll(() => shown('supplierId')).toBe(true);
    expect(await shown('customerId')).toBe(false);
    await choose(bill, 'bartererType', '客户');
    await expect.poll(() => shown('customerId')).toBe(true);
    expect(await shown('supplierId')).toBe(false);
    await pick(bill, 'customerId', names.customer1);
    await amount(bill, 'finalAmt', '100');
    const billNo = await carry(bill);
    expect(await partyBalance(server, 'AR', w.customers[1])).toBe('100.00');
    const openBills = expectOk(await api.get('/blade-finance/receipt/billlist', { bartererId: w.customers[1] }));
    expect(openBills.map((i: { billNo: string; billTypeName: string; openAmt: string }) => [i.billNo, i.billTypeName, i.openAmt])).toEqual([[billNo, '期初财务', '100.00']]);
    await done('finance-opening-posted');
    await listed('openingFinance', 'opening-barterer', billNo);
    await done('finance-opening-list');
  });
});
