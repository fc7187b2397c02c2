import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, lines, makeWorld } from '../support/bills.ts';
import { dialogsAtRest } from './support/dialogs.ts';
import { launchBrowser, screenshot, type Browser } from './support/browser.ts';
import { expectMessage, openFromSidebar, settle, signIn } from './support/shell.ts';

/**
 * Issue 14, the leave on the BPMN engine end to end in the browser (acceptance 2): a staff member
 * starts a leave from 发起事务; the server restarts with the instance waiting; the approver finds
 * it in 待签事务, claims it, handles it from 待办事务 (diagram shows the waiting step) and approves;
 * it is in the approver's 办结事务, and the starter's 已发事务 shows it finished, its detail with
 * the history and the diagram's finished path. A sales order under 审批设置 is handled the same way:
 * 办理 in 待办事务 opens the process page with the order read-only, its history and diagram, and
 * 同意 there approves the order.
 */

type Row = Record<string, unknown>;
const PASSWORD = 'Flow-12345';

async function grantedUser(admin: Api, account: string, realName: string, alias: string, codes: string[]): Promise<void> {
  const deptId = expectOk<Row[]>(await admin.get('/blade-system/dept/list'))[0].id;
  const role = expectOk<Row>(await admin.post('/blade-system/role/submit', { parentId: '0', roleName: realName, roleAlias: alias, sort: 9 }));
  const ids = new Set<string>();
  for (const code of codes) {
    const [menu] = expectOk<Row[]>(await admin.get('/blade-system/menu/list', { code_equal: code }));
    if (!menu) throw new Error(`menu ${code} is not seeded`);
    ids.add(String(menu.id));
    if (String(menu.parentId) !== '0') ids.add(String(menu.parentId));
  }
  expectOk(await admin.call('POST', '/blade-system/role/grant', { query: { roleIds: String(role.id), menuIds: [...ids].join(',') } }));
  expectOk(await admin.post('/blade-user/submit', { account, password: PASSWORD, realName, roleId: String(role.id), deptId }));
}

