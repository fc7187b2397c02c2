import { describe, expect, test } from 'vitest';
import { arrange, layoutOf, mergeLayout, moveColumn, nextSort } from '../../src/client/renderer/list/columnLayout.ts';
import type { GridColumn } from '../../src/client/renderer/list/columns.tsx';

// The list grid's column arrangement and sort (renderer/list/DataGrid.tsx): pure state functions.
const column = (id: string, extra: Partial<GridColumn> = {}): GridColumn => ({
  id,
  title: id,
  width: 100,
  minWidth: 60,
  sortable: true,
  resizable: true,
  movable: !extra.pinned,
  cell: () => null,
  ...extra,
});

describe('list grid columns', () => {
  const columns = [column('__select', { pinned: 'left' }), column('a'), column('b', { flex: 1 }), column('__actions', { pinned: 'right' }), column('c')];

  test('pinned columns keep their sides whatever the saved order; hidden ones are not shown', () => {
    const layout = layoutOf(columns)
      .reverse()
      .map((entry) => (entry.colId === 'b' ? { ...entry, hide: true } : entry));
    const shown = arrange(columns, layout).map((c) => c.id);
    expect(shown).toEqual(['__select', 'c', 'a', '__actions']);
  });

  test('a saved width replaces the definition and a resized column stops sharing the free space', () => {
    const layout = layoutOf(columns).map((entry) => (entry.colId === 'b' ? { ...entry, width: 240, flex: undefined } : entry));
    const b = arrange(columns, layout).find((c) => c.id === 'b')!;
    expect(b.width).toBe(240);
    expect(b.flex).toBeUndefined();
  });

  test('new definitions keep the user arrangement and slot new columns in their defined place', () => {
    const moved = moveColumn(layoutOf(columns), 'c', 'a', false);
    expect(moved.map((e) => e.colId)).toEqual(['__select', 'c', 'a', 'b', '__actions']);
    const next = [column('__select', { pinned: 'left' }), column('a'), column('new'), column('b'), column('__actions', { pinned: 'right' }), column('c', { title: '改名' })];
    const merged = mergeLayout(moved.map((e) => (e.colId === 'b' ? { ...e, hide: true } : e)), next);
    expect(merged.map((e) => e.colId)).toEqual(['__select', 'c', 'new', 'a', 'b', '__actions']);
    expect(merged.find((e) => e.colId === 'b')?.hide).toBe(true);
    // A column no longer defined is dropped.
    expect(mergeLayout(moved, [column('a')]).map((e) => e.colId)).toEqual(['a']);
  });

  test('a move lands before or after its target; unknown ids change nothing', () => {
    const layout = layoutOf([column('a'), column('b'), column('c')]);
    expect(moveColumn(layout, 'a', 'c', true).map((e) => e.colId)).toEqual(['b', 'c', 'a']);
    expect(moveColumn(layout, 'c', 'a', false).map((e) => e.colId)).toEqual(['c', 'a', 'b']);
    expect(moveColumn(layout, 'a', 'a', true)).toBe(layout);
    expect(moveColumn(layout, 'x', 'a', true)).toBe(layout);
  });
});

describe('list grid sort', () => {
  test('a click sorts by that column alone: ascending, descending, then unsorted', () => {
    let sort = nextSort([{ id: 'b', dir: 'desc' }], 'a', false);
    expect(sort).toEqual([{ id: 'a', dir: 'asc' }]);
    sort = nextSort(sort, 'a', false);
    expect(sort).toEqual([{ id: 'a', dir: 'desc' }]);
    expect(nextSort(sort, 'a', false)).toEqual([]);
  });

  test('shift-click adds a column to the sort and cycles it in place', () => {
    let sort = nextSort([{ id: 'a', dir: 'asc' }], 'b', true);
    expect(sort).toEqual([{ id: 'a', dir: 'asc' }, { id: 'b', dir: 'asc' }]);
    sort = nextSort(sort, 'a', true);
    expect(sort).toEqual([{ id: 'a', dir: 'desc' }, { id: 'b', dir: 'asc' }]);
    expect(nextSort(sort, 'a', true)).toEqual([{ id: 'b', dir: 'asc' }]);
  });
});
