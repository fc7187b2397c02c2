import type { ColDef, ICellRendererParams, ValueFormatterParams, ValueGetterParams } from 'ag-grid-community';
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
export const ACTIONS_COL = '__actions';

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
}

/** ag-grid column definitions of the schema columns, with the user's saved order/width/visibility. */
export function buildDataColumns({
  resource,
  columns,
  dictionaries,
  language,
  saved,
  titles,
}: BuildOptions): ColDef<Row>[] {
  const defs = columns.map((column): ColDef<Row> => {
    const field = fieldOf(resource, column.field);
    const format = columnFormatOf(field, column);
    const numeric = isNumericFormat(format);
    const title = columnTitle(resource, column, language, titles);
    const dictionary = dictionaries[column.field];
    const sortable =
      column.sortable ?? Boolean(field && !field['x-virtual'] && !field['x-lines'] && field.type !== 'array');
    const def: ColDef<Row> = {
      colId: column.field,
      field: column.field as never,
      headerName: title,
      headerTooltip: title,
      initialWidth: defaultWidth(title, column, numeric),
      // Undeclared widths share the free space so the grid has no empty band on the right.
      initialFlex: column.width ? undefined : 1,
      minWidth: column.width ? 60 : Math.min(defaultWidth(title, column, numeric), 120),
      initialPinned: column.fixed,
      initialHide: column.hidden,
      sortable,
      // Rows arrive sorted by the server; the grid keeps their order.
      comparator: () => 0,
      resizable: true,
      cellClass:
        numeric || column.align === 'right'
          ? 'ag-right-aligned-cell'
          : column.align === 'center'
            ? 'erp-center-cell'
            : undefined,
      headerClass: numeric || column.align === 'right' ? 'ag-right-aligned-header' : undefined,
      tooltip: column.ellipsis ? (p) => formatCell(field, column, p.value, dictionary) : undefined,
    };
    if (column.drill) {
      // A figure that drills down is a link, except in the summary row (it sums many groups).
      def.cellRenderer = (p: ICellRendererParams<Row>) => {
        const text = formatCell(field, column, p.value, dictionary);
        if (p.node?.rowPinned || !p.data || !drillable(column, p.data)) return text;
        return (
          <a className="erp-drill" onClick={() => (p.context as GridContext).drill?.(column, p.data!)}>
            {text}
          </a>
        );
      };
    } else if (needsRenderer(column, dictionary)) {
      def.cellRenderer = (p: ICellRendererParams<Row>) => (
        <ValueCell field={field} column={column} value={p.value} dictionary={dictionary} />
      );
    } else {
      def.valueFormatter = (p: ValueFormatterParams<Row>) => formatCell(field, column, p.value, dictionary);
    }
    return def;
  });
  fillFreeSpace(defs);
  if (!saved?.length) return defs;
  const byId = new Map(saved.map((s, i) => [s.colId, { ...s, order: i }]));
  return defs
    .map((def, i) => {
      const state = byId.get(def.colId!);
      return {
        def: state
          ? {
              ...def,
              initialWidth: state.width ?? def.initialWidth,
              initialFlex: state.flex ?? (state.width ? undefined : def.initialFlex),
              initialHide: state.hide ?? def.initialHide,
            }
          : def,
        order: state?.order ?? saved.length + i,
      };
    })
    .sort((a, b) => a.order - b.order)
    .map((entry) => entry.def);
}

/** With every width declared, the last visible unpinned column takes the free space (never less than declared). */
function fillFreeSpace(defs: ColDef<Row>[]): void {
  if (defs.some((def) => def.initialFlex)) return;
  const last = [...defs].reverse().find((def) => !def.initialHide && !def.initialPinned);
  if (!last) return;
  last.initialFlex = 1;
  last.minWidth = last.initialWidth;
}

export function indexColumn(): ColDef<Row> {
  return {
    colId: INDEX_COL,
    headerName: rt('list.index'),
    width: 64,
    pinned: 'left',
    lockPinned: true,
    lockPosition: 'left',
    sortable: false,
    resizable: false,
    suppressMovable: true,
    cellClass: 'erp-center-cell',
    valueGetter: (p: ValueGetterParams<Row, unknown>) =>
      p.node?.rowPinned ? rt('list.summary') : (p.context as GridContext).offset + (p.node?.rowIndex ?? 0) + 1,
  };
}

/** snake_case column for a sort request (x-column when declared). */
export function sortColumnOf(resource: ResourceFile, field: string): string {
  const schema = fieldOf(resource, field);
  return schema?.['x-column'] ?? toColumn(field);
}
