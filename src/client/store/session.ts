import { create } from 'zustand';
import type { FrontConfig, MenuNode, TokenResponse, UserInfo } from '../api/types.ts';
import { ACCESS_TOKEN_COOKIE, REFRESH_TOKEN_COOKIE, getAccessToken, removeCookie, setCookie } from './cookies.ts';
import { getStore, getStoreEntry, removeStore, setStore } from './storage.ts';
import { website } from '../app/website.ts';

export type PermissionMap = Record<string, true>;

/** User as the shell shows it: the token's fields merged with `/user/info`. */
export interface SessionUser extends UserInfo {
  user_id?: string;
  account?: string;
  real_name?: string;
  role_name?: string;
  tenant_id?: string;
}

interface SessionState {
  signedIn: boolean;
  tenantId: string;
  user: SessionUser | undefined;
  permission: PermissionMap;
  /** Sidebar menus of the selected top menu. */
  menus: MenuNode[];
  /** The full menu tree (all top menus); routes are built from it. */
  menuAll: MenuNode[];
  menusLoaded: boolean;
  topMenuId: string | undefined;
  config: FrontConfig;
  setUser: (user: SessionUser | undefined) => void;
  setPermission: (permission: PermissionMap) => void;
  setMenus: (menus: MenuNode[], all?: MenuNode[]) => void;
  setTopMenuId: (id: string | undefined) => void;
  setConfig: (config: FrontConfig) => void;
  markSignedIn: (signedIn: boolean) => void;
}

export const useSession = create<SessionState>((set) => ({
  signedIn: Boolean(getAccessToken()),
  tenantId: getStore<string>('tenantId') ?? website.defaultTenantId,
  user: getStore<SessionUser>('userInfo'),
  permission: getStore<PermissionMap>('permission') ?? {},
  menus: getStore<MenuNode[]>('menu') ?? [],
  menuAll: getStore<MenuNode[]>('menuAll') ?? [],
  menusLoaded: Boolean(getStore<MenuNode[]>('menuAll')?.length),
  topMenuId: getStore<string>('topMenuId'),
  config: getStore<FrontConfig>('sysConfig') ?? {},
  setUser: (user) => {
    setStore('userInfo', user ?? null);
    set({ user });
  },
  setPermission: (permission) => {
    setStore('permission', permission);
    set({ permission });
  },
  setMenus: (menus, all) => {
    setStore('menu', menus);
    if (all) setStore('menuAll', all);
    set((s) => ({ menus, menuAll: all ?? s.menuAll, menusLoaded: true }));
  },
  setTopMenuId: (topMenuId) => {
    setStore('topMenuId', topMenuId ?? null);
    set({ topMenuId });
  },
  setConfig: (config) => {
    setStore('sysConfig', config);
    set({ config });
  },
  markSignedIn: (signedIn) => set({ signedIn }),
}));

/** Stores a granted token pair: cookies for the guard and headers, storage for the token age. */
export function saveTokens(token: TokenResponse, tenantId: string): void {
  setCookie(ACCESS_TOKEN_COOKIE, token.access_token);
  setCookie(REFRESH_TOKEN_COOKIE, token.refresh_token);
  setStore('token', token.access_token);
  setStore('refreshToken', token.refresh_token);
  setStore('tenantId', token.tenant_id || tenantId);
  useSession.setState({ signedIn: true, tenantId: token.tenant_id || tenantId });
}

/** When the current access token was stored (ms), for the refresh timer. */
export function tokenStoredAt(): { token: string | undefined; datetime: number } {
  const entry = getStoreEntry<string>('token');
  return { token: entry?.content, datetime: entry?.datetime ?? 0 };
}

const SESSION_KEYS = [
  'token',
  'refreshToken',
  'userInfo',
  'permission',
  'menu',
  'menuAll',
  'topMenuId',
  'isLock',
  'lockPasswd',
];

/** Forgets the session (cookies and storage); tabs and drafts are handled by the caller. */
export function clearSession(): void {
  removeCookie(ACCESS_TOKEN_COOKIE);
  removeCookie(REFRESH_TOKEN_COOKIE);
  for (const key of SESSION_KEYS) removeStore(key);
  useSession.setState({
    signedIn: false,
    user: undefined,
    permission: {},
    menus: [],
    menuAll: [],
    menusLoaded: false,
    topMenuId: undefined,
  });
}
