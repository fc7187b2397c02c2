/**
 * Social sign-in (grant_type social) against a local OAuth2 provider started by the test:
 * the provider is configured through social/submit; the first sign-in of an unbound account is
 * refused with an oauth_id, register-guest creates and binds a user, then the grant signs in.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';

interface Provider {
  url: string;
  /** Token requests the provider saw (form fields). */
  tokenRequests: Record<string, string>[];
  /** Issues a one-time authorization code for the provider's only user. */
  code(): string;
  close(): Promise<void>;
}

const CLIENT_ID = 'erp-client';
const CLIENT_SECRET = 'erp-client-secret';

/** A tiny OAuth2 authorization server: /authorize, /token (form POST), /user (bearer). */
async function startProvider(): Promise<Provider> {
  const codes = new Set<string>();
  const tokens = new Set<string>();
  const tokenRequests: Record<string, string>[] = [];
  let n = 0;
  const issue = () => {
    const code = `code-${++n}-${Math.random().toString(36).slice(2)}`;
    codes.add(code);
    return code;
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/authorize') {
      const redirect = new URL(url.searchParams.get('redirect_uri') ?? 'http://127.0.0.1/');
      redirect.searchParams.set('code', issue());
      redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: redirect.toString() });
      res.end();
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let text = '';
      req.on('data', (d) => (text += d));
      req.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(text));
        tokenRequests.push(form);
        if (form.client_id !== CLIENT_ID || form.client_secret !== CLIENT_SECRET) return json(401, { error: 'invalid_client' });
        if (form.grant_type !== 'authorization_code' || !codes.delete(form.code)) return json(400, { error: 'invalid_grant', error_description: 'bad code' });
        const token = `at-${Math.random().toString(36).slice(2)}`;
        tokens.add(token);
        json(200, { access_token: token, token_type: 'bearer' });
      });
      return;
    }
    if (url.pathname === '/user') {
      const auth = String(req.headers.authorization ?? '');
      if (!tokens.has(auth.replace(/^Bearer /, ''))) return json(401, { error: 'invalid_token' });
      return json(200, { id: 4242, login: 'octocat', name: 'Octo Cat', email: 'octo@example.com', avatar_url: 'http://127.0.0.1/a.png' });
    }
    json(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tokenRequests,
    code: issue,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.each(databases())('social sign-in ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let provider: Provider;
  let admin: Api;
  const source = 'localgit';

  const socialGrant = (code: string) => new Api(server.url).grant({ grant_type: 'social', source, code, state: '000000' });

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    provider = await startProvider();
    admin = await signedIn(server.url);
  });
  afterAll(async () => {
    await server?.close();
    await provider?.close();
  });

  test('an unconfigured source is refused', async () => {
    const reply = await socialGrant('whatever');
    expect(reply.status).toBe(400);
    expect(reply.body.error_description).toContain(source);
  });

  test('configure, first grant gives an oauth_id, register-guest binds it, then the social grant signs in', async () => {
    expectOk(
      await admin.post('/blade-system/social/submit', {
        source,
        name: '本地代码托管',
        authorizeUrl: `${provider.url}/authorize`,
        tokenUrl: `${provider.url}/token`,
        userInfoUrl: `${provider.url}/user`,
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        redirectUri: 'http://127.0.0.1:8080/oauth/redirect/localgit',
        enabled: 2,
      }),
      'social submit',
    );
    // The secret never comes back from reads.
    const listed = expectOk(await admin.get('/blade-system/social/list')).records.find((r: { source: string }) => r.source === source);
    expect(listed).toBeTruthy();
    expect(listed.clientSecret).toBeUndefined();
    // The login page learns about the provider from the public front config.
    const front = expectOk(await new Api(server.url).call('GET', '/blade-sys-config/sysconfig/front', { query: { tenantId: '000000' }, token: null }));
    expect(front.socialProviders).toEqual(expect.arrayContaining([expect.objectContaining({ source })]));

    // The browser is sent to the provider's authorize page.
    const render = await new Api(server.url).call('GET', `/blade-auth/oauth/render/${source}`, { query: { tenantId: '000000' }, token: null, redirect: 'manual' });
    expect(render.status).toBe(302);
    const location = new URL(String(render.headers.get('location')));
    expect(`${location.origin}${location.pathname}`).toBe(`${provider.url}/authorize`);
    expect(location.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(location.searchParams.get('state')).toBe('000000');

    const first = await socialGrant(provider.code());
    expect(first.status, JSON.stringify(first.body)).toBe(400);
    expect(first.body.error).toBe('invalid_grant');
    expect(first.body.access_token).toBeUndefined();
    const oauthId = String(first.body.oauth_id ?? '');
    expect(oauthId).not.toBe('');
    // The server exchanged the code with the configured credentials.
    expect(provider.tokenRequests.at(-1)).toMatchObject({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, grant_type: 'authorization_code' });

    const registered = await new Api(server.url).call('POST', '/blade-user/register-guest', {
      json: { tenantId: '000000', account: 'octocat', name: 'Octo', password: 'Octo-1234', oauthId },
      token: null,
    });
    const guest = expectOk(registered, 'register-guest');
    expect(guest.account).toBe('octocat');

    const second = await socialGrant(provider.code());
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body).toMatchObject({ account: 'octocat', tenant_id: '000000', role_name: 'guest', user_id: String(guest.id) });
    // The guest's password works too.
    expect((await new Api(server.url).login('octocat', 'Octo-1234')).status).toBe(200);
  });

  test('a code the provider does not know is refused', async () => {
    const reply = await socialGrant('not-a-code');
    expect(reply.status).toBe(400);
    expect(reply.body.error_description).toContain('第三方登录失败');
    expect(reply.body.access_token).toBeUndefined();
  });

  test('a disabled provider is refused', async () => {
    const row = expectOk(await admin.get('/blade-system/social/list')).records.find((r: { source: string }) => r.source === source);
    expectOk(await admin.post('/blade-system/social/submit', { ...row, enabled: 1 }));
    const reply = await socialGrant(provider.code());
    expect(reply.status).toBe(400);
    expect(reply.body.access_token).toBeUndefined();
  });
});
