import { useCallback, useMemo, useRef, useState } from 'react';
import UndoOutlined from '@ant-design/icons/es/icons/UndoOutlined';
import { useColumnLayout, type ColumnLayout } from '../../renderer/list/columnLayout.ts';
import { clearColumnState, loadColumnState, saveColumnState, type SavedColumn } from '../../renderer/list/columnState.ts';
import { useDT } from '../../renderer/document/i18n.ts';
import { fitWithChosen, LINE_INDEX_COL, type LineGridColumn } from './lineGridColumns.ts';

/** Kept apart from the list of the same resource (`listColumns-<user>-<resource>-lines`). */
const LINES_SCOPE = 'lines';

/** The saved entries that name a column and a width in px (storage may hold anything). */
const chosenWidths = (saved: SavedColumn[] | undefined): SavedColumn[] =>
  (saved ?? []).filter((entry) => typeof entry?.colId === 'string' && typeof entry.width === 'number' && Number.isFinite(entry.width) && entry.width > 0);

/**
 * The line grid's columns fitted to its width, with the widths the clerk dragged (or fitted by
 * double-click): those are kept per user and bill kind (`layoutKey`, the bill's resource) and come
 * back on the next bill, whatever the grid's width; the columns not sized by hand share what is
 * left. A finished drag fits the others again at once, as the next bill would show them. While
 * any width is the clerk's, the line number's header offers 恢复默认列宽. (The line columns keep
 * the schema's order: they are not movable.)
 */
export function useLineLayout(baseColumns: LineGridColumn[], width: number, layoutKey: string | undefined) {
  const dt = useDT();
  const [chosen, setChosen] = useState<SavedColumn[]>(() => (layoutKey ? chosenWidths(loadColumnState(layoutKey, LINES_SCOPE)) : []));
  const reset = useCallback(() => {
    if (layoutKey) clearColumnState(layoutKey, LINES_SCOPE);
    setChosen([]);
  }, [layoutKey]);

  const fitted = useMemo(() => {
    const widths = new Map(chosen.flatMap((entry) => (entry.width === undefined ? [] : [[entry.colId, entry.width] as const])));
    const fit = fitWithChosen(baseColumns, width, widths);
    const resetButton = widths.size ? (
      <button type="button" className="erp-line-reset-widths" title={dt('doc.resetWidths')} aria-label={dt('doc.resetWidths')} data-testid="line-reset-widths" onClick={reset}>
        <UndoOutlined />
      </button>
    ) : undefined;
    return baseColumns.map((column, i) => ({
      ...column,
      width: fit.widths[i],
      pinned: fit.pinned && (!column.source || column.source.kind === 'goods') ? ('left' as const) : undefined,
      headerAddon: column.id === LINE_INDEX_COL ? resetButton : undefined,
    }));
  }, [baseColumns, width, chosen, dt, reset]);

  const latest = useRef({ fitted, chosen });
  latest.current = { fitted, chosen };
  const save = useCallback(
    (layout: ColumnLayout) => {
      if (!layoutKey) return;
      const { fitted: shownFit, chosen: before } = latest.current;
      const fittedWidth = new Map(shownFit.map((column) => [column.id, column.width]));
      const sized = new Set(before.flatMap((entry) => (entry.width === undefined ? [] : [entry.colId])));
      // A width differing from the fit was set by hand now; one set before stays the clerk's.
      const next = layout.flatMap(({ colId, width: w }) => (!colId.startsWith('__') && w !== undefined && (sized.has(colId) || w !== fittedWidth.get(colId)) ? [{ colId, width: w }] : []));
      saveColumnState(layoutKey, next, LINES_SCOPE);
      setChosen(next);
    },
    [layoutKey],
  );
  // Any new fit (the grid's width, the columns, the clerk's choice) starts from the fitted columns.
  const { shown, update } = useColumnLayout(fitted, fitted, save);
  return { shown: shown as LineGridColumn[], update };
}
