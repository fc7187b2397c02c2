/**
 * The bill line grid's pure parts: columns fitted to the grid's width, where keys move the active
 * cell, and the scroll offset that brings a cell into view.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import type { LineColumn } from '../../src/client/bespoke/lines/lineGridColumns.ts';
import { moveCursor, nextEditableCell, scrollToShow, tabCursor } from '../../src/client/bespoke/lines/lineCursor.ts';
import type { GridLine } from '../../src/client/bespoke/lines/lineModel.ts';
import { installBrowserGlobals } from '../support/browser-globals.ts';

// The cells format figures with the client's helpers, which read the session's settings.
let lines: typeof import('../../src/client/bespoke/lines/lineGridColumns.ts');
beforeAll(async () => {
  installBrowserGlobals();
  lines = await import('../../src/client/bespoke/lines/lineGridColumns.ts');
});

const columns: LineColumn[] = [
  { field: 'commInfoId', title: '商品', kind: 'goods' },
  { field: 'unitId', title: '单位', kind: 'unit' },
  { field: 'qty', title: '数量', kind: 'decimal', places: 2 },
  { field: 'price', title: '单价', kind: 'decimal', places: 5 },
  { field: 'isGift', title: '赠品', kind: 'gift' },
  { field: 'totalAmt', title: '价税合计', kind: 'readonly', places: 2 },
  { field: 'remark', title: '备注', kind: 'text' },
  { field: 'kind', title: '类型', kind: 'readonly', dict: { type: 'string' } as LineColumn['dict'] },
];
const context = {
  language: 'zh' as const,
  summaryLabel: '合计',
  dictText: (field: string, value: unknown) => (field === 'kind' && value === '1' ? '采购' : undefined),
  unitName: (_goods: string, unit: string) => (unit === 'u1' ? '个' : undefined),
};
const line = (values: Record<string, unknown>): GridLine => ({ key: 'k', values, errors: {} });

describe('a figure typed with a Chinese input method on', () => {
  test('full-width digits and signs, the ideographic full stop and spaces read as ASCII', () => {
    expect(lines.typedFigure('１２．５')).toBe('12.5');
    expect(lines.typedFigure('12。5')).toBe('12.5');
    expect(lines.typedFigure('－３')).toBe('-3');
    expect(lines.typedFigure(' 1\u30002 ')).toBe('12');
    // Other text is kept for the line's check to report.
    expect(lines.typedFigure('十二')).toBe('十二');
  });

  test('ASCII figures come back unchanged; full-width ones as their ASCII twins', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^-?\d{1,9}(\.\d{1,5})?$/), (figure) => {
        expect(lines.typedFigure(figure)).toBe(figure);
        const wide = [...figure].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join('');
        expect(lines.typedFigure(wide)).toBe(figure);
      }),
    );
  });
});

describe('line grid columns', () => {
  const grid = () => lines.lineGridColumns(columns, false, context);

  test('the line number first; editable kinds editable unless read-only; figures right-aligned', () => {
    expect(grid().map((c) => c.id)).toEqual(['__index', ...columns.map((c) => c.field)]);
    expect(grid().filter((c) => c.editable).map((c) => c.id)).toEqual(['unitId', 'qty', 'price', 'isGift', 'remark']);
    expect(lines.lineGridColumns(columns, true, context).some((c) => c.editable)).toBe(false);
    expect(grid().filter((c) => c.align === 'right').map((c) => c.id)).toEqual(['qty', 'price', 'totalAmt']);
  });

  test('cells read as the clerk expects: goods code and name, unit name, figures at their places, 是 for a gift', () => {
    const text = (id: string, values: Record<string, unknown>, summary = false) => grid().find((c) => c.id === id)!.text(line(values), summary);
    expect(text('commInfoId', { commInfoCode: 'G1', commInfoName: '笔' })).toBe('G1 笔');
    expect(text('unitId', { unitId: 'u1', commInfoId: 'g' })).toBe('个');
    expect(text('unitId', { unitId: 'u2', unitName: '箱' })).toBe('箱');
    expect(text('qty', { qty: '3' })).toBe('3.00');
    expect(text('price', { price: '1.5' })).toBe('1.50000');
    expect(text('isGift', { isGift: 2 })).toBe('是');
    expect(text('isGift', { isGift: 1 })).toBe('');
    expect(text('kind', { kind: '1' })).toBe('采购');
    expect(text('kind', { kind: '9' })).toBe('9');
    expect(text('__index', {}, true)).toBe('合计');
    // The summary row shows only what it sums.
    expect(text('qty', { qty: '10' }, true)).toBe('10.00');
    expect(text('price', {}, true)).toBe('');
    expect(text('commInfoId', { commInfoName: 'x' }, true)).toBe('');
  });
});

describe('fitWidths', () => {
  let sized: ReturnType<typeof lines.lineGridColumns>;
  beforeAll(() => {
    sized = lines.lineGridColumns(columns, false, context);
  });

  test('fills the width exactly, in proportion, none below its floor', () => {
    const fit = lines.fitWidths(sized, 1000);
    expect(fit.pinned).toBe(false);
    expect(fit.widths.reduce((a, b) => a + b, 0)).toBe(1000);
    fit.widths.forEach((w, i) => expect(w).toBeGreaterThanOrEqual(sized[i].minWidth));
    // The goods column (200) stays wider than a figure's (110).
    expect(fit.widths[1]).toBeGreaterThan(fit.widths[3]);
  });

  test('narrower than the floors: every column at its floor, pinned', () => {
    const fit = lines.fitWidths(sized, 400);
    expect(fit.pinned).toBe(true);
    expect(fit.widths).toEqual(sized.map((c) => c.minWidth));
    expect(fit.widths[1]).toBe(lines.GOODS_MIN_WIDTH);
    expect(fit.widths[2]).toBe(lines.MIN_COLUMN_WIDTH);
  });

  test('any width at or above the floors: exact total, floors kept, whole pixels', () => {
    const floors = sized.reduce((sum, c) => sum + c.minWidth, 0);
    fc.assert(
      fc.property(fc.integer({ min: floors, max: 5000 }), (width) => {
        const fit = lines.fitWidths(sized, width);
        expect(fit.pinned).toBe(false);
        expect(fit.widths.reduce((a, b) => a + b, 0)).toBe(width);
        fit.widths.forEach((w, i) => {
          expect(Number.isInteger(w)).toBe(true);
          expect(w).toBeGreaterThanOrEqual(sized[i].minWidth);
        });
      }),
    );
  });

  test('an unmeasured grid (width 0) keeps the initial widths', () => {
    expect(lines.fitWidths(sized, 0).widths).toEqual(sized.map((c) => c.width));
  });
});

describe('fitWithChosen (widths the clerk set by hand)', () => {
  let sized: ReturnType<typeof lines.lineGridColumns>;
  beforeAll(() => {
    sized = lines.lineGridColumns(columns, false, context);
  });
  const idOf = (field: string) => sized.findIndex((c) => c.id === field);

  test('nothing chosen: the same as fitWidths', () => {
    expect(lines.fitWithChosen(sized, 1000, new Map())).toEqual(lines.fitWidths(sized, 1000));
  });

  test('chosen columns keep their widths, the others share the rest exactly', () => {
    const remark = idOf('remark');
    const qty = idOf('qty');
    const fit = lines.fitWithChosen(sized, 1200, new Map([[sized[remark].id, 300], [sized[qty].id, 90]]));
    expect(fit.pinned).toBe(false);
    expect(fit.widths[remark]).toBe(300);
    expect(fit.widths[qty]).toBe(90);
    expect(fit.widths.reduce((a, b) => a + b, 0)).toBe(1200);
    const others = sized.map((_, i) => i).filter((i) => i !== remark && i !== qty);
    const alone = lines.fitWidths(others.map((i) => sized[i]), 1200 - 390);
    expect(others.map((i) => fit.widths[i])).toEqual(alone.widths);
  });

  test('a chosen width below the floor takes the floor; chosen widths past the grid scroll it sideways', () => {
    const remark = idOf('remark');
    expect(lines.fitWithChosen(sized, 1200, new Map([[sized[remark].id, 5]])).widths[remark]).toBe(sized[remark].minWidth);
    const wide = lines.fitWithChosen(sized, 1000, new Map([[sized[remark].id, 900]]));
    expect(wide.pinned).toBe(true);
    expect(wide.widths[remark]).toBe(900);
    sized.forEach((c, i) => i !== remark && expect(wide.widths[i]).toBe(c.minWidth));
  });

  test('a width that is not a figure counts as not chosen', () => {
    const remark = idOf('remark');
    expect(lines.fitWithChosen(sized, 1000, new Map([[sized[remark].id, Number.NaN]]))).toEqual(lines.fitWidths(sized, 1000));
  });

  test('every column chosen: their widths, pinned only when wider than the grid', () => {
    const all = new Map(sized.map((c) => [c.id, 120]));
    const widths = sized.map((c) => Math.max(c.minWidth, 120));
    const total = widths.reduce((a, b) => a + b, 0);
    expect(lines.fitWithChosen(sized, total, all)).toEqual({ widths, pinned: false });
    expect(lines.fitWithChosen(sized, total - 1, all).pinned).toBe(true);
  });

  test('any chosen widths: chosen kept (at least the floor), the rest at least their floors, the grid filled unless pinned', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 300, max: 4000 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: sized.length - 1 }), fc.integer({ min: 1, max: 800 })), { maxLength: sized.length }),
        (width, picks) => {
          const chosen = new Map(picks.map(([i, w]) => [sized[i].id, w]));
          const fit = lines.fitWithChosen(sized, width, chosen);
          sized.forEach((c, i) => {
            const own = chosen.get(c.id);
            if (own !== undefined) expect(fit.widths[i]).toBe(Math.max(c.minWidth, own));
            expect(fit.widths[i]).toBeGreaterThanOrEqual(c.minWidth);
            expect(Number.isInteger(fit.widths[i])).toBe(true);
          });
          const total = fit.widths.reduce((a, b) => a + b, 0);
          const someFree = chosen.size < sized.length;
          if (!fit.pinned && someFree) expect(total).toBe(width);
          if (fit.pinned) expect(total).toBeGreaterThanOrEqual(width);
        },
      ),
    );
  });
});

describe('the active cell', () => {
  const order = ['__index', 'goods', 'qty', 'price', 'total', 'remark'];
  const editable = ['qty', 'price', 'remark'];

  test('Enter walks the editable cells along the row, then the next row; none after the last', () => {
    expect(nextEditableCell(editable, order, 3, { row: 0, col: 'qty' })).toEqual({ row: 0, col: 'price' });
    expect(nextEditableCell(editable, order, 3, { row: 0, col: 'price' })).toEqual({ row: 0, col: 'remark' });
    expect(nextEditableCell(editable, order, 3, { row: 0, col: 'remark' })).toEqual({ row: 1, col: 'qty' });
    expect(nextEditableCell(editable, order, 3, { row: 0, col: 'goods' })).toEqual({ row: 0, col: 'qty' });
    expect(nextEditableCell(editable, order, 3, { row: 2, col: 'remark' })).toBeUndefined();
    expect(nextEditableCell(editable, order, 3, { row: 1, col: 'qty' }, true)).toEqual({ row: 0, col: 'remark' });
    expect(nextEditableCell(editable, order, 3, { row: 0, col: 'qty' }, true)).toBeUndefined();
    expect(nextEditableCell([], order, 3, { row: 0, col: 'qty' })).toBeUndefined();
  });

  test('arrows, Home/End and page keys stay within the grid', () => {
    const from = { row: 5, col: 'qty' };
    expect(moveCursor('ArrowUp', false, from, order, 10, 4)).toEqual({ row: 4, col: 'qty' });
    expect(moveCursor('ArrowDown', false, { row: 9, col: 'qty' }, order, 10, 4)).toEqual({ row: 9, col: 'qty' });
    expect(moveCursor('ArrowLeft', false, { row: 0, col: '__index' }, order, 10, 4)).toEqual({ row: 0, col: '__index' });
    expect(moveCursor('ArrowRight', false, from, order, 10, 4)).toEqual({ row: 5, col: 'price' });
    expect(moveCursor('PageDown', false, from, order, 10, 4)).toEqual({ row: 9, col: 'qty' });
    expect(moveCursor('PageDown', false, from, order, 100, 12)).toEqual({ row: 17, col: 'qty' });
    expect(moveCursor('PageUp', false, from, order, 10, 12)).toEqual({ row: 0, col: 'qty' });
    expect(moveCursor('Home', false, from, order, 10, 4)).toEqual({ row: 5, col: '__index' });
    expect(moveCursor('End', true, from, order, 10, 4)).toEqual({ row: 9, col: 'qty' });
    expect(moveCursor('a', false, from, order, 10, 4)).toBeUndefined();
  });

  test('Tab wraps to the next row and leaves the grid after the last cell', () => {
    expect(tabCursor({ row: 0, col: 'remark' }, order, 2, false)).toEqual({ row: 1, col: '__index' });
    expect(tabCursor({ row: 1, col: '__index' }, order, 2, true)).toEqual({ row: 0, col: 'remark' });
    expect(tabCursor({ row: 1, col: 'remark' }, order, 2, false)).toBeUndefined();
  });
});

describe('scrollToShow', () => {
  // A view of 300 px under a 34 px header and over a 30 px summary row; rows 30 px.
  const show = (offset: number, row: number) => scrollToShow(offset, 300, 34 + row * 30, 30, 34, 30);

  test('a row in view leaves the offset alone; above it scrolls up to it, below it scrolls down just enough', () => {
    expect(show(0, 3)).toBe(0);
    expect(show(600, 10)).toBe(300);
    // Row 10 ends at 34 + 330 = 364; the view shows rows down to offset + 300 − 30.
    expect(show(0, 10)).toBe(94);
    expect(show(94, 10)).toBe(94);
  });
});
