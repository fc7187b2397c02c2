import type { EndpointDef, ResourceFile } from './resource.ts';

/**
 * The button code a generic endpoint needs before it runs, one rule for the server (which checks
 * it) and the client (which hides what would be refused): the endpoint's own `perm`, else the
 * resource's prefix with `_add`, `_edit` or `_delete` by operation. `submit` decides add or edit
 * from its body, so it needs no code up front; `perm: false` opens an endpoint to every signed-in user.
 */
export function endpointPermission(
  resource: Pick<ResourceFile, 'permission'> | undefined,
  endpoint: Pick<EndpointDef, 'op' | 'perm'> | undefined,
): string | undefined {
  if (!endpoint || endpoint.perm === false) return undefined;
  if (endpoint.perm) return endpoint.op === 'submit' ? undefined : endpoint.perm;
  const prefix = resource?.permission;
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
