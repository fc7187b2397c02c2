import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PLACES,
  Dec,
  MoneyInputError,
  NON_SUMMABLE,
  allocate,
  allocateFee,
  compareLine,
  computeLine,
  fixed,
  formatAmount,
  giftUnitCost,
  placesFromConfig,
  round,
  sumFields,
  summaryRow,
  toDec,
  type LineAmounts,
  type LineInput,
} from '../../src/shared/money/index.ts';

const P = DEFAULT_PLACES;

function errorOf(fn: () => unknown): MoneyInputError {
  try {
    fn();
  } catch (error) {
    if (error instanceof MoneyInputError) return error;
    throw error;
  }
  throw new Error('expected a MoneyInputError');
}

describe('decimal helpers (spec 000 §9)', () => {
  it('rounds half up, ties away from zero, on both signs', () => {
    expect(fixed('0.125', 2)).toBe('0.13');
    expect(fixed('-0.125', 2)).toBe('-0.13');
    expect(round('1.005', 2).toString()).toBe('1.01');
    expect(round('-2.5', 0).toString()).toBe('-3');
  });

  it('never prints a negative zero', () => {
    expect(fixed('-0.001', 2)).toBe('0.00');
    expect(fixed(-0, 0)).toBe('0');
    expect(fixed('-0.000004', 5)).toBe('0.00000');
  });

  it('reads numbers, numeric text and Decimals; blank and junk give undefined', () => {
    expect(toDec(1.5)?.toString()).toBe('1.5');
    expect(toDec(' 12.30 ')?.toString()).toBe('12.3');
    expect(toDec(new Dec('7'))?.toString()).toBe('7');
    expect(toDec('1e3')?.toString()).toBe('1000');
    for (const bad of ['', '  ', null, undefined, 'abc', '0x10', 'Infinity', Number.NaN, Infinity, {}, true, '1,000']) {
      expect(toDec(bad)).toBeUndefined();
    }
  });

  it('reads the places from system config, 0..8, else the default', () => {
    expect(placesFromConfig({})).toEqual({ price: 5, amount: 2, quantity: 2 });
    expect(placesFromConfig({ UNIT_DECIMAL_PLACES: '4', AMT_DECIMAL_PLACES: 0, NUMBER_DECIMAL_PLACES: 3 })).toEqual({
      price: 4,
      amount: 0,
      quantity: 3,
    });
    const odd = { UNIT_DECIMAL_PLACES: 9, AMT_DECIMAL_PLACES: '', NUMBER_DECIMAL_PLACES: '1.5' };
    expect(placesFromConfig(odd)).toEqual(P);
    expect(placesFromConfig({ AMT_DECIMAL_PLACES: -1, NUMBER_DECIMAL_PLACES: null })).toEqual(P);
  });
});

