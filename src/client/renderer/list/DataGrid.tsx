import { useCallback, useEffect, useMemo, useRef, type CSSProperties } from 'react';
import { Empty } from 'antd';
import { AgGridReact } from 'ag-grid-react';
import type {
  ColDef,
  ColumnMovedEvent,
  ColumnResizedEvent,
  GetRowIdParams,
  GridApi,
  RowClassParams,
  RowClickedEvent,
  RowSelectionOptions,
} from 'ag-grid-community';
import type { ResourceFile } from '../../../shared/resource.ts';
import { evaluate, type Expr } from '../../../shared/expr.ts';
import { useSettings } from '../../store/settings.ts';
import { rt } from '../common/i18n.ts';
import type { Row } from '../common/params.ts';
import { useDictionariesState } from '../common/useDictionary.ts';
import { fieldOf, type ColumnDef } from '../common/views.ts';
import { HEADER_HEIGHT, ROW_HEIGHT, useGridLocale, useGridTheme } from './agGrid.ts';
import { clearColumnState, loadColumnState, saveColumnState } from './columnState.ts';
import { ACTIONS_COL, buildDataColumns, indexColumn, isSummable, sortColumnOf, type GridContext } from './columns.tsx';
import { RowActionsCell, actionsColumnWidth, type RowActionsContext, type RowButton } from './RowActions.tsx';
import type { SortKey } from './useListData.ts';
import { useSummaryRow } from './useSummaryRow.ts';
import './grid.css';

function NoRows() {
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={rt('list.empty')} style={{ margin: 0 }} />;
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
  onGridApi?(api: GridApi<Row> | undefined): void;
  onColumnsChanged?(): void;
  /** Bumped to forget the saved column state and return to the schema's columns. */
  resetSignal?: number;
}

const rowSelection: RowSelectionOptions<Row> = {
  mode: 'multiRow',
  checkboxes: true,
  headerCheckbox: true,
  enableClickSelection: false,
};

const selectionColumnDef = { pinned: 'left' as const, width: 44, lockPinned: true, suppressMovable: true };

const NO_ROWS: Row[] = [];
const GRID_CONTAINER_STYLE: CSSProperties = { position: 'absolute', inset: 0, width: 'auto', height: 'auto' };

const rowIdOf = (p: GetRowIdParams<Row>) => String(p.data.id ?? p.data.code ?? JSON.stringify(p.data));

/** The chosen row (dictionary parent) and the bold rule are read from the grid context, so the rule object never changes. */
const rowClassRules = {
  'erp-row-current': (p: RowClassParams<Row>) => {
    const current = (p.context as { currentRowId?: string }).currentRowId;
    return Boolean(current) && String(p.data?.id) === current;
  },
  'erp-row-strong': (p: RowClassParams<Row>) => {
    const rule = (p.context as { strongIf?: Expr }).strongIf;
    return rule !== undefined && Boolean(p.data) && Boolean(evaluate(rule, p.data!));
  },
};

