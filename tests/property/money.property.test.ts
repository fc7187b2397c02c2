/**
 * Properties of src/shared/money over generated bills. Decimals are generated as scaled integers
 * printed as text, so every input is exact. MONEY_PROPERTY_RUNS sets the run count (default 1000).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec, allocate, computeLine, round, type LineInput, type Places } from '../../src/shared/money/index.ts';

const numRuns = Number(process.env.MONEY_PROPERTY_RUNS) || 1000;

/** Exact decimal text of `units` / 10^places. */
function scaled(units: number, places: number): string {
  const digits = Math.abs(units).toString().padStart(places + 1, '0');
  const text = places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
  return units < 0 ? `-${text}` : text;
}

const decimal = (min: number, max: number, places: number) =>
  fc.integer({ min, max }).map((units) => scaled(units, places));

const places: fc.Arbitrary<Places> = fc.record({
  price: fc.integer({ min: 0, max: 8 }),
  amount: fc.integer({ min: 0, max: 4 }),
  quantity: fc.integer({ min: 0, max: 4 }),
});

/** A sale line (qty > 0) with every optional part sometimes present. */
const saleLine: fc.Arbitrary<LineInput> = fc
  .record({
    qty: decimal(1, 10_000_000, 3),
    unitPrice: decimal(0, 100_000_000, 4),
    basis: fc.constantFrom<'inclusive' | 'exclusive'>('inclusive', 'exclusive'),
    taxRate: fc.oneof(fc.constantFrom('0', '1', '3', '6', '9', '13', '17'), decimal(0, 10_000, 2)),
    discountRate: fc.option(decimal(0, 15_000, 2), { nil: undefined }),
    couponAmt: fc.option(decimal(0, 100_000, 2), { nil: undefined }),
    should: fc.option(fc.record({ same: fc.boolean(), amt: decimal(0, 10_000_000_000, 2) }), { nil: undefined }),
  })
  .map(({ qty, unitPrice, basis, taxRate, discountRate, couponAmt, should }) => ({
    qty,
    basis,
    [basis === 'exclusive' ? 'price' : 'taxPrice']: unitPrice,
    taxRate,
    discountRate,
    couponAmt,
    shouldQty: should ? (should.same ? qty : scaled(1, 0)) : undefined,
    shouldAmt: should?.amt,
  }));

const negate = (text: unknown) => (text === undefined ? undefined : new Dec(String(text)).neg().toString());

describe('money properties', () => {
  it('Σ allocate shares = the amount exactly, whatever the weights', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
        fc.array(decimal(-1_000_000, 1_000_000, 3), { minLength: 1, maxLength: 30 }),
        (p, units, weights) => {
          const amount = scaled(units, p);
          const total = allocate(amount, weights, p).reduce((sum, share) => sum.plus(share), new Dec(0));
          expect(total.eq(amount)).toBe(true);
        },
      ),
      { numRuns },
    );
  });

  it('with non-negative weights no share has the opposite sign of the amount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.boolean(),
        fc.array(decimal(0, 1_000, 2), { minLength: 1, maxLength: 50 }),
        (p, units, negative, weights) => {
          const amount = scaled(negative ? -units : units, p);
          for (const share of allocate(amount, weights, p)) {
            const value = new Dec(share);
            expect(negative ? value.lte(0) : value.gte(0)).toBe(true);
          }
        },
      ),
      { numRuns },
    );
  });

  it('every computed line has tax = total − amount and final = total − coupon', () => {
    fc.assert(
      fc.property(saleLine, places, fc.boolean(), (line, p, isReturn) => {
        const input = isReturn ? { ...line, qty: negate(line.qty), couponAmt: negate(line.couponAmt) } : line;
        const out = computeLine(input, p);
        expect(new Dec(out.taxAmt).eq(new Dec(out.totalAmt).minus(out.amount))).toBe(true);
        expect(new Dec(out.finalAmt).eq(new Dec(out.totalAmt).minus(out.couponAmt))).toBe(true);
        // Every figure is printed at exactly its places.
        expect(out.totalAmt.split('.')[1]?.length ?? 0).toBe(p.amount);
        expect(out.price.split('.')[1]?.length ?? 0).toBe(p.price);
        expect(new Dec(out.qty).eq(round(input.qty as string, p.quantity))).toBe(true);
      }),
      { numRuns },
    );
  });

  it('a full return (−qty) nets to zero against its line on every field', () => {
    fc.assert(
      fc.property(saleLine, places, (line, p) => {
        const sale = computeLine(line, p);
        const back = computeLine(
          {
            ...line,
            qty: negate(line.qty),
            couponAmt: negate(line.couponAmt),
            shouldQty: negate(line.shouldQty),
            shouldAmt: negate(line.shouldAmt),
          },
          p,
        );
        for (const key of ['qty', 'discountAmt', 'amount', 'totalAmt', 'taxAmt', 'couponAmt', 'finalAmt'] as const) {
          expect(new Dec(sale[key]).plus(back[key]).isZero()).toBe(true);
          // Same text but the sign: no "-0.00", no cent of drift.
          const text = sale[key];
          expect(back[key]).toBe(new Dec(text).isZero() ? text : text.startsWith('-') ? text.slice(1) : `-${text}`);
        }
        for (const key of ['taxPrice', 'price', 'discountPrice'] as const) expect(back[key]).toBe(sale[key]);
      }),
      { numRuns },
    );
  });
});
