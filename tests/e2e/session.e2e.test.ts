import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { BASIC } from '../support/client.ts';
import { launchBrowser, type Browser } from './support/browser.ts';
import { cookie, expectMessage, expiredCopy, signIn } from './support/shell.ts';

const JWT_SECRET = 'e2e-session-secret-0123456789abcdef';

function isRefresh(request: Request): boolean {
  return (
    request.url().includes('/oauth/token') && new URL(request.url()).searchParams.get('grant_type') === 'refresh_token'
  );
}

/** Makes the stored token look `seconds` old, as if it had been issued that long ago. */
async function ageToken(page: Page, seconds: number) {
  await page.evaluate((ms) => {
    const entry = JSON.parse(localStorage.getItem('saber-token') ?? '{}');
    entry.datetime = Date.now() - ms;
    localStorage.setItem('saber-token', JSON.stringify(entry));
  }, seconds * 1000);
}

/** Any authenticated call from the page: the tab menu's clear-cache action. */
async function clearCache(page: Page) {
  await page.getByTestId('tab-bar').locator('.ant-tabs-tab-active [data-testid=tab]').click({ button: 'right' });
  await page.getByRole('menuitem', { name: '清除缓存' }).click();
  await page.getByRole('button', { name: '确定' }).click();
}

// Acceptance 6: refresh instead of sign-out, the 10-second check, revoked session → /login with
// the user's typing kept (the two-tab race is in refresh-race.e2e.test.ts).
describe('token refresh and lost sessions', () => {
  let server: TestServer;
  let browser: Browser;
  const refreshes: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ env: { ERP_JWT_SECRET: JWT_SECRET } });
    browser = await launchBrowser();
    browser.context.on('request', (request) => {
      if (isRefresh(request)) refreshes.push(request.url());
    });
    await signIn(browser.page, server.url);
    await browser.page.goto(`${server.url}/info/index`);
    // The stored profile has arrived (the form is filled) before the user types.
    await browser.page.waitForFunction(
      () => (document.getElementById('profile_realName') as HTMLInputElement | null)?.value === '管理员',
    );
    await browser.page.getByLabel('姓名').fill('草稿中的名字');
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('an expired access token leads to one refresh and a retried call, not a sign-out', async () => {
    const { page, context } = browser;
    const current = (await cookie(page, 'saber-access-token'))!;
    await context.addCookies([
      { name: 'saber-access-token', value: expiredCopy(current, JWT_SECRET), url: server.url },
    ]);
    refreshes.length = 0;
    await clearCache(page);
    await expectMessage(page, '清除完毕');
    expect(refreshes).toHaveLength(1);
    expect(new URL(page.url()).pathname).toBe('/info/index');
    const renewed = await cookie(page, 'saber-access-token');
    expect(renewed).toBeTruthy();
    expect(renewed).not.toBe(current);
  });

  test('the 10-second check refreshes a token whose age reached tokenTime (3000 s)', async () => {
    const { page } = browser;
    const before = await cookie(page, 'saber-access-token');
    refreshes.length = 0;
    await ageToken(page, 2990);
    await page.waitForTimeout(11_000);
    expect(refreshes).toHaveLength(0);
    await ageToken(page, 3000);
    await expect.poll(() => refreshes.length, { timeout: 15_000 }).toBe(1);
    await expect.poll(() => cookie(page, 'saber-access-token')).not.toBe(before);
    expect(new URL(page.url()).pathname).toBe('/info/index');
  });

  test('a revoked session goes to /login; signing in again restores what the user typed', async () => {
    const { page } = browser;
    const token = await cookie(page, 'saber-access-token');
    const logout = await fetch(`${server.url}/api/blade-auth/oauth/logout`, {
      headers: { authorization: BASIC, 'blade-auth': `bearer ${token}` },
    });
    expect(logout.status).toBe(200);
    await clearCache(page);
    await page.waitForURL(/\/login\?redirect=%2Finfo%2Findex/);
    // Still shown once the sign-in page is up (the signed-in frame, gone by then, must not take it along).
    await page.getByPlaceholder('用户名').waitFor();
    await expectMessage(page, '用户令牌过期，请重新登录');
    expect(await cookie(page, 'saber-access-token')).toBeUndefined();

    await page.getByPlaceholder('用户名').fill('admin');
    await page.getByPlaceholder('密码').fill('admin');
    await page.getByRole('button', { name: '登录' }).click();
    await page.waitForURL(/\/info\/index$/);
    await expect.poll(() => page.getByLabel('姓名').inputValue()).toBe('草稿中的名字');
  });
});
