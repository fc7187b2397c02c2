/**
 * The bill's line grid (spec: 商品明细): an editable ag-grid over a LineStore. A cell edit updates
 * that row and the summary row only. Keyboard first: Enter moves to the next editable cell,
 * Insert adds a row, Ctrl+Delete deletes it, a block of cells pasted from a spreadsheet fills the
 * grid from the focused cell. Goods come from the goods picker or a barcode; the same goods and
 * unit twice asks to merge the quantities.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  CheckboxEditorModule,
  ColumnAutoSizeModule,
  createGrid,
  ModuleRegistry,
  ScrollApiModule,
  SelectEditorModule,
  TextEditorModule,
  type CellKeyDownEvent,
  type ColDef,
  type GridApi,
  type GridOptions,
  type GridSizeChangedEvent,
  type SuppressKeyboardEventParams,
} from 'ag-grid-community';
import { Button, Flex, Input, Typography } from 'antd';
import type { FieldSchema, ResourceFile } from '../../../shared/resource.ts';
import { dictItemOf, useDictionaries, type DictEntry } from '../../renderer/common/useDictionary.ts';
import { useLabel } from '../../renderer/common/i18n.ts';
import { http } from '../../api/http.ts';
import { formatDecimal } from '../../renderer/common/format.ts';
import { useGridLocale, useGridTheme, ROW_HEIGHT } from '../../renderer/list/agGrid.ts';
import { TablePickerDialog } from '../../renderer/pickers/TablePickerDialog.tsx';
import { resolvePicker } from '../../renderer/pickers/definition.ts';
import { useResource } from '../../renderer/common/useResource.ts';
import { useSettings } from '../../store/settings.ts';
import { useDT, docText } from '../../renderer/document/i18n.ts';
import { addQuantities, countedLineOf, duplicateOf, figureFields, parseClipboard, priceInputField, RunningSummary, type GridLine, type LineValues } from './lineModel.ts';
import type { LineStore } from './lineStore.ts';
import './lineGrid.css';
import { useFeedback } from '../../feedback/FeedbackProvider.tsx';

// ScrollApi: Enter's move to the next cell brings it into view (ensureIndexVisible, ensureColumnVisible).
ModuleRegistry.registerModules([TextEditorModule, SelectEditorModule, CheckboxEditorModule, ColumnAutoSizeModule, ScrollApiModule]);

export interface LineColumn {
  field: string;
  title: string;
  kind: 'goods' | 'unit' | 'text' | 'decimal' | 'gift' | 'readonly';
  places?: number;
  width?: number;
  /** A dictionary field (单据类型): the cell shows the item's name. */
  dict?: FieldSchema;
}

interface UnitRow {
  unitId: string;
  unitName?: string;
  retailPrice?: string;
  wholesalePrice?: string;
  purchasePrice?: string;
  finalPrice?: string;
}

export interface LineGridProps {
  store: LineStore;
  columns: LineColumn[];
  readOnly: boolean;
  /** Values a new line starts with (warehouse, tax rate of the partner). */
  defaults(): LineValues;
  /** The partner, for its own prices. */
  partnerId?: string;
  /** sales / purchase: which list price a new line takes. */
  side: 'sales' | 'purchase';
  height?: number;
  /** Replaces the goods toolbar (a money bill picks bills to settle instead of goods). */
  toolbar?: ReactNode;
}

const EDITABLE: LineColumn['kind'][] = ['unit', 'text', 'decimal', 'gift'];
/** The narrowest a column is fitted to; below that the grid scrolls sideways. */
const MIN_COLUMN_WIDTH = 64;
const ROW_BUFFER = 4;
/** The goods column, the one a clerk reads a line by, is never fitted narrower than this. */
const GOODS_MIN_WIDTH = 150;

