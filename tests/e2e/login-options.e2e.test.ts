import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { launchBrowser, type Browser } from './support/browser.ts';
import { expectMessage } from './support/shell.ts';

/** A minimal OAuth2 provider: authorize redirects back with a code, token and user answer. */
function startFakeProvider(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://provider');
    if (url.pathname === '/authorize') {
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', 'provider-code-1');
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.toString() }).end();
    } else if (url.pathname === '/token') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: 'provider-token' }));
    } else if (url.pathname === '/user') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'u-42', login: 'octo' }));
    } else res.writeHead(404).end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) });
    }),
  );
}

async function setFrontConfig(api: Api, key: string, value: string) {
  const rows = expectOk(await api.get('/blade-sys-config/sysconfig/list', { configKey_equal: key, size: 10 })) as {
    records: { id: string; version: number }[];
  };
  expectOk(
    await api.post('/blade-sys-config/sysconfig/submit', {
      id: rows.records[0]?.id,
      version: rows.records[0]?.version,
      configKey: key,
      configName: key,
      configValue: value,
      isPublic: 2,
    }),
  );
}

// The login page's optional parts: the captcha row and the social sign-in buttons, both driven by
// the server's front config.
describe('captcha and social sign-in', () => {
  let server: TestServer;
  let provider: Awaited<ReturnType<typeof startFakeProvider>>;
  let browser: Browser;
  let admin: Api;

  beforeAll(async () => {
    server = await startTestServer();
    provider = await startFakeProvider();
    browser = await launchBrowser();
    admin = await signedIn(server.url);
  });

  afterAll(async () => {
    await browser?.close();
    await provider?.close();
    await server?.close();
  });

  test('captchaMode shows the captcha row; a wrong answer is refused with the server message', async () => {
    const { page } = browser;
    await setFrontConfig(admin, 'captchaMode', 'true');
    await page.goto(`${server.url}/login`);
    const image = page.getByRole('img', { name: '验证码' });
    await expect.poll(() => image.getAttribute('src')).toMatch(/^data:image\//);
    await page.getByPlaceholder('用户名').fill('admin');
    await page.getByPlaceholder('密码').fill('admin');
    await page.getByPlaceholder('验证码').fill('zzzzz');
    const request = page.waitForRequest((r) => r.url().includes('/oauth/token'));
    await page.getByRole('button', { name: '登录' }).click();
    const sent = await request;
    expect(new URL(sent.url()).searchParams.get('grant_type')).toBe('captcha');
    expect(sent.headers()['captcha-key']).toBeTruthy();
    expect(sent.headers()['captcha-code']).toBe('zzzzz');
    await expectMessage(page, '验证码不正确');
    await setFrontConfig(admin, 'captchaMode', 'false');
  });

  test('a configured provider gets a button; its return posts grant_type=social', async () => {
    const { page } = browser;
    expectOk(
      await admin.post('/blade-system/social/submit', {
        source: 'demo',
        name: '演示账号',
        authorizeUrl: `${provider.url}/authorize`,
        tokenUrl: `${provider.url}/token`,
        userInfoUrl: `${provider.url}/user`,
        clientId: 'erp',
        clientSecret: 'erp-secret',
        redirectUri: `${server.url}/login?source=demo`,
        enabled: 2,
      }),
    );
    await page.goto(`${server.url}/login`);
    const button = page.locator('[data-social=demo]');
    await expect(button.innerText()).resolves.toContain('演示账号');

    const grant = page.waitForRequest((r) => r.url().includes('/oauth/token'));
    await button.click();
    const sent = new URL((await grant).url());
    expect(Object.fromEntries(sent.searchParams)).toMatchObject({
      grant_type: 'social',
      source: 'demo',
      code: 'provider-code-1',
      state: '000000',
      tenantId: '000000',
    });
    // The provider's account is not bound to a user yet: the server's message is shown.
    await expectMessage(page, '该第三方账号尚未绑定系统用户');
    await expect.poll(() => new URL(page.url()).searchParams.has('code')).toBe(false);
  });
});
