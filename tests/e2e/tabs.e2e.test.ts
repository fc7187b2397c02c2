import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser.ts';
import {
  activeTabLabel,
  expectMessage,
  openFromSearch,
  openFromSidebar,
  seededLeaves,
  settle,
  tabLabels,
} from './support/shell.ts';
import { signedInSession } from './support/session.ts';

/** In-app menu pages with distinct names (no frames, no external links). */
const pages = seededLeaves().filter(
  (m, i, all) => !/html|^https?:/.test(m.path) && all.findIndex((o) => o.name === m.name) === i,
);

function tabNamed(page: Page, label: string) {
  return page
    .getByTestId('tab-bar')
    .getByTestId('tab')
    .filter({ hasText: new RegExp(`^${label}$`) });
}

/** Resolves once the tab bar has stopped sliding: its list's transform and the tab's box hold still for 300 ms. */
async function barAtRest(page: Page, label: string) {
  const probe = async () => {
    const transform = await page.getByTestId('tab-bar').locator('.ant-tabs-nav-list').first().evaluate((el) => getComputedStyle(el).transform);
    return `${transform}|${JSON.stringify(await tabNamed(page, label).boundingBox())}`;
  };
  await expect
    .poll(async () => {
      const before = await probe();
      await page.waitForTimeout(300);
      return before === (await probe());
    })
    .toBe(true);
}

/**
 * Opens a tab's context menu and picks an item (again if the menu did not open). A crowded bar
 * still sliding its tabs would put a neighbour under the pointer and the menu would act on that
 * tab (seen under CI load), so the click waits for the bar to be at rest.
 */
async function rightClickTab(page: Page, label: string, item: string) {
  const menuItem = page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: item });
  await expect
    .poll(
      async () => {
        await tabNamed(page, label).scrollIntoViewIfNeeded();
        await barAtRest(page, label);
        await tabNamed(page, label).click({ button: 'right' });
        return menuItem.isVisible();
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  await menuItem.click();
}

// Acceptance 3: 15 tabs, the 16th refused, closing rules, context menu, survival across reload.
describe('tab bar', () => {
  const session = signedInSession();

  test('the home tab alone is not closable; a second tab makes both closable', async () => {
    const { page } = session.browser;
    expect(await tabLabels(page)).toEqual(['首页']);
    await expect(page.locator('.ant-tabs-tab-remove').count()).resolves.toBe(0);
    await openFromSidebar(page, pages[0].code);
    await expect.poll(() => tabLabels(page)).toEqual(['首页', pages[0].name]);
    await expect(page.locator('.ant-tabs-tab-remove').count()).resolves.toBe(2);
  });

  test('15 menus give 15 tabs; the 16th is refused with the message', async () => {
    const { page } = session.browser;
    // Close the home tab so that 15 tabs are 15 menus.
    await page
      .getByTestId('tab-bar')
      .locator('.ant-tabs-tab')
      .filter({ hasText: '首页' })
      .locator('.ant-tabs-tab-remove')
      .click();
    await expect.poll(() => tabLabels(page)).toEqual([pages[0].name]);
    for (const menu of pages.slice(1, 15)) {
      await openFromSearch(page, menu.name, menu.code);
      await page.waitForURL((url) => url.pathname === menu.path);
      await expect.poll(() => activeTabLabel(page)).toBe(menu.name);
    }
    await expect.poll(() => tabLabels(page)).toEqual(pages.slice(0, 15).map((m) => m.name));
    const before = page.url();

    const extra = pages[15];
    await openFromSearch(page, extra.name, extra.code);
    await expectMessage(page, '最多打开15个菜单,请关闭不需要的菜单');
    expect(page.url()).toBe(before);
    expect((await tabLabels(page)).length).toBe(15);

    // Typing the address of a 16th page is refused the same way (after the first toast is gone).
    await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 });
    await page.goto(`${session.server.url}${extra.path}`);
    await expectMessage(page, '最多打开15个菜单');
    await expect.poll(() => new URL(page.url()).pathname).toBe(pages[14].path);
    expect((await tabLabels(page)).length).toBe(15);
  });

  test('tabs survive a reload', async () => {
    const { page } = session.browser;
    const labels = await tabLabels(page);
    await page.reload();
    await page.getByTestId('tab-bar').waitFor();
    expect(await tabLabels(page)).toEqual(labels);
    expect(await activeTabLabel(page)).toBe(pages[14].name);
  });

  test('closing the active tab opens the previous one, or the new first one', async () => {
    const { page } = session.browser;
    const tabBar = page.getByTestId('tab-bar');
    await tabBar.locator('.ant-tabs-tab-active .ant-tabs-tab-remove').click();
    await expect.poll(() => activeTabLabel(page)).toBe(pages[13].name);
    await expect.poll(() => new URL(page.url()).pathname).toBe(pages[13].path);

    // The first tab has scrolled out of the crowded bar; click it where it is.
    await tabNamed(page, pages[0].name).dispatchEvent('click');
    await page.waitForURL((url) => url.pathname === pages[0].path);
    await expect.poll(() => activeTabLabel(page)).toBe(pages[0].name);
    await tabBar.locator('.ant-tabs-tab-active .ant-tabs-tab-remove').click();
    await expect.poll(() => activeTabLabel(page)).toBe(pages[1].name);
    await expect.poll(() => new URL(page.url()).pathname).toBe(pages[1].path);
  });

  test('context menu: clear cache asks first and confirms with 清除完毕', async () => {
    const { page } = session.browser;
    await rightClickTab(page, pages[1].name, '清除缓存');
    await page.getByText('是否需要清除缓存?').waitFor();
    await page.getByRole('button', { name: '确定' }).click();
    await expectMessage(page, '清除完毕');
  });

  test('context menu: close others keeps only that tab', async () => {
    const { page } = session.browser;
    await rightClickTab(page, pages[5].name, '关闭其他');
    await expect.poll(() => tabLabels(page)).toEqual([pages[5].name]);
    await expect.poll(() => new URL(page.url()).pathname).toBe(pages[5].path);
  });

  test('context menu: close all returns to the welcome tab', async () => {
    const { page } = session.browser;
    await openFromSidebar(page, pages[6].code);
    await expect.poll(() => tabLabels(page)).toEqual([pages[5].name, pages[6].name]);
    await rightClickTab(page, pages[6].name, '关闭全部');
    await expect.poll(() => tabLabels(page)).toEqual(['首页']);
    await page.waitForURL(/\/wel\/home\/index$/);
  });

  test('screenshot: the home route with tabs open', async () => {
    const { page } = session.browser;
    for (const menu of pages.slice(0, 4)) await openFromSidebar(page, menu.code);
    await expect.poll(() => tabLabels(page)).toEqual(['首页', ...pages.slice(0, 4).map((m) => m.name)]);
    await tabNamed(page, '首页').click();
    await page.waitForURL(/\/wel\/home\/index$/);
    await settle(page);
    await screenshot(page, 'home-with-tabs');
  });
});
