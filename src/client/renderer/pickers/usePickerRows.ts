import { useEffect, useState } from 'react';
import type { ResourceFile } from '../../../shared/resource.ts';
import { fetchRowsById, fetchTree, walkTree, type Row } from './api.ts';
import type { ResolvedPicker } from './definition.ts';

/** Trees are read once per URL while the page lives (labels of values set before picking). */
const treeCache = new Map<string, Promise<Map<string, Row>>>();

function treeIndex(picker: ResolvedPicker): Promise<Map<string, Row>> {
  const key = `${picker.url}#${picker.answerKey ?? ''}`;
  let pending = treeCache.get(key);
  if (!pending) {
    pending = fetchTree(picker.url, {}, picker.answerKey).then((nodes) => {
      const map = new Map<string, Row>();
      walkTree(nodes, (node) => map.set(String(node[picker.valueField] ?? node.key), node));
      return map;
    });
    pending.catch(() => treeCache.delete(key));
    treeCache.set(key, pending);
  }
  return pending;
}

/**
 * Rows for values the field already holds, so the input can show names: from the tree (tree
 * pickers on a full tree) or the detail endpoint. Rows the caller already knows are kept.
 */
export function usePickerRows(
  resource: ResourceFile | undefined,
  picker: ResolvedPicker | undefined,
  values: string[],
  known: Row[],
): Row[] {
  const [rows, setRows] = useState<Row[]>(known);
  const signature = values.join(',');
  useEffect(() => {
    if (!resource || !picker) return;
    const have = new Map(known.map((row) => [String(row[picker.valueField] ?? ''), row]));
    const missing = values.filter((value) => !have.has(value));
    if (!missing.length) {
      setRows(values.map((value) => have.get(value)!));
      return;
    }
    let active = true;
    const lookup: Promise<Row[]> =
      picker.kind === 'tree' && !picker.lazyParam
        ? treeIndex(picker).then((index) =>
            missing.map((value) => index.get(value)).filter((row): row is Row => Boolean(row)),
          )
        : fetchRowsById(resource, missing);
    lookup
      .then((found) => {
        if (!active) return;
        for (const row of found) have.set(String(row[picker.kind === 'tree' ? picker.valueField : 'id'] ?? ''), row);
        setRows(values.map((value) => have.get(value) ?? { [picker.valueField]: value }));
      })
      .catch(() => undefined);
    return () => {
      active = false;
    };
    // `signature` stands for `values`; `known` only seeds labels.
  }, [resource, picker, signature]);
  return rows;
}