export function LineGrid({ store, columns, readOnly, defaults, partnerId, side, height = 360, toolbar }: LineGridProps) {
  const dt = useDT();
  const { modal, message } = useFeedback();
  const theme = useGridTheme();
  const localeText = useGridLocale();
  const language = useSettings((s) => s.language);
  const apiRef = useRef<GridApi<GridLine> | undefined>(undefined);
  const units = useRef(new Map<string, UnitRow[]>());
  const [pickerOpen, setPickerOpen] = useState(false);
  const [barcode, setBarcode] = useState('');
  const [pinFirst, setPinFirst] = useState(false);
  // The grid's width as ag-grid last reported it, read by Enter's move (ag-grid's `context`).
  const gridContext = useRef<LineGridContext>({ gridWidth: 0 }).current;
  const label = useLabel();
  const dictFields = useMemo(() => Object.fromEntries(columns.filter((c) => c.dict).map((c) => [c.field, c.dict])), [columns]);
  // Read by the dictionary columns' formatters; their cells are drawn again when the items arrive
  // (new column definitions would make ag-grid rebuild every column: 55 ms sampled in a CPU profile
  // of a 1,000-line bill's open, the profiler's overhead included).
  const dictionaries = useRef<Record<string, DictEntry[]>>({});
  dictionaries.current = useDictionaries(dictFields);
  const goods = useResource('goods').resource as ResourceFile | undefined;
  const picker = useMemo(() => (goods ? resolvePicker(goods, 'default') : undefined), [goods]);
  const figures = figureFields(store.doc);
  const fit = useMemo(() => {
    const goodsColumns = columns.filter((c) => c.kind === 'goods');
    return {
      // The same limits in the two shapes ag-grid takes them (sizeColumnsToFit, autoSizeStrategy).
      limits: { defaultMinWidth: MIN_COLUMN_WIDTH, columnLimits: goodsColumns.map((c) => ({ key: c.field, minWidth: GOODS_MIN_WIDTH })) },
      strategy: { type: 'fitGridWidth' as const, defaultMinWidth: MIN_COLUMN_WIDTH, columnLimits: goodsColumns.map((c) => ({ colId: c.field, minWidth: GOODS_MIN_WIDTH })) },
      // The columns' narrowest total (the line number's included): a narrower grid scrolls sideways.
      narrowest: (columns.length + 1) * MIN_COLUMN_WIDTH + goodsColumns.length * (GOODS_MIN_WIDTH - MIN_COLUMN_WIDTH),
    };
  }, [columns]);
  const summable = useMemo(
    () =>
      columns.filter(
        (c) => c.kind !== 'unit' && c.places !== undefined && ['qty', figures.amount, 'taxAmt', 'totalAmt', 'finalAmt', 'discountAmt', 'couponAmt', 'costAmt', 'billAmt', 'openAmt', store.doc.settle?.lineAmount, store.doc.items?.amount, store.doc.count?.book, store.doc.count?.counted, store.doc.posting?.valueField].includes(c.field),
      ),
    [columns, figures.amount, store.doc.settle, store.doc.items, store.doc.count, store.doc.posting],
  );

  const summary = useMemo(() => new RunningSummary(summable.map((c) => ({ field: c.field, places: c.places! }))), [summable]);
  /** Sums every line again: the summary row's data. */
  const summaryRows = useCallback((): GridLine[] => {
    summary.reset(store.all());
    return [{ key: '__summary', values: summary.row(), errors: {} }];
  }, [store, summary]);
  /** Sums every line again and shows the summary row (replacing the pinned row). */
  const refreshSummary = useCallback(() => {
    apiRef.current?.setGridOption('pinnedBottomRowData', summaryRows());
  }, [summaryRows]);

  useEffect(() => {
    // A new summary (the columns changed) starts from every line; a grid yet to be made sums
    // them when it is made (summing a 1,000-line bill's figures in exact decimals: 30 ms sampled
    // in a CPU profile of the open, the profiler's overhead included).
    if (apiRef.current) refreshSummary();
    return store.subscribe((change) => {
      const api = apiRef.current;
      if (!api) return;
      if (change.kind === 'rows') {
        api.setGridOption('rowData', store.all());
        refreshSummary();
        return;
      }
      api.getRowNode(change.line.key)?.setData(change.line);
      summary.replace(change.previous.values, change.line.values);
      const pinned = api.getPinnedBottomRow(0);
      if (pinned) pinned.setData({ key: '__summary', values: summary.row(), errors: {} });
      else refreshSummary();
    });
  }, [store, refreshSummary, summary]);

  const loadUnits = useCallback(
    async (goodsIds: string[]) => {
      const missing = goodsIds.filter((id) => !units.current.has(id));
      if (!missing.length) return;
      const rows = await http.postParams<(UnitRow & { commInfoId: string })[]>('/api/blade-base/communit/selectByCommInfoIds', { commInfoIds: missing.join(','), bartererId: partnerId });
      for (const id of missing) units.current.set(id, rows.filter((r) => String(r.commInfoId) === id));
    },
    [partnerId],
  );

  const listPrice = useCallback(
    (goodsId: string, unitId: string): string | undefined => {
      const unit = units.current.get(goodsId)?.find((u) => String(u.unitId) === unitId);
      if (!unit) return undefined;
      const price = side === 'purchase' ? unit.purchasePrice : unit.finalPrice || unit.wholesalePrice || unit.retailPrice;
      return price ? String(price) : undefined;
    },
    [side],
  );

  /** Adds goods as lines; the same goods and unit again asks to merge the quantities. */
  const addGoods = useCallback(
    async (rows: Record<string, unknown>[]) => {
      await loadUnits(rows.map((r) => String(r.id)));
      for (const row of rows) {
        const goodsId = String(row.id);
        const unitId = String(row.unitId ?? units.current.get(goodsId)?.[0]?.unitId ?? '');
        // A count has one line per goods: the same goods again is pointed out, not merged.
        const counted = store.doc.count ? countedLineOf(store.all(), goodsId) : undefined;
        if (counted) {
          void message.warning(docText('doc.countDuplicate', { line: store.all().indexOf(counted) + 1 }));
          continue;
        }
        const existing = duplicateOf(store.all(), goodsId, unitId);
        if (existing) {
          const line = store.all().indexOf(existing) + 1;
          const merge = await modal.confirm({ title: docText('doc.duplicateTitle'), content: docText('doc.duplicate', { line }) });
          if (merge) store.update(existing.key, { qty: addQuantities(existing.values.qty, '1', store.places.quantity) });
          continue;
        }
        const price = store.doc.amounts ? listPrice(goodsId, unitId) : undefined;
        store.add({
          ...defaults(),
          commInfoId: goodsId,
          commInfoCode: row.commInfoCode,
          commInfoName: row.commInfoName,
          standard: row.standard,
          unitId,
          unitName: row.unitName ?? units.current.get(goodsId)?.find((u) => String(u.unitId) === unitId)?.unitName,
          // A count's line waits for the counted quantity; its difference is computed from it.
          ...(store.doc.count ? {} : { qty: '1' }),
          ...(price ? { [priceInputField(store.doc)]: price } : {}),
        });
      }
    },
    [loadUnits, store, modal, message, defaults, listPrice],
  );

  const scan = useCallback(async () => {
    const code = barcode.trim();
    if (!code) return;
    const found = await http.get<Record<string, unknown>[]>('/api/blade-base/comminfo/selectByBarCode', { barCode: code });
    setBarcode('');
    if (!found.length) {
      void message.warning(docText('doc.barcodeMissing', { code }));
      return;
    }
    const hit = found[0];
    await addGoods([{ ...hit, id: hit.commInfoId, unitId: hit.unitId }]);
  }, [barcode, addGoods, message]);

  const columnDefs = useMemo<ColDef<GridLine>[]>(() => {
    const editableKinds = readOnly ? [] : EDITABLE;
    const defs: ColDef<GridLine>[] = [
      {
        headerName: '#',
        // Initial widths only: new definitions (a language change, pinning) keep the fitted widths.
        initialWidth: 52,
        pinned: pinFirst ? 'left' : null,
        valueGetter: (p) => (p.node?.rowPinned ? dt('doc.summary') : (p.node?.rowIndex ?? 0) + 1),
        cellClass: 'erp-line-index',
      },
    ];
    for (const column of columns) {
      const def: ColDef<GridLine> = {
        colId: column.field,
        headerName: column.title,
        initialWidth: column.width ?? (column.kind === 'goods' ? 200 : column.kind === 'text' ? 160 : 110),
        pinned: pinFirst && column.kind === 'goods' ? 'left' : null,
        editable: (p) => !p.node.rowPinned && editableKinds.includes(column.kind),
        valueGetter: (p) => p.data?.values[column.field],
        valueSetter: (p) => {
          if (!p.data) return false;
          const value = column.kind === 'gift' ? (p.newValue ? 2 : 1) : p.newValue;
          const patch: LineValues = { [column.field]: value };
          if (column.kind === 'unit') {
            patch.unitName = units.current.get(String(p.data.values.commInfoId))?.find((u) => String(u.unitId) === String(value))?.unitName;
            const price = store.doc.amounts ? listPrice(String(p.data.values.commInfoId), String(value)) : undefined;
            if (price) patch[priceInputField(store.doc)] = price;
          }
          store.update(p.data.key, patch);
          return false; // the store repaints the row
        },
        tooltipValueGetter: (p) => p.data?.errors[column.field],
        cellClassRules: { 'erp-line-cell-error': (p) => Boolean(p.data?.errors[column.field]) },
        suppressKeyboardEvent: nextCellOnEnter,
      };
      if (column.kind === 'goods') def.valueGetter = (p) => (p.node?.rowPinned ? '' : [p.data?.values.commInfoCode, p.data?.values.commInfoName].filter(Boolean).join(' '));
      if (column.kind === 'unit') {
        def.cellEditor = 'agSelectCellEditor';
        def.cellEditorParams = (p: { data: GridLine }) => ({ values: (units.current.get(String(p.data.values.commInfoId)) ?? []).map((u) => String(u.unitId)) });
        def.valueFormatter = (p) =>
          p.node?.rowPinned ? '' : String(p.data?.values.unitName ?? units.current.get(String(p.data?.values.commInfoId))?.find((u) => String(u.unitId) === String(p.value))?.unitName ?? p.value ?? '');
      }
      if (column.kind === 'gift') {
        def.cellEditor = 'agCheckboxCellEditor';
        def.valueGetter = (p) => (p.node?.rowPinned ? undefined : Number(p.data?.values.isGift) === 2);
        // Text, not ag-grid's checkbox that a boolean column would otherwise get.
        def.cellDataType = false;
        def.valueFormatter = (p) => (p.node?.rowPinned ? '' : p.value ? (language === 'en' ? 'Yes' : '是') : '');
        def.initialWidth = 70;
      }
      if (column.dict) {
        def.valueFormatter = (p) => {
          if (p.node?.rowPinned) return '';
          const item = dictItemOf(dictionaries.current[column.field], p.value);
          return item ? label(item.dictValue, item.valueEn) : String(p.value ?? '');
        };
      }
      if (column.kind === 'decimal' || column.kind === 'readonly') {
        // Figures align right, header and cell alike (a cellClass of our own replaces the type's).
        const figure = column.kind === 'decimal' || column.places !== undefined;
        if (figure) def.type = 'rightAligned';
        if (column.places !== undefined) def.valueFormatter = (p) => formatDecimal(p.value, column.places!);
        const classes = [...(figure ? ['ag-right-aligned-cell'] : []), ...(column.kind === 'readonly' ? ['erp-line-readonly'] : [])];
        def.cellClass = classes.length ? classes : undefined;
      }
      defs.push(def);
    }
    return defs;
  }, [columns, readOnly, store, dt, listPrice, language, pinFirst, label]);

  const onCellKeyDown = useCallback(
    (event: CellKeyDownEvent<GridLine>) => {
      const key = (event.event as KeyboardEvent | undefined)?.key;
      const ctrl = (event.event as KeyboardEvent | undefined)?.ctrlKey;
      if (readOnly || !event.data || event.node.rowPinned) return;
      if (key === 'Insert' && !toolbar) setPickerOpen(true);
      if (key === 'Delete' && ctrl) store.remove([event.data.key]);
    },
    [readOnly, store, toolbar],
  );

  const onGridSizeChanged = useCallback(
    (e: GridSizeChangedEvent<GridLine>) => {
      gridContext.gridWidth = e.clientWidth;
      e.api.sizeColumnsToFit(fit.limits);
      setPinFirst(fit.narrowest > e.clientWidth);
    },
    [fit, gridContext],
  );

  const host = useRef<HTMLDivElement>(null);
  // What the grid made below reads: its handlers and starting options as of the last render.
  const latest = useRef({ onCellKeyDown, onGridSizeChanged, summaryRows, theme, localeText, columnDefs, strategy: fit.strategy });
  latest.current = { onCellKeyDown, onGridSizeChanged, summaryRows, theme, localeText, columnDefs, strategy: fit.strategy };
  useEffect(() => {
    // ag-grid's own (vanilla) grid, not its React wrapper: the wrapper renders every row and cell
    // as React components through React's scheduler, a task or three after each commit's
    // ag-grid work (traced: 10 ms over three tasks for an Enter commit in a 1,000-line bill);
    // the vanilla grid writes the changed cells' DOM in the same task.
    const options: GridOptions<GridLine> = {
      theme: latest.current.theme,
      localeText: latest.current.localeText,
      rowData: store.all(),
      pinnedBottomRowData: latest.current.summaryRows(),
      getRowId: (p) => p.data.key,
      columnDefs: latest.current.columnDefs,
      rowHeight: ROW_HEIGHT,
      // Rows placed by top, not by a transform, and the line number and goods pinned only when
      // the columns cannot all be shown: ag-grid gives each row's pinned cells a sticky box of
      // their own, and Chrome composites every one (a 12-row view: 104 layers of the page,
      // 43 without; each frame, a keystroke's too, paid for them in layerisation).
      suppressRowTransform: true,
      // Four rows drawn beyond each edge of the view, not ag-grid's ten: every frame, a
      // keystroke's and a commit's, paints and layerises the cells of every drawn row; a wheel
      // step moves about three rows.
      rowBuffer: ROW_BUFFER,
      context: gridContext,
      onGridSizeChanged: (e) => latest.current.onGridSizeChanged(e),
      // Every column in view (long titles wrap), fitted again when the grid's width changes.
      autoSizeStrategy: latest.current.strategy,
      defaultColDef: { wrapHeaderText: true, autoHeaderHeight: true },
      singleClickEdit: true,
      stopEditingWhenCellsLoseFocus: true,
      tooltipShowDelay: 200,
      onCellKeyDown: (e) => latest.current.onCellKeyDown(e as CellKeyDownEvent<GridLine>),
    };
    const api = createGrid<GridLine>(host.current!, options);
    apiRef.current = api;
    return () => {
      apiRef.current = undefined;
      api.destroy();
    };
  }, [store, gridContext]);
  useEffect(() => {
    const api = apiRef.current;
    if (api && api.getGridOption('columnDefs') !== columnDefs) api.setGridOption('columnDefs', columnDefs);
  }, [columnDefs]);
  useEffect(() => {
    const api = apiRef.current;
    if (api && api.getGridOption('theme') !== theme) api.setGridOption('theme', theme);
  }, [theme]);
  const dictItems = dictionaries.current;
  useEffect(() => {
    const columnsWithDict = columns.filter((c) => c.dict).map((c) => c.field);
    if (columnsWithDict.length) apiRef.current?.refreshCells({ columns: columnsWithDict, force: true });
  }, [dictItems, columns]);

  /** A block of cells from a spreadsheet, from the focused cell rightwards and down over the editable columns. */
  const onPaste = useCallback(
    (event: React.ClipboardEvent) => {
      const api = apiRef.current;
      const focused = api?.getFocusedCell();
      if (readOnly || !api || !focused || api.getEditingCells().length) return;
      const editable = columns.filter((c) => c.kind === 'decimal' || c.kind === 'text');
      const start = editable.findIndex((c) => c.field === focused.column.getColId());
      if (start < 0) return;
      event.preventDefault();
      const block = parseClipboard(event.clipboardData.getData('text/plain'));
      const lines = store.all();
      block.forEach((cells, r) => {
        const line = lines[focused.rowIndex + r];
        if (!line) return;
        const patch: LineValues = {};
        cells.forEach((cell, c) => {
          const column = editable[start + c];
          if (column) patch[column.field] = cell;
        });
        store.update(line.key, patch);
      });
    },
    [columns, readOnly, store],
  );

  return (
    <Flex vertical gap={8} className="erp-line-grid" onPaste={onPaste}>
      {!readOnly && toolbar}
      {!readOnly && !toolbar && (
        <Flex gap={8} align="center" wrap>
          <Button type="primary" ghost onClick={() => setPickerOpen(true)} disabled={!picker}>
            {dt('doc.addGoods')}
          </Button>
          <Button
            danger
            onClick={() => {
              const cell = apiRef.current?.getFocusedCell();
              const line = cell ? store.all()[cell.rowIndex] : undefined;
              if (line) store.remove([line.key]);
            }}
          >
            {dt('doc.deleteLines')}
          </Button>
          <Input
            style={{ width: 260 }}
            value={barcode}
            placeholder={dt('doc.barcode')}
            onChange={(e) => setBarcode(e.target.value)}
            onPressEnter={() => scan().catch(() => undefined)}
            data-testid="line-barcode"
          />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {dt('doc.keys')}
          </Typography.Text>
        </Flex>
      )}
      {/* A form of its own: Chrome's autofill reads, when an editor takes the focus and on each
          keystroke, the whole form the editor belongs to, which without one is every formless
          control of the page. Enter never submits it (it moves to the next cell). */}
      <form style={{ height }} data-testid="line-grid" noValidate onSubmit={keepOnPage}>
        <div ref={host} style={{ height: '100%' }} />
      </form>
      {picker && goods && (
        <TablePickerDialog
          open={pickerOpen}
          resource={goods}
          picker={picker}
          multiple
          selected={[]}
          onCancel={() => setPickerOpen(false)}
          onOk={(rows) => {
            setPickerOpen(false);
            // A refused call has shown its message already.
            addGoods(rows).catch(() => undefined);
          }}
        />
      )}
    </Flex>
  );
}

