/** Favourite menus: fastmenuAdd replaces the caller's list with comma-joined ids, five at most. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';
import { rowsOf } from '../support/resources.ts';

describe.each(databases())('fast menus ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let menuIds: string[];

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    menuIds = rowsOf(expectOk(await admin.get('/blade-system/menu/routes')))
      .filter((m) => !m.children)
      .slice(0, 6)
      .map((m) => String(m.id));
    expect(menuIds).toHaveLength(6);
  });
  afterAll(async () => server?.close());

  const list = async (api: Api = admin) => expectOk<{ menuId: string; menuName: string; path: string }[]>(await api.get('/blade-system/fastmenu/list'));
  const add = (ids: string[], api: Api = admin) => api.call('POST', '/blade-system/fastmenu/fastmenuAdd', { query: { menuIds: ids.join(',') } });

  test('five menus are kept in the given order, with their names and paths', async () => {
    expect(await list()).toEqual([]);
    expectOk(await add(menuIds.slice(0, 5)));
    const five = await list();
    expect(five.map((f) => f.menuId)).toEqual(menuIds.slice(0, 5));
    expect(five.every((f) => f.menuName && f.path)).toBe(true);
  });

  test('a sixth is refused with 最多设置5个常用菜单！ and the list stays as it was', async () => {
    const reply = await add(menuIds);
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe(400);
    expect(reply.body.msg).toBe('最多设置5个常用菜单！');
    expect((await list()).map((f) => f.menuId)).toEqual(menuIds.slice(0, 5));
  });

  test('a new call replaces the list; an empty one clears it', async () => {
    expectOk(await add([menuIds[5], menuIds[0]]));
    expect((await list()).map((f) => f.menuId)).toEqual([menuIds[5], menuIds[0]]);
    expectOk(await add([]));
    expect(await list()).toEqual([]);
  });

  test('favourites are per user, and menus of another tenant are refused', async () => {
    expectOk(await add([menuIds[1]]));
    const other = await signedIn(server.url, '100001');
    expect(await list(other)).toEqual([]);
    const reply = await add([menuIds[2]], other);
    expect(reply.status).toBe(400);
    expect(await list(other)).toEqual([]);
    expect((await list()).map((f) => f.menuId)).toEqual([menuIds[1]]);
  });
});