describe('computeLine (spec 000 §5 line amounts)', () => {
  it('9.99 tax-inclusive × 7 at 13%', () => {
    expect(computeLine({ qty: 7, taxPrice: '9.99', taxRate: 13 }, P)).toEqual({
      qty: '7.00',
      taxPrice: '9.99000',
      price: '8.84071',
      discountPrice: '9.99000',
      discountAmt: '0.00',
      amount: '61.88',
      totalAmt: '69.93',
      taxAmt: '8.05',
      couponAmt: '0.00',
      finalAmt: '69.93',
    });
  });

  it('9.04 tax-inclusive × 4 at 13% divides evenly', () => {
    const line = computeLine({ qty: '4', taxPrice: 9.04, taxRate: '13' }, P);
    expect([line.price, line.totalAmt, line.amount, line.taxAmt]).toEqual(['8.00000', '36.16', '32.00', '4.16']);
  });

  it('exclusive basis: 5.00 × 10 at 13%', () => {
    const line = computeLine({ qty: 10, price: '5.00', taxRate: 13, basis: 'exclusive' }, P);
    expect([line.taxPrice, line.price, line.amount, line.totalAmt, line.taxAmt]).toEqual([
      '5.65000',
      '5.00000',
      '50.00',
      '56.50',
      '6.50',
    ]);
  });

  it('three lines of 1 @ 1.00 at 13%: the head is the sum of the rounded lines', () => {
    const lines = [1, 2, 3].map(() => computeLine({ qty: 1, taxPrice: '1.00', taxRate: 13 }, P));
    for (const line of lines) expect([line.price, line.amount, line.taxAmt]).toEqual(['0.88496', '0.88', '0.12']);
    const head = sumFields(lines as unknown as Record<string, unknown>[], ['amount', 'taxAmt', 'totalAmt'], {
      amount: 2,
      taxAmt: 2,
      totalAmt: 2,
    });
    // Not round(3 × 0.88496) = 2.65: the head never re-rounds.
    expect(head).toEqual({ amount: '2.64', taxAmt: '0.36', totalAmt: '3.00' });
  });

  it('rounds a half cent away from zero on sales and returns alike', () => {
    expect(computeLine({ qty: 1, taxPrice: '0.125', taxRate: 0 }, { price: 3, amount: 2, quantity: 0 }).totalAmt).toBe(
      '0.13',
    );
    expect(computeLine({ qty: -1, taxPrice: '0.125', taxRate: 0 }, { price: 3, amount: 2, quantity: 0 }).totalAmt).toBe(
      '-0.13',
    );
  });

  it('a return line (−qty) is exactly the negation of its sale', () => {
    const sale = computeLine({ qty: 7, taxPrice: '9.99', taxRate: 13, discountRate: 90, couponAmt: '1.23' }, P);
    const back = computeLine({ qty: -7, taxPrice: '9.99', taxRate: 13, discountRate: 90, couponAmt: '-1.23' }, P);
    for (const key of ['qty', 'discountAmt', 'amount', 'totalAmt', 'taxAmt', 'couponAmt', 'finalAmt'] as const) {
      expect(back[key]).toBe(`-${sale[key]}`);
    }
    for (const key of ['taxPrice', 'price', 'discountPrice'] as const) expect(back[key]).toBe(sale[key]);
  });

  it('a discount charges the discounted price and reports the difference', () => {
    const line = computeLine({ qty: 7, taxPrice: '9.99', taxRate: 13, discountRate: 90 }, P);
    expect(line).toMatchObject({
      price: '8.84071', // still derived from the undiscounted price
      discountPrice: '8.99100',
      totalAmt: '62.94', // 8.991 × 7 = 62.937
      amount: '55.70', // round(8.991 / 1.13, 5) = 7.95664; × 7 = 55.69648
      taxAmt: '7.24',
      discountAmt: '6.99', // 69.93 − 62.94
    });
    // 100 and blank are no discount.
    expect(computeLine({ qty: 7, taxPrice: '9.99', taxRate: 13, discountRate: 100 }, P)).toEqual(
      computeLine({ qty: 7, taxPrice: '9.99', taxRate: 13, discountRate: '' }, P),
    );
  });

  it('coupon: final amount = total − coupon', () => {
    const line = computeLine({ qty: 7, taxPrice: '9.99', taxRate: 13, couponAmt: '5.005' }, P);
    expect([line.couponAmt, line.finalAmt]).toEqual(['5.01', '64.92']);
  });

  it('should-quantity rule: the whole source quantity takes the source total', () => {
    const input: LineInput = { qty: 3, taxPrice: '3.33', taxRate: 13, shouldQty: '3.00', shouldAmt: '10.00' };
    // 10.00 / 1.13 = 8.8496 → 8.85; no discount is reported for the cent the rule moved.
    expect(computeLine(input, P)).toMatchObject({
      totalAmt: '10.00',
      amount: '8.85',
      taxAmt: '1.15',
      discountAmt: '0.00',
    });
    // A part of the source quantity is priced as usual.
    expect(computeLine({ ...input, qty: 2 }, P)).toMatchObject({ totalAmt: '6.66', amount: '5.89' });
    // Without a should-amount there is nothing to take.
    expect(computeLine({ ...input, shouldAmt: '' }, P).totalAmt).toBe('9.99');
    // Returning the whole source line mirrors it.
    expect(computeLine({ ...input, qty: -3, shouldQty: -3, shouldAmt: '-10.00' }, P)).toMatchObject({
      totalAmt: '-10.00',
      amount: '-8.85',
      taxAmt: '-1.15',
    });
  });

  it('gift lines are free and need no price or tax rate', () => {
    expect(computeLine({ qty: 3, taxPrice: '9.99', isGift: true }, P)).toEqual({
      qty: '3.00',
      taxPrice: '0.00000',
      price: '0.00000',
      discountPrice: '0.00000',
      discountAmt: '0.00',
      amount: '0.00',
      totalAmt: '0.00',
      taxAmt: '0.00',
      couponAmt: '0.00',
      finalAmt: '0.00',
    });
  });

  it('follows the configured places', () => {
    const line = computeLine({ qty: '2.345', taxPrice: '9.99', taxRate: 13 }, { price: 2, amount: 0, quantity: 1 });
    expect(line).toMatchObject({ qty: '2.3', price: '8.84', amount: '20', totalAmt: '23', taxAmt: '3' });
  });

  it('refuses missing or broken inputs with the messages the user sees', () => {
    const base = { qty: 1, taxPrice: '1.00', taxRate: 13 };
    const missingRate = errorOf(() => computeLine({ ...base, taxRate: '' }, P));
    expect(missingRate).toBeInstanceOf(Error);
    expect([missingRate.field, missingRate.message]).toEqual(['taxRate', '请选择税率，无税请选0']);
    expect(errorOf(() => computeLine({ ...base, taxRate: undefined }, P)).message).toBe('请选择税率，无税请选0');
    const noQty = errorOf(() => computeLine({ ...base, qty: null }, P));
    expect([noQty.field, noQty.message]).toEqual(['qty', '请输入数量']);
    const noPrice = errorOf(() => computeLine({ ...base, taxPrice: ' ' }, P));
    expect([noPrice.field, noPrice.message]).toEqual(['taxPrice', '请输入单价']);
    const noExclusive = errorOf(() => computeLine({ ...base, basis: 'exclusive' }, P));
    expect([noExclusive.field, noExclusive.message]).toEqual(['price', '请输入单价']);
    expect(errorOf(() => computeLine({ ...base, qty: 'abc' }, P)).message).toBe('数量不是有效数字');
    expect(errorOf(() => computeLine({ ...base, taxPrice: '9,99' }, P)).message).toBe('含税单价不是有效数字');
    expect(errorOf(() => computeLine({ ...base, discountRate: 'x' }, P)).message).toBe('折扣率不是有效数字');
    expect(errorOf(() => computeLine({ ...base, taxRate: -1 }, P)).message).toBe('税率不能为负数');
    expect(computeLine({ ...base, taxRate: 0 }, P).taxAmt).toBe('0.00');
  });
});

