import type { Services } from '../services.ts';
import type { Ctx } from '../http/context.ts';
import { mustCaller } from '../http/context.ts';
import type { Row } from '../engine/store.ts';
import { nest, type TreeNode } from '../engine/trees.ts';
import { forbidden } from '../errors.ts';
import { idsParam, valueParam } from './params.ts';

const MENU_FIELDS = [
  'id', 'parentId', 'code', 'name', 'nameEn', 'alias', 'path', 'source', 'sort', 'category', 'action', 'isOpen',
  'billType', 'isHidden', 'isDisplayHistory', 'historyPath', 'remark',
];

function menuVO(row: Row): Row {
  const out: Row = {};
  for (const f of MENU_FIELDS) if (row[f] !== undefined) out[f] = row[f];
  return out;
}

async function allMenus(services: Services, tenantId: string): Promise<Row[]> {
  return services.store.find(services.m('menu'), tenantId, { orderBy: [{ column: 'sort', dir: 'asc' }, { column: 'id', dir: 'asc' }] });
}

/** Menu ids granted to the caller's roles and posts (every menu for administrators). */
export function grantedMenuIds(services: Services, ctx: Ctx): Promise<Set<string> | 'all'> {
  return services.perms.grantedMenuIds(mustCaller(ctx));
}

/** Keeps the chosen rows plus every ancestor, so a granted leaf always has its path to the root. */
function withAncestors(all: Row[], chosen: Set<string>): Row[] {
  const byId = new Map(all.map((m) => [String(m.id), m]));
  const keep = new Set<string>();
  for (const id of chosen) {
    let current = byId.get(id);
    while (current && !keep.has(String(current.id))) {
      keep.add(String(current.id));
      current = byId.get(String(current.parentId));
    }
  }
  return all.filter((m) => keep.has(String(m.id)));
}

function buildForest(rows: Row[]): Row[] {
  const vos = rows.map(menuVO);
  return nest(vos, (r) => String(r.id), (r) => String(r.parentId));
}

function nodeTree(rows: Row[]): TreeNode[] {
  const nodes = rows.map((m) => ({ id: String(m.id), parentId: String(m.parentId), title: String(m.name), key: String(m.id), value: String(m.id) }));
  return nest(nodes as unknown as Row[], (n) => String(n.id), (n) => String(n.parentId)) as unknown as TreeNode[];
}

