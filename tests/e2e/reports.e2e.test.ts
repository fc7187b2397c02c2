/**
 * 统计分析 in the browser: reports drawn from schema (table, chart, server totals in the summary row,
 * drill-down to the bills behind a figure) on posted bills seeded through the API, and the home
 * page's dashboard; every figure on screen equals the API's answer. Screenshots are looked at.
 */
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { approvedBill, BASES, lines, makeWorld, type World } from '../support/bills.ts';
import { formatAmount } from '../../src/shared/money/index.ts';
import { launchBrowser, screenshot, type Browser } from './support/browser.ts';
import { gotoFresh, openFresh, seededLeaves, settle, signIn } from './support/shell.ts';

const leaf = (code: string) => seededLeaves().find((m) => m.code === code)!;

describe('reports in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let w: World;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    api = await signedIn(server.url);
    w = await makeWorld(api, { goods: 2, customers: 2 });
    await approvedBill(api, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '20', purchasePrice: '4.00' }, { goods: w.goods[1], qty: '10', purchasePrice: '2.50' }]) }, { post: true });
    const sale = (customer: string, goods: string, qty: string, taxPrice: string) =>
      approvedBill(api, BASES.salesOut, { customerId: customer, depotId: w.depots[0], bodyList: lines(w, [{ goods, qty, taxPrice }]) }, { post: true });
    await sale(w.customers[0], w.goods[0], '4', '11.30');
    await sale(w.customers[1], w.goods[0], '2', '11.30');
    await sale(w.customers[0], w.goods[1], '3', '5.65');
    browser = await launchBrowser();
    page = browser.page;
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    await signIn(page, server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const list = (resource: string) => page.getByTestId(`list-${resource}`);
  const cellOf = (resource: string, rowText: string, col: string) =>
    list(resource).locator('.erp-grid-row:not(.erp-grid-row-pinned)', { hasText: rowText }).first().locator(`.erp-grid-cell[col-id="${col}"]`);
  const totalOf = (resource: string, col: string) => list(resource).locator(`.erp-grid-row-pinned .erp-grid-cell[col-id="${col}"]`);

  test('销售分析: per goods with its bar chart, the summary row from the server totals, a figure drills to 销售明细查询', async () => {
    await gotoFresh(page, `${server.url}${leaf('salesAnalysis').path}`);
    const answer = expectOk(await api.get('/blade-report/salesanalysis/salesAnalysis', { current: 1, size: 20 }));
    const totals = expectOk(await api.get('/blade-report/salesanalysis/salesAnalysisSumtotal'));
    const goodsName = answer.records[0].groupName as string;
    await expect.poll(() => cellOf('sales-analysis', goodsName, 'totalAmt').innerText()).toBe(formatAmount(answer.records[0].totalAmt, 2));
    // 6 × 11.30 = 67.80 for the first goods, 3 × 5.65 = 16.95 for the second.
    expect(answer.records.map((r: { totalAmt: string }) => r.totalAmt)).toEqual(['67.80', '16.95']);
    await expect.poll(() => totalOf('sales-analysis', 'totalAmt').innerText()).toBe(formatAmount(totals.totalAmt, 2));
    expect(totals.totalAmt).toBe('84.75');
    const chart = page.getByTestId('chart-sales-analysis');
    await expect.poll(() => chart.locator('canvas').count()).toBeGreaterThan(0);
    expect(await chart.locator('[data-chart-type]').getAttribute('data-chart-points')).toBe('2');
    await settle(page);
    await screenshot(page, 'report-sales-analysis');

    await cellOf('sales-analysis', goodsName, 'totalAmt').locator('a.erp-drill').click();
    await page.waitForURL(/\/salesDetailInquiry|commInfoId_equal=/);
    const detail = list('sales-detail-inquiry');
    await expect.poll(() => detail.locator('.erp-grid-row:not(.erp-grid-row-pinned)').count()).toBe(2);
    await expect.poll(() => page.getByTestId('drill-preset').innerText()).toContain(goodsName);
    // The goods' two sales-outs: 4 + 2 (the amount columns are scrolled out of view).
    await expect.poll(() => detail.locator('.erp-grid-row-pinned .erp-grid-cell[col-id="qty"]').innerText()).toBe('6.00');
    await screenshot(page, 'report-sales-drill');
    // Dropping the preset shows every line again.
    await page.getByTestId('drill-preset').locator('.ant-alert-close-icon').click();
    await expect.poll(() => detail.locator('.erp-grid-row:not(.erp-grid-row-pinned)').count()).toBe(3);
  });

  test('导出 on a report runs as a job: progress under 导出任务, the file downloads when done, with the report rows', async () => {
    await gotoFresh(page, `${server.url}${leaf('salesAnalysis').path}`);
    await expect.poll(() => list('sales-analysis').locator('.erp-grid-row:not(.erp-grid-row-pinned)').count()).toBe(2);
    const download = page.waitForEvent('download');
    await page.getByTestId('list-toolbar').getByRole('button', { name: /导\s*出/ }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('销售分析.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(fs.readFileSync(await file.path()) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    // A title row and the two goods.
    expect(sheet.rowCount).toBe(3);
    expect((sheet.getRow(2).values as unknown[]).map(String)).toContain('67.80');
    await page.getByTestId('export-jobs-button').click();
    await expect.poll(() => page.getByTestId('export-jobs').locator('[data-testid="export-job-done"]').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('export-rows').first().innerText()).toContain('2 / 2');
    await screenshot(page, 'report-export-jobs');
    await page.keyboard.press('Escape');
  });

  test('采购分析 and 业绩分析 show the API figures with their charts', async () => {
    await gotoFresh(page, `${server.url}${leaf('purchaseAnalysis').path}`);
    const purchases = expectOk(await api.get('/blade-report/purchaseanalysis/purchaseAnalysis', { current: 1, size: 20 })).records as Record<string, string>[];
    expect(purchases).toHaveLength(2);
    const first = purchases[0];
    const name = first.groupName;
    const amountField = 'totalAmt' in first ? 'totalAmt' : 'netTotalAmt';
    await expect.poll(() => cellOf('purchase-analysis', name, amountField).innerText()).toBe(formatAmount(first[amountField], 2));
    await expect.poll(() => page.getByTestId('chart-purchase-analysis').locator('canvas').count()).toBeGreaterThan(0);
    await settle(page);
    await screenshot(page, 'report-purchase-analysis');

    await gotoFresh(page, `${server.url}${leaf('performanceAnalysis').path}`);
    await expect.poll(() => list('staff-report').locator('.erp-grid-row:not(.erp-grid-row-pinned)').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('chart-staff-report').locator('canvas').count()).toBeGreaterThan(0);
    await settle(page);
    await screenshot(page, 'report-performance');
    expect(await page.getByText('页面尚未构建').count()).toBe(0);
    expect(browser.pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  test('the home page is the dashboard: figure cards and panels with the API figures, a card opens its report', async () => {
    await gotoFresh(page, `${server.url}/wel/home/index`);
    const counts = expectOk(await api.get('/blade-desk/index/indexcount'));
    await expect.poll(() => page.getByTestId('stat-monthSalesTotal').innerText()).toContain(formatAmount(counts.monthSalesTotal, 2));
    await expect.poll(() => page.getByTestId('stat-arTotal').innerText()).toContain(formatAmount(counts.arTotal, 2));
    // 84.75 sold this month, all of it still owed.
    expect(counts.monthSalesTotal).toBe('84.75');
    expect(counts.arTotal).toBe('84.75');
    const top = expectOk(await api.get('/blade-desk/index/artop10')) as Record<string, string>[];
    const panel = page.getByTestId('panel-artop10');
    await expect.poll(() => panel.locator('.ant-table-row').count()).toBe(top.length);
    await expect.poll(() => panel.locator('.ant-table-row').first().innerText()).toContain(formatAmount(top[0].balance, 2));
    await expect.poll(() => page.getByTestId('panel-exin').locator('canvas').count()).toBeGreaterThan(0);
    await settle(page);
    await screenshot(page, 'dashboard-home');
    await page.getByTestId('stat-pendingCount').click();
    await page.waitForURL(/\/analysis\/pendingApproval$/);
    expect(browser.pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  test('the bell counts unread messages (the approval messages of the bills); 全部已读 on 消息 clears it without a reload', async () => {
    await gotoFresh(page, `${server.url}/wel/home/index`);
    const unread = expectOk(await api.get('/blade-desk/messageinfo/unreadCount')).count as number;
    expect(unread).toBeGreaterThan(0);
    const bell = page.getByTestId('message-count');
    await expect.poll(() => bell.locator('.ant-badge-count').innerText()).toBe(String(unread));
    await page.getByTestId('message-bell').click();
    await page.waitForURL(/\/desk\/message$/);
    const inbox = list('message-info');
    await expect.poll(() => inbox.locator('.erp-grid-row:not(.erp-grid-row-pinned)').count()).toBe(Math.min(unread, 20));
    await page.getByTestId('list-toolbar').getByRole('button', { name: '全部已读' }).click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定|OK/ }).click();
    await expect.poll(() => bell.locator('.ant-badge-count').count()).toBe(0);
    expect(expectOk(await api.get('/blade-desk/messageinfo/unreadCount')).count).toBe(0);
    await settle(page);
    await screenshot(page, 'messages-read');
  });

  test('every 统计分析 page opens with its rows or its empty state, chart where it has one, no error', async () => {
    const analysis = seededLeaves().filter((m) => m.path.startsWith('/analysis/'));
    expect(analysis.length).toBeGreaterThanOrEqual(18);
    for (const menu of analysis) {
      const shown = await openFresh(page, server.url, menu.path);
      await expect.poll(() => shown.locator('[data-testid^="list-"]:visible').count(), { message: menu.name }).toBeGreaterThan(0);
      await settle(page);
      expect(await shown.getByText('页面尚未构建').count(), menu.name).toBe(0);
      await screenshot(page, `report-page-${menu.code}`);
    }
    expect(browser.pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
