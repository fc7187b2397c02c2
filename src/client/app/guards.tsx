import { useState, type ReactNode } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { getAccessToken } from '../store/cookies.ts';
import { useSession } from '../store/session.ts';
import { website } from './website.ts';

/** A same-origin in-app path to return to after signing in; anything else goes home. */
export function safeRedirect(value: string | null): string {
  // Home directly, rather than through the / → /wel → home redirects.
  if (
    !value ||
    value === '/' ||
    !value.startsWith('/') ||
    value.startsWith('//') ||
    value.startsWith(website.loginPath)
  ) {
    return website.homePath;
  }
  return value;
}

/** /login while signed in goes to the root (or the page the user came from). */
export function RequireSignedOut({ children }: { children: ReactNode }) {
  const [params] = useSearchParams();
  // Decided once on arrival: during a sign-in on this page the page navigates by itself.
  const [arrivedSignedIn] = useState(() => useSession.getState().signedIn && Boolean(getAccessToken()));
  if (arrivedSignedIn) return <Navigate to={safeRedirect(params.get('redirect'))} replace />;
  return children;
}
