/**
 * Issue 16 §1, on SQLite and PostgreSQL: access that ends, ends on the holder's very next call —
 * a disabled or removed user's token is refused and their refresh token dies with it (enabling
 * them again does not revive it); a reset password refuses tokens issued under the old one; roles
 * taken away take their rights with them at once, and roles given take effect at once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';

type Row = Record<string, unknown>;
const PROTECTED = '/blade-system/param/list';
const PASSWORD = 'Boss-12345';

describe.each(databases())('access that ends ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let adminRole: string;
  let userRole: string;
  let deptId: unknown;
  let n = 0;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    const roles = expectOk<Row[]>(await admin.get('/blade-system/role/list'));
    adminRole = String(roles.find((r) => r.roleAlias === 'administrator')!.id);
    userRole = String(roles.find((r) => r.roleAlias === 'user')!.id);
    deptId = expectOk<Row[]>(await admin.get('/blade-system/dept/list'))[0].id;
  });
  afterAll(async () => server?.close());

  /** A new administrator, signed in. */
  async function boss(): Promise<{ id: string; api: Api; account: string }> {
    const account = `boss${++n}`;
    const user = expectOk<Row>(await admin.post('/blade-user/submit', { account, password: PASSWORD, realName: `老板${n}`, roleId: adminRole, deptId }));
    const api = await signedIn(server.url, '000000', account, PASSWORD);
    expect((await api.get(PROTECTED)).status).toBe(200);
    return { id: String(user.id), api, account };
  }

  const refresh = (api: Api) => api.grant({ grant_type: 'refresh_token', refresh_token: api.refreshToken });

  test('a disabled user is refused on the next call; the refresh token dies and stays dead', async () => {
    const { id, api } = await boss();
    const copy = Object.assign(new Api(server.url), { token: api.token, refreshToken: api.refreshToken });
    expectOk(await admin.call('POST', '/blade-user/disable', { query: { ids: id } }));
    const refused = await api.get(PROTECTED);
    expect(refused.status).toBe(401);
    // Disabling ends the user's sessions.
    expect(refused.body.msg).toBe('令牌已失效,请重新登录');
    expect((await refresh(api)).status).not.toBe(200);
    expectOk(await admin.call('POST', '/blade-user/enable', { query: { ids: id } }));
    // Enabled again, the old session is over: a new sign-in is needed.
    expect((await copy.get(PROTECTED)).status).toBe(401);
    expect((await refresh(copy)).status).not.toBe(200);
  });

  test('a removed user is refused on the next call', async () => {
    const { id, api } = await boss();
    expectOk(await admin.call('POST', '/blade-user/remove', { query: { ids: id } }));
    expect((await api.get(PROTECTED)).status).toBe(401);
    expect((await refresh(api)).status).not.toBe(200);
  });

  test('a reset password refuses the tokens issued under the old one; signing in again works', async () => {
    const { id, api, account } = await boss();
    expectOk(await admin.call('POST', '/blade-user/reset-password', { query: { userIds: id } }));
    const refused = await api.get(PROTECTED);
    expect(refused.status).toBe(401);
    expect(refused.body.msg).toBe('密码已修改,请重新登录');
    expect((await refresh(api)).status).not.toBe(200);
    const again = await signedIn(server.url, '000000', account, '123456');
    expect((await again.get(PROTECTED)).status).toBe(200);
  });

  test('roles taken away take their rights at once; roles given take effect at once', async () => {
    const { id, api } = await boss();
    expectOk(await admin.call('POST', '/blade-user/grant', { query: { userIds: id, roleIds: userRole } }));
    // 普通用户 holds no system buttons: the same token is now refused the administrator's call.
    const denied = await api.post('/blade-system/param/submit', { paramName: '试验', paramKey: `k${n}`, paramValue: '1' });
    expect(denied.status).toBe(403);
    expectOk(await admin.call('POST', '/blade-user/grant', { query: { userIds: id, roleIds: adminRole } }));
    expectOk(await api.post('/blade-system/param/submit', { paramName: '试验', paramKey: `k${n}`, paramValue: '1' }));
  });

  test('the user info answers the roles as they are now', async () => {
    const { id, api } = await boss();
    expectOk(await admin.call('POST', '/blade-user/grant', { query: { userIds: id, roleIds: userRole } }));
    expect(expectOk<Row>(await api.get('/blade-user/info')).roleAlias).toBe('user');
  });
});
