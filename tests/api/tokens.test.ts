/**
 * Acceptance 3: missing, forged and expired tokens and a wrong Basic client get HTTP 401 with body
 * code 401; refresh tokens rotate (a used one is refused and its reuse ends the session); logout
 * revokes both tokens.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, basicOf, md5, signedIn } from '../support/client.ts';
import { claimsOf, signJwt } from '../support/jwt.ts';

const PROTECTED = '/blade-system/param/list';

describe.each(databases())('tokens and clients ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let secret: string;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    // Generated into the data directory on first start.
    secret = fs.readFileSync(path.join(server.dataDir, 'jwt-secret'), 'utf8').trim();
    expect(secret.length).toBeGreaterThanOrEqual(32);
  });
  afterAll(async () => server?.close());

  const expect401 = (reply: { status: number; body: { code?: number; success?: boolean } }) => {
    expect(reply.status).toBe(401);
    expect(reply.body.code).toBe(401);
    expect(reply.body.success).toBe(false);
  };

  test('a valid token passes (control for the refusals below)', async () => {
    const api = await signedIn(server.url);
    const reply = await api.get(PROTECTED);
    expect(reply.status).toBe(200);
    expect(reply.body.code).toBe(200);
  });

  test('no token → 401', async () => {
    expect401(await new Api(server.url).get(PROTECTED));
    // A Blade-Auth header without the bearer prefix is no token either.
    const api = await signedIn(server.url);
    expect401(await api.call('GET', PROTECTED, { token: null, headers: { 'blade-auth': api.token! } }));
  });

  test('a token with a forged signature → 401', async () => {
    const api = await signedIn(server.url);
    const claims = claimsOf(api.token!);
    expect401(await api.call('GET', PROTECTED, { token: signJwt(claims, 'not-the-server-secret') }));
    // Changed claims under the old signature.
    const [head, , sig] = api.token!.split('.');
    const other = Buffer.from(JSON.stringify({ ...claims, tid: '100001' })).toString('base64url');
    expect401(await api.call('GET', PROTECTED, { token: `${head}.${other}.${sig}` }));
    expect401(await api.call('GET', PROTECTED, { token: 'not.a.jwt' }));
  });

  test('an expired token → 401, while the same claims with a future expiry pass', async () => {
    const api = await signedIn(server.url);
    const claims = claimsOf(api.token!);
    const now = Math.floor(Date.now() / 1000);
    const fresh = signJwt({ ...claims, iat: now, exp: now + 600 }, secret);
    expect((await api.call('GET', PROTECTED, { token: fresh })).status).toBe(200);
    const expired = signJwt({ ...claims, iat: now - 7200, exp: now - 3600 }, secret);
    const reply = await api.call('GET', PROTECTED, { token: expired });
    expect401(reply);
    expect(reply.body).toMatchObject({ msg: expect.stringContaining('过期') });
  });

  test('a refresh token is not an access token', async () => {
    const api = await signedIn(server.url);
    expect401(await api.call('GET', PROTECTED, { token: api.refreshToken! }));
  });

  test('a wrong or missing Basic client → 401 on service calls and on the token endpoint', async () => {
    const api = await signedIn(server.url);
    expect401(await api.call('GET', PROTECTED, { basic: basicOf('saber', 'wrong_secret') }));
    expect401(await api.call('GET', PROTECTED, { basic: basicOf('nosuchclient', 'x') }));
    expect401(await api.call('GET', PROTECTED, { basic: null }));
    const token = await api.call('POST', '/blade-auth/oauth/token', {
      query: { tenantId: '000000', username: 'admin', password: md5('admin'), grant_type: 'password' },
      basic: basicOf('saber', 'wrong_secret'),
      token: null,
    });
    expect(token.status).toBe(401);
    expect(token.body.access_token).toBeUndefined();
    expect(token.body.error).toBeTruthy();
    // Another seeded client signs in with its own secret.
    const sword = await api.call('POST', '/blade-auth/oauth/token', {
      query: { tenantId: '000000', username: 'admin', password: md5('admin'), grant_type: 'password' },
      basic: basicOf('sword', 'sword_secret'),
      token: null,
    });
    expect(sword.status).toBe(200);
    expect(sword.body.client_id).toBe('sword');
  });

  test('refresh rotates: the new pair works, the used refresh token is refused, and its reuse ends the session', async () => {
    const api = await signedIn(server.url);
    const first = { access: api.token!, refresh: api.refreshToken! };
    const refreshed = await api.grant({ grant_type: 'refresh_token', refresh_token: first.refresh });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.account).toBe('admin');
    expect(refreshed.body.refresh_token).not.toBe(first.refresh);
    const second = { access: refreshed.body.access_token as string, refresh: refreshed.body.refresh_token as string };
    expect((await api.call('GET', PROTECTED, { token: second.access })).status).toBe(200);

    const reused = await api.grant({ grant_type: 'refresh_token', refresh_token: first.refresh });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
    expect(reused.body.access_token).toBeUndefined();
    // Someone holds a copy: the whole session is revoked, the current pair included.
    expect401(await api.call('GET', PROTECTED, { token: second.access }));
    expect((await api.grant({ grant_type: 'refresh_token', refresh_token: second.refresh })).status).toBe(400);
  });

  test('a refresh token of another client is refused', async () => {
    const api = await signedIn(server.url);
    const reply = await api.call('POST', '/blade-auth/oauth/token', {
      query: { grant_type: 'refresh_token', refresh_token: api.refreshToken!, tenantId: '000000' },
      basic: basicOf('sword', 'sword_secret'),
      token: null,
    });
    expect(reply.status).toBe(400);
    expect(reply.body.access_token).toBeUndefined();
  });

  test('logout revokes: the access token then gets 401 and the refresh token is refused', async () => {
    const api = await signedIn(server.url);
    const other = await signedIn(server.url);
    const out = await api.call('GET', '/blade-auth/oauth/logout');
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ success: 'true' });
    expect401(await api.get(PROTECTED));
    const refresh = await api.grant({ grant_type: 'refresh_token', refresh_token: api.refreshToken! });
    expect(refresh.status).toBe(400);
    expect(refresh.body.error).toBe('invalid_grant');
    // Only that session ends.
    expect((await other.get(PROTECTED)).status).toBe(200);
  });
});
