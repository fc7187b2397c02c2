import { useCallback } from 'react';
import { useSession } from '../../store/session.ts';
import type { EndpointDef, ResourceFile } from '../../../shared/resource.ts';

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

/** The button code an endpoint needs, as the server decides it (engine `endpointPerm`). */
export function endpointPermission(
  resource: Pick<ResourceFile, 'permission'>,
  endpoint: Pick<EndpointDef, 'op' | 'perm'> | undefined,
): string | undefined {
  if (!endpoint || endpoint.perm === false) return undefined;
  if (endpoint.perm) return endpoint.op === 'submit' ? undefined : endpoint.perm;
  const prefix = resource.permission;
  if (!prefix) return undefined;
  switch (endpoint.op) {
    case 'save':
    case 'import':
      return `${prefix}_add`;
    case 'update':
    case 'enable':
    case 'disable':
    case 'setFields':
    case 'tagOn':
    case 'tagOff':
      return `${prefix}_edit`;
    case 'remove':
      return `${prefix}_delete`;
    default:
      return undefined;
  }
}
