/**
 * document.lineValue (其他入库单, 报溢单): a goods-only line's typed unit cost and its amount, the
 * same on the grid (recompute) and the server (computeLineValue): amount = qty × unit cost at the
 * amount places; required when the posting takes the line's value (cost line), optional when a
 * blank unit cost means the moving average (cost average).
 */
import { describe, expect, test } from 'vitest';
import { recompute } from '../../src/client/bespoke/lines/lineModel.ts';
import type { DocumentDef } from '../../src/shared/document.ts';
import { computeLineValue, DEFAULT_PLACES, MoneyInputError } from '../../src/shared/money/index.ts';

const otherIn: DocumentDef = {
  statusField: 'billStatus',
  billType: '0831',
  numberField: 'billNo',
  lines: 'bodyList',
  lineValue: { price: 'costPrice', amount: 'costAmt' },
  posting: { stock: 1, cost: 'line' },
  transitions: [],
};
const gain: DocumentDef = { ...otherIn, billType: '0835', posting: { stock: 1, cost: 'average' } };

describe('line value', () => {
  test('amount = quantity × unit cost, half up at the amount places; the unit cost kept at the price places', () => {
    expect(computeLineValue('5', '3', DEFAULT_PLACES, { required: true, label: '成本单价' })).toEqual({ price: '3.00000', amount: '15.00' });
    expect(computeLineValue('3', '3.335', DEFAULT_PLACES, { required: true, label: '成本单价' })).toEqual({ price: '3.33500', amount: '10.01' });
    expect(computeLineValue('2', '', DEFAULT_PLACES, { required: false, label: '成本单价' })).toEqual({});
  });

  test('blank (when required), junk and negative unit costs are refused with the field named', () => {
    const message = (price: unknown, required = true) => {
      try {
        computeLineValue('1', price, DEFAULT_PLACES, { required, label: '成本单价' });
        return '';
      } catch (error) {
        expect(error).toBeInstanceOf(MoneyInputError);
        return (error as Error).message;
      }
    };
    expect(message('')).toBe('请输入成本单价');
    expect(message('abc', false)).toBe('成本单价不是有效数字');
    expect(message('-1', false)).toBe('成本单价不能为负数');
  });

  test('the grid fills the cost amount as the clerk types; a gain line may leave the unit cost blank', () => {
    expect(recompute(otherIn, { commInfoId: 'g', unitId: 'u', qty: '5', costPrice: '3' }, DEFAULT_PLACES)).toEqual({
      values: { commInfoId: 'g', unitId: 'u', qty: '5', costPrice: '3', costAmt: '15.00' },
      errors: {},
    });
    expect(recompute(otherIn, { commInfoId: 'g', unitId: 'u', qty: '5' }, DEFAULT_PLACES).errors).toEqual({ costPrice: '请输入成本单价' });
    expect(recompute(gain, { commInfoId: 'g', unitId: 'u', qty: '5' }, DEFAULT_PLACES)).toEqual({ values: { commInfoId: 'g', unitId: 'u', qty: '5', costAmt: null }, errors: {} });
  });
});
