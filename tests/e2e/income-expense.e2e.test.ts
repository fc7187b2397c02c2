/**
 * 费用单 and 其他收入单 in the browser: two menu leaves of one bill (收支单 exinhead), each opened
 * from its route as its own kind. 费用单: 房租 1,200.00 + 水电费 86.50 paid in cash = 1,286.50,
 * carried to 已记账 with no party row; 其他收入单: 租金收入 300.00 on account (挂账) to a customer,
 * who then owes 300.00 more. Each history list shows only its own kind; no page or console error;
 * a screenshot each.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { makeWorld, partyBalance, type World } from '../support/bills.ts';
import { Dec } from '../../src/shared/money/index.ts';
import { launchBrowser, type Browser } from './support/browser.ts';
import { signIn } from './support/shell.ts';
import { billFlows } from './support/bills.ts';
import { dialogsAtRest } from './support/dialogs.ts';

const EXIN = '/blade-finance/exinhead';

describe('收支单 pages in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let w: World;
  let page: Page;
  let customer = '';
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    api = await signedIn(server.url);
    w = await makeWorld(api, { customers: 1 });
    customer = expectOk(await api.get('/blade-base/customer/detail', { id: w.customers[0] })).bartererName;
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
  const { cell, summary, rowCount, typeCell, pickHead: pick, carry, done } = flows;

  /** The kind's page, headed by the kind's own title. */
  async function open(code: string, title: string): Promise<Locator> {
    const bill = await flows.open(code, 'exin');
    await expect.poll(() => bill.locator('h5').first().innerText()).toBe(title);
    return bill;
  }

  /** 添加收支项目: the picker lists the bill's kind only; the named items become lines. */
  async function items(bill: Locator, names: string[], absent: string) {
    await bill.getByTestId('items-pick').click();
    const picker = page.locator('.ant-modal-wrap:visible .ant-modal').filter({ has: page.locator('.ant-table-row', { hasText: names[0] }) }).last();
    await picker.locator('.ant-table-row', { hasText: names[0] }).first().waitFor();
    await dialogsAtRest(page);
    expect(await picker.locator('.ant-table-row', { hasText: absent }).count(), `${absent} is of another kind`).toBe(0);
    for (const name of names) await picker.locator('.ant-table-row', { hasText: name }).first().locator('.ant-checkbox-input').check();
    await picker.getByRole('button', { name: /确\s*定/ }).click();
    await expect.poll(() => rowCount(bill)).toBe(names.length);
    await expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
  }

  /** The kind's history list shows the bill with its status, and no bill of the other kind. */
  async function listed(code: string, billNo: string, other: string) {
    const list = await flows.listed(code, 'exin', billNo);
    if (other) expect(await list.locator('.erp-grid-row', { hasText: other }).count()).toBe(0);
  }

  /** The bill as detail answers it (figures at the tenant's places). */
  async function stored(billNo: string) {
    const row = expectOk(await api.get(`${EXIN}/list`, { billNo })).records[0];
    return expectOk(await api.get(`${EXIN}/detail`, { id: row.id }));
  }

  let expenseNo = '';

  test('费用单: 房租 1,200.00 + 水电费 86.50 paid in cash, 1,286.50 posted with no party row', async () => {
    const bill = await open('expense', '费用单');
    expect(await bill.locator('[data-field="customerId"]').count(), 'a 费用单 names no customer').toBe(0);
    await pick(bill, 'settlementId', '现金');
    await items(bill, ['房租', '水电费'], '租金收入');
    await typeCell(bill, 0, 'amount', '1200');
    await typeCell(bill, 1, 'amount', '86.5');
    await expect.poll(() => summary(bill, 'amount').innerText()).toBe('1,286.50');
    expect(await cell(bill, 1, 'expendName').innerText()).toBe('水电费');
    expenseNo = await carry(bill);
    await done('income-expense-expense-posted');
    const saved = await stored(expenseNo);
    expect(saved).toMatchObject({ billType: '0855', expendType: 6002, finalAmt: '1286.50', settlementName: '现金' });
    expect(expectOk(await api.get(`${EXIN}/postings`, { id: saved.id })).party).toEqual([]);
    await listed('expense', expenseNo, '');
    await done('income-expense-expense-list');
  });

  test('其他收入单: 租金收入 300.00 on account to a customer, who owes 300.00 more', async () => {
    const before = await partyBalance(server, 'AR', w.customers[0]);
    const bill = await open('otherIncome', '其他收入单');
    expect(await bill.locator('[data-field="supplierId"]').count(), 'an income names no supplier').toBe(0);
    await bill.locator('[data-field="onAccount"]').getByText('是').click();
    await pick(bill, 'customerId', customer);
    await items(bill, ['租金收入'], '房租');
    await typeCell(bill, 0, 'amount', '300');
    await expect.poll(() => summary(bill, 'amount').innerText()).toBe('300.00');
    const billNo = await carry(bill);
    await done('income-expense-income-posted');
    const saved = await stored(billNo);
    expect(saved).toMatchObject({ billType: '0856', expendType: 6001, onAccount: 2, finalAmt: '300.00', customerName: customer });
    expect(await partyBalance(server, 'AR', w.customers[0])).toBe(new Dec(before).plus('300').toFixed(2));
    await listed('otherIncome', billNo, expenseNo);
    await done('income-expense-income-list');
  });
});
