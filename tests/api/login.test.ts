/**
 * Acceptance 1: the demo login exactly as a Saber 2.x client sends it, and the session calls the
 * shell needs first (menu routes, buttons, dictionaries), on both path prefixes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, BASIC, expectOk, md5, signedIn } from '../support/client.ts';
import { SCHEMAS, rowsOf } from '../support/resources.ts';

interface MenuSeed {
  code: string;
  path: string;
  children?: MenuSeed[];
}

/** code -> [parent code, path] of every entry of schemas/menus.json. */
function seededMenus(): Map<string, [string, string]> {
  const menus = (JSON.parse(fs.readFileSync(path.join(SCHEMAS, 'menus.json'), 'utf8')) as { menus: MenuSeed[] }).menus;
  const out = new Map<string, [string, string]>();
  const walk = (items: MenuSeed[], parent: string) => {
    for (const m of items) {
      out.set(m.code, [parent, m.path]);
      walk(m.children ?? [], m.code);
    }
  };
  walk(menus, '');
  return out;
}

/** The same map read from a routes answer (nested VO rows with children). */
function servedMenus(tree: Record<string, unknown>[]): Map<string, [string, string]> {
  const out = new Map<string, [string, string]>();
  const walk = (items: Record<string, unknown>[], parent: string) => {
    for (const m of items) {
      out.set(String(m.code), [parent, String(m.path)]);
      walk((m.children as Record<string, unknown>[]) ?? [], String(m.code));
    }
  };
  walk(tree, '');
  return out;
}

describe.each(databases())('login and session calls ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
  });
  afterAll(async () => server?.close());

  test('Saber 2.x login: query parameters on a POST with an empty body, Basic and Tenant-Id headers, md5 password', async () => {
    const url = new URL('/api/blade-auth/oauth/token', server.url);
    const params = { tenantId: '000000', username: 'admin', password: md5('admin'), grant_type: 'password', scope: 'all', type: 'account' };
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    const res = await fetch(url, { method: 'POST', headers: { authorization: BASIC, 'tenant-id': '000000' } });
    expect(res.status).toBe(200);
    const body = await res.json();
    // The flat OAuth2 answer of dialect A, not wrapped in R.
    expect(body.code).toBeUndefined();
    expect(body).toMatchObject({
      token_type: 'bearer',
      tenant_id: '000000',
      account: 'admin',
      user_name: 'admin',
      real_name: '管理员',
      role_name: 'administrator',
      expires_in: 3600,
    });
    for (const key of ['access_token', 'refresh_token', 'user_id', 'role_id', 'dept_id']) {
      expect(typeof body[key], key).toBe('string');
      expect(body[key].length, key).toBeGreaterThan(0);
    }
    expect(body.access_token).not.toBe(body.refresh_token);
    // The token works on an authenticated call and names the same user.
    const info = expectOk(await new Api(server.url).call('GET', '/blade-system/user/info', { token: body.access_token }));
    expect(info.id).toBe(body.user_id);
    expect(info.account).toBe('admin');
  });

  test('a form-urlencoded body signs in too', async () => {
    const api = new Api(server.url);
    const form = new URLSearchParams({ tenantId: '000000', username: 'admin', password: md5('admin'), grant_type: 'password', scope: 'all' });
    const reply = await api.call('POST', '/blade-auth/oauth/token', {
      body: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      token: null,
    });
    expect(reply.status).toBe(200);
    expect(reply.body.account).toBe('admin');
    expect(reply.body.tenant_id).toBe('000000');
  });

  test('the tenant comes from tenant_id or from the Tenant-Id header alone', async () => {
    const api = new Api(server.url);
    const base = { username: 'admin', password: md5('admin'), grant_type: 'password', scope: 'all' };
    const byParam = await api.call('POST', '/blade-auth/oauth/token', { query: { ...base, tenant_id: '100001' }, token: null });
    expect(byParam.status).toBe(200);
    expect(byParam.body.tenant_id).toBe('100001');
    const byHeader = await api.call('POST', '/blade-auth/oauth/token', { query: base, headers: { 'tenant-id': '100001' }, token: null });
    expect(byHeader.status).toBe(200);
    expect(byHeader.body.tenant_id).toBe('100001');
    // A different tenant is a different user row.
    const own = expectOk(await admin.get('/blade-system/user/info'));
    expect(byHeader.body.user_id).not.toBe(own.id);
  });

  test('the token endpoint answers on the gateway path (without /api) too', async () => {
    const reply = await new Api(server.url).call('POST', '/blade-auth/oauth/token', {
      prefix: '',
      query: { tenantId: '000000', username: 'admin', password: md5('admin'), grant_type: 'password', scope: 'all' },
      token: null,
    });
    expect(reply.status).toBe(200);
    expect(reply.body.role_name).toBe('administrator');
  });

  test('menu/routes returns the whole seeded menu tree with its nesting and paths', async () => {
    const routes = expectOk(await admin.get('/blade-system/menu/routes'));
    const served = servedMenus(routes);
    const seeded = seededMenus();
    expect(seeded.size).toBeGreaterThan(50);
    const missing = [...seeded.keys()].filter((code) => !served.has(code));
    expect(missing).toEqual([]);
    for (const [code, [parent, menuPath]] of seeded) {
      expect(served.get(code), code).toEqual([parent, menuPath]);
    }
    // Routes hold menus only: no button rows.
    expect(rowsOf(routes).every((m) => Number(m.category) === 1)).toBe(true);
  });

  test('menu/buttons holds the administrator buttons', async () => {
    const buttons = rowsOf(expectOk(await admin.get('/blade-system/menu/buttons')));
    const codes = new Set(buttons.map((b) => String(b.code)));
    for (const code of ['param_add', 'param_edit', 'param_delete', 'param_view', 'user_add', 'role_grant', 'user_reset']) {
      expect(codes.has(code), code).toBe(true);
    }
    const add = buttons.find((b) => b.code === 'param_add')!;
    expect(Number(add.category)).toBe(2);
  });

  test('dict/dictionary?code=sex gives items with dictKey and dictValue', async () => {
    const items = expectOk<{ dictKey: string; dictValue: string }[]>(await admin.get('/blade-system/dict/dictionary', { code: 'sex' }));
    expect(items.map((i) => [i.dictKey, i.dictValue])).toEqual(expect.arrayContaining([['1', '男'], ['2', '女']]));
    // Only items, never the dictionary's own header row.
    expect(items.every((i) => i.dictKey !== '-1')).toBe(true);
    const none = expectOk(await admin.get('/blade-system/dict/dictionary', { code: 'no_such_dict' }));
    expect(none).toEqual([]);
  });

  test('/api/blade-system/... and /blade-system/... answer the same', async () => {
    for (const [p, q] of [
      ['/blade-system/menu/routes', {}],
      ['/blade-system/menu/buttons', {}],
      ['/blade-system/dict/dictionary', { code: 'sex' }],
    ] as const) {
      const withApi = await admin.call('GET', p, { query: q });
      const gateway = await admin.call('GET', p, { query: q, prefix: '' });
      expect(withApi.status).toBe(200);
      expect(gateway.status).toBe(200);
      expect(gateway.body).toEqual(withApi.body);
    }
  });
});
