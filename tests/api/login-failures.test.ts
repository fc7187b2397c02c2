/**
 * Acceptance 2: failed sign-ins answer HTTP 400 `{error, error_description}` with the texts a user
 * needs (wrong password, locked account, unknown tenant, wrong captcha), and five wrong passwords
 * lock the account even against the right one — at that client address only (issue 16 §1): from
 * elsewhere the rightful user still signs in, answering the captcha the account now asks for.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, md5, signedIn } from '../support/client.ts';

describe.each(databases())('failed sign-in ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let roleId: string;
  let deptId: string;

  /** A fresh user of tenant 000000, so locking it never touches the admin the other tests use. */
  async function newUser(account: string, password: string) {
    expectOk(
      await admin.post('/blade-user/submit', { account, password, realName: '锁定测试', name: account.slice(0, 20), roleId, deptId }),
      'create user',
    );
  }

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    const roles = expectOk<{ id: string; roleAlias: string }[]>(await admin.get('/blade-system/role/list', { roleAlias_equal: 'user' }));
    roleId = roles[0].id;
    deptId = expectOk<{ id: string }[]>(await admin.get('/blade-system/dept/list'))[0].id;
  });
  afterAll(async () => server?.close());

  test('a wrong password answers 400 invalid_grant 用户名或密码错误', async () => {
    const reply = await new Api(server.url).login('admin', 'not-the-password');
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: 'invalid_grant', error_description: '用户名或密码错误' });
    // An unknown account gets the very same answer (no account probing).
    const unknown = await new Api(server.url).login('nobody-here', 'admin');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: 'invalid_grant', error_description: '用户名或密码错误' });
  });

  test('five wrong passwords lock the account: the sixth try fails even with the right password', async () => {
    await newUser('lockme', 'Right-Pass1');
    const api = new Api(server.url);
    // The account signs in before the failures, so the lock is what refuses it later.
    expect((await api.login('lockme', 'Right-Pass1')).status).toBe(200);
    for (let i = 1; i <= 5; i++) {
      const reply = await api.login('lockme', `wrong-${i}`);
      expect(reply.status, `try ${i}`).toBe(400);
      expect(reply.body.error_description, `try ${i}`).toBe('用户名或密码错误');
    }
    const sixth = await api.login('lockme', 'Right-Pass1');
    expect(sixth.status).toBe(400);
    expect(sixth.body.access_token).toBeUndefined();
    expect(sixth.body.error_description).toContain('锁定');
    expect(sixth.body.error_description).toContain('30');
    // The lock is per tenant and account: the admin still signs in.
    expect((await new Api(server.url).login('admin', 'admin')).status).toBe(200);
  });

  test('fewer than five failures do not lock, and a success clears the count', async () => {
    await newUser('almost', 'Right-Pass2');
    const api = new Api(server.url);
    for (let i = 0; i < 4; i++) expect((await api.login('almost', 'wrong')).status).toBe(400);
    expect((await api.login('almost', 'Right-Pass2')).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await api.login('almost', 'wrong')).status).toBe(400);
    expect((await api.login('almost', 'Right-Pass2')).status).toBe(200);
  });

  test('an unknown tenant answers 租户ID未找到', async () => {
    const reply = await new Api(server.url, '999999').login('admin', 'admin');
    expect(reply.status).toBe(400);
    expect(reply.body.error_description).toBe('租户ID未找到');
    expect(reply.body.access_token).toBeUndefined();
  });

  test('captcha grant: a wrong code is refused with 验证码不正确, the right one signs in, each captcha works once', async () => {
    const api = new Api(server.url);
    const captcha = async () => {
      const reply = await api.call('GET', '/blade-auth/oauth/captcha', { basic: null, token: null });
      expect(reply.status).toBe(200);
      expect(reply.body.image).toMatch(/^data:image\/[a-z+]+;base64,/);
      // The text is drawn into the image; HTTP cannot read it back, the database can.
      const row = await server.services.store.get(server.services.internal.captcha, '000000', String(reply.body.key));
      expect(row, 'captcha stored').toBeTruthy();
      return { key: String(reply.body.key), code: String(row!.code) };
    };
    const query = { grant_type: 'captcha', username: 'admin', password: md5('admin') };

    const first = await captcha();
    const wrong = await api.grant(query, { 'captcha-key': first.key, 'captcha-code': `${first.code}x` });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error_description).toBe('验证码不正确');

    const none = await api.grant(query);
    expect(none.status).toBe(400);
    expect(none.body.error_description).toBe('验证码不正确');

    const second = await captcha();
    // Compared case-insensitively, as BladeX does.
    const right = await api.grant(query, { 'captcha-key': second.key, 'captcha-code': second.code.toUpperCase() });
    expect(right.status).toBe(200);
    expect(right.body.account).toBe('admin');

    const again = await api.grant(query, { 'captcha-key': second.key, 'captcha-code': second.code });
    expect(again.status).toBe(400);
    expect(again.body.error_description).toBe('验证码不正确');
  });

  test('the lock holds at the address it came from; elsewhere the account asks for the captcha, which lets the user in', async () => {
    await newUser('target', 'Right-Pass3');
    const api = new Api(server.url);
    const from = (ip: string, password: string, extra: Record<string, string> = {}, grant = 'password') =>
      api.grant({ grant_type: grant, username: 'target', password: md5(password) }, { 'x-forwarded-for': ip, ...extra });
    for (let i = 1; i <= 5; i++) expect((await from('203.0.113.7', `wrong-${i}`)).body.error_description).toBe('用户名或密码错误');
    const attacker = await from('203.0.113.7', 'Right-Pass3');
    expect(attacker.body.error_description).toContain('锁定');

    // The rightful user elsewhere is not locked out, but the account now wants the captcha.
    const asked = await from('198.51.100.20', 'Right-Pass3');
    expect(asked.status).toBe(400);
    expect(asked.body).toMatchObject({ error: 'invalid_grant', error_description: '该账号登录失败次数过多，请输入验证码', captcha: true });
    const reply = await api.call('GET', '/blade-auth/oauth/captcha', { basic: null, token: null });
    const row = await server.services.store.get(server.services.internal.captcha, '000000', String(reply.body.key));
    const ok = await from('198.51.100.20', 'Right-Pass3', { 'captcha-key': String(reply.body.key), 'captcha-code': String(row!.code) }, 'captcha');
    expect(ok.status).toBe(200);
    expect(ok.body.account).toBe('target');
    // A success clears the account's count: no captcha next time (the attacker's address stays locked).
    expect((await from('198.51.100.20', 'Right-Pass3')).status).toBe(200);
    expect((await from('203.0.113.7', 'Right-Pass3')).body.error_description).toContain('锁定');
    // 账号解封 lifts the lock at every address.
    const [user] = expectOk<{ records: { id: string; account: string }[] }>(await admin.get('/blade-user/page', { account: 'target' })).records.filter((u) => u.account === 'target');
    expectOk(await admin.call('POST', '/blade-user/unlock', { query: { userIds: user.id } }));
    expect((await from('203.0.113.7', 'Right-Pass3')).status).toBe(200);
  });

  test('failed sign-ins are written to the login log', async () => {
    const rows = expectOk<{ records: { account: string; success: number; message: string }[] }>(
      await admin.get('/blade-log/loglogin/list', { account_equal: 'lockme', size: 50 }),
    ).records;
    expect(rows.some((r) => String(r.message).includes('锁定'))).toBe(true);
    expect(rows.filter((r) => r.message === '用户名或密码错误').length).toBeGreaterThanOrEqual(5);
  });
});
