/**
 * 盘点单 lines on the grid (document.count): difference = counted − book and its value at the book
 * unit cost, computed as the clerk types with the same code the server runs (computeCountLine);
 * blank until the first save answers the book snapshot; one line per goods; the grid's columns
 * (only the counted quantity editable). The document block is the schema's own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { countedLineOf, recompute, RunningSummary, type GridLine } from '../../src/client/bespoke/lines/lineModel.ts';
import { LineStore } from '../../src/client/bespoke/lines/lineStore.ts';
import { lineColumnsOf } from '../../src/client/renderer/document/lineColumns.ts';
import type { DocumentDef } from '../../src/shared/document.ts';
import type { ResourceFile } from '../../src/shared/resource.ts';
import { resolveResource } from '../../src/shared/fragments.ts';
import { readFragments } from '../../src/shared/fragments-fs.ts';
import { computeCountLine } from '../../src/shared/money/count.ts';
import { DEFAULT_PLACES, MoneyInputError } from '../../src/shared/money/index.ts';

const schemas = path.resolve(import.meta.dirname, '../../schemas');
const fragments = readFragments(schemas);
const load = (name: string) => resolveResource(JSON.parse(fs.readFileSync(path.join(schemas, 'inventory', `${name}.json`), 'utf8')) as ResourceFile, fragments);
const head = load('check-inventory');
const body = load('check-inventory-body');
const doc = head.document as DocumentDef;

/** A line as the server answers it after the first save: book 10 at 5.00. */
const saved = { id: 'l1', commInfoId: 'g1', unitId: 'u1', bookQty: '10.00', costPrice: '5.00000', checkQty: '10.00', qty: '0.00', costAmt: '0.00' };

const refusal = (counted: unknown) => {
  try {
    computeCountLine('10', counted, '5', DEFAULT_PLACES);
    return '';
  } catch (error) {
    expect(error).toBeInstanceOf(MoneyInputError);
    return (error as Error).message;
  }
};

