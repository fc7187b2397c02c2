import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BodyFactory, loadResources, pathOf } from '../support/resources.ts';
import { modal, field, okButton } from './support/dialogs.ts';
import { launchBrowser, type Browser } from './support/browser.ts';
import { expectMessage, settle, signIn } from './support/shell.ts';

/**
 * Issue 4, 用户管理's own actions in the browser, each read back through the API: 角色配置 (a tree
 * picker of roles), 仓库分配 with a default that must be one of the assigned depots, 重置密码 to
 * the initial password after a confirmation, and 禁用/启用 on the row.
 */

describe('user management actions', () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let userId: string;
  const depots: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer();
    api = await signedIn(server.url);
    const resources = loadResources();
    const user = resources.find((r) => r.resource === 'user')!;
    const depot = resources.find((r) => r.resource === 'depot')!;
    const bodies = new BodyFactory(api);
    userId = expectOk<{ id: string }>(
      await api.post(pathOf(user, 'submit'), { ...(await bodies.validBody(user)), account: 'zhangsan', realName: '张三', name: '张三', password: 'first-pass' }),
      'user submit',
    ).id;
    for (const name of ['一号仓', '二号仓', '三号仓']) {
      depots[name] = expectOk<{ id: string }>(await api.post(pathOf(depot, 'submit'), { ...(await bodies.validBody(depot)), depotName: name }), 'depot').id;
    }
    browser = await launchBrowser();
    await signIn(browser.page, server.url);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function selectUser(page: Page) {
    await page.goto(`${server.url}/system/user`);
    const grid = page.getByTestId('list-user').getByTestId('data-grid');
    const row = grid.locator(`.erp-grid-row[row-id="${userId}"]`).first();
    await row.waitFor();
    await settle(page);
    await grid.locator(`.erp-grid-row[row-id="${userId}"] .erp-grid-select input`).first().check();
    return grid;
  }

  /** The user's own view of their depots, as the sales screens will read it. */
  async function depotsOf(password: string) {
    const own = await signedIn(server.url, '000000', 'zhangsan', password);
    return expectOk<{ depotIds: string; defaultDepotId: string; roleId: string }>(await own.get('/blade-user/info'));
  }

  test('角色配置: the roles tree picker grants 普通用户', async () => {
    const { page, pageErrors } = browser;
    const roles = expectOk<{ id: string; title: string }[]>(await api.get('/blade-system/role/tree'));
    const plain = roles.find((r) => r.title === '普通用户')!;
    const held = expectOk<{ roleId: string }>(await api.get('/blade-user/detail', { id: userId })).roleId;
    expect(held.split(',')).not.toContain(plain.id);
    await selectUser(page);
    await page.getByRole('button', { name: '角色配置' }).click();
    const prompt = modal(page, '角色配置');
    await prompt.waitFor();
    await field(prompt, 'roleIds').locator('.ant-select').click();
    const picker = modal(page, '角色选择');
    await picker.locator('.ant-tree-treenode', { hasText: '普通用户' }).locator('.ant-tree-checkbox').click();
    await okButton(picker).click();
    await expect.poll(() => field(prompt, 'roleIds').innerText()).toContain('普通用户');
    await okButton(prompt).click();
    await expectMessage(page, '操作成功');
    // The prompt opened with the role already held; 普通用户 joins it.
    const detail = expectOk<{ roleId: string }>(await api.get('/blade-user/detail', { id: userId }));
    expect(detail.roleId.split(',').sort()).toEqual([...held.split(','), plain.id].sort());
    expect(pageErrors).toEqual([]);
  });

  test('权限设置 opens with the current grants of the role; confirming unchanged keeps every one of them', async () => {
    const { page, pageErrors } = browser;
    const roles = expectOk<{ id: string; title: string }[]>(await api.get('/blade-system/role/tree'));
    const plain = roles.find((r) => r.title === '普通用户')!;
    const menus = expectOk<{ id: string; name: string; parentId: string }[]>(await api.get('/blade-system/menu/list', { name: '客户资料' }));
    const customerMenu = menus.find((m) => m.name === '客户资料')!;
    // The role holds one menu, one data scope and nothing else to start with.
    const scope = expectOk<{ id: string }>(
      await api.post('/blade-system/data-scope/submit', { menuId: customerMenu.id, resourceCode: 'customer', scopeName: '本人客户', scopeField: 'create_user', scopeType: 2, scopeColumn: '*', scopeClass: 'customer' }),
      'data scope',
    );
    expectOk(await api.post('/blade-system/role/grant', { roleIds: plain.id, menuIds: customerMenu.id, dataScopeIds: scope.id }), 'grant');
    const before = expectOk(await api.get('/blade-system/menu/role-tree-keys', { roleIds: plain.id }));

    await page.goto(`${server.url}/authority/role`);
    const table = page.getByTestId('tree-role');
    const actions = table.locator(`tr[data-row-key="${plain.id}"] [data-testid=row-actions]`);
    await actions.waitFor();
    await settle(page);
    const inline = actions.getByRole('button', { name: '权限设置' });
    if (await inline.count()) await inline.click();
    else {
      await actions.getByText('更多').click();
      await page.locator('.ant-dropdown:visible').getByText('权限设置', { exact: true }).click();
    }
    const prompt = modal(page, '权限设置');
    await prompt.waitFor();
    await expect.poll(() => field(prompt, 'menuIds').innerText()).toContain('客户资料');
    await expect.poll(() => field(prompt, 'dataScopeIds').innerText()).toContain('本人客户');
    // The menu tree comes from the menu key of grant-tree's answer, with the held menu ticked.
    await field(prompt, 'menuIds').locator('.ant-select').click();
    const tree = modal(page, '菜单权限');
    await tree.locator('.ant-tree-treenode', { hasText: '基础资料' }).first().waitFor();
    await tree.locator('.ant-modal-footer').getByRole('button', { name: /取\s*消/ }).click();
    await expect.poll(() => tree.count()).toBe(0);
    await okButton(prompt).click();
    await expectMessage(page, '操作成功');
    expect(expectOk(await api.get('/blade-system/menu/role-tree-keys', { roleIds: plain.id }))).toEqual(before);
    expect(pageErrors).toEqual([]);
  });

  test('角色配置 for one user opens with the roles they hold', async () => {
    const { page, pageErrors } = browser;
    await selectUser(page);
    await page.getByRole('button', { name: '角色配置' }).click();
    const prompt = modal(page, '角色配置');
    await expect.poll(() => field(prompt, 'roleIds').innerText()).toContain('普通用户');
    await prompt.locator('.ant-modal-footer').getByRole('button', { name: /取\s*消/ }).click();
    expect(pageErrors).toEqual([]);
  });

  test('仓库分配: the default must be one of the assigned depots; the user then sees both and the default', async () => {
    const { page, pageErrors } = browser;
    await selectUser(page);
    await page.getByRole('button', { name: '仓库分配' }).click();
    const prompt = modal(page, '仓库分配');
    await prompt.waitFor();
    await field(prompt, 'depotIds').locator('.ant-select').click();
    const many = modal(page, '仓库选择');
    for (const name of ['一号仓', '二号仓']) await many.locator('.ant-table-row', { hasText: name }).click();
    await okButton(many).click();
    await expect.poll(() => field(prompt, 'depotIds').innerText()).toMatch(/一号仓[\s\S]*二号仓/);
    // A default outside the assigned ones is refused by the server; the prompt stays with its input.
    await field(prompt, 'defaultDepotId').locator('.ant-select').click();
    await modal(page, '默认仓库选择').locator('.ant-table-row', { hasText: '三号仓' }).dblclick();
    await okButton(prompt).click();
    await expectMessage(page, '默认仓库必须是已分配的仓库');
    expect(await prompt.isVisible()).toBe(true);
    await field(prompt, 'defaultDepotId').locator('.ant-select').click();
    await modal(page, '默认仓库选择').locator('.ant-table-row', { hasText: '二号仓' }).dblclick();
    await expect.poll(() => field(prompt, 'defaultDepotId').innerText()).toContain('二号仓');
    await okButton(prompt).click();
    await expectMessage(page, '操作成功');
    await expect.poll(() => prompt.count()).toBe(0);
    const info = await depotsOf('first-pass');
    expect(info.depotIds.split(',').sort()).toEqual([depots['一号仓'], depots['二号仓']].sort());
    expect(info.defaultDepotId).toBe(depots['二号仓']);
    expect(pageErrors).toEqual([]);
  });

  test('重置密码 asks first, then the account signs in with the initial password 123456', async () => {
    const { page, pageErrors } = browser;
    await selectUser(page);
    await page.getByRole('button', { name: '重置密码' }).click();
    const confirm = page.locator('.ant-modal-confirm', { hasText: '确定将选择账号密码重置为初始密码?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: /确\s*定/ }).click();
    await expectMessage(page, '操作成功');
    await expect(depotsOf('first-pass')).rejects.toThrow(/login failed/);
    expect((await depotsOf('123456')).defaultDepotId).toBe(depots['二号仓']);
    expect(pageErrors).toEqual([]);
  });

  test('禁用 on the row asks, disables the account; 启用 brings it back', async () => {
    const { page, pageErrors } = browser;
    const grid = await selectUser(page);
    const actions = grid.locator(`.erp-grid-row[row-id="${userId}"] [data-testid=row-actions]`);
    const rowButton = async (label: string) => {
      const inline = actions.getByRole('button', { name: label });
      if (await inline.count()) return inline.click();
      await actions.getByText('更多').click();
      await page.locator('.ant-dropdown:visible').getByText(label, { exact: true }).click();
    };
    await rowButton('禁用');
    const confirm = page.locator('.ant-modal-confirm', { hasText: '确定禁用该账号吗？' });
    await confirm.getByRole('button', { name: /确\s*定/ }).click();
    await expectMessage(page, '操作成功');
    await expect.poll(async () => expectOk<{ status: number }>(await api.get('/blade-user/detail', { id: userId })).status).toBe(2);
    await expect(depotsOf('123456')).rejects.toThrow(/login failed/);
    await rowButton('启用');
    await expect.poll(async () => expectOk<{ status: number }>(await api.get('/blade-user/detail', { id: userId })).status).toBe(1);
    expect((await depotsOf('123456')).depotIds).not.toBe('');
    expect(pageErrors).toEqual([]);
  });
});