export function registerMenuHandlers(services: Services) {
  const { store } = services;

  services.register('menu.routes', async (ctx) => {
    const caller = mustCaller(ctx);
    const menus = (await allMenus(services, caller.tenantId)).filter((m) => Number(m.category) === 1);
    const granted = await grantedMenuIds(services, ctx);
    let chosen = new Set(menus.filter((m) => granted === 'all' || granted.has(String(m.id))).map((m) => String(m.id)));
    const topMenuId = valueParam(ctx, 'topMenuId');
    if (topMenuId) {
      const settings = await store.find(services.internal.topMenuSetting, caller.tenantId, { where: { topMenuId } });
      const inTop = new Set(settings.map((s) => String(s.menuId)));
      chosen = new Set([...chosen].filter((id) => inTop.has(id)));
    }
    return buildForest(withAncestors(menus, chosen));
  });

  services.register('menu.buttons', async (ctx) => {
    const caller = mustCaller(ctx);
    const menus = await allMenus(services, caller.tenantId);
    const granted = await grantedMenuIds(services, ctx);
    const buttons = menus.filter((m) => Number(m.category) === 2 && (granted === 'all' || granted.has(String(m.id))));
    return buildForest(withAncestors(menus, new Set(buttons.map((b) => String(b.id)))));
  });

  services.register('menu.authRoutes', async (ctx) => {
    const caller = mustCaller(ctx);
    const menus = (await allMenus(services, caller.tenantId)).filter((m) => Number(m.category) === 1 && m.path);
    const granted = await grantedMenuIds(services, ctx);
    return menus
      .filter((m) => granted === 'all' || granted.has(String(m.id)))
      .map((m) => ({ [String(m.path)]: { authority: caller.roleAliases } }));
  });

  services.register('menu.topMenu', async (ctx) => {
    const caller = mustCaller(ctx);
    return store.find(services.m('topmenu'), caller.tenantId, { orderBy: [{ column: 'sort', dir: 'asc' }, { column: 'id', dir: 'asc' }] });
  });

  /** The role-grant dialog: menus with buttons, data scopes and API scopes, each as a tree. */
  services.register('menu.grantTree', async (ctx) => {
    const caller = mustCaller(ctx);
    const menus = await allMenus(services, caller.tenantId);
    const granted = await grantedMenuIds(services, ctx);
    // A non-administrator may only hand on what they hold themselves.
    const visible = granted === 'all' ? menus : withAncestors(menus, granted);
    const scopeTree = async (resource: string) => {
      const scopes = await store.find(services.m(resource), caller.tenantId);
      const byMenu = new Map<string, Row[]>();
      for (const s of scopes) byMenu.set(String(s.menuId), [...(byMenu.get(String(s.menuId)) ?? []), s]);
      const menuRows = withAncestors(menus.filter((m) => Number(m.category) === 1), new Set(byMenu.keys()));
      const tree = nodeTree(menuRows) as unknown as Row[];
      const attach = (nodes: Row[]) => {
        for (const node of nodes) {
          if (node.children) attach(node.children as Row[]);
          const own = byMenu.get(String(node.id));
          if (own) {
            node.children = [
              ...((node.children as Row[]) ?? []),
              ...own.map((s) => ({ id: String(s.id), parentId: String(node.id), title: String(s.scopeName), key: String(s.id), value: String(s.id) })),
            ];
          }
        }
      };
      attach(tree);
      return tree;
    };
    return { menu: nodeTree(visible), dataScope: await scopeTree('data-scope'), apiScope: await scopeTree('api-scope') };
  });

  services.register('menu.roleTreeKeys', async (ctx) => {
    const caller = mustCaller(ctx);
    const roleIds = idsParam(ctx, 'roleIds', 'roleId');
    const menus = await store.find(services.internal.roleMenu, caller.tenantId, { where: { roleId: roleIds } });
    const scopes = await store.find(services.internal.roleScope, caller.tenantId, { where: { roleId: roleIds } });
    const apps = await store.find(services.internal.roleMenuApp, caller.tenantId, { where: { roleId: roleIds } });
    const uniq = (xs: unknown[]) => [...new Set(xs.map(String))];
    return {
      menu: uniq(menus.map((m) => m.menuId)),
      dataScope: uniq(scopes.filter((s) => Number(s.scopeCategory) === 1).map((s) => s.scopeId)),
      apiScope: uniq(scopes.filter((s) => Number(s.scopeCategory) === 2).map((s) => s.scopeId)),
      menuApp: uniq(apps.map((a) => a.menuAppId)),
    };
  });

  services.register('menu.grantTopTree', async (ctx) => {
    const caller = mustCaller(ctx);
    const menus = (await allMenus(services, caller.tenantId)).filter((m) => Number(m.category) === 1);
    return { menu: nodeTree(menus) };
  });

  services.register('menu.topTreeKeys', async (ctx) => {
    const caller = mustCaller(ctx);
    const topMenuIds = idsParam(ctx, 'topMenuIds', 'topMenuId');
    const settings = await store.find(services.internal.topMenuSetting, caller.tenantId, { where: { topMenuId: topMenuIds } });
    return { menu: [...new Set(settings.map((s) => String(s.menuId)))] };
  });

  /** Replaces the grants of each role in one transaction. */
  services.register('role.grant', async (ctx) => {
    const caller = mustCaller(ctx);
    const roleIds = idsParam(ctx, 'roleIds', 'roleId');
    const menuIds = idsParam(ctx, 'menuIds');
    const dataScopeIds = idsParam(ctx, 'dataScopeIds');
    const apiScopeIds = idsParam(ctx, 'apiScopeIds');
    const menuAppIds = idsParam(ctx, 'menuAppIds');
    if (!roleIds.length) throw forbidden('请选择角色');
    const roles = await store.find(services.m('role'), caller.tenantId, { where: { id: roleIds } });
    if (roles.length !== roleIds.length) throw forbidden('角色不存在或不属于当前租户');
    const granted = await grantedMenuIds(services, ctx);
    if (granted !== 'all' && menuIds.some((id) => !granted.has(id))) throw forbidden('不能授予自己没有的菜单权限');
    const menus = menuIds.length ? await store.find(services.m('menu'), caller.tenantId, { where: { id: menuIds } }) : [];
    const validMenuIds = menus.map((m) => String(m.id));
    const internal = services.internal;
    await store.transaction(async (db) => {
      for (const roleId of roleIds) {
        await db.deleteFrom('blade_role_menu').where('tenant_id', '=', caller.tenantId).where('role_id', '=', roleId).execute();
        await db.deleteFrom('blade_role_scope').where('tenant_id', '=', caller.tenantId).where('role_id', '=', roleId).execute();
        await db.deleteFrom('blade_role_menu_app').where('tenant_id', '=', caller.tenantId).where('role_id', '=', roleId).execute();
        for (const menuId of validMenuIds) await store.insert(internal.roleMenu, caller, { roleId, menuId }, { db });
        for (const scopeId of dataScopeIds) await store.insert(internal.roleScope, caller, { roleId, scopeId, scopeCategory: 1 }, { db });
        for (const scopeId of apiScopeIds) await store.insert(internal.roleScope, caller, { roleId, scopeId, scopeCategory: 2 }, { db });
        for (const menuAppId of menuAppIds) await store.insert(internal.roleMenuApp, caller, { roleId, menuAppId }, { db });
      }
    });
    services.perms.invalidate(caller.tenantId);
    return undefined;
  });

  services.register('role.treeById', async (ctx) => {
    const caller = mustCaller(ctx);
    const roleId = valueParam(ctx, 'roleId');
    const roles = await store.find(services.m('role'), caller.tenantId, { orderBy: [{ column: 'sort', dir: 'asc' }] });
    const nodes = roles.map((r) => ({ id: String(r.id), parentId: String(r.parentId ?? '0'), title: String(r.roleName), key: String(r.id), value: String(r.id) }));
    const forest = nest(nodes as unknown as Row[], (n) => String(n.id), (n) => String(n.parentId));
    if (!roleId) return forest;
    const find = (list: Row[]): Row | undefined => {
      for (const n of list) {
        if (n.id === roleId) return n;
        const hit = n.children ? find(n.children as Row[]) : undefined;
        if (hit) return hit;
      }
      return undefined;
    };
    const own = find(forest);
    return own ? [own] : [];
  });

  services.register('topmenu.grant', async (ctx) => {
    const caller = mustCaller(ctx);
    const topMenuIds = idsParam(ctx, 'topMenuIds', 'topMenuId');
    const menuIds = idsParam(ctx, 'menuIds');
    const tops = await store.find(services.m('topmenu'), caller.tenantId, { where: { id: topMenuIds } });
    if (tops.length !== topMenuIds.length || !tops.length) throw forbidden('顶部菜单不存在或不属于当前租户');
    await store.transaction(async (db) => {
      for (const topMenuId of topMenuIds) {
        await db.deleteFrom('blade_top_menu_setting').where('tenant_id', '=', caller.tenantId).where('top_menu_id', '=', topMenuId).execute();
        for (const menuId of menuIds) await store.insert(services.internal.topMenuSetting, caller, { topMenuId, menuId }, { db });
      }
    });
    return undefined;
  });
}