describe('sums and summary rows', () => {
  it('sums fields at their places, skipping blanks', () => {
    const lines = [{ qty: '1.50', amount: '0.88' }, { qty: '', amount: '-0.88' }, { qty: 2 }];
    expect(sumFields(lines, ['qty', 'amount', 'other'], { qty: 2, amount: 2 })).toEqual({
      qty: '3.50',
      amount: '0.00',
      other: '0',
    });
  });

  it('adds numeric columns and skips prices, rates and text', () => {
    const rows = [
      { goodsName: '苹果', qty: '2', taxPrice: '9.99', taxRate: 13, totalAmt: '19.98' },
      { goodsName: '梨', qty: '1', taxPrice: '5.00', taxRate: 13, totalAmt: '5.00' },
    ];
    const columns = ['goodsName', 'qty', 'taxPrice', 'taxRate', 'totalAmt'].map((field) => ({ field, places: 2 }));
    expect(summaryRow(rows, columns)).toEqual({ qty: '3.00', totalAmt: '24.98' });
    expect(summaryRow(rows, columns, [])).toMatchObject({ taxPrice: '14.99', taxRate: '26.00' });
    for (const field of ['taxPrice', 'price', 'discountPrice', 'taxRate', 'discountRate', 'costPrice']) {
      expect(NON_SUMMABLE).toContain(field);
    }
  });
});