describe('请假 on the workflow in the browser', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-e2e-flow-'));
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startTestServer({ dataDir });
    const admin = await signedIn(server.url);
    expectOk(await admin.post('/blade-base/staff/submit', { staffCode: 'QJ001', staffName: '张请假', deptId: expectOk<Row[]>(await admin.get('/blade-system/dept/list'))[0].id }));
    await grantedUser(admin, 'starter', '请假人', 'wf_starter', ['start', 'send', 'leave', 'leave_add', 'staff']);
    await grantedUser(admin, 'approver', '部门经理', 'leave_approver', ['claim', 'todo', 'done']);
    browser = await launchBrowser();
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function signInAs(account: string) {
    const password = account === 'admin' ? 'admin' : PASSWORD;
    await page.context().clearCookies();
    await page.goto(`${server.url}/login`);
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await signIn(page, server.url, { username: account, password });
  }

  const grid = (resource: string) => page.getByTestId(`list-${resource}`);
  const rowNamed = (list: Locator, text: string) => list.locator('.erp-grid-row', { hasText: text }).first();
  /** The row's action button (pinned actions column: same row index). */
  async function rowAction(list: Locator, text: string, label: string) {
    const row = rowNamed(list, text);
    await row.waitFor();
    const index = await row.getAttribute('row-index');
    await list.locator(`.erp-grid-row[row-index="${index}"] [data-testid=row-actions]`).getByRole('button', { name: label, exact: true }).click();
  }
  const field = (scope: Locator, name: string) => scope.locator(`[data-field="${name}"]`);

  test('the starter starts a leave from 发起事务 and sees it in 已发事务', async () => {
    await signInAs('starter');
    await openFromSidebar(page, 'start');
    const start = grid('flow-deployment');
    await rowAction(start, '请假流程', '发起');
    const form = page.getByTestId('leave-form');
    await form.waitFor();
    await settle(page);
    await field(form, 'staffId').locator('.ant-select').click();
    const picker = page.locator('.ant-modal-wrap:visible .ant-modal').filter({ has: page.locator('.ant-table-row', { hasText: '张请假' }) }).last();
    await picker.locator('.ant-table-row', { hasText: '张请假' }).first().waitFor();
    await dialogsAtRest(page);
    await picker.locator('.ant-table-row', { hasText: '张请假' }).first().dblclick();
    await expect.poll(() => field(form, 'staffId').innerText()).toContain('张请假');
    await field(form, 'leaveType').locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '事假' }).click();
    for (const [name, value] of [['startTime', '2030-03-02 09:00:00'], ['endTime', '2030-03-03 18:00:00']] as const) {
      await field(form, name).locator('input').fill(value);
      await field(form, name).locator('input').press('Enter');
    }
    await field(form, 'days').locator('input').fill('2');
    await field(form, 'reason').locator('textarea').fill('家中有事，请假两天');
    await screenshot(page, 'workflow-leave-form');
    await page.getByRole('button', { name: '提交申请' }).click();
    await expectMessage(page, '请假申请已提交');
    const sent = grid('flow-instance');
    await rowNamed(sent, '请假流程').waitFor();
    await expect.poll(() => rowNamed(sent, '请假流程').innerText()).toContain('部门审批');
  });

  test('after a restart the approver claims it in 待签事务 and approves it from 待办事务', async () => {
    // The instance waits in 部门审批 while the server goes down and comes back on the same data.
    await server.close();
    server = await startTestServer({ dataDir });
    await signInAs('approver');
    await openFromSidebar(page, 'claim');
    const claim = grid('flow-task');
    await rowAction(claim, '请假流程', '签收');
    await expectMessage(page, '签收成功');
    await openFromSidebar(page, 'todo');
    const todo = page.locator('[data-testid=list-flow-task]:visible');
    await rowAction(todo, '部门审批', '办理');
    const handle = page.getByTestId('flow-handle');
    await handle.waitFor();
    // The diagram marks the waiting step.
    await expect.poll(() => page.getByTestId('process-diagram').getAttribute('data-state')).toBe('ready');
    expect(await page.locator('[data-testid=process-diagram] .djs-element.flow-current[data-element-id="deptAudit"]').count()).toBe(1);
    expect(await page.getByTestId('leave-view').innerText()).toContain('家中有事，请假两天');
    await screenshot(page, 'workflow-leave-handle');
    await handle.locator('textarea').fill('同意，注意工作交接');
    await handle.getByRole('button', { name: '同意' }).click();
    await expectMessage(page, '已同意');
    const done = page.locator('[data-testid=list-flow-task]:visible');
    await expect.poll(() => rowNamed(done, '请假流程').innerText()).toContain('同意，注意工作交接');
  });

  test('the starter sees it finished in 已发事务 with its history and the finished path', async () => {
    await signInAs('starter');
    await openFromSidebar(page, 'send');
    const sent = grid('flow-instance');
    await expect.poll(() => rowNamed(sent, '请假流程').innerText()).toContain('审批通过');
    await rowAction(sent, '请假流程', '详情');
    const view = page.getByTestId('leave-view');
    await view.waitFor();
    await expect.poll(() => page.getByTestId('flow-history').innerText()).toContain('同意，注意工作交接');
    const history = await page.getByTestId('flow-history').innerText();
    for (const text of ['发起请假', '部门审批', '部门经理', '审批通过']) expect(history).toContain(text);
    expect(await view.innerText()).toContain('已办结');
    await expect.poll(() => page.getByTestId('process-diagram').getAttribute('data-state')).toBe('ready');
    const done = (id: string) => page.locator(`[data-testid=process-diagram] .djs-element.flow-done[data-element-id="${id}"]`).count();
    for (const id of ['start', 'toDeptAudit', 'deptAudit', 'deptResult', 'deptPassedShort', 'approved']) expect(await done(id), id).toBe(1);
    for (const id of ['hrAudit', 'rejected', 'deptRejected']) expect(await done(id), id).toBe(0);
    await page.getByTestId('process-diagram').scrollIntoViewIfNeeded();
    await screenshot(page, 'workflow-leave-detail');
    expect(browser.pageErrors).toEqual([]);
  });

  test('模型管理 edits a model as a diagram: a user task shows who handles it', async () => {
    await signInAs('admin');
    await openFromSidebar(page, 'model');
    await rowAction(grid('flow-model'), '请假流程', '编辑');
    const modeler = page.getByTestId('bpmn-modeler');
    await modeler.locator('.djs-element[data-element-id="deptAudit"]').waitFor();
    await modeler.locator('.djs-element[data-element-id="deptAudit"]').click();
    const properties = page.getByTestId('bpmn-properties');
    await expect.poll(() => properties.locator('input').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toContain('leave_approver,administrator');
    await screenshot(page, 'workflow-modeler');
  });

  test('单据审批: 办理 opens the process page with the sales order; 同意 there approves the order', async () => {
    const admin = await signedIn(server.url);
    const w = await makeWorld(admin, { goods: 1, customers: 1 });
    const [approver] = expectOk<{ records: Row[] }>(await admin.get('/blade-user/list', { account: 'approver', current: 1, size: 10 })).records;
    expectOk(await admin.post('/blade-flow/approval-setting/submit', { billType: '0802', enabled: 2, approverType: 3, userIds: String(approver.id) }));
    const order = expectOk<Row>(await admin.post(`${BASES.salesOrder}/submit`, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '3', taxPrice: '20' }]) }));
    expect(order.billStatus).toBe('1302');

    await signInAs('approver');
    await openFromSidebar(page, 'claim');
    await rowAction(grid('flow-task'), '单据审批', '签收');
    await expectMessage(page, '签收成功');
    await openFromSidebar(page, 'todo');
    await rowAction(page.locator('[data-testid=list-flow-task]:visible'), '单据审批', '办理');
    const flow = page.getByTestId('flow-page');
    await flow.waitFor();
    const bill = flow.getByTestId('document-sales-order');
    await bill.getByTestId('bill-no').filter({ hasText: String(order.billNo) }).waitFor();
    // Read-only: the process decides, not the bill's own buttons.
    expect(await bill.getByTestId('doc-action-pass').count()).toBe(0);
    await expect.poll(() => page.getByTestId('process-diagram').getAttribute('data-state')).toBe('ready');
    await settle(page);
    await screenshot(page, 'workflow-bill-handle');
    const handle = page.getByTestId('flow-handle');
    await handle.locator('textarea').fill('价格已核对');
    await handle.getByRole('button', { name: '同意' }).click();
    await expectMessage(page, '已同意');
    const approved = expectOk<Row>(await admin.get(`${BASES.salesOrder}/detail`, { id: order.id }));
    expect(approved).toMatchObject({ billStatus: '1304', auditRemark: '价格已核对' });

    // 办结事务 → 详情 shows the finished process with the order.
    const done = page.locator('[data-testid=list-flow-task]:visible');
    await rowAction(done, '单据审批', '详情');
    await page.getByTestId('flow-page').getByTestId('bill-status').filter({ hasText: '已审核' }).waitFor();
    expect(await page.getByTestId('flow-history').innerText()).toContain('价格已核对');
    expect(browser.pageErrors).toEqual([]);
  });
});
