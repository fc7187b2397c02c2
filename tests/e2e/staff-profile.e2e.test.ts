import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BodyFactory, loadResources, pathOf } from '../support/resources.ts';
import { modal, field, fieldError, okButton } from './support/dialogs.ts';
import { launchBrowser, screenshot, type Browser } from './support/browser.ts';
import { expectMessage, settle, signIn } from './support/shell.ts';

/**
 * Issue 4, the staff profile card (a `card` page of the schema language) and the formal and rank
 * application dialogs it opens, with the spec's rules (spec 000 §5): the signed-in user linked to
 * a staff record sees their card; a probationer applies for regular status, a regular employee
 * for a rank change, and each required field refuses an empty dialog with its own message.
 */

describe('staff profile card and applications', () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let staffId: string;

  beforeAll(async () => {
    server = await startTestServer();
    api = await signedIn(server.url);
    const resources = loadResources();
    const staff = resources.find((r) => r.resource === 'staff')!;
    const user = resources.find((r) => r.resource === 'user')!;
    const admin = expectOk<{ records: { id: string; account: string }[] }>(await api.get(pathOf(user, 'list'), { account: 'admin' })).records.find((u) => u.account === 'admin')!;
    const bodies = new BodyFactory(api);
    const body = await bodies.validBody(staff);
    // A teacher for the formal application, then the signed-in admin's own record, on probation.
    expectOk(await api.post(pathOf(staff, 'submit'), { ...(await bodies.validBody(staff)), staffName: '李师傅', isUser: 1, userId: '' }), 'teacher');
    const me = expectOk<{ id: string }>(
      await api.post(pathOf(staff, 'submit'), { ...body, staffName: '王小明', staffType: 8701, isUser: 2, userId: admin.id, entryDate: '2026-06-01 00:00:00' }),
      'staff linked to admin',
    );
    staffId = me.id;
    browser = await launchBrowser();
    await signIn(browser.page, server.url);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the card shows the linked staff; 申请转正 refuses an empty dialog field by field, then applies', async () => {
    const { page, pageErrors } = browser;
    await page.goto(`${server.url}/hr/staff`);
    const card = page.getByTestId('card-staff-profile');
    await card.getByText('王小明').waitFor();
    await settle(page);
    expect(await card.innerText()).toContain('试用');
    await page.getByRole('button', { name: '申请转正' }).click();
    const dialog = modal(page, '申请转正');
    await dialog.waitFor();
    await okButton(dialog).click();
    const expected = {
      becomeFormalTime: '请选择',
      teacherId: '请选择试用期学习师傅',
      workRemark: '请填写试用期工作描述',
      selfEvaluation: '请填写试用期自我评价',
    };
    for (const [name, text] of Object.entries(expected)) await expect.poll(() => fieldError(dialog, name).innerText()).toBe(text);
    // Labels are whole (the prompt widens them for its longest title).
    for (const label of ['转正日期', '试用期学习师傅', '试用期工作描述', '试用期自我评价']) {
      const cell = dialog.locator('.erp-label', { hasText: label });
      expect(await cell.evaluate((el) => el.scrollWidth <= el.clientWidth), label).toBe(true);
    }
    await screenshot(page, 'staff-formal-dialog');

    await field(dialog, 'becomeFormalTime').locator('input').fill('2026-12-01');
    await field(dialog, 'becomeFormalTime').locator('input').press('Enter');
    await field(dialog, 'teacherId').locator('.ant-select').click();
    const picker = page.locator('.ant-modal-wrap:visible .ant-modal').filter({ has: page.locator('.ant-table') }).last();
    await picker.locator('.ant-table-tbody tr.ant-table-row', { hasText: '李师傅' }).dblclick();
    await expect.poll(() => field(dialog, 'teacherId').innerText()).toContain('李师傅');
    await field(dialog, 'workRemark').locator('textarea').fill('熟悉了采购与销售单据流程');
    await field(dialog, 'selfEvaluation').locator('textarea').fill('能独立完成日常工作');
    await okButton(dialog).click();
    await expectMessage(page, '申请成功');
    await expect.poll(() => dialog.count()).toBe(0);

    const applied = expectOk<{ records: Record<string, unknown>[] }>(await api.get('/blade-hr/formal/list', { staffId })).records;
    expect(applied).toHaveLength(1);
    expect(applied[0]).toMatchObject({ staffId, workRemark: '熟悉了采购与销售单据流程', selfEvaluation: '能独立完成日常工作' });
    expect(String(applied[0].becomeFormalTime)).toContain('2026-12-01');
    // Applied and waiting: the card shows the status and no longer offers the button.
    await expect.poll(() => page.getByRole('button', { name: '申请转正' }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  test('a regular employee applies for a rank change: three achievements and three suggestions at least', async () => {
    const { page, pageErrors } = browser;
    const staff = loadResources().find((r) => r.resource === 'staff')!;
    const current = expectOk<Record<string, unknown>>(await api.get(pathOf(staff, 'detail'), { id: staffId }));
    expectOk(await api.post(pathOf(staff, 'submit'), { ...current, staffType: 8702 }), 'made regular');
    await page.reload();
    await page.getByRole('button', { name: '申请职级' }).click();
    const dialog = modal(page, '申请职级');
    await dialog.waitFor();
    // The applicant's own details come filled in from the card.
    await expect.poll(() => field(dialog, 'name').innerText()).toContain('王小明');
    await expect.poll(() => field(dialog, 'deptName').innerText()).toContain('管理组');
    await okButton(dialog).click();
    const expected = {
      applyType: '请选择考核类型',
      workPerformance: '请填写近三个月主要工作业绩',
      prosAndCons: '请填写个人优势和不足',
      direction: '请填写未来工作方向和目标',
      opinion: '请填写对公司或部门的意见和建议',
    };
    for (const [name, text] of Object.entries(expected)) await expect.poll(() => fieldError(dialog, name).innerText()).toBe(text);

    await field(dialog, 'applyType').getByText('晋级').click();
    const works = field(dialog, 'workPerformance').locator('input');
    expect(await works.count()).toBe(3);
    await works.nth(0).fill('完成华东区渠道开发');
    await works.nth(1).fill('库存周转天数下降10天');
    await works.nth(1).blur();
    await expect.poll(() => fieldError(dialog, 'workPerformance').innerText()).toBe('近三个月主要工作业绩至少填写三条');
    await works.nth(2).fill('带教两名新人');
    await works.nth(2).blur();
    await expect.poll(() => fieldError(dialog, 'workPerformance').count()).toBe(0);
    await field(dialog, 'prosAndCons').locator('textarea').fill('沟通顺畅；报表能力需加强');
    await field(dialog, 'direction').locator('textarea').fill('独立负责一个大客户');
    const opinions = field(dialog, 'opinion');
    await opinions.getByRole('button', { name: /添加一条/ }).click();
    const opinionInputs = opinions.locator('input');
    expect(await opinionInputs.count()).toBe(4);
    for (const [i, text] of ['增加培训', '优化审批流程', '完善绩效考核', '团建多一些'].entries()) await opinionInputs.nth(i).fill(text);
    await opinionInputs.nth(3).blur();
    await screenshot(page, 'staff-rank-dialog');
    await okButton(dialog).click();
    await expectMessage(page, '申请成功');
    await expect.poll(() => dialog.count()).toBe(0);

    const applied = expectOk<{ records: Record<string, unknown>[] }>(await api.get('/blade-hr/rank/list', { staffId })).records;
    expect(applied).toHaveLength(1);
    expect(applied[0].workPerformance).toEqual(['完成华东区渠道开发', '库存周转天数下降10天', '带教两名新人']);
    expect(applied[0].opinion).toEqual(['增加培训', '优化审批流程', '完善绩效考核', '团建多一些']);
    expect(applied[0]).toMatchObject({ staffId, applyType: 2 });
    expect(pageErrors).toEqual([]);
  });
});
