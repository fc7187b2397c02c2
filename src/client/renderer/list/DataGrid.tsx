import { memo, useCallback, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { Empty, Spin } from 'antd';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ResourceFile } from '../../../shared/resource.ts';
import { evaluate, type Expr } from '../../../shared/expr.ts';
import { useSettings } from '../../store/settings.ts';
import { rt } from '../common/i18n.ts';
import type { Row } from '../common/params.ts';
import { useDictionariesState } from '../common/useDictionary.ts';
import { fieldOf, type ColumnDef } from '../common/views.ts';
import { clearColumnState, loadColumnState, saveColumnState } from './columnState.ts';
import { HEADER_HEIGHT, ROW_HEIGHT, cellClass, cellStyle, stickyOffsets, useColumnLayout, type ColumnLayout, type SortState } from './columnLayout.ts';
import {
  SELECT_COL,
  actionsColumn,
  buildDataColumns,
  indexColumn,
  isSummable,
  selectionColumn,
  sortColumnOf,
  type GridColumn,
  type GridContext,
} from './columns.tsx';
import { GridHeader } from './GridHeader.tsx';
import { RowActionButtons, actionsColumnWidth, type RowButton } from './RowActions.tsx';
import type { SortKey } from './useListData.ts';
import { useSummaryRow } from './useSummaryRow.ts';
import { useGridVars } from './gridVars.ts';
import './grid.css';

/** What the list page asks of its grid beyond props (the column settings, clearing a selection). */
export interface GridHandle {
  deselectAll(): void;
  columns(): { id: string; title: string; visible: boolean }[];
  setColumnVisible(id: string, visible: boolean): void;
}

export interface DataGridProps {
  resource: ResourceFile;
  columns: ColumnDef[];
  rows: Row[];
  loading?: boolean;
  /** Rows before this page (index column numbering). */
  offset?: number;
  showIndex?: boolean;
  selectable?: boolean;
  summary?: boolean;
  /** Totals of the whole query from the server (list.summaryEndpoint); else the rows on screen are summed. */
  totals?: Row;
  /** Opens the page a figure drills down to. */
  onDrill?(column: ColumnDef, row: Row): void;
  /** Buttons of a row; with `actionLabels` (widest set) the actions column shows. */
  rowButtons?: (row: Row) => RowButton[];
  actionLabels?: string[];
  actionsWidth?: number;
  /** Remembers column order, widths and visibility per user under this name. */
  stateKey?: string;
  titles?: Record<string, string>;
  currentRowId?: string;
  style?: CSSProperties;
  onSelectionChanged?(rows: Row[]): void;
  onSortChanged?(sort: SortKey[]): void;
  onRowClicked?(row: Row): void;
  onGridHandle?(handle: GridHandle | undefined): void;
  onColumnsChanged?(): void;
  /** Bumped to forget the saved column state and return to the schema's columns. */
  resetSignal?: number;
}

const NO_ROWS: Row[] = [];
const rowIdOf = (row: Row) => String(row.id ?? row.code ?? JSON.stringify(row));

interface RowViewProps {
  row: Row;
  rowIndex: number;
  shown: GridColumn[];
  styles: CSSProperties[];
  selected: boolean;
  className: string;
  top: number | undefined;
  summary?: boolean;
  onToggle?(id: string, checked: boolean): void;
  onClick?(row: Row): void;
}

const RowView = memo(function RowView({ row, rowIndex, shown, styles, selected, className, top, summary = false, onToggle, onClick }: RowViewProps) {
  const id = summary ? 'summary' : rowIdOf(row);
  const context = { rowIndex, summary };
  return (
    <div
      role="row"
      className={className}
      row-id={id}
      row-index={summary ? undefined : rowIndex}
      aria-rowindex={summary ? undefined : rowIndex + 2}
      aria-selected={onToggle ? selected : undefined}
      style={top === undefined ? undefined : { transform: `translateY(${top}px)` }}
      onClick={summary ? undefined : () => onClick?.(row)}
    >
      {shown.map((column, i) => (
        <div key={column.id} role="gridcell" col-id={column.id} className={cellClass(column, 'erp-grid-cell')} style={styles[i]}>
          {column.id === SELECT_COL ? (
            summary ? null : (
              <span className="erp-grid-select" onClick={(e) => e.stopPropagation()}>
                <input
                  type="checkbox"
                  className="erp-grid-checkbox"
                  aria-label={rt('list.selectRow')}
                  checked={selected}
                  onChange={(e) => onToggle?.(id, e.target.checked)}
                />
              </span>
            )
          ) : (
            column.cell(row, context)
          )}
        </div>
      ))}
    </div>
  );
});

