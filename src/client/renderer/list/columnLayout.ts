import { useCallback, useMemo, useRef, useState, type CSSProperties } from 'react';
import type { SavedColumn } from './columnState.ts';
import type { GridColumn } from './columns.tsx';

/** Spec §9: row height 30. */
export const ROW_HEIGHT = 30;
export const HEADER_HEIGHT = 34;

/** The user's arrangement of the columns: order (array order), widths and visibility. */
export type ColumnLayout = SavedColumn[];

export const layoutOf = (columns: GridColumn[]): ColumnLayout =>
  columns.map((column) => ({ colId: column.id, width: column.width, flex: column.flex, hide: column.hidden }));

/**
 * The arrangement kept across new column definitions (a dictionary arriving, the language
 * switching): the columns still there keep their place, width and visibility; new ones join in
 * their defined place. A reset (`fresh`) takes the definitions as they are.
 */
export function mergeLayout(previous: ColumnLayout, columns: GridColumn[]): ColumnLayout {
  const ids = new Set(columns.map((column) => column.id));
  const kept = previous.filter((entry) => ids.has(entry.colId));
  const known = new Set(kept.map((entry) => entry.colId));
  const merged = [...kept];
  layoutOf(columns).forEach((entry, index) => {
    if (!known.has(entry.colId)) merged.splice(Math.min(index, merged.length), 0, entry);
  });
  return merged;
}

/** Columns in display order: left-pinned, the movable middle in the user's order, right-pinned. */
export function arrange(columns: GridColumn[], layout: ColumnLayout): GridColumn[] {
  const byId = new Map(columns.map((column) => [column.id, column]));
  const ordered = layout.flatMap((entry) => {
    const column = byId.get(entry.colId);
    if (!column || entry.hide) return [];
    return [{ ...column, width: entry.width ?? column.width, flex: entry.flex }];
  });
  const side = (pinned: GridColumn['pinned']) => ordered.filter((column) => column.pinned === pinned);
  return [...side('left'), ...side(undefined), ...side('right')];
}

/** Moves `id` next to `target` (before it, or after it when `after`). */
export function moveColumn(layout: ColumnLayout, id: string, target: string, after: boolean): ColumnLayout {
  if (id === target) return layout;
  const moving = layout.find((entry) => entry.colId === id);
  if (!moving) return layout;
  const rest = layout.filter((entry) => entry.colId !== id);
  const at = rest.findIndex((entry) => entry.colId === target);
  if (at < 0) return layout;
  rest.splice(after ? at + 1 : at, 0, moving);
  return rest;
}

export interface ColumnLayoutState {
  /** The visible columns in display order, with the user's widths. */
  shown: GridColumn[];
  layout: ColumnLayout;
  /** The arrangement as of the last change, before React has rendered it (for synchronous readers). */
  read(): ColumnLayout;
  /** Replaces the arrangement; `save` stores it for the user (a finished drag, a checkbox). */
  update(next: (layout: ColumnLayout) => ColumnLayout, save: boolean): void;
}

/** Column arrangement state of one grid; `onSave` stores a finished change; a new `resetSignal` starts again from `columns`. */
export function useColumnLayout(columns: GridColumn[], resetSignal: unknown, onSave: (layout: ColumnLayout) => void): ColumnLayoutState {
  const [state, setState] = useState(() => ({ columns, resetSignal, layout: layoutOf(columns) }));
  let current = state;
  if (state.columns !== columns || state.resetSignal !== resetSignal) {
    // Adjusted during render (React's pattern for state derived from props): no extra paint.
    const layout = state.resetSignal !== resetSignal ? layoutOf(columns) : mergeLayout(state.layout, columns);
    current = { columns, resetSignal, layout };
    setState(current);
  }
  const latest = useRef(current.layout);
  latest.current = current.layout;
  const update = useCallback(
    (next: (layout: ColumnLayout) => ColumnLayout, save: boolean) => {
      const layout = next(latest.current);
      latest.current = layout;
      setState((s) => ({ ...s, layout }));
      if (save) onSave(layout);
    },
    [onSave],
  );
  const shown = useMemo(() => arrange(columns, current.layout), [columns, current.layout]);
  const read = useCallback(() => latest.current, []);
  return { shown, layout: current.layout, read, update };
}

/** Left offsets of the left-pinned columns and right offsets of the right-pinned (sticky cells). */
export function stickyOffsets(shown: GridColumn[]): Map<string, CSSProperties> {
  const offsets = new Map<string, CSSProperties>();
  let left = 0;
  for (const column of shown.filter((c) => c.pinned === 'left')) {
    offsets.set(column.id, { left });
    left += column.width;
  }
  let right = 0;
  for (const column of shown.filter((c) => c.pinned === 'right').reverse()) {
    offsets.set(column.id, { right });
    right += column.width;
  }
  return offsets;
}

/** A cell's box: its width (growing into free space with flex), alignment and sticky side. */
export function cellStyle(column: GridColumn, sticky: CSSProperties | undefined): CSSProperties {
  return { flex: `${column.flex ?? 0} 0 ${column.width}px`, minWidth: column.minWidth, ...sticky };
}

export function cellClass(column: GridColumn, base: string): string {
  let name = base;
  if (column.align) name += ` erp-grid-${column.align}`;
  if (column.pinned) name += ` erp-grid-pinned-${column.pinned}`;
  return name;
}

export type SortState = { id: string; dir: 'asc' | 'desc' }[];

/** Click: this column alone, ascending → descending → unsorted; shift-click adds it to the sort. */
export function nextSort(sort: SortState, id: string, adding: boolean): SortState {
  const current = sort.find((s) => s.id === id);
  const dir = !current ? 'asc' : current.dir === 'asc' ? 'desc' : undefined;
  const others = adding ? sort.filter((s) => s.id !== id) : [];
  if (!dir) return others;
  if (adding && current) return sort.map((s) => (s.id === id ? { id, dir } : s));
  return [...others, { id, dir }];
}
