/**
 * Acceptance 4: button permissions and API scopes are enforced on the server. A role without a
 * button's code gets 403 with a Chinese message on that call; granting it makes the call pass.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';
import { rowsOf } from '../support/resources.ts';

describe.each(databases())('permissions ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let clerk: Api;
  let roleId: string;
  let paramMenuId: string;
  let paramAddId: string;

  const paramCount = () => server.services.store.count(server.services.m('param'), '000000');
  const newParam = (key: string) => ({ paramName: `权限测试${key}`, paramKey: `perm.${key}`, paramValue: '1' });
  const grant = async (query: Record<string, string>) => expectOk(await admin.call('POST', '/blade-system/role/grant', { query }), 'role grant');

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    const role = expectOk(await admin.post('/blade-system/role/submit', { parentId: '0', roleName: '出纳', roleAlias: 'cashier', sort: 9 }), 'role');
    roleId = String(role.id);
    const deptId = expectOk<{ id: string }[]>(await admin.get('/blade-system/dept/list'))[0].id;
    expectOk(await admin.post('/blade-user/submit', { account: 'cashier1', password: 'Cash-1234', realName: '出纳甲', roleId, deptId }), 'user');
    clerk = await signedIn(server.url, '000000', 'cashier1', 'Cash-1234');
    const [button] = expectOk<{ id: string; parentId: string }[]>(await admin.get('/blade-system/menu/list', { code_equal: 'param_add' }));
    paramAddId = String(button.id);
    paramMenuId = String(button.parentId);
    const [menu] = expectOk<{ code: string }[]>(await admin.get('/blade-system/menu/list', { id: paramMenuId }));
    expect(menu.code).toBe('param');
  });
  afterAll(async () => server?.close());

  test('the new role holds no buttons and is not an administrator', async () => {
    const buttons = rowsOf(expectOk(await clerk.get('/blade-system/menu/buttons')));
    expect(buttons.filter((b) => Number(b.category) === 2)).toEqual([]);
    expect((await clerk.login('cashier1', 'Cash-1234')).body.role_name).toBe('cashier');
  });

  test('without param_add, param/submit is refused with 403 and a Chinese message; nothing is written', async () => {
    const before = await paramCount();
    const reply = await clerk.post('/blade-system/param/submit', newParam('a'));
    expect(reply.status).toBe(403);
    expect(reply.body.code).toBe(403);
    expect(reply.body.success).toBe(false);
    expect(reply.body.msg).toMatch(/[\u4e00-\u9fa5]/);
    expect(reply.body.msg).toContain('权限');
    expect(await paramCount()).toBe(before);
    // The administrator may (control).
    expectOk(await admin.post('/blade-system/param/submit', newParam('admin')));
  });

  test('granting param_add (with its menu) makes the same call pass; edit and delete stay refused', async () => {
    await grant({ roleIds: roleId, menuIds: `${paramMenuId},${paramAddId}` });
    const buttons = rowsOf(expectOk(await clerk.get('/blade-system/menu/buttons'))).map((b) => b.code);
    expect(buttons).toContain('param_add');
    expect(buttons).not.toContain('param_edit');
    const before = await paramCount();
    const created = expectOk(await clerk.post('/blade-system/param/submit', newParam('b')), 'param add after grant');
    expect(await paramCount()).toBe(before + 1);
    const edit = await clerk.post('/blade-system/param/submit', { ...created, paramValue: '2' });
    expect(edit.status).toBe(403);
    const remove = await clerk.call('POST', '/blade-system/param/remove', { query: { ids: created.id } });
    expect(remove.status).toBe(403);
    // Routes now lead to the granted menu.
    const routes = rowsOf(expectOk(await clerk.get('/blade-system/menu/routes'))).map((m) => m.code);
    expect(routes).toContain('param');
    expect(routes).not.toContain('user');
  });

  test('an API scope on /blade-system/param/** refuses the role until the scope is granted', async () => {
    // Reachable before any scope exists.
    expect((await clerk.get('/blade-system/param/list')).status).toBe(200);
    const scopeType = expectOk<{ dictKey: string }[]>(await admin.get('/blade-system/dict/dictionary', { code: 'api_scope_type' }))[0].dictKey;
    const scope = expectOk(
      await admin.post('/blade-system/api-scope/submit', {
        menuId: paramMenuId,
        resourceCode: 'param_api',
        scopeName: '参数接口',
        scopePath: '/blade-system/param/**',
        scopeType: Number(scopeType),
      }),
      'api scope',
    );
    const refused = await clerk.get('/blade-system/param/list');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(403);
    expect(refused.body.msg).toMatch(/[\u4e00-\u9fa5]/);
    // Both path forms are covered by the one pattern.
    expect((await clerk.call('GET', '/blade-system/param/list', { prefix: '' })).status).toBe(403);
    const before = await paramCount();
    expect((await clerk.post('/blade-system/param/submit', newParam('c'))).status).toBe(403);
    expect(await paramCount()).toBe(before);
    // Other services are not covered by the scope.
    expect((await clerk.get('/blade-system/dict/dictionary', { code: 'sex' })).status).toBe(200);
    // Administrators are never limited by scopes.
    expect((await admin.get('/blade-system/param/list')).status).toBe(200);

    await grant({ roleIds: roleId, menuIds: `${paramMenuId},${paramAddId}`, apiScopeIds: String(scope.id) });
    expect((await clerk.get('/blade-system/param/list')).status).toBe(200);
    expectOk(await clerk.post('/blade-system/param/submit', newParam('d')), 'param add with scope');
    const keys = expectOk(await admin.get('/blade-system/menu/role-tree-keys', { roleIds: roleId }));
    expect(keys.apiScope).toEqual([String(scope.id)]);
  });

  test('revoking the grant takes effect at once', async () => {
    await grant({ roleIds: roleId, menuIds: '' });
    expect((await clerk.post('/blade-system/param/submit', newParam('e'))).status).toBe(403);
    expect((await clerk.get('/blade-system/param/list')).status).toBe(403);
  });

  test('a non-administrator cannot hand on what they do not hold', async () => {
    const reply = await clerk.call('POST', '/blade-system/role/grant', { query: { roleIds: roleId, menuIds: paramAddId } });
    expect(reply.status).toBe(403);
  });
});
