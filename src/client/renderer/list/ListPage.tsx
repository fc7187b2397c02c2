import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Flex, Pagination, theme } from 'antd';
import { useLocation } from 'react-router';
import type { QueryValue } from '../../api/http.ts';
import type { ResourceFile } from '../../../shared/resource.ts';
import { prefetchRecordDialog, RecordDialog, type RecordDialogState } from '../form/RecordDialog.tsx';
import { useLabel, useRT } from '../common/i18n.ts';
import type { Row } from '../common/params.ts';
import { listColumnsOf, viewsOf, type ColumnDef } from '../common/views.ts';
import { useListCapabilities } from './capabilities.ts';
import { ColumnSettings } from './ColumnSettings.tsx';
import { DataGrid, type GridHandle } from './DataGrid.tsx';
import { ListToolbar } from './ListToolbar.tsx';
import type { RowButton } from './RowActions.tsx';
import { SearchForm } from './SearchForm.tsx';
import { initialSearchValues, searchFieldsOf, toFilterParams } from './searchParams.ts';
import { transferEndpoint } from './transfer.ts';
import { useExportJobs } from '../../store/exportJobs.ts';
import { useActionRunner } from './useActionRunner.tsx';
import { recordActionLabels, recordRowButtons } from './rowButtons.ts';
import { sortParams, useListData } from './useListData.ts';
import { drillPreset, useDrill } from './drill.ts';
import { documentOf } from '../../../shared/document.ts';
import { loadBill, prefetchBill } from '../document/documentApi.ts';
import { useFeedback } from '../../feedback/FeedbackProvider.tsx';

export const PAGE_SIZES = [10, 30, 50, 100, 200];

// echarts comes only with a page that has a chart.
const ReportChart = lazy(() => import('./ReportChart.tsx'));
// The drill-down notice shows only on a list opened from a report's figure.
const Alert = lazy(() => import('antd/es/alert'));

export interface ListPageProps {
  resource: ResourceFile;
  /** Endpoint path serving the rows (dictionary parent-list / child-list). */
  endpointPath?: string;
  /** Sent with every list call (child rows of the chosen parent). */
  fixedParams?: Record<string, QueryValue>;
  /** False shows an empty list and disables 新增 (a child list before a parent is chosen). */
  enabled?: boolean;
  columns?: ColumnDef[];
  /** Initial values of a new row (parentId and code of the chosen parent). */
  addPreset?: Record<string, unknown>;
  title?: ReactNode;
  /** Scope of the remembered column state when one resource shows in several lists. */
  stateKey?: string;
  currentRowId?: string;
  onRowClicked?(row: Row): void;
  /** Grid height in px; by default the grid fills the page height (never below 300). */
  gridHeight?: number;
  hideSearch?: boolean;
  /** The list shares the width with another (dictionary side by side): two search fields a row. */
  narrow?: boolean;
}


