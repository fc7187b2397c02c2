/**
 * 营销管理 in the browser: every campaign kind's page shows its own rule columns (秒杀价 and 活动库存
 * on 秒杀, 折扣 on 商品促销, 满额/减额 tiers without goods on 整单促销); a 秒杀 is typed and published
 * (进行中) and listed on its history page only; a 整单促销 tier is typed row by row; a coupon is
 * added, sent to one customer and sent in bulk to all with a progress dialog, the counters shown
 * in the grid. No page or console error; screenshots looked at.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { makeWorld, type World } from '../support/bills.ts';
import { formatDateTime } from '../../src/shared/dates.ts';
import { launchBrowser, type Browser } from './support/browser.ts';
import { signIn, gotoFresh, settle } from './support/shell.ts';
import { billFlows } from './support/bills.ts';
import { dialogsAtRest } from './support/dialogs.ts';

type Row = Record<string, unknown>;
const day = (days: number, time: string) => `${formatDateTime(new Date(Date.now() + days * 86_400_000)).slice(0, 10)} ${time}`;

describe('营销管理 pages in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let w: World;
  let page: Page;
  let goodsName = '';
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    api = await signedIn(server.url);
    w = await makeWorld(api, { goods: 2, customers: 3 });
    goodsName = expectOk<Row>(await api.get('/blade-base/comminfo/detail', { id: w.goods[0] })).commInfoName as string;
    browser = await launchBrowser();
    page = browser.page;
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    await signIn(page, server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const flows = billFlows({ page: () => page, url: () => server.url, browser: () => browser, consoleErrors });
  const headers = async (bill: ReturnType<Page['locator']>) => (await bill.locator('[data-testid="line-grid"] .erp-grid-header-text').allInnerTexts()).map((t) => t.trim()).filter(Boolean);

  /** A row's action by its label: inline, or under 更多 (hovered open). */
  async function rowAction(rowId: string, text: string) {
    const actions = page.locator(`.erp-grid-row[row-id="${rowId}"] [data-testid=row-actions]`).first();
    const inline = actions.locator('button', { hasText: text });
    if (await inline.count()) return inline.first().click();
    await actions.locator('button', { hasText: '更多' }).hover();
    await page.locator('.ant-dropdown:visible .ant-dropdown-menu-item', { hasText: text }).click();
  }

  async function typeTime(bill: ReturnType<Page['locator']>, field: string, value: string) {
    const input = bill.locator(`[data-field="${field}"] input`);
    await input.click();
    await input.fill(value);
    await input.press('Enter');
    await expect.poll(() => input.inputValue()).toBe(value);
  }

  test('each campaign kind shows its own rule columns', async () => {
    const kinds: [string, string, string[], string[]][] = [
      ['goodsPromotion', '商品促销', ['商品', '折扣(%)', '每单限购'], ['活动价', '满额']],
      ['specialPrice', '特价', ['商品', '活动价', '每单限购'], ['折扣(%)', '定金']],
      ['package', '套餐', ['商品', '每套数量'], ['活动价']],
      ['groupBuy', '团购', ['活动价', '起团数量', '活动库存'], ['折扣(%)']],
      ['preSale', '预售', ['活动价', '定金', '活动库存'], ['起团数量']],
      ['orderPromotion', '整单促销', ['满额', '减额'], ['商品', '单位', '原价']],
    ];
    let last: Locator | undefined;
    for (const [code, title, shown, hidden] of kinds) {
      const bill = await flows.open(code, 'marketing');
      last = bill;
      await expect.poll(() => bill.locator('h5').first().innerText()).toBe(title);
      const cols = await headers(bill);
      for (const c of shown) expect(cols, `${title} shows ${c}`).toContain(c);
      for (const c of hidden) expect(cols, `${title} hides ${c}`).not.toContain(c);
      expect(await bill.locator('[data-field="marketingType"]').count(), 'the kind is the page, not a field').toBe(0);
    }
    // The last kind's page (整单促销; the earlier kinds' pages stay mounted in their tabs, hidden).
    expect(await last!.locator('[data-field="packagePrice"]').count()).toBe(0);
    await flows.done('marketing-order-promotion-new');
  });

  test('整单促销: tiers typed row by row, published', async () => {
    const bill = await flows.open('orderPromotion', 'marketing');
    await bill.locator('[data-field="marketingName"] input').fill('双十二满减');
    await typeTime(bill, 'beginTime', day(-1, '00:00:00'));
    await typeTime(bill, 'endTime', day(10, '23:59:59'));
    expect(await bill.getByRole('button', { name: '添加商品' }).count()).toBe(0);
    await bill.getByTestId('rows-add').click();
    await flows.typeCell(bill, 0, 'fullAmt', '100');
    await flows.typeCell(bill, 0, 'reduceAmt', '10');
    await bill.getByTestId('rows-add').click();
    await flows.typeCell(bill, 1, 'fullAmt', '200');
    await flows.typeCell(bill, 1, 'reduceAmt', '30');
    await flows.act(bill, 'submit');
    await flows.shows(bill, '进行中');
    const [saved] = expectOk<{ records: Row[] }>(await api.get('/blade-market/marketing/list', { marketingName: '双十二满减' })).records;
    const detail = expectOk<Row>(await api.get('/blade-market/marketing/detail', { id: saved.id }));
    expect((detail.bodyList as Row[]).map((l) => [l.fullAmt, l.reduceAmt, l.commInfoId ?? null])).toEqual([['100.00', '10.00', null], ['200.00', '30.00', null]]);
    await flows.done('marketing-order-promotion');
  });

  test('秒杀: goods with price and stock, published, on its own history list', async () => {
    const bill = await flows.open('flashSale', 'marketing');
    await bill.locator('[data-field="marketingName"] input').fill('周末秒杀');
    await typeTime(bill, 'beginTime', day(0, '00:00:00'));
    await typeTime(bill, 'endTime', day(2, '23:59:59'));
    await flows.addGoods(bill, [goodsName]);
    await expect.poll(() => flows.rowCount(bill)).toBe(1);
    await flows.typeCell(bill, 0, 'promoPrice', '9.9');
    await flows.typeCell(bill, 0, 'activityQty', '10');
    await flows.typeCell(bill, 0, 'limitQty', '2');
    await flows.act(bill, 'submit');
    await flows.shows(bill, '进行中');
    const billNo = await bill.getByTestId('bill-no').innerText();
    await flows.done('marketing-flash-sale');
    const list = await flows.listed('flashSale', 'marketing', billNo, '进行中');
    const goodsPromotionNo = expectOk<Row>(
      await api.post('/blade-market/marketing/submit', { marketingName: '九折', marketingType: 1, beginTime: day(-1, '00:00:00'), endTime: day(3, '00:00:00'), bodyList: [{ commInfoId: w.goods[1], discountRate: '90' }] }),
    ).billNo as string;
    expect(await list.locator('.erp-grid-row', { hasText: goodsPromotionNo }).count(), 'another kind is not listed').toBe(0);
    await flows.done('marketing-flash-sale-history');
  });

  test('优惠券: add, send to a customer, send to all customers in bulk', async () => {
    await gotoFresh(page, `${server.url}/marketing/coupon`);
    const list = page.getByTestId('list-coupon');
    await list.waitFor();
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const dialog = page.locator('.ant-modal-wrap:visible .ant-modal').last();
    await dialog.waitFor();
    await dialog.locator('[data-field="couponName"] input').fill('新客满100减10');
    await dialog.locator('[data-field="couponAmt"] input').fill('10');
    await dialog.locator('[data-field="fullAmt"] input').fill('100');
    await dialog.locator('[data-field="couponNum"] input').fill('100');
    await typeTime(dialog, 'beginTime', day(-1, '00:00:00'));
    await typeTime(dialog, 'endTime', day(30, '23:59:59'));
    await dialogsAtRest(page);
    await dialog.getByRole('button', { name: /保\s*存|确\s*定/ }).click();
    const row = list.locator('.erp-grid-row', { hasText: '新客满100减10' }).first();
    await row.waitFor();
    await expect.poll(() => row.innerText()).toContain('满100减10');
    expect(expectOk<{ records: Row[] }>(await api.get('/blade-market/coupon/list', { couponName: '新客满100减10' })).records[0]).toMatchObject({ couponStatus: '9403', unSendNum: 100 });

    // 发放 to one customer through the multi picker.
    const customers = expectOk<{ records: Row[] }>(await api.get('/blade-base/customer/list', { size: 3 })).records;
    const [made] = expectOk<{ records: Row[] }>(await api.get('/blade-market/coupon/list', { couponName: '新客满100减10' })).records;
    await rowAction(String(made.id), '发放');
    const prompt = page.locator('.ant-modal-wrap:visible .ant-modal').last();
    await prompt.locator('[data-field="customerIds"] .ant-select').click();
    const picker = page.locator('.ant-modal-wrap:visible .ant-modal').filter({ has: page.locator('.ant-table-row', { hasText: String(customers[0].bartererName) }) }).last();
    await picker.locator('.ant-table-row', { hasText: String(customers[0].bartererName) }).first().locator('.ant-checkbox-input').check();
    await picker.getByRole('button', { name: /确\s*定/ }).click();
    await dialogsAtRest(page);
    await prompt.getByRole('button', { name: /确\s*定/ }).click();
    await page.locator('.ant-message-notice', { hasText: '操作成功' }).last().waitFor();

    // 批量发放 to every customer: a progress dialog while it runs, the outcome when it ends.
    await rowAction(String(made.id), '批量发放');
    const bulk = page.locator('.ant-modal-wrap:visible .ant-modal').last();
    await bulk.locator('[data-field="all"]').getByText('是').click();
    await dialogsAtRest(page);
    await bulk.getByRole('button', { name: /确\s*定/ }).click();
    await page.locator('.ant-message-notice', { hasText: /发放 \d+ 张/ }).last().waitFor();
    await settle(page);
    const [coupon] = expectOk<{ records: Row[] }>(await api.get('/blade-market/coupon/list', { couponName: '新客满100减10' })).records;
    const all = expectOk<{ total: number }>(await api.get('/blade-base/customer/list', { size: 1, status: 1 })).total;
    expect(Number(coupon.sendNum)).toBe(all);
    expect(Number(coupon.unSendNum)).toBe(100 - all);
    await expect.poll(() => row.innerText()).toContain(String(100 - all));
    await flows.done('marketing-coupons');
  });
});
