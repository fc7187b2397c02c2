/**
 * Splitting one amount (a fee, a coupon) over bill lines so the shares add up to it exactly
 * (spec 000 §5: gift lines get allocated fees, by COST_ALLOCATION_MODEL).
 */
import { Dec, fixed, round, toDec, type Decimal } from './decimal.ts';
import { MoneyInputError } from './line.ts';

/**
 * Shares of `amount` proportional to `weights`, each rounded half up at `places`; the remainder
 * (amount − Σ rounded shares) goes to the line with the largest |weight|, lowest index on ties.
 * So Σ shares = amount (itself first rounded at `places`) exactly.
 *
 * - Blank or non-numeric weights count as 0. If the weights add up to 0 (all zero), the amount is
 *   split equally, which is the same rule with every weight 1: the remainder goes to line 0.
 * - When many tiny shares all round up, the remainder has the opposite sign of the amount and
 *   could push the largest line's share past zero; the part it cannot absorb without crossing
 *   zero moves on to the next-largest |weight|, and so on. So with non-negative weights no share
 *   ever has the opposite sign of the amount.
 */
export function allocate(amount: unknown, weights: unknown[], places: number): string[] {
  const total = round(toDec(amount) ?? 0, places);
  if (!weights.length) {
    if (total.isZero()) return [];
    throw new MoneyInputError('weights', '没有可分摊的明细行');
  }
  let w: Decimal[] = weights.map((weight) => toDec(weight) ?? new Dec(0));
  let sum = w.reduce((a, b) => a.plus(b), new Dec(0));
  if (sum.isZero()) {
    w = w.map(() => new Dec(1));
    sum = new Dec(w.length);
  }
  const exact = w.map((weight) => total.times(weight).div(sum));
  const shares = exact.map((share) => round(share, places));
  let rest = shares.reduce((a, b) => a.minus(b), total);
  if (rest.isZero()) return shares.map((share) => fixed(share, places));

  // Largest |weight| first; ties keep index order (Array.prototype.sort is stable).
  const order = w
    .map((weight, index) => ({ index, size: weight.abs() }))
    .filter(({ size }) => !size.isZero())
    .sort((a, b) => b.size.comparedTo(a.size));
  const direction = rest.isPositive() ? 1 : -1;
  for (const { index } of order) {
    const share = shares[index];
    // Moving the share in the remainder's direction crosses zero only if it points the other way.
    const sign = share.isZero() ? exact[index] : share;
    const pointsAway = sign.isPositive() !== direction > 0;
    const take = pointsAway ? Dec.min(rest.abs(), share.abs()).times(direction) : rest;
    shares[index] = share.plus(take);
    rest = rest.minus(take);
    if (rest.isZero()) break;
  }
  // A safety net: the loop always places the whole remainder (an overshoot is at most what the shares hold).
  if (!rest.isZero()) shares[order[0]?.index ?? 0] = shares[order[0]?.index ?? 0].plus(rest);
  return shares.map((share) => fixed(share, places));
}

export interface FeeLine {
  qty: unknown;
  /** The charged tax-inclusive total (0 for a gift). */
  totalAmt: unknown;
  isGift?: boolean;
  /** The goods' list tax-inclusive unit price; for a gift, what it would have sold at. */
  taxPrice?: unknown;
}

/**
 * A fee over the lines by COST_ALLOCATION_MODEL: '1' by quantity share, '0' by amount share.
 * For model '0' the weight is each line's undiscounted value round(taxPrice × qty) when the line
 * carries its list taxPrice, else its charged totalAmt. A gift's charged total is 0, so weighing
 * charged totals alone would give gifts nothing, against the spec's "gift lines get allocated
 * fees"; the list value gives them their share. A gift without taxPrice weighs 0.
 */
export function allocateFee(amount: unknown, lines: FeeLine[], model: '1' | '0', places: number): string[] {
  const weights = lines.map((line) => {
    if (model === '1') return toDec(line.qty) ?? 0;
    const qty = toDec(line.qty);
    const taxPrice = toDec(line.taxPrice);
    if (qty && taxPrice) return round(taxPrice.times(qty), places);
    return line.isGift ? 0 : (toDec(line.totalAmt) ?? 0);
  });
  return allocate(amount, weights, places);
}

/** A gift line's unit cost: its allocated share over its quantity, at price places. */
export function giftUnitCost(share: unknown, qty: unknown, pricePlaces: number): string {
  const quantity = toDec(qty);
  if (!quantity || quantity.isZero()) throw new MoneyInputError('qty', '请输入数量');
  return fixed((toDec(share) ?? new Dec(0)).div(quantity), pricePlaces);
}
