/**
 * The line grid's model (src/client/bespoke/lines): figures recomputed as the clerk types, the
 * summary row, the duplicate goods merge, spreadsheet paste and the server's errors landing on
 * the right line by id.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { addQuantities, applyServerErrors, duplicateOf, parseClipboard, priceInputField, recompute, RunningSummary, type GridLine } from '../../src/client/bespoke/lines/lineModel.ts';
import { LineStore } from '../../src/client/bespoke/lines/lineStore.ts';
import type { DocumentDef } from '../../src/shared/document.ts';
import { DEFAULT_PLACES, sumFields } from '../../src/shared/money/index.ts';

const sales: DocumentDef = {
  statusField: 'billStatus',
  billType: '0803',
  numberField: 'billNo',
  lines: 'bodyList',
  amounts: { basis: 'inclusive', price: 'salesPrice', amount: 'salesAmt' },
  transitions: [],
};
const purchaseReturn: DocumentDef = { ...sales, amounts: { basis: 'exclusive', price: 'purchasePrice', amount: 'purchaseAmt', sign: -1 } };

describe('line model', () => {
  test('a sales line typed incl. tax gets the spec figures; the typed price stays as typed', () => {
    const { values, errors } = recompute(sales, { commInfoId: 'g', unitId: 'u', qty: '7', taxPrice: '9.99', taxRate: '13' }, DEFAULT_PLACES);
    expect(errors).toEqual({});
    expect(values).toMatchObject({ taxPrice: '9.99', salesPrice: '8.84071', totalAmt: '69.93', salesAmt: '61.88', taxAmt: '8.05', finalAmt: '69.93' });
  });

  test('an exclusive-priced return line must be negative and is computed from the typed price', () => {
    expect(priceInputField(purchaseReturn)).toBe('purchasePrice');
    const ok = recompute(purchaseReturn, { commInfoId: 'g', unitId: 'u', qty: '-2', purchasePrice: '5.00', taxRate: '13' }, DEFAULT_PLACES);
    expect(ok.values).toMatchObject({ taxPrice: '5.65000', purchaseAmt: '-10.00', totalAmt: '-11.30', taxAmt: '-1.30' });
    expect(recompute(purchaseReturn, { commInfoId: 'g', unitId: 'u', qty: '2', purchasePrice: '5', taxRate: '13' }, DEFAULT_PLACES).errors.qty).toBe('退货数量应为负数');
  });

  test('an empty tax rate, goods or unit is the cell\'s error with the spec message', () => {
    expect(recompute(sales, { commInfoId: 'g', unitId: 'u', qty: '1', taxPrice: '1', taxRate: '' }, DEFAULT_PLACES).errors).toEqual({ taxRate: '请选择税率，无税请选0' });
    expect(recompute(sales, { qty: '1' }, DEFAULT_PLACES).errors).toEqual({ commInfoId: '请选择商品' });
    expect(recompute(sales, { commInfoId: 'g', qty: '1', taxPrice: '1', taxRate: '0' }, DEFAULT_PLACES).errors).toEqual({ unitId: '请选择单位' });
  });

  test('summary: Σ of the lines at their places, never re-rounded', () => {
    const lines: GridLine[] = [1, 2, 3].map((i) => ({ key: `k${i}`, errors: {}, values: recompute(sales, { commInfoId: 'g', unitId: 'u', qty: '1', taxPrice: '1.00', taxRate: '13' }, DEFAULT_PLACES).values }));
    const summary = new RunningSummary([{ field: 'salesAmt', places: 2 }, { field: 'taxAmt', places: 2 }, { field: 'totalAmt', places: 2 }]);
    summary.reset(lines);
    expect(summary.row()).toEqual({ salesAmt: '2.64', taxAmt: '0.36', totalAmt: '3.00', __summary: true });
  });

  test('summary kept line by line: after any edits it equals the sum of every line read again', () => {
    const fields = [
      { field: 'qty', places: 4 },
      { field: 'totalAmt', places: 2 },
    ];
    // Figures as the grid holds them: decimal text at up to 4 places, blanks, mid-edit text.
    const figure = fc.oneof(
      fc.tuple(fc.bigInt({ min: -(10n ** 16n), max: 10n ** 16n }), fc.integer({ min: 0, max: 4 })).map(([units, places]) => {
        const text = (units < 0n ? -units : units).toString().padStart(places + 1, '0');
        return `${units < 0n ? '-' : ''}${places ? `${text.slice(0, -places)}.${text.slice(-places)}` : text}`;
      }),
      fc.constantFrom('', undefined, null, '1.', 'abc', ' 2.50 '),
    );
    const values = fc.record({ qty: figure, totalAmt: figure });
    fc.assert(
      fc.property(fc.array(values, { minLength: 1, maxLength: 30 }), fc.array(fc.tuple(fc.nat(), values), { maxLength: 40 }), (initial, edits) => {
        const lines: GridLine[] = initial.map((v, i) => ({ key: `k${i}`, errors: {}, values: v }));
        const summary = new RunningSummary(fields);
        summary.reset(lines);
        for (const [at, next] of edits) {
          const index = at % lines.length;
          summary.replace(lines[index].values, next);
          lines[index] = { ...lines[index], values: next };
        }
        const expected = sumFields(lines.map((l) => l.values), ['qty', 'totalAmt'], { qty: 4, totalAmt: 2 });
        expect(summary.row()).toEqual({ ...expected, __summary: true });
      }),
      { numRuns: 300 },
    );
  });

  test('the store tells what an edited line held before', () => {
    const store = new LineStore(sales, DEFAULT_PLACES);
    store.load([{ id: 'a', commInfoId: 'g', unitId: 'u', qty: '1', taxPrice: '1.00', taxRate: '13' }], true);
    const changes: unknown[] = [];
    store.subscribe((change) => changes.push(change));
    store.update('a', { qty: '3' });
    expect(changes).toMatchObject([{ kind: 'row', previous: { values: { qty: '1', totalAmt: '1.00' } }, line: { values: { qty: '3', totalAmt: '3.00' } } }]);
  });

  test('the same goods and unit is found for the merge; quantities add exactly', () => {
    const lines: GridLine[] = [
      { key: 'a', errors: {}, values: { commInfoId: 'g1', unitId: 'u1' } },
      { key: 'b', errors: {}, values: { commInfoId: 'g1', unitId: 'u2' } },
    ];
    expect(duplicateOf(lines, 'g1', 'u2')?.key).toBe('b');
    expect(duplicateOf(lines, 'g1', 'u2', 'b')).toBeUndefined();
    expect(duplicateOf(lines, 'g2', 'u1')).toBeUndefined();
    expect(addQuantities('0.1', '0.2', 2)).toBe('0.30');
  });

  test('a block pasted from a spreadsheet: rows by newline, cells by tab, a trailing newline is no row', () => {
    expect(parseClipboard('1\t2.5\r\n3\t4\r\n')).toEqual([['1', '2.5'], ['3', '4']]);
    expect(parseClipboard('7')).toEqual([['7']]);
  });

  test('server errors land on the line with that id, else that index, without the 第N行 prefix', () => {
    const lines: GridLine[] = [
      { key: 'id-1', errors: {}, values: {} },
      { key: 'new-x', errors: {}, values: {} },
    ];
    const out = applyServerErrors(lines, [
      { index: 5, id: 'id-1', field: 'qty', message: '第6行：数量必须大于0' },
      { index: 1, field: 'taxRate', message: '第2行：请选择税率，无税请选0' },
    ]);
    expect(out[0].errors).toEqual({ qty: '数量必须大于0' });
    expect(out[1].errors).toEqual({ taxRate: '请选择税率，无税请选0' });
  });

  test('the store repaints one row per edit and sends client keys as new lines', () => {
    const store = new LineStore(sales, DEFAULT_PLACES);
    const changes: string[] = [];
    store.subscribe((c) => changes.push(c.kind));
    store.load([{ id: 'stored-1', commInfoId: 'g', unitId: 'u', qty: '1', taxPrice: '1.13', taxRate: '13' }]);
    const added = store.add({ commInfoId: 'g2', unitId: 'u', qty: '2', taxPrice: '2.26', taxRate: '13' });
    store.update(added.key, { qty: '3' });
    expect(changes).toEqual(['rows', 'rows', 'row']);
    const sent = store.snapshot();
    expect(sent[0].id).toBe('stored-1');
    expect(sent[1].id).toBeUndefined();
    expect(sent[1]).toMatchObject({ qty: '3', totalAmt: '6.78', salesAmt: '6.00' });
    expect(store.problems()).toEqual([]);
  });
});
