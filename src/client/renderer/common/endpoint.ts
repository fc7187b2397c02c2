import type { ResourceFile } from '../../../shared/resource.ts';

/**
 * Full URL of an endpoint: `/api` + api.base + '/' + path, or `/api` + path when the path is
 * absolute (starts with `/`, e.g. a detail tab calling another service).
 */
export function endpointUrl(resource: Pick<ResourceFile, 'api'>, pathOrAbsolute: string): string {
  if (pathOrAbsolute.startsWith('/api/')) return pathOrAbsolute;
  if (pathOrAbsolute.startsWith('/')) return `/api${pathOrAbsolute}`;
  return `/api${resource.api.base}/${pathOrAbsolute}`;
}