const keepOnPage = (event: React.FormEvent) => event.preventDefault();

/**
 * Enter while editing commits the cell and moves to the next editable cell, as in a spreadsheet.
 * The next cell's editor opens after the frame that shows the committed row and summary: opening
 * it (rendering the editor, focusing it, which forces style and layout) in the same task made
 * the commit's frame late by as much. A key typed in between lands on the focused cell, which
 * starts its editor as any typed key does.
 */
function nextCellOnEnter(params: SuppressKeyboardEventParams<GridLine>): boolean {
  if (params.event.key !== 'Enter' || !params.editing) return false;
  params.event.preventDefault();
  const { api } = params;
  const from = api.getFocusedCell();
  const next = from ? nextEditableCell(api, from.rowIndex, from.column.getColId()) : undefined;
  if (!next) {
    // Keep the focus in the grid while the editor goes away.
    (params.event.target as HTMLElement | null)?.closest<HTMLElement>('.ag-cell')?.focus({ preventScroll: true });
    api.stopEditing();
    return true;
  }
  // The focus moves on before the edit stops: bringing the next cell into view and ag-grid's
  // focus() of it (which scrolls it into view) read the layout, and before the edit's DOM writes
  // (the committed cell, its row, the summary) that layout is still clean. A move within the grid
  // leaves the editor open; stopEditing then commits it. Brought into view only when the move
  // can leave it out of view (both calls read the grid's scroll position).
  if (next.rowIndex !== from?.rowIndex) api.ensureIndexVisible(next.rowIndex);
  if (scrollsSideways(api, params.context as LineGridContext)) api.ensureColumnVisible(next.colId);
  api.setFocusedCell(next.rowIndex, next.colId);
  api.stopEditing();
  requestAnimationFrame(() =>
    setTimeout(() => {
      const focused = api.isDestroyed() ? null : api.getFocusedCell();
      if (!focused || focused.rowIndex !== next.rowIndex || focused.column.getColId() !== next.colId || api.getEditingCells().length) return;
      api.startEditingCell({ rowIndex: next.rowIndex, colKey: next.colId });
    }),
  );
  return true;
}

