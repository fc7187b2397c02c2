import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { TokenResponse } from '../../../api/types.ts';
import { safeRedirect } from '../../guards.tsx';
import { completeSignIn } from '../../session/signIn.ts';

/** Completes a token grant and leaves the login page for the page the user came from. */
export function useFinishSignIn(): (token: TokenResponse, tenantId: string) => Promise<void> {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return useCallback(
    async (token: TokenResponse, tenantId: string) => {
      await completeSignIn(token, tenantId);
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    },
    [navigate, params],
  );
}
