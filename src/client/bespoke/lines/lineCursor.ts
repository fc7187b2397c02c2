/**
 * The line grid's active cell and where keys move it, as a spreadsheet does: arrows, Home/End,
 * PageUp/PageDown, Tab; Enter and Tab while editing go to the next editable cell.
 */

export interface Cursor {
  row: number;
  col: string;
}

/** The next (or previous) editable cell after `from`, along the row and then the following rows. */
export function nextEditableCell(editable: readonly string[], order: readonly string[], rowCount: number, from: Cursor, backwards = false): Cursor | undefined {
  const cols = order.filter((id) => editable.includes(id));
  if (!cols.length || !rowCount) return undefined;
  const at = order.indexOf(from.col);
  const step = backwards ? -1 : 1;
  // The editable columns after (before) `from` in its row, then whole rows.
  const sameRow = cols.filter((id) => (backwards ? order.indexOf(id) < at : order.indexOf(id) > at));
  if (sameRow.length) return { row: from.row, col: backwards ? sameRow[sameRow.length - 1] : sameRow[0] };
  const row = from.row + step;
  if (row < 0 || row >= rowCount) return undefined;
  return { row, col: backwards ? cols[cols.length - 1] : cols[0] };
}

/**
 * Where a navigation key moves the active cell (undefined: not a navigation key, or the key
 * would leave the grid). `page` is the number of whole rows the view shows.
 */
export function moveCursor(key: string, ctrl: boolean, from: Cursor, order: readonly string[], rowCount: number, page: number): Cursor | undefined {
  const at = order.indexOf(from.col);
  const last = rowCount - 1;
  const row = (r: number) => Math.max(0, Math.min(last, r));
  switch (key) {
    case 'ArrowUp':
      return { row: row(from.row - 1), col: from.col };
    case 'ArrowDown':
      return { row: row(from.row + 1), col: from.col };
    case 'ArrowLeft':
      return { row: from.row, col: order[Math.max(0, at - 1)] };
    case 'ArrowRight':
      return { row: from.row, col: order[Math.min(order.length - 1, at + 1)] };
    case 'PageUp':
      return { row: row(from.row - Math.max(1, page)), col: from.col };
    case 'PageDown':
      return { row: row(from.row + Math.max(1, page)), col: from.col };
    case 'Home':
      return ctrl ? { row: 0, col: from.col } : { row: from.row, col: order[0] };
    case 'End':
      return ctrl ? { row: last, col: from.col } : { row: from.row, col: order[order.length - 1] };
    default:
      return undefined;
  }
}

/** Tab (Shift+Tab) outside an editor: the next (previous) cell, wrapping to the next row; none past the ends. */
export function tabCursor(from: Cursor, order: readonly string[], rowCount: number, backwards: boolean): Cursor | undefined {
  const at = order.indexOf(from.col) + (backwards ? -1 : 1);
  if (at >= 0 && at < order.length) return { row: from.row, col: order[at] };
  const row = from.row + (backwards ? -1 : 1);
  if (row < 0 || row >= rowCount) return undefined;
  return { row, col: backwards ? order[order.length - 1] : order[0] };
}

/** The scroll offset that brings [start, start + size) into the view [offset + before, offset + view − after). */
export function scrollToShow(offset: number, view: number, start: number, size: number, before = 0, after = 0): number {
  if (start - before < offset) return Math.max(0, start - before);
  if (start + size > offset + view - after) return Math.max(0, start + size - view + after);
  return offset;
}
