import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { signedIn } from '../support/client.ts';
import { expectMessage, seededLeaves, signIn } from './support/shell.ts';
import { signedInSession } from './support/session.ts';

const chosen = ['salesOrder', 'purchaseIn', 'receipt', 'goods', 'customer'];
const sixth = 'supplier';
const nameOf = (code: string) => seededLeaves().find((m) => m.code === code)!.name;

async function tick(page: Page, code: string) {
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('favourites-filter').fill(nameOf(code));
  await dialog.locator(`.ant-tree-treenode:has([data-menu-code="${code}"]) .ant-tree-checkbox`).click();
}

async function quickMenuNames(page: Page): Promise<string[]> {
  return page.getByTestId('quick-menu-item').allInnerTexts();
}

// Acceptance 4: up to 5 favourites, the 6th refused, kept on the server across sign-ins.
describe('favourite menus', () => {
  const session = signedInSession();

  test('five favourites can be ticked; the sixth is refused with 最多设置5个常用菜单！', async () => {
    const { page } = session.browser;
    expect(await quickMenuNames(page)).toEqual([]);
    await page.getByTestId('quick-menu-edit').click();
    for (const code of chosen) await tick(page, code);
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('favourites-selected').innerText()).resolves.toContain('5/5');

    await tick(page, sixth);
    await expectMessage(page, '最多设置5个常用菜单！');
    await expect(dialog.getByTestId('favourites-selected').innerText()).resolves.toContain('5/5');
    await expect(dialog.getByTestId('favourites-selected').innerText()).resolves.not.toContain(nameOf(sixth));

    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => quickMenuNames(page)).toEqual(chosen.map(nameOf));
  });

  test('the session.server refuses a sixth favourite too', async () => {
    const api = await signedIn(session.server.url);
    const list = (await api.get('/blade-system/fastmenu/list')).body.data as { menuId: string }[];
    expect(list).toHaveLength(5);
    const routes = (await api.get('/blade-system/menu/routes')).body.data as {
      id: string;
      code: string;
      children?: unknown[];
    }[];
    const flat: { id: string; code: string }[] = [];
    const walk = (nodes: { id: string; code: string; children?: unknown[] }[]) =>
      nodes.forEach((n) => (n.children?.length ? walk(n.children as typeof nodes) : flat.push(n)));
    walk(routes);
    const extra = flat.find((m) => m.code === sixth)!;
    const reply = await api.call('POST', '/blade-system/fastmenu/fastmenuAdd', {
      query: { menuIds: [...list.map((f) => f.menuId), extra.id].join(',') },
    });
    expect(reply.body.msg).toBe('最多设置5个常用菜单！');
  });

  test('a favourite opens its page; the sidebar popover lists them', async () => {
    const { page } = session.browser;
    await page
      .getByTestId('quick-menu-item')
      .filter({ hasText: nameOf('receipt') })
      .click();
    await page.waitForURL(/\/finance\/receipt$/);
    await page.getByTestId('favourites-popover').click();
    const popover = page.locator('.ant-popover:visible');
    for (const code of chosen) await popover.getByText(nameOf(code), { exact: true }).waitFor();
  });

  test('favourites survive signing out and in again', async () => {
    const { page } = session.browser;
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await page.getByRole('button', { name: '确定' }).click();
    await page.waitForURL(/\/login$/);
    await signIn(page, session.server.url);
    await expect.poll(() => quickMenuNames(page)).toEqual(chosen.map(nameOf));
  });
});
