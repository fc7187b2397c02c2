import { http, type QueryValue } from '../../api/http.ts';
import type { ResourceFile } from '../../../shared/resource.ts';
import { endpointUrl } from '../common/endpoint.ts';
import type { Row } from '../common/params.ts';
import { endpointByOp } from '../common/views.ts';
import { listEndpointOf, readRows } from '../list/useListData.ts';

export interface TreeShape {
  keyField: string;
  parentField: string;
  rootValue: string;
}

export function treeShapeOf(resource: ResourceFile): TreeShape {
  const tree = resource.table.tree;
  return {
    keyField: tree?.keyField ?? 'id',
    parentField: tree?.parentField ?? 'parentId',
    rootValue: tree?.rootValue ?? '0',
  };
}

export const keyOf = (shape: TreeShape, row: Row): string => String(row[shape.keyField] ?? row.id ?? '');

/** Lazy rows that say they have children get an empty `children` so the table offers to expand. */
function markExpandable(rows: Row[]): Row[] {
  return rows.map((row) => (row.hasChildren && !Array.isArray(row.children) ? { ...row, children: [] } : row));
}

/** Children of one node through the lazyList endpoint (parent key sent as the parent field). */
export async function loadChildren(resource: ResourceFile, shape: TreeShape, parentKey: string): Promise<Row[]> {
  const endpoint = endpointByOp(resource, 'lazyList');
  if (!endpoint) return [];
  const data = await http.get<unknown>(endpointUrl(resource, endpoint.path), { [shape.parentField]: parentKey });
  return markExpandable(readRows(data).rows);
}

/**
 * Rows of the tree page: lazily the root level; otherwise the nested list. With filters the
 * server answers matching rows flat, which the table shows as they come.
 */
export async function loadTree(
  resource: ResourceFile,
  shape: TreeShape,
  lazy: boolean,
  filters: Record<string, QueryValue>,
): Promise<Row[]> {
  const filtered = Object.keys(filters).length > 0;
  if (lazy && !filtered) return loadChildren(resource, shape, shape.rootValue);
  const endpoint = listEndpointOf(resource);
  if (!endpoint) return [];
  const params: Record<string, QueryValue> = {
    ...filters,
    ...(endpoint.op === 'page' ? { current: 1, size: 200 } : {}),
  };
  const data = await http.get<unknown>(endpointUrl(resource, endpoint.path), params);
  return dropEmptyChildren(readRows(data).rows);
}

/** Leaves of a nested answer may carry `children: []`; without it the table shows no expander. */
function dropEmptyChildren(rows: Row[]): Row[] {
  return rows.map((row) => {
    if (!Array.isArray(row.children)) return row;
    if (!row.children.length) {
      const { children: _drop, ...rest } = row;
      void _drop;
      return rest;
    }
    return { ...row, children: dropEmptyChildren(row.children as Row[]) };
  });
}

/** A copy of the tree with one node's children replaced. */
export function withChildren(rows: Row[], shape: TreeShape, key: string, children: Row[]): Row[] {
  return rows.map((row) => {
    if (keyOf(shape, row) === key) return { ...row, children };
    if (Array.isArray(row.children) && row.children.length) {
      return { ...row, children: withChildren(row.children as Row[], shape, key, children) };
    }
    return row;
  });
}