interface LineGridContext {
  gridWidth: number;
}

/**
 * Whether the columns are wider than the grid, from ag-grid's column model (no layout is read).
 * Columns fitted to the grid never are; columns the clerk widened by less than the vertical
 * scrollbar's width read as fitting, and the editor's start a frame later brings the cell into
 * view (ag-grid's startEditingCell does).
 */
function scrollsSideways(api: GridApi<GridLine>, context: LineGridContext): boolean {
  const columnsWidth = api.getAllDisplayedColumns().reduce((sum, column) => sum + column.getActualWidth(), 0);
  return !context.gridWidth || columnsWidth > context.gridWidth;
}

/** The editable cell after (row, column), left to right and then down, as Tab finds it. */
function nextEditableCell(api: GridApi<GridLine>, rowIndex: number, colId: string): { rowIndex: number; colId: string } | undefined {
  const columns = api.getAllDisplayedColumns();
  let start = columns.findIndex((c) => c.getColId() === colId) + 1;
  for (let row = rowIndex; row < api.getDisplayedRowCount(); row++, start = 0) {
    const node = api.getDisplayedRowAtIndex(row);
    const column = node ? columns.slice(start).find((c) => c.isCellEditable(node)) : undefined;
    if (column) return { rowIndex: row, colId: column.getColId() };
  }
  return undefined;
}
