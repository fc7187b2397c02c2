import type { Services } from '../services.ts';
import type { Model } from './model.ts';
import type { Row } from './store.ts';
import type { Db } from '../db/connect.ts';

import type { TreeNode } from '../../shared/wire.ts';

export type { TreeNode };

export function treeKey(model: Model, row: Row): string {
  return String(row[model.tree!.keyField] ?? '');
}

export function treeParent(model: Model, row: Row): string {
  const v = row[model.tree!.parentField];
  return v === null || v === undefined || v === '' ? model.tree!.rootValue : String(v);
}

/** Nests flat rows under their parents; rows whose parent is absent become roots. `children` omitted when empty. */
export function nest<T extends Row>(items: T[], keyOf: (r: T) => string, parentOf: (r: T) => string): T[] {
  const byKey = new Map(items.map((r) => [keyOf(r), r]));
  const roots: T[] = [];
  for (const item of items) {
    const parent = byKey.get(parentOf(item)) as Row | undefined;
    if (parent && parent !== item) {
      const children = (parent.children as T[] | undefined) ?? [];
      children.push(item);
      parent.children = children;
    } else roots.push(item);
  }
  return roots;
}

export function toNode(model: Model, row: Row): TreeNode {
  const key = treeKey(model, row);
  const node: TreeNode = {
    id: key,
    parentId: treeParent(model, row),
    title: String(row[model.tree!.titleField] ?? ''),
    key,
    value: key,
  };
  for (const [nodeKey, field] of Object.entries(model.tree!.nodeFields ?? {})) node[nodeKey] = row[field] ?? '';
  return node;
}

/** Which of the given keys have live children (one grouped query). */
export async function keysWithChildren(services: Services, model: Model, tenantId: string, keys: string[], db?: Db): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const parentColumn = model.filterable.get(model.tree!.parentField)!.column;
  const rows = await services.store
    .base(model, tenantId, db)
    .select(parentColumn)
    .where(parentColumn, 'in', keys)
    .groupBy(parentColumn)
    .execute();
  return new Set(rows.map((r) => String((r as Row)[parentColumn])));
}
