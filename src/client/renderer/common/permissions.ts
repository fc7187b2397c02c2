import { useCallback } from 'react';
import { useSession } from '../../store/session.ts';

/** True when the signed-in user holds the button code; no code means no restriction. */
export function can(code: string | false | undefined): boolean {
  if (!code) return true;
  return useSession.getState().permission[code] === true;
}

/** `can` for components: re-renders when the permission map changes. */
export function useCan(): (code: string | false | undefined) => boolean {
  const permission = useSession((s) => s.permission);
  return useCallback((code) => !code || permission[code] === true, [permission]);
}

/** The button code an endpoint needs: the server's own rule. */
export { endpointPermission } from '../../../shared/permissions.ts';