/** The renderer's ag-grid: schema columns, index/selection/actions columns, summary row. */
export function DataGrid(props: DataGridProps) {
  const {
    resource,
    columns,
    rows,
    loading,
    offset = 0,
    showIndex = true,
    selectable = true,
    summary,
    totals,
    onDrill,
    rowButtons,
  } = props;
  const { actionLabels, actionsWidth, stateKey, titles, currentRowId, style } = props;
  const { onSelectionChanged, onSortChanged, onRowClicked, onGridApi, onColumnsChanged, resetSignal = 0 } = props;
  const language = useSettings((s) => s.language);
  const theme = useGridTheme();
  const localeText = useGridLocale();
  const apiRef = useRef<GridApi<Row> | undefined>(undefined);

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
  const context = useMemo<GridContext & RowActionsContext & { currentRowId?: string; strongIf?: Expr }>(
    () => ({ offset: 0, rowButtons: () => [] }),
    [],
  );
  context.offset = offset;
  context.rowButtons = rowButtons ?? (() => []);
  context.currentRowId = currentRowId;
  context.strongIf = resource.list?.strongIf as Expr | undefined;
  context.drill = onDrill;

  const showActions = Boolean(rowButtons && actionLabels?.length);
  const columnDefs = useMemo<ColDef<Row>[]>(() => {
    const defs: ColDef<Row>[] = [];
    if (showIndex) defs.push(indexColumn());
    defs.push(...buildDataColumns({ resource, columns, dictionaries, language, saved, titles }));
    if (showActions) {
      defs.push({
        colId: ACTIONS_COL,
        headerName: rt('list.actions'),
        pinned: 'right',
        lockPinned: true,
        suppressMovable: true,
        sortable: false,
        resizable: false,
        width: actionsWidth ?? actionsColumnWidth(actionLabels ?? []),
        cellRenderer: RowActionsCell,
      });
    }
    return defs;
    // language re-labels the index/actions headers.
  }, [resource, columns, dictionaries, language, saved, titles, showIndex, showActions, actionsWidth, actionLabels]);

  const summaryFields = useMemo(
    () => (summary ? columns.filter((c) => isSummable(resource, c)).map((c) => c.field) : []),
    [summary, columns, resource],
  );
  const pinnedBottom = useSummaryRow(rows, summaryFields, totals);

  useEffect(() => {
    apiRef.current?.refreshCells({ columns: showIndex ? ['__index'] : [], force: true });
  }, [offset, showIndex]);
  useEffect(() => {
    apiRef.current?.redrawRows();
  }, [currentRowId]);
  // The rebuilt definitions (without saved state) are in place: apply their initial widths and order.
  useEffect(() => {
    if (!resetSignal) return;
    apiRef.current?.resetColumnState();
    if (stateKey) clearColumnState(resource.resource, stateKey);
  }, [resetSignal, resource, stateKey]);

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

  const persist = useCallback(() => {
    const api = apiRef.current;
    if (!api) return;
    if (stateKey) saveColumnState(resource.resource, api.getColumnState(), stateKey);
    onColumnsChanged?.();
  }, [resource, stateKey, onColumnsChanged]);

  return (
    <div style={{ position: 'relative', height: '100%', minHeight: 300, ...style }} data-testid="data-grid">
      <AgGridReact<Row>
        // Absolutely placed: the wrapper's height often comes from min-height or flex-grow only,
        // which a percentage height cannot resolve against (the grid would collapse to 0 px).
        containerStyle={GRID_CONTAINER_STYLE}
        theme={theme}
        localeText={localeText}
        rowData={dictionariesReady ? rows : NO_ROWS}
        columnDefs={columnDefs}
        context={context}
        loading={loading || !dictionariesReady}
        noRowsOverlayComponent={NoRows}
        rowHeight={ROW_HEIGHT}
        headerHeight={HEADER_HEIGHT}
        rowSelection={selectable ? rowSelection : undefined}
        selectionColumnDef={selectionColumnDef}
        pinnedBottomRowData={pinnedBottom}
        getRowId={rowIdOf}
        rowClassRules={rowClassRules}
        maintainColumnOrder
        suppressCellFocus
        suppressDragLeaveHidesColumns
        tooltipShowDelay={400}
        tooltipShowMode="whenTruncated"
        onGridReady={(e) => {
          apiRef.current = e.api;
          onGridApi?.(e.api);
        }}
        onGridPreDestroyed={() => {
          apiRef.current = undefined;
          onGridApi?.(undefined);
        }}
        onSelectionChanged={(e) => onSelectionChanged?.(e.api.getSelectedRows())}
        onSortChanged={(e) => {
          const sort = e.api
            .getColumnState()
            .filter((s) => s.sort)
            .sort((a, b) => (a.sortIndex ?? 0) - (b.sortIndex ?? 0))
            .map((s) => ({ column: sortColumnOf(resource, s.colId), dir: s.sort! }));
          onSortChanged?.(sort);
        }}
        onRowClicked={(e: RowClickedEvent<Row>) => {
          if (e.data && !e.node.rowPinned) onRowClicked?.(e.data);
        }}
        onColumnMoved={(e: ColumnMovedEvent<Row>) => e.finished && persist()}
        onColumnResized={(e: ColumnResizedEvent<Row>) => e.finished && e.source === 'uiColumnResized' && persist()}
        onColumnVisible={() => persist()}
      />
    </div>
  );
}
