/**
 * The bill line grid's table (LineGrid.tsx holds its toolbar and goods picker): rows drawn only
 * where they can be seen, the list grid's header and stylesheet, one editor at a time. A cell
 * edit updates that row and the summary row only. Keyboard first, as in a spreadsheet: arrows,
 * Home/End and PageUp/PageDown move the active cell; a typed key, Enter or F2 edits it; Enter
 * commits and moves to the next editable cell, Tab too; Escape cancels; Insert asks for goods,
 * Ctrl+Delete deletes the line.
 *
 * The keyboard focus stays on one element of the grid's own, the keys box (an empty editable box
 * beside the rows, unseen), and the active cell is marked (aria-activedescendant), so moving
 * never focuses a cell (focus() forces style and layout); scroll offsets and the view's size are
 * kept from scroll and resize events, so no key reads the layout either. Moving the active cell
 * draws this table only, not the toolbar's antd controls.
 *
 * The keys box is editable so that an input method works on a cell not yet being edited: with the
 * focus on an element that takes no text the system's IME is off and pinyin arrives as Latin
 * letters. A composition shows in it, placed over the active cell; the text it commits opens the
 * cell's editor.
 */
import { memo, useCallback, useId, useLayoutEffect, useMemo, useRef, useState, type MutableRefObject } from 'react';
import { Empty } from 'antd';
import { useVirtualizer } from '@tanstack/react-virtual';
import { dictItemOf, useDictionaries } from '../../renderer/common/useDictionary.ts';
import { rt, useLabel } from '../../renderer/common/i18n.ts';
import { ROW_HEIGHT, HEADER_HEIGHT, cellStyle, stickyOffsets, type SortState } from '../../renderer/list/columnLayout.ts';
import { GridHeader } from '../../renderer/list/GridHeader.tsx';
import { useGridVars } from '../../renderer/list/gridVars.ts';
import { useSettings } from '../../store/settings.ts';
import { useDT } from '../../renderer/document/i18n.ts';
import { figureFields, priceInputField, RunningSummary, type GridLine, type LineValues } from './lineModel.ts';
import type { LineStore } from './lineStore.ts';
import { lineGridColumns, typedFigure, type LineColumn } from './lineGridColumns.ts';
import { useLineLayout } from './useLineLayout.tsx';
import { moveCursor, nextEditableCell, scrollToShow, tabCursor, type Cursor } from './lineCursor.ts';
import { LineRow, type EditingCell, type OpenEditor } from './LineRow.tsx';
import type { UnitRow } from './useGoodsEntry.ts';
import '../../renderer/list/grid.css';
import './lineGrid.css';

export interface LineTableProps {
  store: LineStore;
  columns: LineColumn[];
  readOnly: boolean;
  height: number;
  /** The active cell, shared with the toolbar (删除行) and the paste handler. */
  cursorRef: MutableRefObject<GridCursor | undefined>;
  /** Insert: goods wanted (absent where lines come otherwise). */
  onInsert?(): void;
  /** The goods' units read so far, by goods id, and how to read more. */
  units: Map<string, UnitRow[]>;
  loadUnits(goodsIds: string[]): Promise<void>;
  listPrice(goodsId: string, unitId: string): string | undefined;
  /** Whose column widths set by hand the clerk keeps: the bill's resource (useLineLayout.tsx). */
  layoutKey?: string;
}

/** Rows drawn beyond each edge of the view: a wheel step moves about three. */
const ROW_BUFFER = 4;
const UNSORTABLE = () => undefined;
const NO_SORT: SortState = [];

/** The active cell and, while one is edited, its editor (`id` tells one edit from the next). */
export interface GridCursor extends Cursor {
  editing?: EditingCell & { id: number };
}

/** What the keys read of the view without reading the layout: sizes from resize events, offsets from scroll events. */
interface ViewBox {
  width: number;
  height: number;
  header: number;
  top: number;
  left: number;
}

