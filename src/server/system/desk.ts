import type { Services } from '../services.ts';
import { mustCaller } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { fillLookups } from '../engine/lookups.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { idsParam, valueParam } from './params.ts';

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

  services.register('usertask.count', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const rows = await store.find(model, caller.tenantId, { where: { userId: caller.userId } });
    const open = rows.filter((r) => Number(r.taskStatus ?? 1) !== 2).length;
    return { total: rows.length, unfinished: open, finished: rows.length - open };
  });

  services.register('usertask.finish', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const id = valueParam(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    const task = await store.mustGet(model, caller.tenantId, id);
    if (String(task.userId) !== caller.userId && !caller.isAdmin) throw badRequest('只能完成自己的任务');
    await store.update(model, caller, id, { taskStatus: 2, finishTime: formatDateTime() }, { includeReadonly: true });
    return undefined;
  });

  services.register('usertask.send', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const body = (ctx.body ?? {}) as Record<string, unknown>;
    const userIds = idsParam(ctx, 'userIds', 'userId');
    const title = String(body.title ?? valueParam(ctx, 'title') ?? '');
    if (!userIds.length) throw badRequest('请选择接收人');
    if (!title) throw badRequest('请输入任务标题');
    const users = await store.find(services.m('user'), caller.tenantId, { where: { id: userIds } });
    if (users.length !== userIds.length) throw badRequest('接收人不存在');
    for (const userId of userIds) {
      await store.insert(model, caller, {
        userId,
        title,
        content: String(body.content ?? ''),
        taskType: String(body.taskType ?? ''),
        billId: String(body.billId ?? ''),
        billType: String(body.billType ?? ''),
        taskStatus: 1,
      });
    }
    return undefined;
  });
}
