import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Request } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { BASIC } from '../support/client.ts';
import { launchBrowser, type Browser } from './support/browser.ts';
import { cookie, signIn } from './support/shell.ts';

function isRefresh(request: Request): boolean {
  return (
    request.url().includes('/oauth/token') && new URL(request.url()).searchParams.get('grant_type') === 'refresh_token'
  );
}

// Acceptance 6, the cross-tab part: two tabs whose 10-second checks fire at the same instant
// must not both spend the refresh token (the server revokes a session whose refresh token is
// used twice, which would sign both tabs out).
describe('refresh across two tabs', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    // Fake timers in every page, so both tabs' checks can be fired together.
    await browser.context.clock.install();
    await signIn(browser.page, server.url);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('simultaneous due checks in two tabs make exactly one refresh; both stay signed in', async () => {
    const { context, page } = browser;
    const second = await context.newPage();
    await second.goto(`${server.url}/wel/home/index`);
    await second.getByTestId('sidebar').waitFor();

    const refreshes: string[] = [];
    context.on('request', (request) => {
      if (isRefresh(request)) refreshes.push(`${request.frame().page() === page ? 'A' : 'B'} ${Date.now()} ${request.headers()['blade-auth'] ?? ''}`.slice(0, 60));
    });
    await context.clock.pauseAt(Date.now() + 1_000);
    await page.evaluate(() => {
      const entry = JSON.parse(localStorage.getItem('saber-token') ?? '{}');
      entry.datetime = Date.now() - 3_600_000;
      localStorage.setItem('saber-token', JSON.stringify(entry));
    });
    // Both tabs' intervals fire within this one advance, before any refresh has answered.
    await context.clock.runFor(10_000);
    await context.clock.resume();
    await page.waitForTimeout(3_000);

    expect(refreshes).toHaveLength(1);
    const token = await cookie(page, 'saber-access-token');
    const check = await fetch(`${server.url}/api/blade-system/user/info`, {
      headers: { authorization: BASIC, 'blade-auth': `bearer ${token}` },
    });
    expect((await check.json()).code).toBe(200);
    for (const tab of [page, second]) expect(new URL(tab.url()).pathname).toBe('/wel/home/index');
  });
});
