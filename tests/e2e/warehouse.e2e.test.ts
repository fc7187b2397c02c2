/**
 * Warehouse pages of the purchasing and sales issue, in the browser: a 领料单 picked, submitted,
 * approved and posted (stock leaves at its average cost), and a delivery run on 配送中心 made
 * from a posted sales-out. Each page: open, act, see the result; no page error; screenshots.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, approvedBill, lines, makeWorld, stockOf, type World } from '../support/bills.ts';
import { launchBrowser, screenshot, type Browser } from './support/browser.ts';
import { seededLeaves, settle, signIn } from './support/shell.ts';
import { billPage } from './support/bills.ts';
import { field, footerButton, modal } from './support/dialogs.ts';

const leaf = (code: string) => seededLeaves().find((m) => m.code === code)!;

describe('warehouse pages in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let w: World;
  let page: Page;
  const names: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer();
    api = await signedIn(server.url);
    w = await makeWorld(api, { goods: 1 });
    const dept = expectOk<{ id: string }[]>(await api.get('/blade-system/dept/list'))[0];
    const token = Date.now().toString().slice(-6);
    names.staff = `领料员${token}`;
    names.driver = `司机${token}`;
    expectOk(await api.post('/blade-base/staff/submit', { staffCode: `LL${token}`, staffName: names.staff, deptId: dept.id }));
    const carId = String(expectOk(await api.post('/blade-base/car/submit', { carNumber: `京A${token}`, type: '1', load: '2.50', volume: '12.00', description: '厢式货车', shortName: `货车${token}`, remark: '配送' })).id);
    const routeId = String(expectOk(await api.post('/blade-base/route/submit', { routeCode: `XL${token}`, routeName: `朝阳线${token}`, areaCode: '110105', areaName: '北京市/市辖区/朝阳区' })).id);
    expectOk(await api.post('/blade-base/staff/submit', { staffCode: `SJ${token}`, staffName: names.driver, deptId: dept.id, isDriver: 2, carId, routeId }));
    names.depot = expectOk(await api.get('/blade-system/depot/detail', { id: w.depots[0] })).depotName;
    names.goods = expectOk(await api.get('/blade-base/comminfo/detail', { id: w.goods[0] })).commInfoName;
    // 10 at 4.00: the requisition's cost is 4.00 a unit.
    await approvedBill(api, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '10', purchasePrice: '4.00' }]) }, { post: true });
    browser = await launchBrowser();
    page = browser.page;
    await signIn(page, server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const { editor, rowCount, status, pickHead, addGoods, typeCell, act, cell } = billPage(() => page);

  test('领料单: 3 requisitioned by a staff member, posted; stock falls by 3 at 4.00 each', async () => {
    await page.goto(`${server.url}${leaf('materialUse').path}`);
    const bill = editor('material-use');
    await bill.waitFor();
    await settle(page);
    await pickHead(bill, 'staffId', names.staff);
    await pickHead(bill, 'depotId', names.depot);
    await addGoods(bill, [names.goods]);
    await expect.poll(() => rowCount(bill)).toBe(1);
    await typeCell(bill, 0, 'qty', '3');
    await act(bill, 'submit');
    await expect.poll(() => status(bill).innerText()).toBe('待审核');
    await act(bill, 'pass', '');
    await act(bill, 'accounting');
    await expect.poll(() => status(bill).innerText()).toBe('已记账');
    await expect.poll(() => cell(bill, 0, 'costAmt').innerText()).toBe('12.00');
    expect(await stockOf(server, w.depots[0], w.goods[0])).toMatchObject({ qty: '7.00', value: '28.00' });
    await screenshot(page, 'warehouse-material-use-posted');
    expect(browser.pageErrors).toEqual([]);
  });

  test('配送中心: a run for a posted sales-out, saved with its driver; the list shows it', async () => {
    const out = await approvedBill(api, BASES.salesOut, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '2', taxPrice: '9.04' }]) }, { post: true });
    await page.goto(`${server.url}${leaf('deliveryCenter').path}`);
    const list = page.getByTestId('list-sales-distribution');
    await list.waitFor();
    await page.getByTestId('list-toolbar').getByRole('button', { name: /新\s*增/ }).click();
    const dialog = modal(page, /配送单/);
    await dialog.waitFor();
    await field(dialog, 'driverId').locator('.ant-select').click();
    const driverPicker = page.locator('.ant-modal-wrap:visible .ant-modal').filter({ has: page.locator('.ant-table-row', { hasText: names.driver }) }).last();
    await driverPicker.locator('.ant-table-row', { hasText: names.driver }).first().dblclick();
    await expect.poll(() => field(dialog, 'driverId').innerText()).toContain(names.driver);
    const date = field(dialog, 'deliveryDate').locator('input');
    await date.click();
    await date.fill('2026-11-26');
    await date.press('Enter');
    await field(dialog, 'outList').getByRole('button', { name: /添\s*加/ }).click();
    await dialog.locator('td', { has: page.locator('[id="outList.0.soOutId"]') }).locator('.ant-select').click();
    const outPicker = page.locator('.ant-modal-wrap:visible .ant-modal').filter({ has: page.locator('.ant-table-row', { hasText: out.billNo }) }).last();
    await outPicker.locator('.ant-table-row', { hasText: out.billNo }).first().dblclick();
    await expect.poll(() => field(dialog, 'outList').innerText()).toContain(out.billNo);
    await footerButton(dialog, /保\s*存|确\s*定/).click();
    await settle(page);
    await list.locator('.erp-grid-row', { hasText: names.driver }).first().waitFor();
    const runs = expectOk(await api.get('/blade-sales/salesdistributionhead/list', { current: 1, size: 10 })).records;
    const run = expectOk(await api.get('/blade-sales/salesdistributionhead/detail', { id: runs[0].id }));
    expect(run.outList.map((o: { billNo: string }) => o.billNo)).toEqual([out.billNo]);
    await screenshot(page, 'warehouse-delivery-run-saved');
    expect(browser.pageErrors).toEqual([]);
  });
});