describe('allocate', () => {
  const sum = (shares: string[]) => shares.reduce((a, b) => a.plus(b), new Dec(0)).toFixed(2);

  it('gives the remainder to the largest weight, the lowest index on ties', () => {
    expect(allocate('10.00', [1, 1, 1], 2)).toEqual(['3.34', '3.33', '3.33']);
    expect(allocate('10.00', [1, 2], 2)).toEqual(['3.33', '6.67']);
    // 0.005 + 0.005 both round up to 0.01: the tie goes to index 0, which gives the extra cent back.
    expect(allocate('0.01', [1, 1], 2)).toEqual(['0.00', '0.01']);
    expect(allocate('0.01', [1, 1, 1], 2)).toEqual(['0.01', '0.00', '0.00']);
    // 0.857 → 0.86, 0.286 → 0.29, 0.857 → 0.86 overshoots by 0.01: index 0 ties index 2 and gives it back.
    expect(allocate('2.00', [3, 1, 3], 2)).toEqual(['0.85', '0.29', '0.86']);
  });

  it('splits equally when every weight is zero, and works for negative amounts', () => {
    expect(allocate('1.00', [0, '', null], 2)).toEqual(['0.34', '0.33', '0.33']);
    expect(allocate('-10.00', [1, 1, 1], 2)).toEqual(['-3.34', '-3.33', '-3.33']);
    expect(allocate('0', [], 2)).toEqual([]);
    expect(() => allocate('1', [], 2)).toThrow(MoneyInputError);
  });

  it('never pushes a share past zero when tiny shares all round up', () => {
    const shares = allocate('0.05', Array(10).fill(1), 2);
    expect(sum(shares)).toBe('0.05');
    for (const share of shares) expect(new Dec(share).isNegative()).toBe(false);
  });

  it('rounds the amount itself at the places first', () => {
    expect(allocate('1.005', [1], 2)).toEqual(['1.01']);
  });

  it('fees by quantity (model 1) or by undiscounted value (model 0); gifts get their share', () => {
    const lines = [
      { qty: 2, totalAmt: '18.00', taxPrice: '10.00' }, // discounted to 9.00
      { qty: 1, totalAmt: '0', isGift: true, taxPrice: '10.00' },
    ];
    expect(allocateFee('3.00', lines, '1', 2)).toEqual(['2.00', '1.00']);
    expect(allocateFee('3.00', lines, '0', 2)).toEqual(['2.00', '1.00']);
    // Without list prices model 0 weighs the charged totals, so a gift gets nothing.
    expect(allocateFee('3.00', lines.map(({ taxPrice: _, ...line }) => line), '0', 2)).toEqual(['3.00', '0.00']);
    expect(giftUnitCost('1.00', 3, 5)).toBe('0.33333');
    expect(() => giftUnitCost('1.00', 0, 5)).toThrow(MoneyInputError);
  });
});

describe('formatAmount', () => {
  it('groups, rounds half up and never shows -0.00', () => {
    expect(formatAmount(1234567.5, 2)).toBe('1,234,567.50');
    expect(formatAmount('-1234.5', 2)).toBe('-1,234.50');
    expect(formatAmount('1.005', 2)).toBe('1.01');
    expect(formatAmount(0, 2)).toBe('0.00');
    expect(formatAmount(-0.001, 2)).toBe('0.00');
    expect(formatAmount('123', 0)).toBe('123');
    expect(formatAmount('', 2)).toBe('');
    expect(formatAmount(null, 2)).toBe('');
    expect(formatAmount(undefined, 2)).toBe('');
    expect(formatAmount('n/a', 2)).toBe('n/a');
  });
});

describe('compareLine', () => {
  const computed: LineAmounts = computeLine({ qty: 7, taxPrice: '9.99', taxRate: 13 }, P);

  it('names the bill field that disagrees, numerically', () => {
    const submitted = {
      qty: 7,
      taxPrice: '9.99',
      salesPrice: '8.84071',
      amount: '61.89',
      totalAmt: 69.93,
      taxAmt: '8.050',
    };
    expect(compareLine(submitted, computed, { price: 'salesPrice' })).toEqual([
      { field: 'amount', expected: '61.88', got: '61.89' },
    ]);
    expect(compareLine({ salesPrice: '8.8407' }, computed, { price: 'salesPrice' })).toEqual([
      { field: 'salesPrice', expected: '8.84071', got: '8.8407' },
    ]);
  });

  it('lets blanks through and counts junk as a disagreement', () => {
    expect(compareLine({ qty: '', amount: null, totalAmt: undefined }, computed, {})).toEqual([]);
    expect(compareLine({ taxAmt: 'abc' }, computed, {})).toEqual([{ field: 'taxAmt', expected: '8.05', got: 'abc' }]);
  });
});
