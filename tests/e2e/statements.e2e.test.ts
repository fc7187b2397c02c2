/**
 * 资产负债表, 利润表 and 凭证推送记录 in the browser, on a purchase of 10 @ 5.00, a sale of 4 @ 11.30 and
 * a receipt of 20.00 (figures worked by hand in tests/api/general-ledger.test.ts): each page opened
 * from its menu route shows its lines; 推送凭证 on the sales-out history row sends the sale's voucher,
 * which the outbox page lists with equal debits and credits; no page or console error; a screenshot each.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { approvedBill, BASES, lines, makeWorld, type World } from '../support/bills.ts';
import { launchBrowser, screenshot, type Browser } from './support/browser.ts';
import { gotoFresh, seededLeaves, settle, signIn } from './support/shell.ts';
import { dialogsAtRest } from './support/dialogs.ts';

describe('financial statements and the voucher outbox in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let w: World;
  let page: Page;
  let saleNo = '';
  const consoleErrors: string[] = [];
  const leaf = (code: string) => seededLeaves().find((m) => m.code === code)!;

  beforeAll(async () => {
    server = await startTestServer();
    api = await signedIn(server.url);
    w = await makeWorld(api, { goods: 1, customers: 1 });
    await approvedBill(api, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '10', purchasePrice: '5.00' }]) }, { post: true });
    const sale = await approvedBill(api, BASES.salesOut, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '4', taxPrice: '11.30' }]) }, { post: true });
    saleNo = sale.billNo;
    const cash = String(expectOk(await api.get('/blade-base/settlement/retail')).find((m: { settlementName: string }) => m.settlementName === '现金').id);
    await approvedBill(api, '/blade-finance/receipt', { bartererId: w.customers[0], settlementId: cash, precpAmt: '20', bodyList: [{ sourceBillId: sale.id, settleAmt: '20' }] }, { post: true });
    browser = await launchBrowser();
    page = browser.page;
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    await signIn(page, server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The list's row whose 项目 is exactly `item`. */
  const line = (list: ReturnType<Page['getByTestId']>, item: string) =>
    list.locator('.erp-grid-row').filter({ has: page.locator(`.erp-grid-cell[col-id="itemName"]`, { hasText: new RegExp(`^${item}$`) }) }).first();
  const cellOf = (row: ReturnType<typeof line>, col: string) => row.locator(`.erp-grid-cell[col-id="${col}"]`).first().innerText();

  async function done(shot: string) {
    await dialogsAtRest(page);
    await screenshot(page, shot);
    expect(await page.getByText('页面尚未构建').count()).toBe(0);
    expect(browser.pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  }

  test('资产负债表: 资产合计 75.20 = 负债和所有者权益总计 75.20; 存货 30.00, 应收账款 25.20, 应交税费 −1.30', async () => {
    await gotoFresh(page, `${server.url}${leaf('balanceSheet').path}`);
    const list = page.getByTestId('list-balance-sheet');
    await line(list, '资产合计').waitFor();
    await settle(page);
    const figures: Record<string, string> = {};
    for (const item of ['货币资金', '应收账款', '存货', '资产合计', '应付账款', '应交税费', '未分配利润', '负债和所有者权益总计']) figures[item] = await cellOf(line(list, item), 'endAmt');
    expect(figures).toEqual({ 货币资金: '20.00', 应收账款: '25.20', 存货: '30.00', 资产合计: '75.20', 应付账款: '56.50', 应交税费: '-1.30', 未分配利润: '20.00', 负债和所有者权益总计: '75.20' });
    await done('finance-balance-sheet');
  });

  test('利润表: 营业收入 40.00, 营业成本 20.00, 利润总额 20.00 for this month', async () => {
    await gotoFresh(page, `${server.url}${leaf('profitStatement').path}`);
    const list = page.getByTestId('list-profit-statement');
    await line(list, '一、营业收入').waitFor();
    await settle(page);
    expect(await cellOf(line(list, '一、营业收入'), 'periodAmt')).toBe('40.00');
    expect(await cellOf(line(list, '减：营业成本'), 'periodAmt')).toBe('20.00');
    expect(await cellOf(line(list, '三、利润总额（净利润）'), 'yearAmt')).toBe('20.00');
    await done('finance-profit-statement');
  });

  test('推送凭证 from the sales-out history row; 凭证推送记录 lists the voucher, 65.20 on each side', async () => {
    await gotoFresh(page, `${server.url}${leaf('salesOut').historyPath}`);
    const list = page.getByTestId('list-sales-out');
    const row = list.locator('.erp-grid-row', { hasText: saleNo }).first();
    await row.waitFor();
    await settle(page);
    const actions = row.locator('[data-testid=row-actions]');
    const inline = actions.getByRole('button', { name: '推送凭证', exact: true });
    if (await inline.count()) await inline.click();
    else {
      await actions.getByText('更多').click();
      await page.locator('.ant-dropdown:visible').getByText('推送凭证', { exact: true }).click();
    }
    await page.locator('.ant-message-notice', { hasText: '凭证已推送' }).first().waitFor();
    await page.mouse.move(1, 1);

    await gotoFresh(page, `${server.url}${leaf('voucherOutbox').path}`);
    const outbox = page.getByTestId('list-voucher-push');
    const voucher = outbox.locator('.erp-grid-row', { hasText: `PZ${saleNo}` }).first();
    await voucher.waitFor();
    await settle(page);
    // Dr 应收 45.20 + Dr 成本 20.00 = Cr 库存 20.00 + Cr 税 5.20 + Cr 收入 40.00.
    expect(await voucher.locator('.erp-grid-cell[col-id="debitAmt"]').innerText()).toBe('65.20');
    expect(await voucher.locator('.erp-grid-cell[col-id="creditAmt"]').innerText()).toBe('65.20');
    await done('finance-voucher-outbox');
  });
  test('客户资料 → 查看 → 对账 and 往来明细: the sale partly settled and the receipt; the two ledger rows (figures: tests/api/partner-reports.test.ts)', async () => {
    const customer = expectOk(await api.get('/blade-base/customer/detail', { id: w.customers[0] })).bartererName;
    await gotoFresh(page, `${server.url}${leaf('customer').path}`);
    const row = page.getByTestId('list-customer').locator('.erp-grid-row', { hasText: customer }).first();
    await row.waitFor();
    await settle(page);
    await row.locator('[data-testid=row-actions]').getByRole('button', { name: '查看', exact: true }).click();
    const dialog = page.locator('.ant-modal-wrap:visible .ant-modal').last();
    await dialog.getByRole('tab', { name: '对账', exact: true }).click();
    const check = dialog.getByTestId('detail-tab').locator('.erp-grid-row:not(.erp-grid-row-pinned)', { hasText: saleNo }).first();
    await check.waitFor();
    await expect.poll(() => check.innerText()).toContain('部分结算');
    expect(await dialog.getByTestId('detail-tab').locator('.erp-grid-row:not(.erp-grid-row-pinned)').count()).toBe(2);
    await dialogsAtRest(page);
    await screenshot(page, 'customer-tab-account-check');
    await dialog.getByRole('tab', { name: '往来明细', exact: true }).click();
    const ledgerRows = dialog.getByTestId('detail-tab').locator('.erp-grid-row:not(.erp-grid-row-pinned)');
    await expect.poll(() => ledgerRows.count()).toBe(2);
    await expect.poll(() => ledgerRows.first().innerText()).toContain(saleNo);
    await done('customer-tab-business-detail');
  });
});
