import { logout } from '../../api/auth.ts';
import { ApiError, registerSessionHooks } from '../../api/http.ts';
import { notifier, notifierOutsideFrame } from '../../api/notify.ts';
import { fetchButtons, fetchFrontConfig, fetchMenuRoutes, fetchUserInfo } from '../../api/shell.ts';
import type { TokenResponse } from '../../api/types.ts';
import { clearDictionaryCache } from '../../store/dicts.ts';
import { clearDrafts, persistDrafts } from '../../store/drafts.ts';
import { getStore, setStore } from '../../store/storage.ts';
import { useFavourites } from '../../store/favourites.ts';
import { useLock } from '../../store/lock.ts';
import { clearSession, saveTokens, useSession, type SessionUser } from '../../store/session.ts';
import { useTabs } from '../../store/tabs.ts';
import { translate } from '../i18n/index.ts';
import { website } from '../website.ts';
import { permissionMapOf, sortMenus } from './menuData.ts';
import { currentLocation, navigateTo } from './navigation.ts';
import { refreshExpiredToken } from './refresh.ts';

/** Set while a lost session is being handled, so parallel 401s sign out once. */
let losingSession = false;

function userFromToken(token: TokenResponse): SessionUser {
  return {
    user_id: token.user_id,
    account: token.account ?? token.user_name,
    real_name: token.real_name,
    realName: token.real_name,
    role_name: token.role_name,
    tenant_id: token.tenant_id,
    avatar: token.avatar,
  };
}

/** Loads the public front config (captcha mode, token time, decimal places, social providers). */
export async function loadFrontConfig(): Promise<void> {
  try {
    const config = await fetchFrontConfig();
    if (config && typeof config === 'object') useSession.getState().setConfig(config);
  } catch {
    // Defaults from website.ts stay in force.
  }
}

/** Loads the menu tree for the sidebar (optionally one top menu) and keeps the full tree for routes. */
export async function loadMenus(topMenuId?: string): Promise<void> {
  const session = useSession.getState();
  const all = sortMenus((await fetchMenuRoutes()) ?? []);
  const shown = topMenuId ? sortMenus((await fetchMenuRoutes(topMenuId)) ?? []) : all;
  session.setTopMenuId(topMenuId);
  session.setMenus(shown, all);
}

let sessionDataLoadedAt = 0;

/** True for a few seconds after the session data was loaded (no need to load it again). */
export function sessionDataIsFresh(): boolean {
  return Date.now() - sessionDataLoadedAt < 5_000;
}

let sessionDataLoading: Promise<void> | undefined;

/**
 * After a token is obtained (or on start-up with a stored token): user, menus, buttons, config.
 * A call while one is under way shares it (start-up begins it before the layout mounts).
 */
export function loadSessionData(): Promise<void> {
  sessionDataLoading ??= fetchSessionData().finally(() => {
    sessionDataLoading = undefined;
  });
  return sessionDataLoading;
}

async function fetchSessionData(): Promise<void> {
  const session = useSession.getState();
  // The front config (decimal places, token time) is not needed to show the menus: not awaited.
  void loadFrontConfig();
  const [info, buttons] = await Promise.all([fetchUserInfo(), fetchButtons(), loadMenus(session.topMenuId)]);
  session.setUser({ ...useSession.getState().user, ...info });
  session.setPermission(permissionMapOf(buttons));
  sessionDataLoadedAt = Date.now();
  void useFavourites
    .getState()
    .load()
    .catch(() => undefined);
}

/**
 * Tabs and drafts survive a lost session so the same user can carry on; when somebody else
 * signs in on this browser, they start clean.
 */
function forgetPreviousUsersWorkspace(token: TokenResponse, tenantId: string): void {
  const owner = `${token.tenant_id || tenantId}/${token.user_id ?? token.account ?? ''}`;
  const previous = getStore<string>('workspaceOwner');
  if (previous && previous !== owner) {
    useTabs.getState().reset();
    clearDrafts();
  }
  setStore('workspaceOwner', owner);
}

/** Finishes a successful token grant. A body with error_description is a failed sign-in. */
export async function completeSignIn(token: TokenResponse, tenantId: string): Promise<void> {
  if (token.error_description || !token.access_token) {
    const text = token.error_description ?? translate('http.unknownError');
    notifier().error(text);
    throw new ApiError(400, text, token, false);
  }
  losingSession = false;
  signingOut = false;
  useLock.getState().reset();
  forgetPreviousUsersWorkspace(token, tenantId);
  saveTokens(token, tenantId);
  useSession.getState().setUser(userFromToken(token));
  await loadSessionData();
}

function forgetLocalSession(options: { keepTabs: boolean }): void {
  clearSession();
  clearDictionaryCache();
  useFavourites.getState().reset();
  useLock.getState().reset();
  if (!options.keepTabs) useTabs.getState().reset();
}

let signingOut = false;

/** True after an explicit sign-out: the guard then sends to a plain /login (no way back). */
export function isSigningOut(): boolean {
  return signingOut;
}

/** Explicit sign-out: tells the server, forgets the session and tabs, goes to /login. */
export async function signOut(): Promise<void> {
  signingOut = true;
  await logout().catch(() => undefined);
  forgetLocalSession({ keepTabs: false });
  navigateTo(website.loginPath, { replace: true });
}

/**
 * The session cannot be recovered (401 after a failed refresh): keep what the user typed,
 * forget the tokens, and send them to /login with a way back to the same page.
 */
export function sessionLost(): void {
  if (losingSession) return;
  losingSession = true;
  persistDrafts();
  const redirect = currentLocation();
  forgetLocalSession({ keepTabs: true });
  notifierOutsideFrame().error(translate('http.sessionExpired'));
  const onPublicPage = redirect.startsWith(website.loginPath);
  navigateTo(onPublicPage ? website.loginPath : `${website.loginPath}?redirect=${encodeURIComponent(redirect)}`, {
    replace: true,
  });
}

registerSessionHooks({ refresh: refreshExpiredToken, lost: sessionLost });
