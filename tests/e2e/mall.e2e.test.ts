/**
 * 商城管理 and 营销管理 in the browser: every built menu page of the two modules opens with no
 * placeholder and no page or console error (a screenshot each); 买家账号 opens a member's buyer
 * account (the password never in a URL) that then signs in; a mall order placed through the
 * storefront is confirmed and shipped from 商城订单 (posted sales-out, 待收货); a buyer's return
 * request is approved from its bill page into a posted sales return.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';
import { BASES, approvedBill, lines, makeWorld, setConfig, type World } from '../support/bills.ts';
import { launchBrowser, screenshot, type Browser } from './support/browser.ts';
import { gotoFresh, openFresh, seededLeaves, settle, signIn } from './support/shell.ts';
import { billFlows } from './support/bills.ts';
import { dialogsAtRest } from './support/dialogs.ts';

type Row = Record<string, unknown>;
const PLACEHOLDER = '页面尚未构建';

describe('商城管理 and 营销管理 pages in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let w: World;
  let page: Page;
  const consoleErrors: string[] = [];
  const requested: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    api = await signedIn(server.url);
    w = await makeWorld(api, { goods: 1, customers: 1 });
    await setConfig(api, 'MALL_DEPOT_ID', w.depots[0]);
    await approvedBill(api, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '50', purchasePrice: '5' }]) }, { post: true });
    expectOk(await api.post('/blade-base/commprice/submit', { commInfoId: w.goods[0], unitId: w.unitId, retailPrice: '20.00' }));
    expectOk(await api.call('POST', '/blade-base/comminfo/putOnShelves', { query: { ids: w.goods[0] } }));
    browser = await launchBrowser();
    page = browser.page;
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('request', (r) => requested.push(r.url()));
    await signIn(page, server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const flows = billFlows({ page: () => page, url: () => server.url, browser: () => browser, consoleErrors });
  const leaves = seededLeaves().filter((m) => /^\/(mall|marketing)\//.test(m.path ?? ''));

  test.for(leaves.filter((m) => m.resource))('$path ($name) opens its page', async (menu) => {
    consoleErrors.length = 0;
    const shown = await openFresh(page, server.url, menu.path);
    await settle(page);
    await shown.locator('[data-testid^="list-"], [data-testid^="document-"], [data-testid^="card-"], [data-testid^="tree-"], [data-testid^="report-"]').first().waitFor();
    expect(await shown.getByText(PLACEHOLDER).count()).toBe(0);
    await screenshot(page, `mall-page${String(menu.path).replace(/\//g, '-')}`);
    expect(browser.pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  test('买家账号: 开通账号 with a password that never travels in a URL; the buyer then signs in', async () => {
    const phone = `137${String(Date.now()).slice(-8)}`;
    const member = expectOk<Row>(await api.post('/blade-base/member/submit', { customerId: w.customers[0], phone, realName: '买家李四' }));
    await gotoFresh(page, `${server.url}/mall/buyerAccount`);
    const row = page.locator(`.erp-grid-row[row-id="${String(member.id)}"]`).first();
    await row.waitFor();
    await row.locator('[data-testid=row-actions] button', { hasText: '开通账号' }).click();
    const prompt = page.locator('.ant-modal-wrap:visible .ant-modal').last();
    await prompt.locator('[data-field="password"] input').fill('buyer888');
    await dialogsAtRest(page);
    requested.length = 0;
    await prompt.getByRole('button', { name: /确\s*定/ }).click();
    await page.locator('.ant-message-notice', { hasText: '买家账号已开通' }).waitFor();
    expect(requested.filter((u) => u.includes('openAccount')).length).toBe(1);
    expect(requested.some((u) => u.includes('buyer888'))).toBe(false);
    await expect.poll(() => row.innerText()).toContain(phone);
    await flows.done('mall-buyer-account');
    const buyer = await signedIn(server.url, '000000', phone, 'buyer888');
    expectOk(await buyer.post('/blade-mall/order/quote', { lines: [{ commInfoId: w.goods[0], qty: '1' }] }));
  });

  test('商城订单: 确认 and 发货 from the list; 商城退货申请 approved from its bill page', async () => {
    const phone = `136${String(Date.now()).slice(-8)}`;
    const member = expectOk<Row>(await api.post('/blade-base/member/submit', { customerId: w.customers[0], phone, realName: '买家王五' }));
    expectOk(await api.post('/blade-base/member/openAccount', { id: member.id, password: 'buyer999' }));
    const buyer = await signedIn(server.url, '000000', phone, 'buyer999');
    const order = expectOk<Row>(await buyer.post('/blade-mall/order/intake', { lines: [{ commInfoId: w.goods[0], qty: '3' }], contacts: '王五', contactsPhone: '13600000000', contactsAddress: '人民路 1 号' }));
    await gotoFresh(page, `${server.url}/mall/order`);
    const row = page.locator(`.erp-grid-row[row-id="${String(order.id)}"]`).first();
    await row.waitFor();
    const act = async (label: string) => {
      const actions = row.locator('[data-testid=row-actions]');
      const inline = actions.locator('button', { hasText: label });
      if (await inline.count()) await inline.first().click();
      else {
        await actions.locator('button', { hasText: '更多' }).hover();
        await page.locator('.ant-dropdown:visible .ant-dropdown-menu-item', { hasText: label }).click();
      }
    };
    await act('确认');
    await expect.poll(async () => expectOk<Row>(await api.get('/blade-sales/salesorderhead/detail', { id: order.id })).billStatus).toBe('1304');
    // The list refreshes after the call: 发货 is offered once the row shows the order approved.
    await expect.poll(() => row.innerText()).toContain('已审核');
    await act('发货');
    const prompt = page.locator('.ant-modal-wrap:visible .ant-modal').last();
    await prompt.locator('[data-field="courierNo"] input').fill('SF3001');
    await dialogsAtRest(page);
    await prompt.getByRole('button', { name: /确\s*定/ }).click();
    await expect.poll(async () => expectOk<Row>(await api.get('/blade-sales/salesorderhead/detail', { id: order.id })).mallStatus).toBe('6203');
    await flows.done('mall-order-shipped');

    const detail = expectOk<Row>(await api.get('/blade-sales/salesorderhead/detail', { id: order.id }));
    const request = expectOk<Row>(await buyer.post('/blade-mall/return/apply', { orderId: order.id, lines: [{ sourceBodyId: (detail.bodyList as Row[])[0].id, qty: '1' }], returnReason: '包装破损' }));
    await gotoFresh(page, `${server.url}/mall/returnApplyHistory`);
    const list = page.getByTestId('list-mall-return');
    await list.locator(`.erp-grid-row[row-id="${String(request.id)}"] [data-testid=row-actions]`).getByRole('button', { name: '查看', exact: true }).click();
    const bill = page.getByTestId('document-mall-return');
    await bill.getByTestId('bill-no').filter({ hasText: String(request.billNo) }).waitFor();
    await settle(page);
    await flows.shows(bill, '待审核');
    await bill.getByTestId('doc-action-pass').click();
    const pass = page.locator('.ant-modal-wrap:visible .ant-modal').last();
    await pass.waitFor();
    await dialogsAtRest(page);
    await page.getByTestId('action-remark').fill('同意退货').catch(() => undefined);
    await pass.getByRole('button', { name: /确\s*定|OK/ }).click();
    await flows.shows(bill, '已审核');
    const approved = expectOk<Row>(await api.get('/blade-mall/returnapply/detail', { id: request.id }));
    expect(String(approved.salesReturnNo)).not.toBe('');
    expect(expectOk<Row>(await api.get('/blade-sales/salesreturnorderhead/detail', { id: approved.salesReturnId })).billStatus).toBe('1306');
    await flows.done('mall-return-approved');
  });

  test('店铺装修: the layout typed beside its preview (banner images, goods names), saved', async () => {
    const goodsName = String(expectOk<Row>(await api.get('/blade-base/comminfo/detail', { id: w.goods[0] })).commInfoName);
    await gotoFresh(page, `${server.url}/mall/decoration`);
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const dialog = page.locator('.ant-modal-wrap:visible .ant-modal').last();
    await dialog.waitFor();
    await dialog.locator('[data-field="pageName"] input').fill('双十二首页');
    const layout = dialog.locator('[data-field="layout"] textarea');
    await layout.fill('{"blocks": [');
    await dialog.getByTestId('layout-preview').getByText('布局不是有效的 JSON，预览暂停').waitFor();
    await layout.fill(JSON.stringify({ blocks: [{ type: 'banner', images: ['/oss/banner-1.png'] }, { type: 'goods', title: '爆款推荐', goodsIds: [w.goods[0]] }] }, null, 2));
    await dialog.getByTestId('layout-banner').waitFor();
    await expect.poll(() => dialog.getByTestId('layout-goods').innerText()).toContain(goodsName);
    await screenshot(page, 'mall-decoration-preview');
    await dialogsAtRest(page);
    await dialog.getByRole('button', { name: /保\s*存|确\s*定/ }).click();
    await page.locator('.erp-grid-row', { hasText: '双十二首页' }).first().waitFor();
    expect(browser.pageErrors).toEqual([]);
  });
});
