/**
 * The line grid's columns: what each shows and edits, and their widths fitted to the grid as a
 * spreadsheet fits them (every column in view, shrunk in proportion down to a floor; below the
 * floors the grid scrolls sideways with the line number and goods pinned).
 */
import type { FieldSchema } from '../../../shared/resource.ts';
import { formatDecimal } from '../../renderer/common/format.ts';
import type { GridColumn } from '../../renderer/list/columns.tsx';
import type { GridLine } from './lineModel.ts';

export interface LineColumn {
  field: string;
  title: string;
  kind: 'goods' | 'unit' | 'text' | 'decimal' | 'gift' | 'readonly';
  places?: number;
  width?: number;
  /** A dictionary field (单据类型): the cell shows the item's name. */
  dict?: FieldSchema;
}

/** A column as the grid draws it: the header's column plus how its cells read and edit. */
export interface LineGridColumn extends GridColumn {
  /** Absent for the line-number column. */
  source?: LineColumn;
  editable: boolean;
  /** The cell's text for a line (the summary row's too). */
  text(line: GridLine, summary: boolean): string;
}

const EDITABLE: LineColumn['kind'][] = ['unit', 'text', 'decimal', 'gift'];
/** The narrowest a column is fitted to; below that the grid scrolls sideways. */
export const MIN_COLUMN_WIDTH = 64;
/** The goods column, the one a clerk reads a line by, is never fitted narrower than this. */
export const GOODS_MIN_WIDTH = 150;
const INDEX_WIDTH = 52;
/** The line number's column id (the list grid's index column's). */
export const LINE_INDEX_COL = '__index';

export interface TextContext {
  language: 'zh' | 'en';
  summaryLabel: string;
  /** A dictionary column's item name for a value (undefined until the items arrive). */
  dictText(field: string, value: unknown): string | undefined;
  unitName(goodsId: string, unitId: string): string | undefined;
}

const initialWidth = (column: LineColumn) =>
  column.width ?? (column.kind === 'goods' ? 200 : column.kind === 'text' ? 160 : column.kind === 'gift' ? 70 : 110);

/** The grid's columns, at their initial widths (fitWidths sizes them to the grid). */
export function lineGridColumns(columns: LineColumn[], readOnly: boolean, context: TextContext): LineGridColumn[] {
  const index: LineGridColumn = {
    id: LINE_INDEX_COL,
    title: '#',
    width: INDEX_WIDTH,
    // Wide enough for 合计 in bold and four-digit line numbers.
    minWidth: INDEX_WIDTH,
    sortable: false,
    // Sized for its figures; the widths the clerk sets are kept for the data columns only.
    resizable: false,
    movable: false,
    align: 'center',
    editable: false,
    cell: () => null,
    text: (line, summary) => (summary ? context.summaryLabel : ''),
  };
  return [
    index,
    ...columns.map((column): LineGridColumn => {
      const figure = column.kind === 'decimal' || column.places !== undefined;
      return {
        id: column.field,
        title: column.title,
        width: initialWidth(column),
        minWidth: column.kind === 'goods' ? GOODS_MIN_WIDTH : MIN_COLUMN_WIDTH,
        sortable: false,
        resizable: true,
        movable: false,
        align: figure && column.kind !== 'unit' ? 'right' : undefined,
        source: column,
        editable: !readOnly && EDITABLE.includes(column.kind),
        cell: () => null,
        text: cellText(column, context),
      };
    }),
  ];
}

function cellText(column: LineColumn, context: TextContext): LineGridColumn['text'] {
  const { field } = column;
  const figure = (line: GridLine) => (column.places === undefined ? String(line.values[field] ?? '') : formatDecimal(line.values[field], column.places));
  if (column.kind === 'goods') return (line, summary) => (summary ? '' : [line.values.commInfoCode, line.values.commInfoName].filter(Boolean).join(' '));
  if (column.kind === 'unit')
    return (line, summary) => {
      if (summary) return '';
      const { unitName, commInfoId, unitId } = line.values;
      return String(unitName ?? context.unitName(String(commInfoId), String(unitId)) ?? unitId ?? '');
    };
  if (column.kind === 'gift') return (line, summary) => (summary || Number(line.values.isGift) !== 2 ? '' : context.language === 'en' ? 'Yes' : '是');
  if (column.dict)
    return (line, summary) => {
      if (summary) return '';
      return context.dictText(field, line.values[field]) ?? String(line.values[field] ?? '');
    };
  // The summary row carries only the summed figures; other columns are blank there.
  return (line, summary) => (summary && line.values[field] === undefined ? '' : figure(line));
}

