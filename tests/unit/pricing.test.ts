/**
 * The pricing engine (src/server/marketing/pricing.ts): the README's worked example to the cent,
 * the order of precedence, packages in whole sets only, the problems that refuse an order, and
 * (property) that every saving is allocated exactly and no line ends below zero.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { priceOrder, type Campaign, type CouponInput, type PriceInput } from '../../src/server/marketing/pricing.ts';
import { Dec } from '../../src/shared/money/index.ts';

const places = { price: 5, amount: 2, quantity: 2 };
const NOW = '2026-11-26 10:00:00';
const span = { beginTime: '2026-11-01 00:00:00', endTime: '2026-12-31 23:59:59' };
const line = (commInfoId: string, qty: string, basePrice: string, extra: Partial<PriceInput> = {}): PriceInput => ({ commInfoId, unitId: 'u', qty, basePrice, taxRate: '13', name: commInfoId, ...extra });
const camp = (id: string, kind: number, lines: Campaign['lines'], extra: Partial<Campaign> = {}): Campaign => ({ id, billNo: `MK${id}`, name: id, kind, ...span, lines, ...extra });
const coupon100minus10: CouponInput = { heldId: 'h1', name: '满100减10', type: 1, couponAmt: '10', fullAmt: '100' };

describe('pricing engine', () => {
  test('the README worked example: line rules, a whole-order tier and a coupon, to the cent', () => {
    const q = priceOrder(
      [line('A', '3', '25.00'), line('B', '5', '12.80'), line('C', '1', '40.00'), line('D', '1', '29.90')],
      [
        camp('特价', 3, [{ id: 'b1', commInfoId: 'B', unitId: 'u', promoPrice: '9.90' }]),
        camp('九折', 1, [{ id: 'c1', commInfoId: 'C', unitId: 'u', discountRate: '90' }]),
        camp('秒杀', 6, [{ id: 'd1', commInfoId: 'D', unitId: 'u', promoPrice: '19.90', activityQty: '10', soldQty: '3', limitQty: '2' }]),
        camp('满减', 2, [
          { id: 't1', fullAmt: '100', reduceAmt: '10' },
          { id: 't2', fullAmt: '150', reduceAmt: '20' },
          { id: 't3', fullAmt: '200', reduceAmt: '40' },
        ]),
      ],
      coupon100minus10,
      places,
      NOW,
    );
    expect(q.problems).toEqual([]);
    const pick = (key: string) => q.lines.find((l) => l.commInfoId === key)!;
    expect(pick('A')).toMatchObject({ taxPrice: '25.00000', totalAmt: '75.00', orderShare: '9.34', couponShare: '4.68', couponAmt: '14.02', finalAmt: '60.98', ruleText: '整单促销「满减」分摊 9.34；优惠券「满100减10」分摊 4.68' });
    expect(pick('B')).toMatchObject({ taxPrice: '9.90000', totalAmt: '49.50', orderShare: '6.17', couponShare: '3.08', finalAmt: '40.25' });
    expect(pick('B').rule).toMatchObject({ kind: 3, marketingId: '特价', marketingBodyId: 'b1' });
    expect(pick('C')).toMatchObject({ discountRate: '90.00000', totalAmt: '36.00', orderShare: '4.49', couponShare: '2.24', finalAmt: '29.27' });
    expect(pick('D')).toMatchObject({ taxPrice: '19.90000', totalAmt: '19.90', orderShare: '0.00', couponShare: '0.00', finalAmt: '19.90', ruleText: '秒杀「秒杀」19.90000' });
    expect(q.orderPromotion).toMatchObject({ marketingBodyId: 't2', fullAmt: '150.00', reduceAmt: '20.00' });
    expect(q.coupon).toEqual({ heldId: 'h1', name: '满100减10', amount: '10.00' });
    expect(q).toMatchObject({ totalAmt: '180.40', couponAmt: '30.00', finalAmt: '150.40' });
  });

  test('precedence: 秒杀 over 特价 over 商品促销; 团购 below its minimum falls through', () => {
    const campaigns = [
      camp('flash', 6, [{ id: 'f', commInfoId: 'A', unitId: 'u', promoPrice: '5', activityQty: '100' }]),
      camp('special', 3, [{ id: 's', commInfoId: 'A', unitId: 'u', promoPrice: '8' }, { id: 's2', commInfoId: 'B', unitId: 'u', promoPrice: '8' }]),
      camp('group', 5, [{ id: 'g', commInfoId: 'B', unitId: 'u', promoPrice: '6', minQty: '10' }]),
      camp('promo', 1, [{ id: 'p', commInfoId: 'C', unitId: 'u', discountRate: '80' }]),
    ];
    const q = priceOrder([line('A', '1', '10'), line('B', '2', '10'), line('B', '12', '10'), line('C', '1', '10'), line('E', '1', '10')], campaigns, undefined, places, NOW);
    expect(q.lines.map((l) => l.rule?.marketingId ?? '-')).toEqual(['flash', 'special', 'group', 'promo', '-']);
    expect(q.lines.map((l) => l.finalAmt)).toEqual(['5.00', '16.00', '72.00', '8.00', '10.00']);
    expect(q.lines[4].ruleText).toBe('原价');
    // Out of its times a campaign prices nothing.
    const later = priceOrder([line('A', '1', '10')], campaigns, undefined, places, '2027-01-01 00:00:00');
    expect(later.lines[0]).toMatchObject({ finalAmt: '10.00', rule: undefined });
  });

  test('a package prices whole sets only, its saving allocated over its goods', () => {
    const pack = camp('pack', 4, [{ id: 'x', commInfoId: 'A', unitId: 'u', qty: '1' }, { id: 'y', commInfoId: 'B', unitId: 'u', qty: '2' }], { packagePrice: '30' });
    const whole = priceOrder([line('A', '2', '12'), line('B', '4', '10')], [pack], undefined, places, NOW);
    // Two sets: 2 × 12 + 4 × 10 = 64 at list, 60 as packages: 4.00 saved, 24:40 → 1.50 and 2.50.
    expect(whole.lines.map((l) => [l.packageShare, l.finalAmt])).toEqual([['1.50', '22.50'], ['2.50', '37.50']]);
    expect(whole.lines[0].ruleText).toBe('套餐「pack」优惠 1.50');
    const partial = priceOrder([line('A', '3', '12'), line('B', '4', '10')], [pack], undefined, places, NOW);
    expect(partial.lines.map((l) => l.packageShare)).toEqual(['0.00', '0.00']);
  });

  test('over a limit, stock gone, or a coupon threshold not met: problems that refuse the order', () => {
    const flash = camp('秒杀A', 6, [{ id: 'f', commInfoId: 'A', unitId: 'u', promoPrice: '5', activityQty: '10', soldQty: '10' }]);
    const special = camp('特价B', 3, [{ id: 's', commInfoId: 'B', unitId: 'u', promoPrice: '5', limitQty: '2' }]);
    const q = priceOrder([line('A', '1', '10'), line('B', '3', '10')], [flash, special], coupon100minus10, places, NOW);
    expect(q.problems).toEqual(['「A」的秒杀「秒杀A」已抢光', '「B」参加特价「特价B」，每单限购 2', '未满足优惠券「满100减10」的使用条件：满 100 可用，本单可用金额 15.00']);
    const few = priceOrder([line('A', '4', '10')], [camp('秒杀A', 6, [{ id: 'f', commInfoId: 'A', unitId: 'u', promoPrice: '5', activityQty: '10', soldQty: '7' }])], undefined, places, NOW);
    expect(few.problems).toEqual(['「A」的秒杀「秒杀A」仅剩 3']);
  });

  test('a discount coupon is capped by its 最高优惠 and by what is left', () => {
    const rate: CouponInput = { heldId: 'h', name: '8折', type: 2, discountRate: '80', fullAmt: '0', maxAmt: '15' };
    expect(priceOrder([line('A', '5', '10')], [], rate, places, NOW).coupon?.amount).toBe('10.00');
    expect(priceOrder([line('A', '10', '10')], [], rate, places, NOW).coupon?.amount).toBe('15.00');
    const voucher: CouponInput = { heldId: 'v', name: '代金券', type: 3, couponAmt: '50' };
    const q = priceOrder([line('A', '2', '10'), line('G', '1', '99', { isGift: true })], [], voucher, places, NOW);
    expect(q.coupon?.amount).toBe('20.00');
    expect(q.lines.map((l) => l.finalAmt)).toEqual(['0.00', '0.00']);
  });

  test('property: savings are allocated exactly, no line ends below zero, totals add up', () => {
    const money = fc.integer({ min: 1, max: 99999 }).map((n) => (n / 100).toFixed(2));
    const qty = fc.integer({ min: 1, max: 500 }).map((n) => (n / 10).toFixed(1));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('A', 'B', 'C', 'D', 'E'), qty, money, fc.boolean()), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 99 }),
        (specs, reduce, couponAmt) => {
          const campaigns = [
            camp('o', 2, [{ id: 't', fullAmt: '1', reduceAmt: (reduce / 100).toFixed(2) }]),
            camp('p', 1, [{ id: 'p', commInfoId: 'B', unitId: 'u', discountRate: '88' }]),
          ];
          const q = priceOrder(specs.map(([g, n, p, gift]) => line(g, n, p, { isGift: gift && g === 'E' })), campaigns, { heldId: 'h', name: 'c', type: 3, couponAmt: String(couponAmt) }, places, NOW);
          const sum = (f: (l: (typeof q.lines)[number]) => string) => q.lines.reduce((v, l) => v.plus(f(l)), new Dec(0));
          if (q.orderPromotion) expect(sum((l) => l.orderShare).eq(q.orderPromotion.reduceAmt)).toBe(true);
          if (q.coupon) expect(sum((l) => l.couponShare).eq(q.coupon.amount)).toBe(true);
          for (const l of q.lines) expect(new Dec(l.finalAmt).gte(0)).toBe(true);
          expect(new Dec(q.totalAmt).minus(q.couponAmt).eq(q.finalAmt)).toBe(true);
        },
      ),
      { seed: 20261126, numRuns: 300 },
    );
  });
});