/** The schema list: search form, toolbar, the list grid with server paging, row actions, dialogs. */
export default function ListPage(props: ListPageProps) {
  const { resource, endpointPath, fixedParams, enabled = true, addPreset, title, stateKey = 'list' } = props;
  const { token } = theme.useToken();
  const t = useRT();
  const label = useLabel();
  const list = viewsOf(resource).list ?? {};
  const pageSize = list.pageSize ?? 10;
  const pageSizes = useMemo(
    () => [...new Set([...(list.pageSizes ?? PAGE_SIZES), pageSize])].sort((a, b) => a - b),
    [list.pageSizes, pageSize],
  );
  const columns = useMemo(() => props.columns ?? listColumnsOf(resource), [props.columns, resource]);
  const searchDefs = useMemo(() => searchFieldsOf(resource), [resource]);
  const initialSearch = useMemo(() => initialSearchValues(searchDefs), [searchDefs]);
  // A page opened by a drill-down starts with the row's figure as its filter, until dropped.
  const location = useLocation();
  const [preset, setPreset] = useState(() => drillPreset(location.search));
  const listParams = useMemo(
    () => (Object.keys(preset.params).length ? { ...fixedParams, ...preset.params } : fixedParams),
    [fixedParams, preset],
  );
  const data = useListData({ resource, endpointPath, fixedParams: listParams, enabled, pageSize, summaryPath: list.summary ? list.summaryEndpoint : undefined });
  const { query, setFilters, reload } = data;
  const drill = useDrill(query.filters);
  const caps = useListCapabilities(resource);
  // Once the first rows are on screen, the form engine loads in idle time for 新增/编辑/查看.
  useEffect(() => {
    if (data.answered) prefetchRecordDialog(resource);
  }, [data.answered, resource]);
  const [selected, setSelected] = useState<Row[]>([]);
  const [dialog, setDialog] = useState<RecordDialogState | undefined>();
  const [grid, setGrid] = useState<GridHandle | undefined>();
  const [columnsVersion, setColumnsVersion] = useState(0);
  const [resetSignal, setResetSignal] = useState(0);
  // After an action or delete the old selection means nothing: clear it with the refresh.
  const afterAction = useCallback(() => {
    grid?.deselectAll();
    reload();
  }, [grid, reload]);
  const runner = useActionRunner(resource, afterAction);
  const exportEndpoint = transferEndpoint(resource, 'export');
  // Every report exports what it shows; other lists where the catalogue has an export call.
  const canExport = Boolean(exportEndpoint) || resource.module === 'analysis';
  const startExport = useExportJobs((s) => s.start);
  const { message } = useFeedback();
  const importEndpoint = caps.canAdd ? transferEndpoint(resource, 'import') : undefined;
  // A bill list prints one chosen bill (spec §5: 请选择一条数据！ otherwise).
  const printable = Boolean(documentOf(resource)) && caps.canView;
  const printSelected = useCallback(async () => {
    if (selected.length !== 1) {
      void message.warning(t('list.selectOne'));
      return;
    }
    const [bill, { printBill }] = await Promise.all([loadBill(resource, String(selected[0].id)), import('../../bespoke/print/printBill.ts')]).catch(() => [undefined, { printBill: undefined }] as const);
    if (bill && printBill) await printBill(resource, bill);
  }, [selected, resource, message, t]);

  // A bill's 查看/编辑 reads the bill while the editor's code loads, not after it has mounted.
  const openRecord = useCallback(
    (state: RecordDialogState) => {
      if (resource.document && state.id && state.mode !== 'add') prefetchBill(resource, state.id);
      setDialog(state);
    },
    [resource],
  );
  const rowButtons = useCallback(
    (row: Row): RowButton[] => recordRowButtons(row, { caps, t, label, runner, openDialog: openRecord }),
    [caps, t, label, runner, openRecord],
  );
  const actionLabels = useMemo(() => recordActionLabels({ caps, t, label }), [caps, t, label]);

  // A report with a chart scrolls as a page (chart above a grid of fixed height); other lists fill the page.
  const REPORT_GRID_HEIGHT = 440;
  const fill = props.gridHeight === undefined && !list.chart;
  return (
    <Flex
      vertical
      style={{
        height: fill ? '100%' : undefined,
        minHeight: fill ? 420 : undefined,
        background: token.colorBgContainer,
        borderRadius: token.borderRadiusLG,
        padding: 12,
      }}
      data-testid={`list-${resource.resource}`}
    >
      {!props.hideSearch && (
        <SearchForm
          resource={resource}
          defs={searchDefs}
          initialValues={initialSearch}
          fieldSpan={props.narrow ? 12 : undefined}
          onSearch={(values) => setFilters(toFilterParams(resource, searchDefs, values))}
        />
      )}
      {Object.keys(preset.params).length > 0 && (
        <Suspense fallback={null}>
          <Alert
            type="info"
            showIcon
            closable={{ onClose: () => setPreset({ params: {} }) }}
            style={{ marginBottom: 8 }}
            title={t('list.drilled', { what: preset.label ?? '' })}
            data-testid="drill-preset"
          />
        </Suspense>
      )}
      <ListToolbar
        resource={resource}
        title={title}
        canAdd={caps.canAdd}
        addDisabled={!enabled}
        canDelete={caps.canDelete}
        actions={caps.toolbarActions}
        exportEndpoint={exportEndpoint}
        importEndpoint={importEndpoint}
        onAdd={() => setDialog({ mode: 'add', initial: addPreset })}
        onDelete={() => runner.remove(selected, true)}
        onAction={(action) => runner.run(action, selected)}
        canExport={canExport}
        onExport={async () => {
          // A server job writes the file (progress under 导出任务, downloaded when done).
          const params = { ...query.filters, ...listParams, ...sortParams(query.sort) };
          await startExport(resource.resource, data.endpoint?.path, params, `${label(resource.title, resource.titleEn)}.xlsx`);
          void message.success(t('list.exportStarted'));
        }}
        onImported={reload}
        onRefresh={reload}
        onPrint={printable ? printSelected : undefined}
        right={<ColumnSettings grid={grid} version={columnsVersion} onReset={() => setResetSignal((n) => n + 1)} />}
      />
      {list.chart && (
        <Suspense fallback={<div style={{ height: (list.chart.height ?? 280) + 58 }} />}>
          <ReportChart resource={resource} chart={list.chart} rows={data.rows} filters={{ ...query.filters, ...listParams }} />
        </Suspense>
      )}
      <div style={fill ? { flex: '1 1 auto', minHeight: 300 } : { height: props.gridHeight ?? REPORT_GRID_HEIGHT, flex: 'none' }}>
        <DataGrid
          resource={resource}
          columns={columns}
          rows={data.rows}
          loading={data.loading}
          offset={(query.current - 1) * query.size}
          showIndex={list.index !== false}
          selectable={list.selection !== false}
          summary={list.summary}
          totals={data.totals}
          onDrill={drill}
          rowButtons={rowButtons}
          actionLabels={actionLabels}
          actionsWidth={list.rowActionsWidth}
          stateKey={stateKey}
          currentRowId={props.currentRowId}
          resetSignal={resetSignal}
          onSelectionChanged={setSelected}
          onSortChanged={data.setSort}
          onRowClicked={props.onRowClicked}
          onGridHandle={setGrid}
          onColumnsChanged={() => setColumnsVersion((n) => n + 1)}
        />
      </div>
      <Pagination
        style={{ marginTop: 12 }}
        align="end"
        size="small"
        current={query.current}
        pageSize={query.size}
        total={data.total}
        pageSizeOptions={pageSizes}
        showSizeChanger
        showQuickJumper
        showTotal={(total) => t('list.total', { total })}
        onChange={(current, size) => data.setPage(size !== query.size ? 1 : current, size)}
      />
      <RecordDialog
        resource={resource}
        state={dialog}
        onDone={(saved) => {
          setDialog(undefined);
          if (saved) reload();
        }}
      />
      {runner.element}
    </Flex>
  );
}
