/**
 * 盘点单 in the browser: the page opens from its route; a count of 10 A held at 5.00 is made
 * through the UI (warehouse, goods, counted quantity), saved as a draft so the server answers the
 * book snapshot, then the counted quantity typed again shows the new difference and its value
 * before any call (the grid's own computation); submitted, approved and posted, the stock moves by
 * the hand-computed −2 worth −10.00; the history list shows the bill 已记账; no page or console
 * error; a screenshot of each.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { approvedBill, makeWorld, stockOf, type World } from '../support/bills.ts';
import { launchBrowser, type Browser } from './support/browser.ts';
import { signIn } from './support/shell.ts';
import { billFlows } from './support/bills.ts';

describe('盘点单 in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let w: World;
  let page: Page;
  let depotName = '';
  let goodsName = '';
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    api = await signedIn(server.url);
    w = await makeWorld(api, { goods: 1, depots: 1 });
    depotName = expectOk(await api.get('/blade-system/depot/detail', { id: w.depots[0] })).depotName;
    goodsName = expectOk(await api.get('/blade-base/comminfo/detail', { id: w.goods[0] })).commInfoName;
    // The book: 10 A at 5.00 in the warehouse.
    await approvedBill(api, '/blade-warehouse/otherinhead', { depotId: w.depots[0], reasonType: '1', bodyList: [{ commInfoId: w.goods[0], unitId: w.unitId, qty: '10', costPrice: '5.00' }] }, { post: true });
    browser = await launchBrowser();
    page = browser.page;
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    await signIn(page, server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const { cell, summary, rowCount, status, addGoods, typeCell, act, pickHead: pick, open, carry, listed, done } = billFlows({ page: () => page, url: () => server.url, browser: () => browser, consoleErrors });

  test('counted 8 of a book of 10 at 5.00: the grid shows −2 worth −10.00 as typed; posted, the stock moves by exactly that', async () => {
    const before = await stockOf(server, w.depots[0], w.goods[0]);
    expect(before).toMatchObject({ qty: '10.00', value: '50.00' });

    const bill = await open('checkInventory', 'check-inventory');

    await pick(bill, 'depotId', depotName);
    await addGoods(bill, [goodsName]);
    await expect.poll(() => rowCount(bill)).toBe(1);
    await expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
    // The book is the server's snapshot: unknown until the first save, so no difference yet.
    await typeCell(bill, 0, 'checkQty', '9');
    expect(await cell(bill, 0, 'bookQty').innerText()).toBe('');
    expect(await cell(bill, 0, 'qty').innerText()).toBe('');

    await act(bill, 'draft');
    await expect.poll(() => status(bill).innerText()).toBe('草稿');
    await expect.poll(() => cell(bill, 0, 'bookQty').innerText()).toBe('10.00');
    expect(await cell(bill, 0, 'costPrice').innerText()).toBe('5.00000');
    expect(await cell(bill, 0, 'qty').innerText()).toBe('-1.00');
    expect(await cell(bill, 0, 'costAmt').innerText()).toBe('-5.00');

    // Recounted: the difference and its value follow the typing, before anything is sent.
    await typeCell(bill, 0, 'checkQty', '8');
    await expect.poll(() => cell(bill, 0, 'qty').innerText()).toBe('-2.00');
    expect(await cell(bill, 0, 'costAmt').innerText()).toBe('-10.00');
    await expect.poll(() => summary(bill, 'costAmt').innerText()).toBe('-10.00');
    await done('stocktake-typed');

    const billNo = await carry(bill);
    expect(await cell(bill, 0, 'costAmt').innerText()).toBe('-10.00');
    // 10 − 2 = 8 left, worth 50.00 − 2 × 5.00 = 40.00.
    expect(await stockOf(server, w.depots[0], w.goods[0])).toMatchObject({ qty: '8.00', value: '40.00' });
    await done('stocktake-posted');

    await listed('checkInventory', 'check-inventory', billNo);
    await done('stocktake-list');
  });
});
