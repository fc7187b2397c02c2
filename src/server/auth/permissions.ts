import type { Services } from '../services.ts';
import type { Caller } from '../http/context.ts';
import { forbidden } from '../errors.ts';
import type { Model } from '../engine/model.ts';
import type { Condition } from '../engine/query.ts';
import { ADMIN_ALIASES } from './tokens.ts';

interface DataRule {
  resourceCode: string;
  column: string;
  type: number;
  value: string;
}

const TTL_MS = 5000;

/**
 * Button permissions and API scopes, checked on the server for every call.
 * Cached a few seconds per tenant; a grant in this process clears the cache at once.
 */
export class Permissions {
  private codes = new Map<string, { at: number; codes: Set<string> }>();
  private scopes = new Map<string, { at: number; scopes: { id: string; pattern: RegExp }[]; granted: Map<string, Set<string>> }>();
  private posts = new Map<string, { at: number; menuIds: Set<string>; codes: Set<string> }>();
  private dataRules = new Map<string, { at: number; rules: Map<string, DataRule>; granted: Map<string, Set<string>>; deptParents: Map<string, string> }>();
  private holders = new Map<string, { at: number; users: string[] }>();

  constructor(private services: Services) {}

  /** Every tenant's permission caches (another node changed roles, menus or grants). */
  invalidateAll() {
    this.codes.clear();
    this.scopes.clear();
    this.dataRules.clear();
    this.posts.clear();
    this.holders.clear();
  }

  invalidate(tenantId: string) {
    for (const key of this.codes.keys()) if (key.startsWith(`${tenantId}:`)) this.codes.delete(key);
    this.scopes.delete(tenantId);
    this.dataRules.delete(tenantId);
    for (const key of this.posts.keys()) if (key.startsWith(`${tenantId}:`)) this.posts.delete(key);
    for (const key of this.holders.keys()) if (key.startsWith(`${tenantId}:`)) this.holders.delete(key);
  }

  /** Codes of every menu and button granted to any of the roles. */
  async codesFor(tenantId: string, roleIds: string[]): Promise<Set<string>> {
    const key = `${tenantId}:${[...roleIds].sort().join(',')}`;
    const hit = this.codes.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.codes;
    const { store } = this.services;
    const grants = await store.find(this.services.internal.roleMenu, tenantId, { where: { roleId: roleIds } });
    const menuIds = [...new Set(grants.map((g) => String(g.menuId)))];
    const menus = menuIds.length ? await store.find(this.services.m('menu'), tenantId, { where: { id: menuIds } }) : [];
    const codes = new Set(menus.map((m) => String(m.code)));
    this.codes.set(key, { at: Date.now(), codes });
    return codes;
  }

  /**
   * Menus and buttons granted through posts (岗位权限): the post of the user account and the post of
   * the staff record linked to it. They add to what the roles grant; they never take away.
   */
  async postGrants(caller: Caller): Promise<{ menuIds: Set<string>; codes: Set<string> }> {
    const key = `${caller.tenantId}:${caller.userId}`;
    const hit = this.posts.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return hit;
    const { store } = this.services;
    const postIds = new Set<string>();
    const user = await store.get(this.services.m('user'), caller.tenantId, caller.userId);
    for (const id of String(user?.postId ?? '').split(',')) if (id.trim()) postIds.add(id.trim());
    const staff = await store.find(this.services.m('staff'), caller.tenantId, { where: { userId: caller.userId } });
    for (const s of staff) if (s.postId) postIds.add(String(s.postId));
    const menuIds = new Set<string>();
    if (postIds.size) {
      const grants = await store.find(this.services.m('post-permission'), caller.tenantId, { where: { postId: [...postIds] } });
      for (const g of grants) for (const id of String(g.menuIds ?? '').split(',')) if (id.trim()) menuIds.add(id.trim());
    }
    const menus = menuIds.size ? await store.find(this.services.m('menu'), caller.tenantId, { where: { id: [...menuIds] } }) : [];
    const state = { at: Date.now(), menuIds, codes: new Set(menus.map((m) => String(m.code))) };
    this.posts.set(key, state);
    return state;
  }

