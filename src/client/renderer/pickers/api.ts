/** Reads behind the pickers, through the shell's HTTP client (headers, envelope, 401 recovery). */
import { http, type QueryValue } from '../../api/http.ts';
import { endpointByOp } from '../common/views.ts';
import { endpointUrl } from '../common/endpoint.ts';
import type { ResourceFile } from '../../../shared/resource.ts';

export type Row = Record<string, unknown>;

export type { TreeNode } from '../../../shared/wire.ts';
import type { TreeNode } from '../../../shared/wire.ts';

export interface PageResult {
  records: Row[];
  total: number;
}

/** One page; a list endpoint answering a plain array is paged here. */
export async function fetchPage(
  url: string,
  params: Record<string, QueryValue>,
  current: number,
  size: number,
): Promise<PageResult> {
  const data = await http.get<unknown>(url, { ...params, current, size });
  if (Array.isArray(data)) {
    return { records: (data as Row[]).slice((current - 1) * size, current * size), total: data.length };
  }
  const page = (data ?? {}) as { records?: Row[]; total?: number | string };
  return { records: page.records ?? [], total: Number(page.total ?? page.records?.length ?? 0) };
}

export async function fetchTree(url: string, params: Record<string, QueryValue> = {}, answerKey?: string): Promise<TreeNode[]> {
  const data = await http.get<unknown>(url, params);
  const tree = answerKey && data && typeof data === 'object' ? (data as Record<string, unknown>)[answerKey] : data;
  return Array.isArray(tree) ? (tree as TreeNode[]) : [];
}

/** Rows of a resource by id (labels of values set before the picker opened). */
export async function fetchRowsById(resource: ResourceFile, ids: string[]): Promise<Row[]> {
  const detail = endpointByOp(resource, 'detail');
  if (!detail || !ids.length) return [];
  const url = endpointUrl(resource, detail.path);
  const rows = await Promise.all(
    ids.slice(0, 20).map((id) => http.get<Row | null>(url, { id }, { silent: true }).catch(() => null)),
  );
  return rows.filter((row): row is Row => Boolean(row));
}

/** Walks a nested tree depth-first. */
export function walkTree(nodes: TreeNode[], visit: (node: TreeNode) => void): void {
  for (const node of nodes) {
    visit(node);
    if (node.children?.length) walkTree(node.children, visit);
  }
}
