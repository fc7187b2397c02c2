/**
 * The bill pages added last, each through the UI to 已记账 with figures worked by hand: 产品入库单 (2
 * finished goods at 15.00 into the warehouse), 成本调整单 (+4.00 on goods worth 50.00) and 运输费用单 (a
 * carrier's two waybills typed by hand, 12.00 + 8.50 owed to the carrier), 按单收款 and 按单付款 (a
 * bill chosen in 选择单据 and settled in part); and the list pages 库存对账, 业务历史, 库存对账确认 and
 * 组合商品 opened from their menu routes with their rows; 待审单据 (approve and reject in place) and
 * 草稿单据. No page or console error; a screenshot each.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { approvedBill, BASES, lines, makeWorld, partyBalance, stockOf, type World } from '../support/bills.ts';
import { launchBrowser, type Browser } from './support/browser.ts';
import { gotoFresh, settle, signIn } from './support/shell.ts';
import { billFlows } from './support/bills.ts';

describe('the last bill pages and lists in the browser', () => {
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
    w = await makeWorld(api, { goods: 2, customers: 1 });
    names.supplier = expectOk(await api.get('/blade-base/supplier/detail', { id: w.supplierId })).bartererName;
    names.depot = expectOk(await api.get('/blade-system/depot/detail', { id: w.depots[0] })).depotName;
    for (const [i, id] of w.goods.entries()) names[`goods${i}`] = expectOk(await api.get('/blade-base/comminfo/detail', { id })).commInfoName;
    // 10 of the second goods at 5.00: 50.00 to adjust.
    await approvedBill(api, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[1], qty: '10', purchasePrice: '5.00' }]) }, { post: true });
    browser = await launchBrowser();
    page = browser.page;
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    await signIn(page, server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const { cell, summary, rowCount, addGoods, typeCell, pickHead: pick, open, carry, listed, done, leaf } = billFlows({ page: () => page, url: () => server.url, browser: () => browser, consoleErrors });

  /** Clicks a row action: its button, or the entry of the row's 更多 menu. */
  async function rowAction(row: ReturnType<Page['getByTestId']>, label: string) {
    const actions = row.locator('[data-testid=row-actions]');
    const inline = actions.getByRole('button', { name: label, exact: true });
    if (await inline.count()) await inline.click();
    else {
      await actions.getByText('更多').click();
      await page.locator('.ant-dropdown:visible').getByText(label, { exact: true }).click();
    }
    await page.mouse.move(1, 1);
  }

  async function goods(bill: ReturnType<Page['getByTestId']>, name: string) {
    await addGoods(bill, [name]);
    await expect.poll(() => rowCount(bill)).toBe(1);
    await expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
  }

  test('产品入库单: 2 finished goods at 15.00 taken in; the warehouse holds 2 worth 30.00', async () => {
    const bill = await open('productIn', 'product-in');
    await pick(bill, 'depotId', names.depot);
    await goods(bill, names.goods0);
    await typeCell(bill, 0, 'qty', '2');
    await typeCell(bill, 0, 'costPrice', '15');
    const billNo = await carry(bill);
    expect(await stockOf(server, w.depots[0], w.goods[0])).toMatchObject({ qty: '2.00', value: '30.00' });
    await done('warehouse-product-in-posted');
    await listed('productIn', 'product-in', billNo);
    await done('warehouse-product-in-list');
  });

  test('成本调整单: +4.00 on 10 worth 50.00; the stock is worth 54.00', async () => {
    const bill = await open('costAdjust', 'cost-adjustment');
    await pick(bill, 'depotId', names.depot);
    await goods(bill, names.goods1);
    await typeCell(bill, 0, 'qty', '10');
    await typeCell(bill, 0, 'adjustAmt', '4');
    const billNo = await carry(bill);
    expect(await stockOf(server, w.depots[0], w.goods[1])).toMatchObject({ qty: '10.00', value: '54.00' });
    await done('finance-cost-adjustment-posted');
    await listed('costAdjust', 'cost-adjustment', billNo);
    await done('finance-cost-adjustment-list');
  });

  test('运输费用单: two waybills typed by hand, 12.00 + 8.50; the carrier is owed 20.50', async () => {
    const before = await partyBalance(server, 'AP', w.supplierId);
    const bill = await open('transportFee', 'transport');
    await pick(bill, 'supplierId', names.supplier);
    for (const [row, waybill, amount] of [[0, 'SF100001', '12'], [1, 'SF100002', '8.5']] as const) {
      await bill.getByTestId('items-pick').click();
      await expect.poll(() => rowCount(bill)).toBe(row + 1);
      await typeCell(bill, row, 'courierNo', waybill);
      await typeCell(bill, row, 'freightAmt', amount);
    }
    await expect.poll(() => summary(bill, 'freightAmt').innerText()).toBe('20.50');
    expect(await cell(bill, 1, 'courierNo').innerText()).toBe('SF100002');
    const billNo = await carry(bill);
    expect(Number(await partyBalance(server, 'AP', w.supplierId)) - Number(before)).toBeCloseTo(20.5, 2);
    await done('finance-transport-posted');
    const list = await listed('transportFee', 'transport', billNo);
    const row = list.locator('.erp-grid-row', { hasText: billNo }).first();
    // Both waybills are unmatched: the row action downloads them as a spreadsheet.
    const download = page.waitForEvent('download');
    await rowAction(row, '导出重复及未匹配');
    expect((await download).suggestedFilename()).toBe(`导出重复及未匹配-${billNo}.xlsx`);
    // The carrier's own file, chosen in the browser's file chooser, is kept as the bill's attachment.
    const chooser = page.waitForEvent('filechooser');
    await rowAction(row, '上传对账文件');
    await (await chooser).setFiles({ name: 'statement.csv', mimeType: 'text/csv', buffer: Buffer.from('运单号,运费\nSF100001,12\nSF100002,8.5\n') });
    await page.locator('.ant-message-notice', { hasText: '文件已上传' }).first().waitFor();
    const id = expectOk(await api.get('/blade-finance/transporthead/list', { billNo })).records[0].id;
    expect(expectOk(await api.get('/blade-base/billannex/getOederFileList', { billId: id })).map((f: { originalName: string }) => f.originalName)).toEqual(['statement.csv']);
    await done('finance-transport-list');
  });

  /** 选择单据: the partner's open bill chosen in the settle dialog becomes the one line, settled by `amount`. */
  async function settleBill(bill: ReturnType<Page['getByTestId']>, billNo: string, amount: string) {
    await bill.getByTestId('settle-pick').click();
    const list = page.getByTestId('settle-list');
    await list.locator('.ant-table-row', { hasText: billNo }).click();
    await page.locator('.ant-modal-wrap:visible .ant-modal', { has: list }).getByRole('button', { name: /确\s*定|OK/ }).click();
    await expect.poll(() => rowCount(bill)).toBe(1);
    await expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
    await typeCell(bill, 0, 'settleAmt', amount);
    await expect.poll(() => summary(bill, 'settleAmt').innerText()).toBe(Number(amount).toFixed(2));
  }
  const openOf = async (base: string, partner: string, billNo: string) =>
    (expectOk(await api.get(`${base}/billlist`, { bartererId: partner })) as { billNo: string; openAmt: string }[]).find((i) => i.billNo === billNo)?.openAmt;

  test('按单收款: 20.00 of a 22.60 sale received bill by bill; the sale stays open by 2.60', async () => {
    const sale = await approvedBill(api, BASES.salesOut, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[1], qty: '2', taxPrice: '11.30' }]) }, { post: true });
    const customer = expectOk(await api.get('/blade-base/customer/detail', { id: w.customers[0] })).bartererName;
    const bill = await open('billReceipt', 'ar-settle');
    await pick(bill, 'bartererId', customer);
    await pick(bill, 'settlementId', '现金');
    await settleBill(bill, sale.billNo, '20');
    const billNo = await carry(bill);
    expect(await openOf('/blade-finance/arsettle', w.customers[0], sale.billNo)).toBe('2.60');
    await done('finance-bill-receipt-posted');
    await listed('billReceipt', 'ar-settle', billNo);
    await done('finance-bill-receipt-list');
  });

  test('按单付款: 50.00 of the 56.50 inbound paid bill by bill; 6.50 stays owed on it', async () => {
    const inbound = (expectOk(await api.get('/blade-finance/apsettle/billlist', { bartererId: w.supplierId })) as { billNo: string; openAmt: string }[]).find((i) => i.openAmt === '56.50')!;
    const bill = await open('billPayment', 'ap-settle');
    await pick(bill, 'bartererId', names.supplier);
    await pick(bill, 'settlementId', '现金');
    await settleBill(bill, inbound.billNo, '50');
    const billNo = await carry(bill);
    expect(await openOf('/blade-finance/apsettle', w.supplierId, inbound.billNo)).toBe('6.50');
    await done('finance-bill-payment-posted');
    await listed('billPayment', 'ap-settle', billNo);
    await done('finance-bill-payment-list');
  });

  test('库存对账: every balance beside Σ its ledger, no difference', async () => {
    await gotoFresh(page, `${server.url}${leaf('inventoryBalance').path}`);
    const list = page.getByTestId('list-inventory-balance');
    const row = list.locator('.erp-grid-row', { hasText: names.goods0 }).first();
    await row.waitFor();
    await settle(page);
    await expect.poll(() => row.innerText()).toContain('30.00');
    await done('warehouse-inventory-balance');
  });

  test('待审单据 and 草稿单据: a submitted inbound approved in place, another rejected with a remark; a saved sales-out listed as a draft', async () => {
    const inbound = () => ({ supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '1', purchasePrice: '5.00' }]) });
    const first = expectOk(await api.post(`${BASES.purchaseIn}/submit`, inbound()));
    const second = expectOk(await api.post(`${BASES.purchaseIn}/submit`, inbound()));
    const draft = expectOk(await api.post(`${BASES.salesOut}/draft`, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '1', taxPrice: '11.30' }]) }));
    await gotoFresh(page, `${server.url}${leaf('pendingApproval').path}`);
    const queue = page.getByTestId('list-pending-bill');
    const row = (billNo: string) => queue.locator('.erp-grid-row', { hasText: billNo }).first();
    await row(first.billNo).waitFor();
    await settle(page);
    await done('analysis-pending-approval');
    await rowAction(row(first.billNo), '审核通过');
    await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定/ }).click();
    await expect.poll(() => queue.locator('.erp-grid-row', { hasText: first.billNo }).count()).toBe(0);
    expect(expectOk(await api.get(`${BASES.purchaseIn}/detail`, { id: first.id })).billStatus).toBe('1304');
    await rowAction(row(second.billNo), '驳回');
    const prompt = page.locator('.ant-modal-wrap:visible .ant-modal', { hasText: '审核意见' });
    await prompt.locator('textarea').fill('数量有误');
    await prompt.getByRole('button', { name: /确\s*定/ }).click();
    await expect.poll(() => queue.locator('.erp-grid-row', { hasText: second.billNo }).count()).toBe(0);
    expect(expectOk(await api.get(`${BASES.purchaseIn}/detail`, { id: second.id })).billStatus).toBe('1305');
    await done('analysis-pending-approval-done');

    await gotoFresh(page, `${server.url}${leaf('draftBill').path}`);
    await page.getByTestId('list-draft-bill').locator('.erp-grid-row', { hasText: draft.billNo }).first().waitFor();
    await settle(page);
    await done('analysis-drafts');
  });

  test('业务历史, 库存对账确认 and 组合商品: each list opens from its menu with its rows', async () => {
    await gotoFresh(page, `${server.url}${leaf('businessHistory').path}`);
    const history = page.getByTestId('list-business-history');
    await history.locator('.erp-grid-row', { hasText: '记账' }).first().waitFor();
    await settle(page);
    await done('analysis-business-history');

    await gotoFresh(page, `${server.url}${leaf('balanceConfig').path}`);
    const balances = page.getByTestId('list-balance-config');
    await balances.locator('.erp-grid-row', { hasText: names.goods1 }).first().waitFor();
    await settle(page);
    await done('warehouse-balance-config');

    await gotoFresh(page, `${server.url}${leaf('goodsCombination').path}`);
    await page.getByTestId('list-goods-combination').waitFor();
    await settle(page);
    await done('mall-goods-combination');
  });
});
