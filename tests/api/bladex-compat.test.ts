/**
 * Issue 16 §4, on SQLite and PostgreSQL: answers a BladeX (Saber 2.x) client reads as BladeX gives
 * them — tenant/info for an unknown domain is an empty object (Saber reads data.tenantId); user
 * pages carry tenantName; departments carry deptCategoryName and other dictionary keys of system
 * and master data their …Name value; POST oauth/token/refresh refreshes under the refresh_token
 * grant's rules.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';

type Row = Record<string, unknown>;

describe.each(databases())('what a BladeX client expects ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
  });
  afterAll(async () => server?.close());

  test('tenant/info for a domain no tenant has answers an empty object', async () => {
    const reply = await new Api(server.url).call('GET', '/blade-system/tenant/info', { query: { domain: 'nobody.example.com' }, token: null });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({});
  });

  test('user pages carry tenantName and the names of their dictionary keys', async () => {
    const page = expectOk<{ records: Row[] }>(await admin.get('/blade-user/page', { current: 1, size: 10 }));
    const me = page.records.find((u) => u.account === 'admin')!;
    expect(me.tenantName).toBe('管理组');
    expect(me.sexName).toBe('男');
    expect(me.roleName).toBe('超级管理员');
  });

  test('departments carry deptCategoryName, in lazy-list and detail', async () => {
    const [dept] = expectOk<Row[]>(await admin.get('/blade-system/dept/lazy-list', { parentId: '0' }));
    expect(dept.deptCategory).toBe(1);
    expect(dept.deptCategoryName).toBe('公司');
    expect(expectOk<Row>(await admin.get('/blade-system/dept/detail', { id: dept.id })).deptCategoryName).toBe('公司');
  });

  test('master data: a tax rate says 是/否 beside its flags', async () => {
    const rate = expectOk<Row>(await admin.post('/blade-base/taxrate/submit', { taxRateName: '农产品9%', taxRate: '9', isTax: 2, isDefault: 1, remark: '农产品' }));
    const read = expectOk<Row>(await admin.get('/blade-base/taxrate/detail', { id: rate.id }));
    expect(read).toMatchObject({ isTaxName: '是', isDefaultName: '否' });
  });

  test('menus keep icon-font classes in source, as BladeX stores them', async () => {
    const routes = expectOk<Row[]>(await admin.get('/blade-system/menu/routes'));
    const sale = routes.find((m) => m.code === 'sale')!;
    expect(sale.source).toBe('iconfont icon-shopping-cart');
    expect(routes.every((m) => /^iconfont icon-[a-z0-9-]+$/.test(String(m.source)))).toBe(true);
  });

  test('POST oauth/token/refresh rotates the refresh token; a used one is refused and ends the session', async () => {
    const api = await signedIn(server.url);
    const first = await api.call('POST', '/blade-auth/oauth/token/refresh', { query: { refresh_token: api.refreshToken, tenantId: '000000' }, token: null });
    expect(first.status).toBe(200);
    expect(first.body.access_token).toBeTruthy();
    expect(first.body.refresh_token).not.toBe(api.refreshToken);
    const reused = await api.call('POST', '/blade-auth/oauth/token/refresh', { query: { refresh_token: api.refreshToken, tenantId: '000000' }, token: null });
    expect(reused.status).toBe(400);
    expect(reused.body.error_description).toBe('刷新令牌已被使用，请重新登录');
    const rotated = await api.call('POST', '/blade-auth/oauth/token/refresh', { query: { refresh_token: first.body.refresh_token, tenantId: '000000' }, token: null });
    expect(rotated.status).toBe(400);
  });
});
