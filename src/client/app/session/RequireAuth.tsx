import { useEffect, useState, type ReactNode } from 'react';
import { Flex, Spin } from 'antd';
import { Navigate, useLocation } from 'react-router';
import { getAccessToken } from '../../store/cookies.ts';
import { uploadErrors } from '../../store/errorLog.ts';
import { useLock } from '../../store/lock.ts';
import { clearSession, useSession } from '../../store/session.ts';
import { useT } from '../i18n/index.ts';
import { website } from '../website.ts';
import { startRefreshTimer } from './refresh.ts';
import { isSigningOut, loadSessionData, sessionDataIsFresh } from './signIn.ts';

function FullPageSpin({ tip }: { tip: string }) {
  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh' }}>
      <Spin size="large" description={tip} />
    </Flex>
  );
}

/**
 * Loads user, menus and permissions once per page load (from storage first, then fresh from the
 * server), and runs the token refresh timer and error-log upload while signed in.
 */
function SessionBootstrap({ children }: { children: ReactNode }) {
  const t = useT();
  const menusLoaded = useSession((s) => s.menusLoaded);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    // Right after a sign-in the data is fresh; otherwise revalidate what storage gave us.
    if (!sessionDataIsFresh()) loadSessionData().catch(() => setFailed(true));
    const stopRefresh = startRefreshTimer();
    void uploadErrors();
    const uploadTimer = window.setInterval(() => void uploadErrors(), website.errorUploadIntervalMs);
    return () => {
      stopRefresh();
      window.clearInterval(uploadTimer);
    };
  }, []);

  if (!menusLoaded && failed) return <Navigate to="/500" replace />;
  if (!menusLoaded) return <FullPageSpin tip={t('login.loadingSession')} />;
  return children;
}

/** Authenticated area: no token → signed out and sent to /login; locked → /lock. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  const locked = useLock((s) => s.locked);
  const signedIn = useSession((s) => s.signedIn);
  const hasToken = Boolean(getAccessToken());

  useEffect(() => {
    if (!hasToken && signedIn) clearSession();
  }, [hasToken, signedIn]);

  if (!hasToken) {
    const back = `${location.pathname}${location.search}`;
    const to =
      back === '/' || isSigningOut() ? website.loginPath : `${website.loginPath}?redirect=${encodeURIComponent(back)}`;
    return <Navigate to={to} replace />;
  }
  if (locked) return <Navigate to={website.lockPath} replace />;
  return <SessionBootstrap>{children}</SessionBootstrap>;
}
