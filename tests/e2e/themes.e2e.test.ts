import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser.ts';
import { settle, storedContent } from './support/shell.ts';
import { signedInSession } from './support/session.ts';

const themes = ['default', 'white', 'dark', 'colourful', 'smart', 'iview', 'vip', 'cool', 'd2', 'hey', 'lte'];

/** The colours a user sees: page, sidebar, header and primary button backgrounds. */
async function paint(page: Page) {
  return page.evaluate(() => {
    const bg = (el: Element | null) => (el ? getComputedStyle(el).backgroundColor : '');
    return {
      page: bg(document.querySelector('.ant-layout-content')?.parentElement ?? null),
      sider: bg(document.querySelector('.ant-layout-sider')),
      header: bg(document.querySelector('.ant-layout-header')),
      menu: bg(document.querySelector('[data-testid=sidebar] .ant-menu')),
    };
  });
}

async function pickTheme(page: Page, name: string) {
  await page.getByTestId('theme-switcher').click();
  await page.locator(`[data-theme-option="${name}"]`).click();
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(name);
}

// Acceptance 5: each theme really changes the colours and is kept across reloads.
describe('themes', () => {
  const session = signedInSession();

  test('each of the 11 themes paints the page differently', async () => {
    const { page } = session.browser;
    const seen = new Map<string, string>();
    for (const name of themes) {
      await pickTheme(page, name);
      await page.keyboard.press('Escape');
      await page.waitForTimeout(250);
      const colours = JSON.stringify(await paint(page));
      expect(seen.get(colours), `${name} looks like ${seen.get(colours)}`).toBeUndefined();
      seen.set(colours, name);
      expect(await storedContent(page, 'themeName')).toBe(name);
    }
    expect(seen.size).toBe(11);
  });

  test('the default sidebar uses #28375A', async () => {
    const { page } = session.browser;
    await pickTheme(page, 'default');
    expect((await paint(page)).sider).toBe('rgb(40, 55, 90)');
  });

  test('the dark theme is kept after a reload and applied before the app starts', async () => {
    const { page } = session.browser;
    await pickTheme(page, 'dark');
    // The boot script in index.html sets the theme before any bundle runs.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.reload();
    const early = await page.evaluate(() => ({
      theme: document.documentElement.dataset.theme,
      background: getComputedStyle(document.documentElement).backgroundColor,
    }));
    expect(early).toEqual({ theme: 'dark', background: 'rgb(0, 0, 0)' });
    await page.unroute('**/assets/*.js');
    await page.reload();
    await page.getByTestId('sidebar').waitFor();
    expect((await paint(page)).header).toBe('rgb(31, 31, 31)');
    await settle(page);
    await screenshot(page, 'theme-dark');
  });
});
