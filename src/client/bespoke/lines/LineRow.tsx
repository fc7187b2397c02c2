/**
 * One row of the line grid (a line or the summary) and the editor of the cell being edited. A row
 * draws again only when its line, its active or edited cell, or the columns change: an edit
 * commits one line and the summary, so a keystroke's frame holds two rows' work.
 */
import { memo, useLayoutEffect, useRef, type CSSProperties, type MutableRefObject } from 'react';
import { cellClass } from '../../renderer/list/columnLayout.ts';
import type { LineGridColumn } from './lineGridColumns.ts';
import type { GridLine } from './lineModel.ts';

/** The open editor's value, read when the edit commits. */
export interface OpenEditor {
  value(): unknown;
}

export interface EditingCell {
  col: string;
  /** Tells one edit from the next (a blur of an editor already replaced is not this edit's). */
  id?: number;
  /** A typed key that started the edit: the editor starts with it instead of the cell's value. */
  typed?: string;
  /** The unit column's choices (a goods' units). */
  options?: { value: string; label: string }[];
}

interface LineRowProps {
  line: GridLine;
  rowIndex: number;
  columns: LineGridColumn[];
  styles: CSSProperties[];
  top?: number;
  summary?: boolean;
  /** The active cell's column when it is in this row. */
  activeCol?: string;
  activeId?: string;
  editing?: EditingCell;
  editor: MutableRefObject<OpenEditor | undefined>;
  onEditorBlur(editId: number | undefined): void;
}

export const LineRow = memo(function LineRow({ line, rowIndex, columns, styles, top, summary = false, activeCol, activeId, editing, editor, onEditorBlur }: LineRowProps) {
  return (
    <div
      role="row"
      className={summary ? 'erp-grid-row erp-grid-row-pinned' : 'erp-grid-row'}
      row-index={summary ? undefined : rowIndex}
      aria-rowindex={summary ? undefined : rowIndex + 2}
      style={top === undefined ? undefined : { transform: `translateY(${top}px)` }}
    >
      {columns.map((column, i) => {
        const error = summary ? undefined : line.errors[column.id];
        const edited = editing?.col === column.id;
        let name = cellClass(column, 'erp-grid-cell');
        if (!column.source) name += ' erp-line-index';
        else if (column.source.kind === 'readonly') name += ' erp-line-readonly';
        if (error) name += ' erp-line-cell-error';
        if (activeCol === column.id) name += ' erp-line-active';
        if (edited) name += ' erp-line-editing';
        return (
          <div key={column.id} role="gridcell" col-id={column.id} id={activeCol === column.id ? activeId : undefined} className={name} style={styles[i]} title={error} aria-invalid={error ? true : undefined}>
            {edited ? <CellEditor line={line} column={column} cell={editing} editor={editor} onBlur={onEditorBlur} /> : column.source ? column.text(line, summary) : summary ? column.text(line, true) : rowIndex + 1}
          </div>
        );
      })}
    </div>
  );
});

interface CellEditorProps {
  line: GridLine;
  column: LineGridColumn;
  cell: EditingCell;
  editor: MutableRefObject<OpenEditor | undefined>;
  onBlur(editId: number | undefined): void;
}

/** A plain input (text, figures), a select (units) or a checkbox (gift), focused as it opens. */
function CellEditor({ line, column, cell, editor, onBlur: onEditorBlur }: CellEditorProps) {
  const onBlur = () => onEditorBlur(cell.id);
  const editId = useRef(cell.id);
  editId.current = cell.id;
  // An editor whose row leaves the drawn range (the grid scrolled by the wheel) keeps what was
  // typed: the edit commits as on a blur. (Declared first: it runs before the editor unregisters.)
  const latestBlur = useRef(onEditorBlur);
  latestBlur.current = onEditorBlur;
  useLayoutEffect(() => () => latestBlur.current(editId.current), []);
  const input = useRef<HTMLInputElement>(null);
  const select = useRef<HTMLSelectElement>(null);
  const kind = column.source?.kind;
  const raw = line.values[column.id];
  useLayoutEffect(() => {
    const element = input.current ?? select.current;
    if (!element) return;
    editor.current = {
      value: () => (input.current?.type === 'checkbox' ? input.current.checked : element.value),
    };
    element.focus({ preventScroll: true });
    // A typed key replaces the value (the caret after it); otherwise the value is selected, ready to be typed over.
    if (input.current && input.current.type === 'text') {
      if (cell.typed === undefined) input.current.select();
      else input.current.setSelectionRange(input.current.value.length, input.current.value.length);
    }
    return () => {
      editor.current = undefined;
    };
  }, [editor, cell]);
  if (kind === 'gift') return <input ref={input} type="checkbox" className="erp-line-check" defaultChecked={Number(raw) === 2} onBlur={onBlur} />;
  if (kind === 'unit')
    return (
      <select ref={select} className="erp-line-editor" defaultValue={String(raw ?? '')} onBlur={onBlur}>
        {!cell.options?.some((o) => o.value === String(raw ?? '')) && <option value={String(raw ?? '')}>{column.text(line, false)}</option>}
        {cell.options?.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
  return (
    <input
      ref={input}
      type="text"
      className="erp-line-editor"
      defaultValue={cell.typed ?? String(raw ?? '')}
      inputMode={kind === 'decimal' ? 'decimal' : undefined}
      autoComplete="off"
      onBlur={onBlur}
    />
  );
}
