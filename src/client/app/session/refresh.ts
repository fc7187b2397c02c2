import { refreshAccessToken } from '../../api/auth.ts';
import { getAccessToken, getRefreshToken } from '../../store/cookies.ts';
import { getStore } from '../../store/storage.ts';
import { saveTokens, tokenStoredAt, useSession } from '../../store/session.ts';
import { website } from '../website.ts';

/**
 * Token refresh. Every tab shares the cookies and localStorage, so the refresh runs under a
 * browser-wide lock and re-reads the stored token inside it: a tab that waited for the lock
 * finds the token another tab just obtained and does not spend the same refresh token again.
 */
const LOCK_NAME = `${website.storageKey}-token-refresh`;

type Reason = { kind: 'expired'; staleToken: string | undefined } | { kind: 'due'; seenRefreshToken: string | undefined };

/**
 * Chromium copies localStorage (and cookies) into each tab's process and propagates writes
 * asynchronously: a tab that gets the lock right after another tab refreshed can still read the
 * old values for a few milliseconds. The refreshing tab keeps the lock this long after saving.
 */
const PROPAGATION_MS = 150;

let inFlight: Promise<boolean> | undefined;

export function tokenTimeSeconds(): number {
  const configured = Number(useSession.getState().config.tokenTime);
  return Number.isFinite(configured) && configured > 0 ? configured : website.tokenTime;
}

function tokenAgeMs(): number {
  return Date.now() - tokenStoredAt().datetime;
}

async function withBrowserLock<T>(work: () => Promise<T>): Promise<T> {
  if (typeof navigator !== 'undefined' && navigator.locks?.request) {
    return navigator.locks.request(LOCK_NAME, { mode: 'exclusive' }, work);
  }
  return work();
}

async function refreshInsideLock(reason: Reason): Promise<boolean> {
  const current = getAccessToken();
  if (!current) return false;
  // Someone else refreshed while we waited: their token is ours too.
  if (reason.kind === 'expired' && reason.staleToken && current !== reason.staleToken) return true;
  const refreshToken = getRefreshToken() ?? getStore<string>('refreshToken');
  if (reason.kind === 'due' && (tokenAgeMs() < tokenTimeSeconds() * 1000 || refreshToken !== reason.seenRefreshToken)) return true;

  if (!refreshToken) return false;
  const tenantId = getStore<string>('tenantId') ?? useSession.getState().tenantId;
  try {
    const token = await refreshAccessToken(tenantId, refreshToken);
    if (!token?.access_token) return false;
    saveTokens(token, tenantId);
    await new Promise((resolve) => window.setTimeout(resolve, PROPAGATION_MS));
    return true;
  } catch {
    return false;
  }
}

function run(reason: Reason): Promise<boolean> {
  inFlight ??= withBrowserLock(() => refreshInsideLock(reason)).finally(() => {
    inFlight = undefined;
  });
  return inFlight;
}

/** Refreshes after a 401 made with `staleToken`; resolves true when a usable token exists. */
export function refreshExpiredToken(staleToken: string | undefined): Promise<boolean> {
  return run({ kind: 'expired', staleToken });
}

export function isRefreshing(): boolean {
  return inFlight !== undefined;
}

/** The 10-second check: one refresh when the token's age reaches tokenTime and none is running. */
export function startRefreshTimer(): () => void {
  const timer = window.setInterval(() => {
    if (!useSession.getState().signedIn || !getAccessToken() || isRefreshing()) return;
    if (tokenAgeMs() >= tokenTimeSeconds() * 1000) {
      void run({ kind: 'due', seenRefreshToken: getRefreshToken() ?? getStore<string>('refreshToken') });
    }
  }, website.refreshCheckMs);
  return () => window.clearInterval(timer);
}
