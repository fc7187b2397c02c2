import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { signIn } from './shell.ts';

/**
 * The usual suite set-up: a fresh server, a fresh browser, signed in as admin before the tests,
 * both closed after. Read `server` and `browser` inside tests (they exist once beforeAll ran).
 */
export function signedInSession(): { readonly server: TestServer; readonly browser: Browser } {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    await signIn(browser.page, server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  const ready = <T>(value: T | undefined, name: string): T => {
    if (!value) throw new Error(`${name} is not ready: use it inside a test`);
    return value;
  };
  return {
    get server() {
      return ready(server, 'server');
    },
    get browser() {
      return ready(browser, 'browser');
    },
  };
}