  /** Menu ids granted to the caller's roles and posts (every menu for administrators). */
  async grantedMenuIds(caller: Caller): Promise<Set<string> | 'all'> {
    if (caller.isAdmin) return 'all';
    const grants = await this.services.store.find(this.services.internal.roleMenu, caller.tenantId, { where: { roleId: caller.roleIds } });
    const ids = new Set(grants.map((g) => String(g.menuId)));
    for (const id of (await this.postGrants(caller)).menuIds) ids.add(id);
    return ids;
  }

  /**
   * The users of a tenant who hold a button code, decided as `require` decides it for each of them:
   * an administrator role, a role granted the code's menu row, or a post (of the account, or of the
   * staff record linked to it) granted it. Disabled accounts (status 2) are left out. A constant
   * number of reads whatever the number of users; cached like the codes.
   */
  async usersHolding(tenantId: string, code: string): Promise<string[]> {
    const key = `${tenantId}:${code}`;
    const hit = this.holders.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.users;
    const { store } = this.services;
    const m = (name: string) => this.services.m(name);
    const menuIds = new Set((await store.find(m('menu'), tenantId, { where: { code } })).map((r) => String(r.id)));
    const roles = await store.find(m('role'), tenantId);
    const live = new Set(roles.map((r) => String(r.id)));
    const roleIds = new Set(roles.filter((r) => ADMIN_ALIASES.has(String(r.roleAlias))).map((r) => String(r.id)));
    if (menuIds.size) {
      for (const g of await store.find(this.services.internal.roleMenu, tenantId, { where: { menuId: [...menuIds] } })) if (live.has(String(g.roleId))) roleIds.add(String(g.roleId));
    }
    const list = (value: unknown) => String(value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    const postIds = new Set<string>();
    if (menuIds.size) {
      for (const p of await store.find(m('post-permission'), tenantId)) if (list(p.menuIds).some((id) => menuIds.has(id))) postIds.add(String(p.postId));
    }
    const staffUsers = new Set<string>();
    if (postIds.size) {
      for (const s of await store.find(m('staff'), tenantId, { where: { postId: [...postIds] } })) if (s.userId) staffUsers.add(String(s.userId));
    }
    const users = (await store.find(m('user'), tenantId))
      .filter((u) => Number(u.status) !== 2)
      .filter((u) => list(u.roleId).some((id) => roleIds.has(id)) || list(u.postId).some((id) => postIds.has(id)) || staffUsers.has(String(u.id)))
      .map((u) => String(u.id));
    this.holders.set(key, { at: Date.now(), users });
    return users;
  }

  async require(caller: Caller, code: string): Promise<void> {
    if (caller.isAdmin) return;
    const codes = await this.codesFor(caller.tenantId, caller.roleIds);
    if (codes.has(code)) return;
    if ((await this.postGrants(caller)).codes.has(code)) return;
    throw forbidden(`当前用户无权限执行该操作（缺少权限：${code}）`);
  }

  /**
   * Data scope (数据权限) of a read: the rules whose 权限编号 is the resource name and that a role of
   * the caller holds. None held: no limit. Several: a row visible under any of them is visible.
   * Types: 1 all; 2 own (column = user id); 3 own department; 4 own department and below;
   * 5 custom: the column must equal one of the comma-joined values, where ${userId}, ${deptId}
   * and ${tenantId} stand for the caller's own (values, never SQL). A column the resource lacks
   * hides every row: a broken rule must not show more than it meant to.
   */
  async dataScope(caller: Caller, model: Model): Promise<Condition | undefined> {
    if (caller.isAdmin || !model.resource) return undefined;
    const state = await this.loadDataRules(caller.tenantId);
    const held = new Set<string>();
    for (const roleId of caller.roleIds) for (const id of state.granted.get(roleId) ?? []) held.add(id);
    const rules = [...held].map((id) => state.rules.get(id)).filter((r): r is DataRule => r?.resourceCode === model.name);
    if (!rules.length || rules.some((r) => r.type === 1)) return undefined;
    const byColumn = new Map([...model.filterable.values()].map((f) => [f.column, f]));
    const any: Condition[] = [];
    for (const rule of rules) {
      const field = byColumn.get(rule.column) ?? model.filterable.get(rule.column);
      if (!field) continue;
      let values: string[];
      if (rule.type === 2) values = [caller.userId];
      else if (rule.type === 3) values = caller.deptIds;
      else if (rule.type === 4) values = descendants(state.deptParents, caller.deptIds);
      else {
        const own: Record<string, string> = { userId: caller.userId, deptId: caller.deptIds.join(','), tenantId: caller.tenantId };
        values = rule.value.replace(/\$\{(\w+)\}/g, (_, k: string) => own[k] ?? '').split(',').map((v) => v.trim()).filter(Boolean);
      }
      any.push({ field, op: '_in', value: values });
    }
    // Rules whose column this resource does not have: nothing is visible through them.
    if (!any.length) return { field: model.filterable.get('id')!, op: '_in', value: [] };
    return { ...any[0], any };
  }

  /** Scope ids each role holds, of one category (1 data, 2 API). */
  private async scopesByRole(tenantId: string, scopeCategory: 1 | 2): Promise<Map<string, Set<string>>> {
    const grants = await this.services.store.find(this.services.internal.roleScope, tenantId, { where: { scopeCategory } });
    const granted = new Map<string, Set<string>>();
    for (const g of grants) {
      const set = granted.get(String(g.roleId)) ?? new Set<string>();
      set.add(String(g.scopeId));
      granted.set(String(g.roleId), set);
    }
    return granted;
  }

  private async loadDataRules(tenantId: string) {
    const hit = this.dataRules.get(tenantId);
    if (hit && Date.now() - hit.at < TTL_MS) return hit;
    const { store } = this.services;
    const rows = await store.find(this.services.m('data-scope'), tenantId);
    const rules = new Map<string, DataRule>();
    for (const r of rows) {
      rules.set(String(r.id), { resourceCode: String(r.resourceCode ?? ''), column: String(r.scopeColumn ?? ''), type: Number(r.scopeType ?? 1), value: String(r.scopeValue ?? '') });
    }
    const granted = await this.scopesByRole(tenantId, 1);
    const depts = await store.find(this.services.m('dept'), tenantId);
    const deptParents = new Map(depts.map((d) => [String(d.id), String(d.parentId ?? '0')]));
    const state = { at: Date.now(), rules, granted, deptParents };
    this.dataRules.set(tenantId, state);
    return state;
  }

  /** API scopes: a scope whose path pattern matches the call must be granted to one of the caller's roles. */
  async requireApiScope(caller: Caller, path: string): Promise<void> {
    if (caller.isAdmin) return;
    const state = await this.loadScopes(caller.tenantId);
    const matching = state.scopes.filter((s) => s.pattern.test(path));
    if (!matching.length) return;
    const allowed = matching.some((s) => caller.roleIds.some((r) => state.granted.get(r)?.has(s.id)));
    if (!allowed) throw forbidden('当前用户无权访问该接口（接口权限未授权）');
  }

  private async loadScopes(tenantId: string) {
    const hit = this.scopes.get(tenantId);
    if (hit && Date.now() - hit.at < TTL_MS) return hit;
    const { store } = this.services;
    const rows = await store.find(this.services.m('api-scope'), tenantId);
    const scopes = rows
      .filter((r) => r.scopePath)
      .map((r) => ({ id: String(r.id), pattern: antPattern(String(r.scopePath)) }));
    const granted = await this.scopesByRole(tenantId, 2);
    const state = { at: Date.now(), scopes, granted };
    this.scopes.set(tenantId, state);
    return state;
  }
}

/** Ant-style path pattern (`/blade-system/param/**`, `/blade-user/*`) as a RegExp over paths without /api. */
export function antPattern(pattern: string): RegExp {
  const clean = pattern.replace(/^\/api(?=\/)/, '');
  const source = clean
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** The departments and every department below them. */
function descendants(parents: Map<string, string>, roots: string[]): string[] {
  const out = new Set(roots);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [id, parent] of parents) {
      if (!out.has(id) && out.has(parent)) {
        out.add(id);
        grew = true;
      }
    }
  }
  return [...out];
}
