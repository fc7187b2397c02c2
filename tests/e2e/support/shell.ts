import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';

/** Shell helpers for the browser tests: sign-in, menus, tabs, messages, storage. */

export interface SeedMenu {
  code: string;
  name: string;
  nameEn?: string;
  path: string;
  isOpen?: number;
  isDisplayHistory?: number;
  historyPath?: string;
  source?: string;
  /** The schema resource the leaf opens (module/file), when its page is built. */
  resource?: string;
  children?: SeedMenu[];
}

const menusFile = path.resolve(import.meta.dirname, '../../../schemas/menus.json');

/** The seeded menu tree (what the server serves to admin). */
export function seededMenus(): SeedMenu[] {
  return (JSON.parse(fs.readFileSync(menusFile, 'utf8')) as { menus: SeedMenu[] }).menus;
}

export function seededLeaves(): SeedMenu[] {
  const out: SeedMenu[] = [];
  const walk = (list: SeedMenu[]) => list.forEach((m) => (m.children?.length ? walk(m.children) : out.push(m)));
  walk(seededMenus());
  return out;
}

/** Codes from the top-level menu down to the menu with `code`. */
export function menuTrail(code: string): string[] {
  const find = (list: SeedMenu[], trail: string[]): string[] | undefined => {
    for (const m of list) {
      if (m.code === code) return [...trail, m.code];
      const below = m.children && find(m.children, [...trail, m.code]);
      if (below) return below;
    }
    return undefined;
  };
  const trail = find(seededMenus(), []);
  if (!trail) throw new Error(`menu ${code} is not seeded`);
  return trail;
}

export async function signIn(page: Page, base: string, user = { username: 'admin', password: 'admin' }) {
  await page.goto(`${base}/login`);
  await page.getByPlaceholder('用户名').fill(user.username);
  await page.getByPlaceholder('密码').fill(user.password);
  await page.getByRole('button', { name: '登录' }).click();
  await page.waitForSelector('[data-testid=sidebar] .ant-menu', { timeout: 30_000 });
}

/** Opens a menu through the sidebar, unfolding its parents first. */
export async function openFromSidebar(page: Page, code: string) {
  const trail = menuTrail(code);
  const sidebar = page.getByTestId('sidebar');
  for (const parent of trail.slice(0, -1)) {
    const title = sidebar.locator(`.ant-menu-submenu:has(> .ant-menu-submenu-title [data-menu-code="${parent}"])`);
    const isOpen = await title.evaluate((el) => el.classList.contains('ant-menu-submenu-open'));
    if (!isOpen) await sidebar.locator(`.ant-menu-submenu-title [data-menu-code="${parent}"]`).click();
  }
  const leaf = sidebar.locator(`.ant-menu-item [data-menu-code="${code}"]`);
  await leaf.scrollIntoViewIfNeeded();
  await leaf.click();
}

/** Opens a menu through the sidebar search box. */
export async function openFromSearch(page: Page, text: string, code: string) {
  const input = page.getByTestId('menu-search-sidebar');
  await input.fill(text);
  await page.locator(`.ant-select-dropdown [data-testid=menu-search-result][data-menu-code="${code}"]`).click();
}

export async function tabLabels(page: Page): Promise<string[]> {
  return page.getByTestId('tab').allInnerTexts();
}

export async function activeTabLabel(page: Page): Promise<string> {
  return page.locator('.ant-tabs-tab-active [data-testid=tab]').innerText();
}

/** Waits for an antd message (toast) with the given text. */
export async function expectMessage(page: Page, text: string) {
  await expect
    .poll(() => page.locator('.ant-message-notice').allInnerTexts(), { timeout: 10_000 })
    .toEqual(expect.arrayContaining([expect.stringContaining(text)]));
}

/** Reads a Saber storage entry's content (`saber-<name>`). */
export async function storedContent<T>(page: Page, name: string): Promise<T | undefined> {
  return page.evaluate((key) => {
    const raw = sessionStorage.getItem(key) ?? localStorage.getItem(key);
    return raw ? (JSON.parse(raw).content as unknown) : undefined;
  }, `saber-${name}`) as Promise<T | undefined>;
}

export async function cookie(page: Page, name: string): Promise<string | undefined> {
  const cookies = await page.context().cookies();
  return cookies.find((c) => c.name === name)?.value;
}

/** Re-signs a token's claims with an expiry in the past (the test server's secret is known). */
export function expiredCopy(token: string, secret: string): string {
  const [header, payload] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  const now = Math.floor(Date.now() / 1000);
  const body = `${header}.${Buffer.from(JSON.stringify({ ...claims, iat: now - 7200, exp: now - 60 })).toString('base64url')}`;
  const signature = crypto.createHmac('sha256', secret).update(body).digest('base64url');
  return `${body}.${signature}`;
}

/** Waits until no call or page chunk is loading (the top progress bar has faded out). */
export async function settle(page: Page) {
  await expect
    .poll(() => page.getByTestId('progress-bar').evaluate((el) => getComputedStyle(el).opacity), { timeout: 15_000 })
    .toBe('0');
}

/**
 * Opens a route inside the running app, as the router does for the back button, when no tab holds
 * it yet (a reload boots the whole client again: about 2 s of CPU against 0.5 s); by its address,
 * with the tabs forgotten (gotoFresh), when the app is not running, when the route's tab is open
 * (its page would show what it showed before) or when ten tabs are open. Either way the route's page
 * is fresh; pages of other tabs stay mounted, hidden.
 */
export async function openFresh(page: Page, base: string, route: string): Promise<Locator> {
  const running = page.url().startsWith(base) && !new URL(page.url()).pathname.startsWith('/login');
  const tabs = running ? ((await storedContent<{ key: string }[]>(page, 'tagList')) ?? []) : [];
  if (!running || tabs.length >= 10 || tabs.some((tab) => tab.key === route)) await gotoFresh(page, `${base}${route}`);
  else await page.evaluate(`history.pushState(null, '', ${JSON.stringify(route)}); dispatchEvent(new PopStateEvent('popstate'))`);
  // The route's page, shown (the others hidden): look inside it for what the page shows.
  const shown = page.locator(`[data-page-key="${route}"]`);
  await shown.waitFor({ timeout: 20_000 });
  return shown;
}

/**
 * Opens a route by URL (which reloads the app) after forgetting the tabs of earlier pages, so a
 * suite that visits many pages never meets the limit of 15 open tabs.
 */
export async function gotoFresh(page: Page, url: string) {
  await page.evaluate(() => {
    for (const store of [localStorage, sessionStorage]) {
      store.removeItem('saber-tagList');
      store.removeItem('saber-tag');
    }
  });
  await page.goto(url);
}
