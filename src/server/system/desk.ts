import type { Services } from '../services.ts';
import { mustCaller } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { fillLookups } from '../engine/lookups.ts';
import { idsParam } from './params.ts';

export const MAX_FAST_MENUS = 5;

export function registerDeskHandlers(services: Services) {
  const { store } = services;

  services.register('fastmenu.list', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const rows = await store.find(model, caller.tenantId, { where: { userId: caller.userId }, orderBy: [{ column: 'sort', dir: 'asc' }] });
    await fillLookups(services, model, caller.tenantId, rows);
    return rows.map((r) => ({ ...r, menuName: r.menuName ?? r.name }));
  });

  /** Replaces the caller's favourites with the given menus, in order; at most five. */
  services.register('fastmenu.add', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const menuIds = [...new Set(idsParam(ctx, 'menuIds', 'menuId'))];
    if (menuIds.length > MAX_FAST_MENUS) throw badRequest('最多设置5个常用菜单！');
    const menus = menuIds.length ? await store.find(services.m('menu'), caller.tenantId, { where: { id: menuIds } }) : [];
    if (menus.length !== menuIds.length) throw badRequest('菜单不存在');
    await store.transaction(async (db) => {
      void db;
      await store.deleteWhere(model, caller, { userId: caller.userId });
      for (const [i, menuId] of menuIds.entries()) await store.insert(model, caller, { userId: caller.userId, menuId, sort: i + 1 }, { db });
    });
    return undefined;
  });
}