export interface FittedColumns {
  widths: number[];
  /** The columns cannot all be shown: the line number and goods stay in view (sticky). */
  pinned: boolean;
}

/**
 * Widths that fill `available` px: each column in proportion to its initial width, none below its
 * floor (those at the floor drop out and the rest share what is left). When the floors alone are
 * wider than the grid, every column takes its floor and the grid scrolls sideways.
 */
export function fitWidths(columns: Pick<GridColumn, 'width' | 'minWidth'>[], available: number): FittedColumns {
  const floors = columns.map((c) => c.minWidth);
  const floorTotal = floors.reduce((a, b) => a + b, 0);
  if (available <= 0) return { widths: columns.map((c) => c.width), pinned: false };
  if (floorTotal > available) return { widths: floors, pinned: true };
  const widths = columns.map((c) => c.width);
  const fixed = new Set<number>();
  for (;;) {
    const free = columns.map((_, i) => i).filter((i) => !fixed.has(i));
    const room = available - [...fixed].reduce((sum, i) => sum + floors[i], 0);
    const base = free.reduce((sum, i) => sum + columns[i].width, 0);
    let changed = false;
    for (const i of free) {
      widths[i] = (columns[i].width * room) / base;
      if (widths[i] < floors[i]) {
        widths[i] = floors[i];
        fixed.add(i);
        changed = true;
      }
    }
    if (!changed) break;
  }
  // Whole pixels, the remainder to the last column, so the columns end exactly at the grid's edge.
  const whole = widths.map((w, i) => Math.max(floors[i], Math.floor(w)));
  whole[whole.length - 1] += available - whole.reduce((a, b) => a + b, 0);
  return { widths: whole, pinned: false };
}

/**
 * `fitWidths` with the widths the clerk chose (dragged or fitted by double-click, kept per user):
 * those columns keep them, the others share what is left of `available` as `fitWidths` shares it.
 * When the chosen widths leave the others less than their floors, the others take their floors
 * and the grid scrolls sideways (pinned).
 */
export function fitWithChosen(columns: Pick<GridColumn, 'id' | 'width' | 'minWidth'>[], available: number, chosen: ReadonlyMap<string, number>): FittedColumns {
  const chosenWidth = (c: Pick<GridColumn, 'id' | 'minWidth'>) => {
    const width = chosen.get(c.id);
    // A width that is not a figure (storage edited by hand) counts as not chosen.
    return width === undefined || !Number.isFinite(width) ? undefined : Math.max(c.minWidth, Math.round(width));
  };
  const free = columns.filter((c) => chosenWidth(c) === undefined);
  if (free.length === columns.length) return fitWidths(columns, available);
  const fixedTotal = columns.reduce((sum, c) => sum + (chosenWidth(c) ?? 0), 0);
  const room = available - fixedTotal;
  const floors = free.reduce((sum, c) => sum + c.minWidth, 0);
  let freeFit: FittedColumns;
  if (available <= 0 || !free.length) freeFit = { widths: free.map((c) => c.width), pinned: false };
  else if (room >= floors) freeFit = fitWidths(free, room);
  else freeFit = { widths: free.map((c) => c.minWidth), pinned: true };
  let next = 0;
  const widths = columns.map((c) => chosenWidth(c) ?? freeFit.widths[next++]);
  const total = widths.reduce((a, b) => a + b, 0);
  return { widths, pinned: available > 0 && (freeFit.pinned || total > available) };
}

/**
 * A figure as typed with a Chinese input method on: full-width digits and signs (１２．５) and the
 * ideographic full stop (12。5, what the period key gives in Chinese punctuation mode) read as
 * their ASCII forms, spaces dropped. Anything else stays, for the line's check to report.
 */
export function typedFigure(text: string): string {
  return text
    .replace(/[\uFF01-\uFF5E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/\u3002/g, '.')
    .replace(/[\s\u3000]/g, '');
}