/** Shows an overflowing cell's or header's whole text as its tooltip (one listener for the grid). */
function titleWhenTruncated(event: React.MouseEvent<HTMLElement>) {
  const target = (event.target as HTMLElement).closest<HTMLElement>('.erp-grid-cell, .erp-grid-header-text');
  if (!target) return;
  if (target.scrollWidth > target.clientWidth) target.title = target.innerText;
  else target.removeAttribute('title');
}

/**
 * The renderer's list grid: schema columns, index/selection/actions columns (pinned as sticky
 * cells), a summary row, sorting on the server, columns the user resizes, moves and hides (saved
 * per user), and rows drawn only where they can be seen (@tanstack/react-virtual).
 */
export function DataGrid(props: DataGridProps) {
  const { resource, columns, rows, loading, offset = 0, showIndex = true, selectable = true, summary, totals } = props;
  const { onDrill, rowButtons, actionLabels, actionsWidth, stateKey, titles, currentRowId, style } = props;
  const { onSelectionChanged, onSortChanged, onRowClicked, onGridHandle, onColumnsChanged, resetSignal = 0 } = props;
  const language = useSettings((s) => s.language);
  const vars = useGridVars();
  const scrollRef = useRef<HTMLDivElement>(null);

  const fields = useMemo(
    () => Object.fromEntries(columns.map((c) => [c.field, fieldOf(resource, c.field)])),
    [resource, columns],
  );
  // Rows wait for their columns' dictionaries, so a status never paints blank and then fills in.
  const { maps: dictionaries, ready: dictionariesReady } = useDictionariesState(fields);
  const saved = useMemo(() => {
    if (!stateKey) return undefined;
    if (resetSignal) clearColumnState(resource.resource, stateKey);
    return loadColumnState(resource.resource, stateKey);
  }, [resource, stateKey, resetSignal]);

  // Callbacks and numbering travel in a stable context object so columns need not be rebuilt.
  const context = useMemo<GridContext & { rowButtons(row: Row): RowButton[] }>(() => ({ offset: 0, rowButtons: () => [] }), []);
  context.offset = offset;
  context.rowButtons = rowButtons ?? (() => []);
  context.drill = onDrill;

  const showActions = Boolean(rowButtons && actionLabels?.length);
  const gridColumns = useMemo<GridColumn[]>(() => {
    const defs: GridColumn[] = [];
    if (selectable) defs.push(selectionColumn());
    if (showIndex) defs.push(indexColumn(context));
    defs.push(...buildDataColumns({ resource, columns, dictionaries, language, saved, titles, context }));
    if (showActions) {
      const width = actionsWidth ?? actionsColumnWidth(actionLabels ?? []);
      defs.push(actionsColumn(width, (row, { summary: isSummary }) => (isSummary ? null : <RowActionButtons buttons={context.rowButtons(row)} />)));
    }
    return defs;
    // language re-labels the index/actions headers.
  }, [resource, columns, dictionaries, language, saved, titles, selectable, showIndex, showActions, actionsWidth, actionLabels, context]);

  const save = useCallback(
    (layout: ColumnLayout) => {
      if (stateKey) saveColumnState(resource.resource, layout, stateKey);
      onColumnsChanged?.();
    },
    [resource, stateKey, onColumnsChanged],
  );
  const { shown, read, update } = useColumnLayout(gridColumns, resetSignal, save);
  const offsets = useMemo(() => stickyOffsets(shown), [shown]);
  const styles = useMemo(() => shown.map((column) => cellStyle(column, offsets.get(column.id))), [shown, offsets]);
  const totalWidth = shown.reduce((sum, column) => sum + column.width, 0);

  // Sorting happens on the server; the grid keeps the order and shows the arrows.
  const [sort, setSort] = useState<SortState>([]);
  const changeSort = useCallback(
    (next: SortState) => {
      setSort(next);
      onSortChanged?.(next.map((s) => ({ column: sortColumnOf(resource, s.id), dir: s.dir })));
    },
    [resource, onSortChanged],
  );

  const shownRows = dictionariesReady ? rows : NO_ROWS;
  const [selectedIds, setSelectedIds] = useState<ReadonlySet<string>>(() => new Set());
  const selectionCallback = useRef(onSelectionChanged);
  selectionCallback.current = onSelectionChanged;
  const select = useCallback(
    (next: ReadonlySet<string>) => {
      setSelectedIds(next);
      selectionCallback.current?.(shownRows.filter((row) => next.has(rowIdOf(row))));
    },
    [shownRows],
  );
  // New rows (another page, a refresh) keep the selection of the records still shown, and the
  // page is told the records as they now read.
  useEffect(() => {
    if (!selectedIds.size) return;
    const ids = new Set(shownRows.map(rowIdOf));
    select(new Set([...selectedIds].filter((id) => ids.has(id))));
    // Only new rows re-check the selection.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shownRows]);
  const selectedRef = useRef(selectedIds);
  selectedRef.current = selectedIds;
  const toggle = useCallback(
    (id: string, checked: boolean) => {
      const next = new Set(selectedRef.current);
      if (checked) next.add(id);
      else next.delete(id);
      selectedRef.current = next;
      select(next);
    },
    [select],
  );

  const handle = useRef<GridHandle>(undefined as unknown as GridHandle);
  handle.current = {
    deselectAll: () => select(new Set()),
    columns: () =>
      read()
        .filter((entry) => !entry.colId.startsWith('__'))
        .map((entry) => ({
          id: entry.colId,
          title: gridColumns.find((column) => column.id === entry.colId)?.title ?? entry.colId,
          visible: !entry.hide,
        })),
    setColumnVisible: (id, visible) =>
      update((current) => current.map((entry) => (entry.colId === id ? { ...entry, hide: !visible } : entry)), true),
  };
  useEffect(() => {
    // A stable facade over the latest handle: the page keeps one object for the grid's life.
    const facade: GridHandle = {
      deselectAll: () => handle.current.deselectAll(),
      columns: () => handle.current.columns(),
      setColumnVisible: (id, visible) => handle.current.setColumnVisible(id, visible),
    };
    onGridHandle?.(facade);
    return () => onGridHandle?.(undefined);
  }, [onGridHandle]);

  const virtualizer = useVirtualizer({
    count: shownRows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    scrollMargin: HEADER_HEIGHT,
    // Rows draw in the first commit, before the scroll box has been measured.
    initialRect: { width: 1200, height: 900 },
  });

  const summaryFields = useMemo(
    () => (summary ? columns.filter((c) => isSummable(resource, c)).map((c) => c.field) : []),
    [summary, columns, resource],
  );
  const summaryRow = useSummaryRow(shownRows, summaryFields, totals)?.[0];

  // Render-time figure (tests/bench): data arrival mark → the frame after the rows are committed.
  useEffect(() => {
    if (!performance.getEntriesByName('erp:list-data', 'mark').length) return;
    const frame = requestAnimationFrame(() =>
      setTimeout(() => {
        performance.measure('erp:list-render', 'erp:list-data');
        performance.clearMarks('erp:list-data');
      }),
    );
    return () => cancelAnimationFrame(frame);
  }, [rows]);

  const strongIf = resource.list?.strongIf as Expr | undefined;
  const rowClass = (row: Row, selected: boolean) => {
    let name = 'erp-grid-row';
    if (selected) name += ' erp-grid-row-selected';
    if (currentRowId && String(row.id) === currentRowId) name += ' erp-row-current';
    if (strongIf && evaluate(strongIf, row)) name += ' erp-row-strong';
    return name;
  };
  const allSelected = shownRows.length > 0 && shownRows.every((row) => selectedIds.has(rowIdOf(row)));
  const someSelected = !allSelected && shownRows.some((row) => selectedIds.has(rowIdOf(row)));
  const busy = loading || !dictionariesReady;
  const onClick = onRowClicked;

  return (
    <div style={{ position: 'relative', height: '100%', minHeight: 300, ...vars, ...style }} data-testid="data-grid">
      <div
        ref={scrollRef}
        className="erp-list-grid"
        role="grid"
        aria-rowcount={shownRows.length + 1}
        aria-busy={busy}
        onMouseOver={titleWhenTruncated}
      >
        <div className="erp-grid-inner" style={{ width: totalWidth }}>
          <GridHeader
            shown={shown}
            styles={styles}
            sort={sort}
            onSort={changeSort}
            selection={selectable ? { all: allSelected, some: someSelected, onChange: (checked) => select(new Set(checked ? shownRows.map(rowIdOf) : [])) } : undefined}
            update={update}
          />
          <div className="erp-grid-body" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = shownRows[item.index];
              const selected = selectedIds.has(rowIdOf(row));
              return (
                <RowView
                  key={rowIdOf(row)}
                  row={row}
                  rowIndex={item.index}
                  shown={shown}
                  styles={styles}
                  selected={selected}
                  className={rowClass(row, selected)}
                  top={item.start - HEADER_HEIGHT}
                  onToggle={selectable ? toggle : undefined}
                  onClick={onClick}
                />
              );
            })}
          </div>
          {summaryRow && shownRows.length > 0 && (
            <RowView
              row={summaryRow}
              rowIndex={-1}
              shown={shown}
              styles={styles}
              selected={false}
              className="erp-grid-row erp-grid-row-pinned"
              top={undefined}
              summary
            />
          )}
        </div>
      </div>
      {busy ? (
        <div className="erp-grid-overlay erp-grid-loading" aria-live="polite">
          <Spin />
        </div>
      ) : (
        shownRows.length === 0 && (
          <div className="erp-grid-overlay erp-grid-empty">
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={rt('list.empty')} style={{ margin: 0 }} />
          </div>
        )
      )}
    </div>
  );
}
