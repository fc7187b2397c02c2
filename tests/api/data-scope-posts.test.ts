/**
 * Data scopes (数据权限) limit what a role's reads return, on list, page and detail; post
 * permissions (岗位权限) add menus and buttons to a user through their post, and nobody hands
 * on through a post what they do not hold themselves.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';
import { rowsOf } from '../support/resources.ts';

interface Param {
  id: string;
  paramName: string;
  createUser: string;
}

describe.each(databases())('data scopes and post permissions ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let clerk: Api;
  let roleId: string;
  let deptId: string;
  const menuIdOf = async (code: string) => String(expectOk<{ id: string }[]>(await admin.get('/blade-system/menu/list', { code_equal: code }))[0].id);
  const grant = async (query: Record<string, string>) => expectOk(await admin.call('POST', '/blade-system/role/grant', { query }), 'role grant');
  const addScope = async (scopeName: string, scopeColumn: string, scopeType: number) =>
    expectOk<{ id: string }>(
      await admin.post('/blade-system/data-scope/submit', { menuId: await menuIdOf('param'), resourceCode: 'param', scopeName, scopeColumn, scopeType }),
      'data scope',
    );
  const params = async (who: Api) =>
    expectOk<{ records: Param[]; total: number }>(await who.get('/blade-system/param/list', { paramName: '数据范围', size: 50 })).records;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    roleId = String(expectOk(await admin.post('/blade-system/role/submit', { parentId: '0', roleName: '录入员', roleAlias: 'typist', sort: 9 })).id);
    deptId = expectOk<{ id: string }[]>(await admin.get('/blade-system/dept/list'))[0].id;
    expectOk(await admin.post('/blade-user/submit', { account: 'typist1', password: 'Type-1234', realName: '录入甲', roleId, deptId }), 'user');
    clerk = await signedIn(server.url, '000000', 'typist1', 'Type-1234');
    await grant({ roleIds: roleId, menuIds: `${await menuIdOf('param')},${await menuIdOf('param_add')}` });
    for (const n of ['一', '二']) expectOk(await admin.post('/blade-system/param/submit', { paramName: `数据范围管理员${n}`, paramKey: `scope.admin${n}`, paramValue: '1' }));
    expectOk(await clerk.post('/blade-system/param/submit', { paramName: '数据范围录入员', paramKey: 'scope.typist', paramValue: '1' }), 'clerk param');
  });
  afterAll(async () => server?.close());

  test('without a data scope the role reads every row', async () => {
    expect((await params(clerk)).map((p) => p.paramName).sort()).toEqual(['数据范围录入员', '数据范围管理员一', '数据范围管理员二']);
  });

  test('an own-rows scope (本人可见) limits list and detail to rows the user created; admins stay unlimited', async () => {
    const scope = await addScope('本人参数', 'create_user', 2);
    await grant({ roleIds: roleId, menuIds: `${await menuIdOf('param')},${await menuIdOf('param_add')}`, dataScopeIds: scope.id });
    const mine = await params(clerk);
    expect(mine.map((p) => p.paramName)).toEqual(['数据范围录入员']);
    const others = (await params(admin)).filter((p) => p.paramName.includes('管理员'));
    expect(others).toHaveLength(2);
    expect(expectOk(await clerk.get('/blade-system/param/detail', { id: others[0].id }))).toBeNull();
    expect(expectOk<Param>(await admin.get('/blade-system/param/detail', { id: others[0].id })).id).toBe(others[0].id);
    // The role's grant tree shows the scope as held.
    expect(expectOk<{ dataScope: string[] }>(await admin.get('/blade-system/menu/role-tree-keys', { roleIds: roleId })).dataScope).toEqual([scope.id]);
  });

  test('a department scope shows the rows of the department; a rule on a missing column shows nothing', async () => {
    const dept = await addScope('本部门参数', 'create_dept', 3);
    await grant({ roleIds: roleId, menuIds: `${await menuIdOf('param')},${await menuIdOf('param_add')}`, dataScopeIds: dept.id });
    // The clerk's row carries the clerk's department; the administrator's rows carry the administrator's.
    const visible = await params(clerk);
    expect(visible.map((p) => p.paramName)).toContain('数据范围录入员');
    const rows = await server.services.store.find(server.services.m('param'), '000000', { where: { id: visible.map((p) => p.id) } });
    for (const row of rows) expect(row.createDept).toBe(deptId);

    const broken = await addScope('错误字段', 'no_such_column', 2);
    await grant({ roleIds: roleId, menuIds: `${await menuIdOf('param')},${await menuIdOf('param_add')}`, dataScopeIds: broken.id });
    expect(await params(clerk)).toEqual([]);
    await grant({ roleIds: roleId, menuIds: `${await menuIdOf('param')},${await menuIdOf('param_add')}` });
    expect(await params(clerk)).toHaveLength(3);
  });

  test('a post permission adds its menus and buttons to every user holding the post', async () => {
    const post = expectOk<{ id: string }>(await admin.post('/blade-system/post/submit', { category: 1, postCode: 'P-CASH', postName: '出纳岗', sort: 1 }), 'post');
    const noRole = String(expectOk(await admin.post('/blade-system/role/submit', { parentId: '0', roleName: '无权限', roleAlias: 'nobody', sort: 10 })).id);
    expectOk(await admin.post('/blade-user/submit', { account: 'poster1', password: 'Post-1234', realName: '岗位甲', roleId: noRole, deptId, postId: post.id }), 'user');
    const poster = await signedIn(server.url, '000000', 'poster1', 'Post-1234');
    const refused = await poster.post('/blade-system/param/submit', { paramName: '岗位参数', paramKey: 'post.a', paramValue: '1' });
    expect(refused.status).toBe(403);

    expectOk(await admin.post('/blade-base/postpermission/submit', { postId: post.id, menuIds: `${await menuIdOf('param')},${await menuIdOf('param_add')}` }), 'post permission');
    expectOk(await poster.post('/blade-system/param/submit', { paramName: '岗位参数', paramKey: 'post.a', paramValue: '1' }), 'param add through the post');
    const buttons = rowsOf(expectOk(await poster.get('/blade-system/menu/buttons'))).map((b) => b.code);
    expect(buttons).toContain('param_add');
    expect(rowsOf(expectOk(await poster.get('/blade-system/menu/routes'))).map((m) => m.code)).toContain('param');
  });

  test('nobody grants a post menus they do not hold', async () => {
    const pp = await menuIdOf('postPermission');
    const ppAdd = await menuIdOf('postPermission_add');
    await grant({ roleIds: roleId, menuIds: `${pp},${ppAdd},${await menuIdOf('param')}` });
    const post = expectOk<{ id: string }>(await admin.post('/blade-system/post/submit', { category: 2, postCode: 'P-TYPE', postName: '录入岗', sort: 2 }));
    const refused = await clerk.post('/blade-base/postpermission/submit', { postId: post.id, menuIds: `${await menuIdOf('param')},${await menuIdOf('user')}` });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('不能授予自己没有的菜单权限');
    expectOk(await clerk.post('/blade-base/postpermission/submit', { postId: post.id, menuIds: await menuIdOf('param') }), 'held menus may be granted');
  });
});
