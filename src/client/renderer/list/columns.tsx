import type { ReactNode } from 'react';
import type { ResourceFile } from '../../../shared/resource.ts';
import { toColumn } from '../../../shared/resource.ts';
import { columnFormatOf, formatCell, isNumericFormat } from '../common/format.ts';
import { rt } from '../common/i18n.ts';
import { columnTitle } from '../common/labels.ts';
import type { Row } from '../common/params.ts';
import type { DictEntry } from '../common/useDictionary.ts';
import { fieldOf, type ColumnDef } from '../common/views.ts';
import { ValueCell } from './cells.tsx';
import { drillable } from './drill.ts';
import type { SavedColumn } from './columnState.ts';

export const INDEX_COL = '__index';
export const SELECT_COL = '__select';
export const ACTIONS_COL = '__actions';

/** What a cell knows beyond its row: its place on the page and whether it is the summary row. */
export interface CellContext {
  /** 0-based index of the row among the rows shown. */
  rowIndex: number;
  /** The pinned summary row (合计) rather than a record. */
  summary: boolean;
}

/** One column of the list grid: its header, layout and how a cell of it draws. */
export interface GridColumn {
  id: string;
  title: string;
  /** Initial width in px; with `flex` the least it starts at before sharing the free space. */
  width: number;
  /** Share of the free space (columns without a declared width). */
  flex?: number;
  minWidth: number;
  pinned?: 'left' | 'right';
  hidden?: boolean;
  sortable: boolean;
  resizable: boolean;
  /** Can be dragged to another place among the unpinned columns. */
  movable: boolean;
  align?: 'right' | 'center';
  /** Drawn after the title in the header (the line grid's 恢复默认列宽). */
  headerAddon?: ReactNode;
  cell(row: Row, context: CellContext): ReactNode;
}

/** Grid context: what cell callbacks need beyond the row (page offset for the index column). */
export interface GridContext {
  offset: number;
  /** Opens the page a figure drills down to (column.drill). */
  drill?(column: ColumnDef, row: Row): void;
}

/** Width from the declared one, else from the title and kind (CJK characters are wide). */
function defaultWidth(title: string, column: ColumnDef, numeric: boolean): number {
  // Bold header text plus padding and the sort indicator; a declared width never hides the title.
  const titleWidth = [...title].reduce((sum, ch) => sum + (ch.charCodeAt(0) > 255 ? 15 : 8), 40);
  if (column.width) return Math.max(column.width, Math.min(titleWidth, 160));
  return Math.max(numeric ? 110 : 120, Math.min(titleWidth, 240));
}

/** Whether a column's cells need React (tags, ticks, images, links) or plain formatted text does. */
function needsRenderer(column: ColumnDef, dictionary: DictEntry[] | undefined): boolean {
  if (column.format === 'image' || column.format === 'link') return true;
  return Boolean(dictionary?.length && (column.tag || dictionary.some((item) => item.icon === 'check')));
}

export function isSummable(resource: ResourceFile, column: ColumnDef): boolean {
  const format = columnFormatOf(fieldOf(resource, column.field), column);
  if (column.summable !== undefined) return column.summable && isNumericFormat(format);
  // Prices, rates and codes never add up; amounts and quantities do.
  return format === 'money' || format === 'quantity' || format === 'decimal';
}

interface BuildOptions {
  resource: ResourceFile;
  columns: ColumnDef[];
  dictionaries: Record<string, DictEntry[]>;
  language: 'zh' | 'en';
  saved: SavedColumn[] | undefined;
  titles?: Record<string, string>;
  /** Read at click time, so the columns need not be rebuilt when the page's callbacks change. */
  context: GridContext;
}

/** The schema columns as grid columns, with the user's saved order/width/visibility. */
export function buildDataColumns({ resource, columns, dictionaries, language, saved, titles, context }: BuildOptions): GridColumn[] {
  const defs = columns.map((column): GridColumn => {
    const field = fieldOf(resource, column.field);
    const format = columnFormatOf(field, column);
    const numeric = isNumericFormat(format);
    const title = columnTitle(resource, column, language, titles);
    const dictionary = dictionaries[column.field];
    const width = defaultWidth(title, column, numeric);
    const text = (row: Row) => formatCell(field, column, row[column.field], dictionary);
    let cell: GridColumn['cell'] = text;
    if (column.drill) {
      // A figure that drills down is a link, except in the summary row (it sums many groups).
      cell = (row, { summary }) => {
        if (summary || !drillable(column, row)) return text(row);
        return (
          <a className="erp-drill" onClick={() => context.drill?.(column, row)}>
            {text(row)}
          </a>
        );
      };
    } else if (needsRenderer(column, dictionary)) {
      cell = (row) => <ValueCell field={field} column={column} value={row[column.field]} dictionary={dictionary} />;
    }
    return {
      id: column.field,
      title,
      width,
      // Undeclared widths share the free space so the grid has no empty band on the right.
      flex: column.width ? undefined : 1,
      minWidth: column.width ? 60 : Math.min(width, 120),
      pinned: column.fixed,
      hidden: column.hidden,
      sortable: column.sortable ?? Boolean(field && !field['x-virtual'] && !field['x-lines'] && field.type !== 'array'),
      resizable: true,
      movable: !column.fixed,
      align: numeric || column.align === 'right' ? 'right' : column.align === 'center' ? 'center' : undefined,
      cell,
    };
  });
  fillFreeSpace(defs);
  if (!saved?.length) return defs;
  const byId = new Map(saved.map((s, i) => [s.colId, { ...s, order: i }]));
  return defs
    .map((def, i) => {
      const state = byId.get(def.id);
      return {
        def: state
          ? {
              ...def,
              width: state.width ?? def.width,
              flex: state.flex ?? (state.width ? undefined : def.flex),
              hidden: state.hide ?? def.hidden,
            }
          : def,
        order: state?.order ?? saved.length + i,
      };
    })
    .sort((a, b) => a.order - b.order)
    .map((entry) => entry.def);
}

/** With every width declared, the last visible unpinned column takes the free space (never less than declared). */
function fillFreeSpace(defs: GridColumn[]): void {
  if (defs.some((def) => def.flex)) return;
  const last = [...defs].reverse().find((def) => !def.hidden && !def.pinned);
  if (!last) return;
  last.flex = 1;
  last.minWidth = last.width;
}

const FIXED = { sortable: false, resizable: false, movable: false } as const;

export function indexColumn(context: GridContext): GridColumn {
  return {
    ...FIXED,
    id: INDEX_COL,
    title: rt('list.index'),
    width: 64,
    minWidth: 64,
    pinned: 'left',
    align: 'center',
    cell: (_row, { rowIndex, summary }) => (summary ? rt('list.summary') : context.offset + rowIndex + 1),
  };
}

/** The row checkboxes; the grid draws this column's cells and header itself. */
export function selectionColumn(): GridColumn {
  return { ...FIXED, id: SELECT_COL, title: '', width: 44, minWidth: 44, pinned: 'left', align: 'center', cell: () => null };
}

export function actionsColumn(width: number, cell: GridColumn['cell']): GridColumn {
  return { ...FIXED, id: ACTIONS_COL, title: rt('list.actions'), width, minWidth: width, pinned: 'right', cell };
}

/** snake_case column for a sort request (x-column when declared). */
export function sortColumnOf(resource: ResourceFile, field: string): string {
  const schema = fieldOf(resource, field);
  return schema?.['x-column'] ?? toColumn(field);
}