export const LineTable = memo(function LineTable({ store, columns, readOnly, height, cursorRef, onInsert, units, loadUnits, listPrice, layoutKey }: LineTableProps) {
  const dt = useDT();
  const vars = useGridVars();
  const language = useSettings((s) => s.language);
  const label = useLabel();
  const dictFields = useMemo(() => Object.fromEntries(columns.filter((c) => c.dict).map((c) => [c.field, c.dict])), [columns]);
  const dictionaries = useDictionaries(dictFields);
  const figures = figureFields(store.doc);
  const summable = useMemo(
    () =>
      columns.filter(
        (c) => c.kind !== 'unit' && c.places !== undefined && ['qty', figures.amount, 'taxAmt', 'totalAmt', 'finalAmt', 'discountAmt', 'couponAmt', 'costAmt', 'billAmt', 'openAmt', store.doc.settle?.lineAmount, store.doc.items?.amount, store.doc.count?.book, store.doc.count?.counted, store.doc.posting?.valueField].includes(c.field),
      ),
    [columns, figures.amount, store.doc.settle, store.doc.items, store.doc.count, store.doc.posting],
  );
  const summary = useMemo(() => new RunningSummary(summable.map((c) => ({ field: c.field, places: c.places! }))), [summable]);

  // The lines and the summary row as last drawn; a commit replaces one line object, so only its row draws again.
  const [lines, setLines] = useState<GridLine[]>(() => store.all());
  const [summaryLine, setSummaryLine] = useState<GridLine | undefined>(undefined);
  useLayoutEffect(() => {
    const show = () => {
      setLines(store.all());
      setSummaryLine({ key: '__summary', values: summary.row(), errors: {} });
    };
    // Summed before the first paint (a 1,000-line bill: ~30 ms in exact decimals), then kept line by line.
    summary.reset(store.all());
    show();
    return store.subscribe((change) => {
      if (change.kind === 'rows') summary.reset(store.all());
      else summary.replace(change.previous.values, change.line.values);
      show();
    });
  }, [store, summary]);

  const context = useMemo(
    () => ({
      language,
      summaryLabel: dt('doc.summary'),
      dictText: (field: string, value: unknown) => {
        const item = dictItemOf(dictionaries[field], value);
        return item && label(item.dictValue, item.valueEn);
      },
      unitName: (goodsId: string, unitId: string) => units.get(goodsId)?.find((u) => String(u.unitId) === unitId)?.unitName,
    }),
    [language, dt, dictionaries, label, units],
  );
  const baseColumns = useMemo(() => lineGridColumns(columns, readOnly, context), [columns, readOnly, context]);

  // The view's size and offsets (see ViewBox); the columns are fitted to its width.
  const boxRef = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 0, header: HEADER_HEIGHT });
  const view = useRef<ViewBox>({ width: 0, height: height, header: HEADER_HEIGHT, top: 0, left: 0 }).current;
  useLayoutEffect(() => {
    const box = boxRef.current!;
    const header = box.querySelector<HTMLElement>('.erp-grid-header');
    const measure = () => {
      view.width = box.clientWidth;
      view.height = box.clientHeight;
      view.header = header?.offsetHeight ?? HEADER_HEIGHT;
      setSize((s) => (s.width === view.width && s.header === view.header ? s : { width: view.width, header: view.header }));
    };
    // Measured before the first paint (no frame with unfitted columns), then on every resize.
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    if (header) observer.observe(header);
    return () => observer.disconnect();
  }, [view]);

  const { shown: shownColumns, update } = useLineLayout(baseColumns, size.width, layoutKey);
  const styles = useMemo(() => {
    const offsets = stickyOffsets(shownColumns);
    return shownColumns.map((column) => cellStyle(column, offsets.get(column.id)));
  }, [shownColumns]);
  const totalWidth = shownColumns.reduce((sum, column) => sum + column.width, 0);

  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => boxRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: ROW_BUFFER,
    scrollMargin: size.header,
    initialRect: { width: 1200, height },
  });

  // The active cell: state for drawing, a ref for the handlers of the same event.
  const [cursor, setCursorState] = useState<GridCursor | undefined>(undefined);
  const setCursor = useCallback(
    (next: GridCursor | undefined) => {
      cursorRef.current = next;
      setCursorState(next);
    },
    [cursorRef],
  );
  const editor = useRef<OpenEditor | undefined>(undefined);
  const editSeq = useRef(0);
  /** The cell whose editor opens after the frame that shows an Enter's commit (see reopenAfterFrame). */
  const reopening = useRef<Cursor | undefined>(undefined);
  const gridId = useId();
  const keysRef = useRef<HTMLDivElement>(null);
  const composing = useRef(false);
  const latest = useRef({ lines, shownColumns });
  latest.current = { lines, shownColumns };

  /** Scrolls the cell into view, from the kept offsets and sizes (writes only). */
  const reveal = useCallback(
    (target: Cursor) => {
      const box = boxRef.current;
      if (!box) return;
      const summaryHeight = summaryLine ? ROW_HEIGHT : 0;
      const top = scrollToShow(view.top, view.height, view.header + target.row * ROW_HEIGHT, ROW_HEIGHT, view.header, summaryHeight);
      if (top !== view.top) box.scrollTop = view.top = top;
      const cols = latest.current.shownColumns;
      const at = cols.findIndex((c) => c.id === target.col);
      if (at < 0 || cols[at].pinned) return;
      const pinnedWidth = cols.filter((c) => c.pinned === 'left').reduce((sum, c) => sum + c.width, 0);
      const x = cols.slice(0, at).reduce((sum, c) => sum + c.width, 0);
      const left = scrollToShow(view.left, view.width, x, cols[at].width, pinnedWidth);
      if (left !== view.left) box.scrollLeft = view.left = left;
    },
    [summaryLine, view],
  );

  const activate = useCallback(
    (target: Cursor, editing?: EditingCell) => {
      setCursor({ row: target.row, col: target.col, editing: editing && { ...editing, id: ++editSeq.current } });
      reveal(target);
    },
    [reveal, setCursor],
  );

  /** Opens the cell's editor (an editable cell; others only become active). */
  const startEdit = useCallback(
    (target: Cursor, typed?: string) => {
      const column = latest.current.shownColumns.find((c) => c.id === target.col);
      const line = latest.current.lines[target.row];
      if (!column?.editable || !line) return activate(target);
      if (column.source?.kind !== 'unit') return activate(target, { col: target.col, typed });
      const goodsId = String(line.values.commInfoId);
      const optionsOf = () => units.get(goodsId)?.map((u) => ({ value: String(u.unitId), label: String(u.unitName ?? u.unitId) }));
      activate(target, { col: target.col, options: optionsOf() });
      // A bill opened from the server has not read its goods' units yet: the choices follow.
      if (!units.has(goodsId))
        loadUnits([goodsId])
          .then(() => {
            const current = cursorRef.current;
            if (current?.editing && current.row === target.row && current.col === target.col) setCursor({ ...current, editing: { ...current.editing, options: optionsOf() } });
          })
          .catch(() => undefined);
    },
    [activate, loadUnits, setCursor, cursorRef, units],
  );

  /** Writes the open editor's value to its line (the store repaints the row and the summary). */
  const commitEdit = useCallback(() => {
    const current = cursorRef.current;
    if (!current?.editing) return;
    const value = editor.current?.value();
    setCursor({ row: current.row, col: current.col });
    const line = store.all()[current.row];
    const source = latest.current.shownColumns.find((c) => c.id === current.col)?.source;
    if (!line || !source || value === undefined) return;
    const next = source.kind === 'gift' ? (value ? 2 : 1) : source.kind === 'decimal' ? typedFigure(String(value)) : value;
    if (String(line.values[source.field] ?? '') === String(next) || (source.kind === 'gift' && Number(line.values.isGift ?? 1) === next)) return;
    const patch: LineValues = { [source.field]: next };
    if (source.kind === 'unit') {
      const goodsId = String(line.values.commInfoId);
      patch.unitName = units.get(goodsId)?.find((u) => String(u.unitId) === String(next))?.unitName;
      const price = store.doc.amounts ? listPrice(goodsId, String(next)) : undefined;
      if (price) patch[priceInputField(store.doc)] = price;
    }
    store.update(line.key, patch);
  }, [store, listPrice, setCursor, cursorRef, units]);

  const focusGrid = () => keysRef.current?.focus({ preventScroll: true });

  const onEditorBlur = useCallback(
    (editId: number | undefined) => {
      // Leaving the editor for anything else (a click on a button, another window) keeps what was typed.
      if (editId !== undefined && cursorRef.current?.editing?.id === editId) commitEdit();
    },
    [commitEdit, cursorRef],
  );

  const editableIds = useMemo(() => shownColumns.filter((c) => c.editable).map((c) => c.id), [shownColumns]);
  const order = useMemo(() => shownColumns.map((c) => c.id), [shownColumns]);

  const onKeyDown = (event: React.KeyboardEvent<HTMLFormElement>) => {
    // A key pressed before the next cell's editor has opened decides instead (Escape: it stays closed).
    reopening.current = undefined;
    // A key the input method takes (pinyin, its Enter) is the composition's, not the grid's.
    if (event.nativeEvent.isComposing || event.key === 'Process') return;
    const current = cursorRef.current;
    const { key } = event;
    if (current?.editing) {
      if (key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        setCursor({ row: current.row, col: current.col });
        focusGrid();
      } else if (key === 'Enter' || key === 'Tab') {
        event.preventDefault();
        const next = nextEditableCell(editableIds, order, lines.length, current, key === 'Tab' && event.shiftKey);
        // The value goes to the store first (drawn when this event ends), then the focus returns
        // to the grid: focusing before the edit's DOM writes finds the layout still clean.
        commitEdit();
        if (key === 'Tab' && next) return startEdit(next);
        focusGrid();
        activate(next ?? current);
        if (next) reopenAfterFrame(next);
      }
      return;
    }
    if ((event.ctrlKey || event.metaKey) && /^[zy]$/i.test(key)) {
      // The keys box's own undo would bring back text it has handed on.
      event.preventDefault();
      return;
    }
    if (key === 'Insert' && !readOnly && onInsert) {
      event.preventDefault();
      onInsert();
      return;
    }
    if (!lines.length) return;
    const from = activeOrFirst();
    if (key === 'Delete' && event.ctrlKey) {
      if (readOnly) return;
      event.preventDefault();
      store.remove([lines[from.row].key]);
      setCursor({ row: Math.max(0, Math.min(from.row, lines.length - 2)), col: from.col });
      return;
    }
    const page = Math.max(1, Math.floor((view.height - view.header - ROW_HEIGHT) / ROW_HEIGHT));
    const moved = key === 'Tab' ? tabCursor(from, order, lines.length, event.shiftKey) : moveCursor(key, event.ctrlKey || event.metaKey, from, order, lines.length, page);
    if (moved) {
      event.preventDefault();
      if (key === 'PageDown' || key === 'PageUp') {
        // A page of rows scrolls by, the active cell keeping its place in the view.
        const box = boxRef.current!;
        const shift = (moved.row - from.row) * ROW_HEIGHT;
        const bottom = view.header + lines.length * ROW_HEIGHT + ROW_HEIGHT - view.height;
        box.scrollTop = view.top = Math.max(0, Math.min(bottom, view.top + shift));
      }
      return activate(moved);
    }
    const column = shownColumns.find((c) => c.id === from.col);
    const kind = column?.editable ? column.source?.kind : undefined;
    const printable = key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey;
    // A character or Enter that edits nothing goes nowhere (not into the keys box, which would
    // scroll to show it).
    if ((printable || key === 'Enter') && !kind) return event.preventDefault();
    if (!kind) return;
    if (key === 'Enter' || key === 'F2') {
      event.preventDefault();
      startEdit(from);
    } else if (key === ' ' && kind === 'gift') {
      event.preventDefault();
      const line = lines[from.row];
      store.update(line.key, { isGift: Number(line.values.isGift) === 2 ? 1 : 2 });
    } else if ((key === 'Backspace' || key === 'Delete') && (kind === 'text' || kind === 'decimal')) {
      event.preventDefault();
      startEdit(from, '');
    } else if (printable) {
      event.preventDefault();
      // The typed key starts the edit and is its first character.
      if (kind === 'text' || kind === 'decimal') startEdit(from, key);
    }
  };

  /**
   * The next cell's editor opens after the frame that shows the committed row and summary
   * (opening it, which renders and focuses an input, in the same task made that frame late by as
   * much). A key typed in between lands on the active cell, which starts its editor as any typed key does.
   */
  const reopenAfterFrame = (next: Cursor) => {
    reopening.current = next;
    requestAnimationFrame(() =>
      setTimeout(() => {
        if (reopening.current !== next) return;
        reopening.current = undefined;
        const current = cursorRef.current;
        if (!current || current.editing || current.row !== next.row || current.col !== next.col) return;
        if (document.activeElement !== keysRef.current) return;
        startEdit(next);
      }),
    );
  };

  /** The active cell, or the first line's first column when none has been yet. */
  function activeOrFirst(): Cursor {
    const current = cursorRef.current;
    return current && current.row < latest.current.lines.length ? current : { row: 0, col: order[1] ?? order[0] };
  }

  /** A cell that typed text edits (text and figures). */
  const typeable = (target: Cursor) => {
    const column = latest.current.shownColumns.find((c) => c.id === target.col);
    return !!column?.editable && (column.source?.kind === 'text' || column.source?.kind === 'decimal');
  };

  /** Text the keys box received (an IME's committed text, or text it inserted without composing) edits the active cell. */
  const takeTyped = (box: HTMLElement) => {
    const text = box.textContent ?? '';
    box.textContent = '';
    if (!text || !latest.current.lines.length || cursorRef.current?.editing) return;
    const target = activeOrFirst();
    if (typeable(target)) startEdit(target, text);
  };

  const onCompositionStart = (event: React.CompositionEvent<HTMLDivElement>) => {
    composing.current = true;
    reopening.current = undefined;
    // The composition shows over the active cell, as its editor would (placed now, not on each
    // move: a focused editable box that moves costs the browser work on every page key). Over a
    // cell that takes no text it stays unseen, its text dropped at the end.
    if (cursorRef.current?.editing || !latest.current.lines.length) return;
    const target = activeOrFirst();
    const columns = latest.current.shownColumns;
    const at = columns.findIndex((c) => c.id === target.col);
    if (at < 0) return;
    const box = event.currentTarget;
    const pinned = columns[at].pinned === 'left';
    const x = columns.slice(0, at).reduce((sum, c) => sum + (pinned ? (c.pinned === 'left' ? c.width : 0) : c.width), 0);
    box.style.top = `${view.header + target.row * ROW_HEIGHT - view.top}px`;
    box.style.left = `${pinned ? x : x - view.left}px`;
    box.style.minWidth = `${columns[at].width}px`;
    box.style.textAlign = columns[at].align === 'right' ? 'right' : '';
    if (typeable(target)) box.classList.add('erp-line-composing');
  };

  const onCompositionEnd = (event: React.CompositionEvent<HTMLDivElement>) => {
    composing.current = false;
    event.currentTarget.classList.remove('erp-line-composing');
    takeTyped(event.currentTarget);
  };

  const onKeysInput = (event: React.FormEvent<HTMLDivElement>) => {
    if (composing.current || (event.nativeEvent as InputEvent).isComposing) return;
    takeTyped(event.currentTarget);
  };

  const onClick = (event: React.MouseEvent<HTMLDivElement>) => {
    reopening.current = undefined;
    const cell = (event.target as HTMLElement).closest<HTMLElement>('[role="gridcell"]');
    const row = cell?.parentElement;
    if (!cell || !row || row.getAttribute('row-index') === null) return;
    const target = { row: Number(row.getAttribute('row-index')), col: cell.getAttribute('col-id')! };
    const current = cursorRef.current;
    if (current?.editing && current.row === target.row && current.col === target.col) return;
    commitEdit();
    startEdit(target);
  };

  const onScroll = (event: React.UIEvent<HTMLDivElement>) => {
    view.top = event.currentTarget.scrollTop;
    view.left = event.currentTarget.scrollLeft;
  };

  // Lines removed or replaced: the active cell stays within the lines there are.
  const active = cursor && lines.length ? (cursor.row < lines.length ? cursor : { row: lines.length - 1, col: cursor.col }) : undefined;
  const activeId = `${gridId}-active`;
  const activeTitle = active && shownColumns.find((c) => c.id === active.col)?.title;

  // Rows keyed by their slot in the drawn range, not by line: a row scrolled out is reused for
  // the row scrolled in (its cells' text rewritten), instead of removed and made again.
  const items = virtualizer.getVirtualItems();
  let slots = 64;
  while (slots < items.length) slots *= 2;

  return (
    <>
      {/* A form of its own: Chrome's autofill reads, when an editor takes the focus and on each
          keystroke, the whole form the editor belongs to, which without one is every formless
          control of the page. Enter never submits it (it moves to the next cell). */}
      <form className="erp-line-frame" style={{ height, position: 'relative', ...vars }} data-testid="line-grid" noValidate onSubmit={keepOnPage} onKeyDown={onKeyDown}>
        <div
          ref={boxRef}
          className="erp-list-grid erp-lines"
          role="grid"
          tabIndex={-1}
          onFocus={toKeysBox}
          aria-rowcount={lines.length + 1}
          aria-readonly={readOnly || undefined}
          onClick={onClick}
          onScroll={onScroll}
          onMouseOver={titleWhenTruncated}
        >
          <div className="erp-grid-inner" style={{ width: totalWidth }}>
            <GridHeader shown={shownColumns} styles={styles} sort={NO_SORT} onSort={UNSORTABLE} update={update} />
            <div className="erp-grid-body" style={{ height: virtualizer.getTotalSize() }}>
              {items.map((item) => {
                const line = lines[item.index];
                const isActive = active?.row === item.index;
                return (
                  <LineRow
                    key={item.index % slots}
                    line={line}
                    rowIndex={item.index}
                    columns={shownColumns}
                    styles={styles}
                    top={item.start - size.header}
                    activeCol={isActive ? active.col : undefined}
                    activeId={isActive ? activeId : undefined}
                    editing={isActive ? cursor?.editing : undefined}
                    editor={editor}
                    onEditorBlur={onEditorBlur}
                  />
                );
              })}
            </div>
            {summaryLine && lines.length > 0 && (
              <LineRow line={summaryLine} rowIndex={-1} columns={shownColumns} styles={styles} summary editor={editor} onEditorBlur={onEditorBlur} />
            )}
          </div>
        </div>
        <div
          ref={keysRef}
          className="erp-line-keys"
          contentEditable={readOnly ? false : 'plaintext-only'}
          tabIndex={0}
          role="textbox"
          aria-readonly={readOnly || undefined}
          spellCheck={false}
          aria-label={activeTitle}
          aria-activedescendant={active ? activeId : undefined}
          onCompositionStart={onCompositionStart}
          onCompositionEnd={onCompositionEnd}
          onInput={onKeysInput}
          onPaste={plainPasteOnly}
        />
        {lines.length === 0 && (
          <div className="erp-grid-overlay erp-grid-empty" style={{ top: size.header }}>
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={rt('list.empty')} style={{ margin: 0 }} />
          </div>
        )}
      </form>
    </>
  );
});

const keepOnPage = (event: React.FormEvent) => event.preventDefault();

/** A paste never lands in the keys box as text (LineGrid's handler takes a block of cells). */
const plainPasteOnly = (event: React.ClipboardEvent) => event.preventDefault();

/** A press on the grid (a cell, the scroll bar) gives the keyboard to its keys box. */
function toKeysBox(event: React.FocusEvent<HTMLDivElement>) {
  if (event.target === event.currentTarget) event.currentTarget.parentElement?.querySelector<HTMLElement>('.erp-line-keys')?.focus({ preventScroll: true });
}

/** A cell whose text is cut off shows it whole as its tooltip (a cell with a problem shows the problem). */
function titleWhenTruncated(event: React.MouseEvent<HTMLElement>) {
  const cell = (event.target as HTMLElement).closest<HTMLElement>('.erp-grid-cell:not([aria-invalid]):not(.erp-line-editing)');
  if (!cell) return;
  if (cell.scrollWidth > cell.clientWidth) cell.title = cell.innerText;
  else cell.removeAttribute('title');
}
