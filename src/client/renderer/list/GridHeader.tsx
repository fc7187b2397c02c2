import { memo, useEffect, useRef, useState, type CSSProperties, type PointerEvent } from 'react';
import { rt } from '../common/i18n.ts';
import { cellClass, moveColumn, nextSort, type ColumnLayout, type SortState } from './columnLayout.ts';
import { SELECT_COL, type GridColumn } from './columns.tsx';

interface HeaderProps {
  shown: GridColumn[];
  styles: CSSProperties[];
  sort: SortState;
  onSort(sort: SortState): void;
  /** The select-all checkbox (absent when rows cannot be selected). */
  selection?: { all: boolean; some: boolean; onChange(checked: boolean): void };
  update(next: (layout: ColumnLayout) => ColumnLayout, save: boolean): void;
}

function SortArrow({ dir }: { dir: 'asc' | 'desc' | undefined }) {
  return (
    <svg className="erp-grid-sort" data-dir={dir ?? 'none'} viewBox="0 0 10 14" width="10" height="14" aria-hidden>
      <path d="M5 1 9 6H1z" className="erp-grid-sort-up" />
      <path d="M5 13 1 8h8z" className="erp-grid-sort-down" />
    </svg>
  );
}

/** The width a column's drawn cells and header need without truncation (rows out of view are not drawn, so not measured). */
function naturalWidth(grid: Element, column: GridColumn): number {
  const range = document.createRange();
  let widest = column.minWidth;
  for (const cell of grid.querySelectorAll(`[col-id="${CSS.escape(column.id)}"]`)) {
    const header = cell.classList.contains('erp-grid-header-cell');
    const content = header ? cell.querySelector('.erp-grid-header-text') : cell;
    if (!content) continue;
    range.selectNodeContents(content);
    // Padding 2 × 8 px and the border; a header also its sort arrow (14 px).
    widest = Math.max(widest, Math.ceil(range.getBoundingClientRect().width) + 17 + (header && column.sortable ? 14 : 0));
  }
  return widest;
}

function SelectAll({ all, some, onChange }: NonNullable<HeaderProps['selection']>) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = some;
  }, [some]);
  return (
    <span className="erp-grid-select">
      <input ref={ref} type="checkbox" className="erp-grid-checkbox" aria-label={rt('list.selectAll')} checked={all} onChange={(e) => onChange(e.target.checked)} />
    </span>
  );
}

/** The header row: titles, sort arrows, the select-all box, drag to move, the edge to resize. */
export const GridHeader = memo(function GridHeader({ shown, styles, sort, onSort, selection, update }: HeaderProps) {
  const dragging = useRef<string | undefined>(undefined);
  const [dropTarget, setDropTarget] = useState<{ id: string; after: boolean } | undefined>();

  const startResize = (event: PointerEvent<HTMLElement>, column: GridColumn) => {
    event.preventDefault();
    event.stopPropagation();
    const handle = event.currentTarget;
    const startX = event.clientX;
    const startWidth = handle.parentElement!.getBoundingClientRect().width;
    handle.setPointerCapture(event.pointerId);
    const widthAt = (x: number) => Math.max(column.minWidth, Math.round(startWidth + x - startX));
    const resize = (layout: ColumnLayout, width: number) =>
      layout.map((entry) => (entry.colId === column.id ? { ...entry, width, flex: undefined } : entry));
    const move = (e: globalThis.PointerEvent) => update((layout) => resize(layout, widthAt(e.clientX)), false);
    const end = (e: globalThis.PointerEvent) => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', end);
      handle.removeEventListener('pointercancel', end);
      update((layout) => resize(layout, widthAt(e.clientX)), true);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', end);
    handle.addEventListener('pointercancel', end);
  };

  // Double-click on the edge: as wide as the widest text drawn in the column (header included).
  const fitWidth = (event: React.MouseEvent<HTMLElement>, column: GridColumn) => {
    event.stopPropagation();
    const grid = event.currentTarget.closest('.erp-list-grid');
    if (!grid) return;
    const width = naturalWidth(grid, column);
    update((layout) => layout.map((entry) => (entry.colId === column.id ? { ...entry, width, flex: undefined } : entry)), true);
  };

  const dropSide = (event: React.DragEvent<HTMLElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    return event.clientX > rect.left + rect.width / 2;
  };

  return (
    <div role="row" className="erp-grid-header" aria-rowindex={1}>
      {shown.map((column, i) => {
        const sorted = sort.find((s) => s.id === column.id)?.dir;
        let className = cellClass(column, 'erp-grid-header-cell');
        if (column.sortable) className += ' erp-grid-sortable';
        if (dropTarget?.id === column.id) className += dropTarget.after ? ' erp-grid-drop-after' : ' erp-grid-drop-before';
        return (
          <div
            key={column.id}
            role="columnheader"
            col-id={column.id}
            className={className}
            style={styles[i]}
            aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
            draggable={column.movable}
            tabIndex={column.sortable ? 0 : undefined}
            onClick={(e) => column.sortable && onSort(nextSort(sort, column.id, e.shiftKey))}
            onKeyDown={(e) => {
              if (!column.sortable || (e.key !== 'Enter' && e.key !== ' ')) return;
              e.preventDefault();
              onSort(nextSort(sort, column.id, e.shiftKey));
            }}
            onDragStart={(e) => {
              dragging.current = column.id;
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', column.title);
            }}
            onDragOver={(e) => {
              if (!dragging.current || !column.movable || dragging.current === column.id) return;
              e.preventDefault();
              const after = dropSide(e);
              if (dropTarget?.id !== column.id || dropTarget.after !== after) setDropTarget({ id: column.id, after });
            }}
            onDragLeave={() => dropTarget?.id === column.id && setDropTarget(undefined)}
            onDrop={(e) => {
              e.preventDefault();
              const moving = dragging.current;
              setDropTarget(undefined);
              if (moving) update((layout) => moveColumn(layout, moving, column.id, dropSide(e)), true);
            }}
            onDragEnd={() => {
              dragging.current = undefined;
              setDropTarget(undefined);
            }}
          >
            {column.id === SELECT_COL ? (
              selection && <SelectAll {...selection} />
            ) : (
              <>
                <span className="erp-grid-header-text">{column.title}</span>
                {column.sortable && <SortArrow dir={sorted} />}
                {column.headerAddon}
              </>
            )}
            {column.resizable && (
              <span
                className="erp-grid-resizer"
                onPointerDown={(e) => startResize(e, column)}
                onClick={(e) => e.stopPropagation()}
                onDoubleClick={(e) => fitWidth(e, column)}
                onDragStart={(e) => e.preventDefault()}
              />
            )}
          </div>
        );
      })}
    </div>
  );
});
