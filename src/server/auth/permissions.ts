import type { Services } from '../services.ts';
import type { Caller } from '../http/context.ts';
import { forbidden } from '../http/envelope.ts';

const TTL_MS = 5000;

/**
 * Button permissions and API scopes, checked on the server for every call.
 * Cached a few seconds per tenant; a grant in this process clears the cache at once.
 */
export class Permissions {
  private codes = new Map<string, { at: number; codes: Set<string> }>();
  private scopes = new Map<string, { at: number; scopes: { id: string; pattern: RegExp }[]; granted: Map<string, Set<string>> }>();

  constructor(private services: Services) {}

  invalidate(tenantId: string) {
    for (const key of this.codes.keys()) if (key.startsWith(`${tenantId}:`)) this.codes.delete(key);
    this.scopes.delete(tenantId);
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

  async require(caller: Caller, code: string): Promise<void> {
    if (caller.isAdmin) return;
    const codes = await this.codesFor(caller.tenantId, caller.roleIds);
    if (!codes.has(code)) throw forbidden(`当前用户无权限执行该操作（缺少权限：${code}）`);
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
    const grants = await store.find(this.services.internal.roleScope, tenantId, { where: { scopeCategory: 2 } });
    const granted = new Map<string, Set<string>>();
    for (const g of grants) {
      const set = granted.get(String(g.roleId)) ?? new Set<string>();
      set.add(String(g.scopeId));
      granted.set(String(g.roleId), set);
    }
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
