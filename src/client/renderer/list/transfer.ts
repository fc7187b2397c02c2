import { request, type QueryValue } from '../../api/http.ts';
import type { EndpointDef, ResourceFile } from '../../../shared/resource.ts';
import { endpointUrl } from '../common/endpoint.ts';
import { endpointByOp, endpointByPath, viewsOf } from '../common/views.ts';

/** The export / import endpoint a list offers: named in the list block, else declared by op. */
export function transferEndpoint(resource: ResourceFile, kind: 'export' | 'import'): EndpointDef | undefined {
  const list = viewsOf(resource).list;
  const named = kind === 'export' ? list?.exportEndpoint : list?.importEndpoint;
  if (named)
    return endpointByPath(resource, named) ?? { path: named, method: kind === 'export' ? 'GET' : 'POST', op: kind };
  return endpointByOp(resource, kind);
}

function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Downloads the xlsx of the current filters (long export timeout, spec §9). */
export async function exportRows(
  resource: ResourceFile,
  endpoint: EndpointDef,
  filters: Record<string, QueryValue>,
  fileName = `${resource.title}.xlsx`,
): Promise<void> {
  const blob = await request<Blob>(endpointUrl(resource, endpoint.path), {
    method: endpoint.method === 'POST' ? 'post' : 'get',
    params: filters,
    responseType: 'blob',
    timeout: 'export',
  });
  if (blob instanceof Blob) saveBlob(blob, fileName);
}

/** Uploads an xlsx as multipart `file`; the server takes all rows or none. */
export async function importRows(resource: ResourceFile, endpoint: EndpointDef, file: File, silent = false): Promise<void> {
  const form = new FormData();
  form.append('file', file);
  await request<unknown>(endpointUrl(resource, endpoint.path), { method: 'post', body: form, timeout: 'export', silent });
}