describe('stock-count line', () => {
  test('the schema declares the count: book, counted, the book value and a posting at the line value', () => {
    expect(doc.count).toEqual({ book: 'bookQty', counted: 'checkQty' });
    expect(doc.lineValue).toEqual({ price: 'costPrice', amount: 'costAmt' });
    expect(doc.posting).toMatchObject({ stock: 1, cost: 'line' });
    expect(doc.posting?.voucher?.map((v) => [v.account, v.amount])).toEqual([['1405', 'stock'], ['6602', 'rest']]);
  });

  test('difference and value: a loss is negative, a gain positive, counted as booked is zero; exact decimals', () => {
    expect(computeCountLine('10', '9', '5', DEFAULT_PLACES)).toEqual({ counted: '9.00', qty: '-1', amount: '-5.00' });
    expect(computeCountLine('10', '12', '5', DEFAULT_PLACES)).toEqual({ counted: '12.00', qty: '2', amount: '10.00' });
    expect(computeCountLine('10.00', '10', '5.00000', DEFAULT_PLACES)).toEqual({ counted: '10.00', qty: '0', amount: '0.00' });
    // 0.1 + 0.2 style figures stay exact: 0.3 − 0.1 = 0.2 at 3.33333 = 0.666666 → 0.67.
    expect(computeCountLine('0.1', '0.3', '3.33333', DEFAULT_PLACES)).toEqual({ counted: '0.30', qty: '0.2', amount: '0.67' });
    // The counted quantity is kept at the quantity places (half up) before the difference is taken.
    expect(computeCountLine('7', '7.005', '2', DEFAULT_PLACES)).toEqual({ counted: '7.01', qty: '0.01', amount: '0.02' });
    // Half up on the amount, negative side too: −0.5 × 0.01 = −0.005 → −0.01.
    expect(computeCountLine('1', '0.5', '0.01', DEFAULT_PLACES).amount).toBe('-0.01');
  });

  test('a blank, junk or negative counted quantity is refused with its message', () => {
    expect(refusal('')).toBe('请输入实盘数量');
    expect(refusal('abc')).toBe('实盘数量不是有效数字');
    expect(refusal('-1')).toBe('实盘数量不能为负数');
    expect(refusal('0')).toBe('');
  });

  test('typing the counted quantity on a saved line recomputes difference and amount; what was typed stays', () => {
    const loss = recompute(doc, { ...saved, checkQty: '9' }, DEFAULT_PLACES);
    expect(loss.errors).toEqual({});
    expect(loss.values).toMatchObject({ checkQty: '9', bookQty: '10.00', costPrice: '5.00000', qty: '-1', costAmt: '-5.00' });
    const gain = recompute(doc, { ...saved, checkQty: '12' }, DEFAULT_PLACES);
    expect(gain.values).toMatchObject({ qty: '2', costAmt: '10.00' });
  });

  test('before the first save the book is unknown: the difference stays blank, the counted figure is still checked', () => {
    const fresh = { commInfoId: 'g1', unitId: 'u1', checkQty: '9' };
    expect(recompute(doc, fresh, DEFAULT_PLACES)).toEqual({ values: { ...fresh, qty: null, costAmt: null }, errors: {} });
    expect(recompute(doc, { ...fresh, checkQty: '' }, DEFAULT_PLACES).errors).toEqual({ checkQty: '请输入实盘数量' });
    const negative = recompute(doc, { ...saved, checkQty: '-2' }, DEFAULT_PLACES);
    expect(negative.errors).toEqual({ checkQty: '实盘数量不能为负数' });
    expect(negative.values).toMatchObject({ qty: null, costAmt: null });
  });

  test('the store: a picked goods waits for its count and sends no difference until the server snapshots it; the summary sums book, counted, difference and value', () => {
    const store = new LineStore(doc, DEFAULT_PLACES);
    const added = store.add({ commInfoId: 'g2', unitId: 'u1' });
    expect(added.errors).toEqual({ checkQty: '请输入实盘数量' });
    expect(store.problems()).toEqual(['第1行：请输入实盘数量']);
    store.update(added.key, { checkQty: '4' });
    expect(store.problems()).toEqual([]);
    expect(store.snapshot()[0]).toMatchObject({ commInfoId: 'g2', checkQty: '4' });
    expect(store.snapshot()[0].qty ?? null).toBeNull();
    expect(store.snapshot()[0].id).toBeUndefined();

    // The summary row as the grid keeps it: all lines on load, then each edit's difference.
    const fields = [['bookQty', 2], ['checkQty', 2], ['qty', 2], ['costAmt', 2]].map(([field, places]) => ({ field: String(field), places: Number(places) }));
    const summary = new RunningSummary(fields);
    store.subscribe((change) => (change.kind === 'rows' ? summary.reset(store.all()) : summary.replace(change.previous.values, change.line.values)));
    store.load([saved, { ...saved, id: 'l2', commInfoId: 'g3', bookQty: '3.00', costPrice: '2.50000', checkQty: '3.00' }]);
    store.update('l1', { checkQty: '9' });
    store.update('l2', { checkQty: '5' });
    expect(store.snapshot().map((l) => [l.qty, l.costAmt])).toEqual([['-1', '-5.00'], ['2', '5.00']]);
    expect(summary.row()).toMatchObject({ bookQty: '13.00', checkQty: '14.00', qty: '1.00', costAmt: '0.00' });
  });

  test('one line per goods, whatever its unit', () => {
    const lines: GridLine[] = [{ key: 'a', values: { commInfoId: 'g1', unitId: 'u1' }, errors: {} }];
    expect(countedLineOf(lines, 'g1')?.key).toBe('a');
    expect(countedLineOf(lines, 'g2')).toBeUndefined();
  });

  test('the grid: only the counted quantity (and the remark) is typed; book, difference, cost and value are read-only', () => {
    const columns = lineColumnsOf(head, body, doc, DEFAULT_PLACES, 'zh');
    expect(columns.map((c) => [c.field, c.title, c.kind])).toEqual([
      ['commInfoId', '商品', 'goods'],
      ['unitName', '单位', 'readonly'],
      ['bookQty', '账面数量', 'readonly'],
      ['checkQty', '实盘数量', 'decimal'],
      ['qty', '盈亏数量', 'readonly'],
      ['costPrice', '账面成本单价', 'readonly'],
      ['costAmt', '盈亏金额', 'readonly'],
      ['remark', '备注', 'text'],
    ]);
  });
});
