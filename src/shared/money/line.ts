/**
 * One bill line's prices and amounts (spec 000 §5 "Line amounts"), computed the same way in the
 * browser (as the user types) and on the server (which recomputes and refuses a disagreement).
 * Every step rounds half up at its configured places, so the printed figures are the ones summed.
 */
import { Dec, fixed, round, toDec, type Decimal } from './decimal.ts';
import type { Places } from './places.ts';

export interface LineInput {
  /** Signed: return lines are negative. */
  qty: unknown;
  /** Tax-inclusive unit price, the usual entry (basis 'inclusive'). */
  taxPrice?: unknown;
  /** Tax-exclusive unit price, the entry when basis is 'exclusive'. */
  price?: unknown;
  basis?: 'inclusive' | 'exclusive';
  /** Percent, e.g. 13. Blank is an error: 请选择税率，无税请选0. */
  taxRate?: unknown;
  /** Percent of the tax-inclusive price actually charged; blank or 100 means no discount. */
  discountRate?: unknown;
  /** Coupon amount already allocated to this line, same sign as qty. */
  couponAmt?: unknown;
  /** Gift lines are free: every price and amount is 0. */
  isGift?: boolean;
  /** The source line's quantity and tax-inclusive total (invoice, purchase-in). */
  shouldQty?: unknown;
  shouldAmt?: unknown;
}

export interface LineAmounts {
  qty: string;
  taxPrice: string;
  price: string;
  discountPrice: string;
  discountAmt: string;
  amount: string;
  totalAmt: string;
  taxAmt: string;
  couponAmt: string;
  finalAmt: string;
}

type InputField = Exclude<keyof LineInput, 'basis' | 'isGift'>;

const LABELS: Record<InputField, string> = {
  qty: '数量',
  taxPrice: '含税单价',
  price: '单价',
  taxRate: '税率',
  discountRate: '折扣率',
  couponAmt: '优惠金额',
  shouldQty: '应数量',
  shouldAmt: '应金额',
};

const REQUIRED: Partial<Record<InputField, string>> = {
  qty: '请输入数量',
  taxPrice: '请输入单价',
  price: '请输入单价',
  taxRate: '请选择税率，无税请选0',
};

/** A line input the calculation cannot use; `field` is the LineInput key, `message` is for the user. */
export class MoneyInputError extends Error {
  constructor(
    public field: string,
    message: string,
  ) {
    super(message);
    this.name = 'MoneyInputError';
  }
}

function isBlank(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

function read(input: LineInput, field: InputField, required: true): Decimal;
function read(input: LineInput, field: InputField, required?: false): Decimal | undefined;
function read(input: LineInput, field: InputField, required = false): Decimal | undefined {
  const raw = input[field];
  if (isBlank(raw)) {
    if (required) throw new MoneyInputError(field, REQUIRED[field] ?? `请输入${LABELS[field]}`);
    return undefined;
  }
  const value = toDec(raw);
  if (!value) throw new MoneyInputError(field, `${LABELS[field]}不是有效数字`);
  return value;
}

function nonNegative(value: Decimal | undefined, field: InputField): void {
  if (value?.isNegative() && !value.isZero()) throw new MoneyInputError(field, `${LABELS[field]}不能为负数`);
}

export function computeLine(input: LineInput, places: Places): LineAmounts {
  return scaledLine(input, places) ?? decimalLine(input, places);
}

// ---------------------------------------------------------------------------------------------
// Fast path: the same steps on scaled integers (units of 10^-scale held in plain numbers).
//
// Why it is exact, i.e. gives the very text the Decimal path below gives:
// - Every value it holds is a safe integer (|n| < 2^53, about 16 digits), checked after each
//   multiplication and at the end; on overflow, or on any input that is not plain decimal text or
//   a number (blank required fields, junk, exponents, Decimals, negatives where refused), it gives
//   up and the Decimal path computes the line, errors included.
// - So every Decimal sum, difference and product of these values, the tax factor 1 + rate / 100
//   included, has at most 32 significant digits and is exact under Dec's 40: only the divisions
//   by the tax factor can round before the explicit rounding at the places.
// - Such a division rounds twice in decimal.js, to 40 significant digits and then to the places.
//   In units of the places it is X / D (X, D safe integers, D > 0): a quotient that is not itself
//   a tie lies at least 1 / (2D) from every tie, while the 40-digit rounding moves it by less than
//   |X / D| · 10^-39 / 2, which is smaller as |X| < 10^39. So both roundings land on the same side
//   of every tie (a tie itself is exact in 40 digits), and one exact half-up integer division
//   (divHalfUp) gives the same result.
// ---------------------------------------------------------------------------------------------

interface Scaled {
  /** The value is units × 10^-scale. */
  units: number;
  scale: number;
}

/** Scales an input may have; keeps every power of ten used below exact (10^n is exact to n = 22). */
const MAX_SCALE = 14;
const POW10 = Array.from({ length: 23 }, (_, n) => Number(`1e${n}`));

/**
 * A line input as a scaled integer: null when blank, undefined when the fast path cannot take it
 * exactly (not plain decimal text or a finite number printed without exponent, or too many digits).
 */
function scaledOf(raw: unknown): Scaled | null | undefined {
  if (raw === null || raw === undefined) return null;
  let text: string;
  if (typeof raw === 'string') text = raw.trim();
  else if (typeof raw === 'number') text = String(raw); // what decimal.js parses a number from
  else return undefined;
  if (text === '') return typeof raw === 'string' ? null : undefined;
  let i = text.charCodeAt(0) === 45 /* - */ || text.charCodeAt(0) === 43 /* + */ ? 1 : 0;
  const negative = i === 1 && text.charCodeAt(0) === 45;
  let units = 0;
  let digits = 0;
  let point = -1;
  for (; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      units = units * 10 + (c - 48);
      digits += 1;
    } else if (c === 46 /* . */ && point < 0) point = digits;
    else return undefined;
  }
  const scale = point < 0 ? 0 : digits - point;
  if (digits === 0 || scale > MAX_SCALE || !Number.isSafeInteger(units)) return undefined;
  return { units: negative ? -units : units, scale };
}

/** a × b, or NaN when the product is not a safe integer (and so may be inexact). */
function mul(a: number, b: number): number {
  const product = a * b;
  return Number.isSafeInteger(product) ? product : NaN;
}

/** dividend / divisor rounded half up, ties away from zero; divisor > 0, both exact integers. */
function divHalfUp(dividend: number, divisor: number): number {
  const rest = dividend % divisor; // % of doubles is exact
  const quotient = (dividend - rest) / divisor; // an exact multiple divided: exact
  return 2 * Math.abs(rest) >= divisor ? quotient + Math.sign(dividend) : quotient;
}

/** units × 10^-from rounded half up at `to` places, as units × 10^-to (NaN on overflow). */
function rescale(units: number, from: number, to: number): number {
  return to >= from ? mul(units, POW10[to - from]) : divHalfUp(units, POW10[from - to]);
}

const ZEROS = '000000000'; // enough to pad to 8 places

/** units × 10^-scale (scale ≤ 8) as text with exactly `scale` decimals; zero never shows a minus sign. */
function textOf(units: number, scale: number): string {
  let digits = String(units < 0 ? -units : units);
  if (digits.length <= scale) digits = ZEROS.slice(0, scale + 1 - digits.length) + digits;
  const cut = digits.length - scale;
  const body = scale ? digits.slice(0, cut) + '.' + digits.slice(cut) : digits;
  return units < 0 ? '-' + body : body;
}

const okPlaces = (n: number) => Number.isInteger(n) && n >= 0 && n <= 8;

/** computeLine on scaled integers, or undefined when the line must go the Decimal way. */
function scaledLine(input: LineInput, places: Places): LineAmounts | undefined {
  const { price: pp, amount: ap, quantity: qp } = places;
  if (!okPlaces(pp) || !okPlaces(ap) || !okPlaces(qp)) return undefined;
  const qtyIn = scaledOf(input.qty);
  if (!qtyIn) return undefined;
  const qty = rescale(qtyIn.units, qtyIn.scale, qp);
  if (Number.isNaN(qty)) return undefined;

  if (input.isGift) {
    const zeroPrice = textOf(0, pp);
    const zeroAmt = textOf(0, ap);
    return {
      qty: textOf(qty, qp),
      taxPrice: zeroPrice,
      price: zeroPrice,
      discountPrice: zeroPrice,
      discountAmt: zeroAmt,
      amount: zeroAmt,
      totalAmt: zeroAmt,
      taxAmt: zeroAmt,
      couponAmt: zeroAmt,
      finalAmt: zeroAmt,
    };
  }

  const rate = scaledOf(input.taxRate);
  if (!rate || rate.units < 0) return undefined;
  // factor = 1 + rate / 100 = num / den.
  const den = POW10[rate.scale + 2];
  const num = den + rate.units;
  if (!Number.isSafeInteger(num)) return undefined;

  let taxPrice: number;
  let price: number;
  if (input.basis === 'exclusive') {
    const entered = scaledOf(input.price);
    if (!entered) return undefined;
    price = rescale(entered.units, entered.scale, pp);
    taxPrice = divHalfUp(mul(price, num), den);
  } else {
    const entered = scaledOf(input.taxPrice);
    if (!entered) return undefined;
    taxPrice = rescale(entered.units, entered.scale, pp);
    price = divHalfUp(mul(taxPrice, den), num);
  }

  const discountRate = scaledOf(input.discountRate);
  if (discountRate === undefined || (discountRate && discountRate.units < 0)) return undefined;
  const discounted = discountRate !== null && discountRate.units !== 100 * POW10[discountRate.scale];
  const discountPrice = discounted ? divHalfUp(mul(taxPrice, discountRate.units), POW10[discountRate.scale + 2]) : taxPrice;

  const shouldQty = scaledOf(input.shouldQty);
  const shouldAmt = scaledOf(input.shouldAmt);
  if (shouldQty === undefined || shouldAmt === undefined) return undefined;
  const shouldQtyAt = shouldQty ? rescale(shouldQty.units, shouldQty.scale, qp) : 0;
  if (Number.isNaN(shouldQtyAt)) return undefined;

  // Products of a price (pp places) and a quantity (qp places) have pp + qp places.
  const pq = pp + qp;
  let totalAmt: number;
  let amount: number;
  if (shouldQty && shouldAmt && shouldQtyAt === qty) {
    totalAmt = rescale(shouldAmt.units, shouldAmt.scale, ap);
    amount = divHalfUp(mul(totalAmt, den), num);
  } else if (discounted) {
    totalAmt = rescale(mul(discountPrice, qty), pq, ap);
    amount = rescale(mul(divHalfUp(mul(discountPrice, den), num), qty), pq, ap);
  } else {
    totalAmt = rescale(mul(taxPrice, qty), pq, ap);
    amount = rescale(mul(price, qty), pq, ap);
  }

  const discountAmt = discounted ? rescale(mul(taxPrice, qty), pq, ap) - totalAmt : 0;
  const coupon = scaledOf(input.couponAmt);
  if (coupon === undefined) return undefined;
  const couponAmt = coupon ? rescale(coupon.units, coupon.scale, ap) : 0;
  const taxAmt = totalAmt - amount;
  const finalAmt = totalAmt - couponAmt;

  // NaN from an overflow anywhere above ends here, as does a difference past 2^53.
  const ok = Number.isSafeInteger;
  if (!(ok(taxPrice) && ok(price) && ok(discountPrice) && ok(totalAmt) && ok(amount) && ok(discountAmt) && ok(couponAmt) && ok(taxAmt) && ok(finalAmt))) {
    return undefined;
  }
  return {
    qty: textOf(qty, qp),
    taxPrice: textOf(taxPrice, pp),
    price: textOf(price, pp),
    discountPrice: textOf(discountPrice, pp),
    discountAmt: textOf(discountAmt, ap),
    amount: textOf(amount, ap),
    totalAmt: textOf(totalAmt, ap),
    taxAmt: textOf(taxAmt, ap),
    couponAmt: textOf(couponAmt, ap),
    finalAmt: textOf(finalAmt, ap),
  };
}

// ---------------------------------------------------------------------------------------------
// The Decimal path: any input, and the errors.
// ---------------------------------------------------------------------------------------------

const ONE = new Dec(1);
const HUNDRED = new Dec(100);
const ZERO = new Dec(0);

function decimalLine(input: LineInput, places: Places): LineAmounts {
  const { price: pp, amount: ap, quantity: qp } = places;
  const qty = round(read(input, 'qty', true), qp);

  // A gift is free whatever was typed against it, so no price or rate is asked for.
  if (input.isGift) {
    const zeroPrice = fixed(0, pp);
    const zeroAmt = fixed(0, ap);
    return {
      qty: fixed(qty, qp),
      taxPrice: zeroPrice,
      price: zeroPrice,
      discountPrice: zeroPrice,
      discountAmt: zeroAmt,
      amount: zeroAmt,
      totalAmt: zeroAmt,
      taxAmt: zeroAmt,
      couponAmt: zeroAmt,
      finalAmt: zeroAmt,
    };
  }

  const taxRate = read(input, 'taxRate', true);
  nonNegative(taxRate, 'taxRate');
  const factor = ONE.plus(taxRate.div(HUNDRED));

  let taxPrice: Decimal;
  let price: Decimal;
  const exclusive = input.basis === 'exclusive';
  if (exclusive) {
    price = round(read(input, 'price', true), pp);
    taxPrice = round(price.times(factor), pp);
  } else {
    taxPrice = round(read(input, 'taxPrice', true), pp);
    price = round(taxPrice.div(factor), pp);
  }

  const discountRate = read(input, 'discountRate');
  nonNegative(discountRate, 'discountRate');
  const discounted = discountRate !== undefined && !discountRate.eq(HUNDRED);
  const discountPrice = discounted ? round(taxPrice.times(discountRate).div(HUNDRED), pp) : taxPrice;

  const shouldQty = read(input, 'shouldQty');
  const shouldAmt = read(input, 'shouldAmt');

  let totalAmt: Decimal;
  let amount: Decimal;
  if (shouldQty && shouldAmt && round(shouldQty, qp).eq(qty)) {
    // Should-quantity rule: taking the whole source quantity takes the source line's total as is,
    // so receiving or invoicing a whole line never drifts a cent from its order; the tax-exclusive
    // amount is then derived from that total rather than from price × qty.
    totalAmt = round(shouldAmt, ap);
    amount = round(totalAmt.div(factor), ap);
  } else if (discounted) {
    // The charged price is the discounted one; its tax-exclusive twin is rounded like a price
    // before multiplying, as a non-discounted line's price is.
    totalAmt = round(discountPrice.times(qty), ap);
    amount = round(round(discountPrice.div(factor), pp).times(qty), ap);
  } else {
    // Both bases: amount = price × qty and total = tax-inclusive price × qty, each rounded once.
    totalAmt = round(taxPrice.times(qty), ap);
    amount = round(price.times(qty), ap);
  }

  // The discount is what the list price would have charged minus what is charged. Without a
  // discount it is 0 even when the should-quantity rule moved the total by a cent.
  const discountAmt = discounted ? round(taxPrice.times(qty), ap).minus(totalAmt) : ZERO;
  const couponAmt = round(read(input, 'couponAmt') ?? ZERO, ap);

  return {
    qty: fixed(qty, qp),
    taxPrice: fixed(taxPrice, pp),
    price: fixed(price, pp),
    discountPrice: fixed(discountPrice, pp),
    discountAmt: fixed(discountAmt, ap),
    amount: fixed(amount, ap),
    totalAmt: fixed(totalAmt, ap),
    taxAmt: fixed(totalAmt.minus(amount), ap),
    couponAmt: fixed(couponAmt, ap),
    finalAmt: fixed(totalAmt.minus(couponAmt), ap),
  };
}

/**
 * A goods-only line's value (document.lineValue: 其他入库单, 报溢单): the unit cost the clerk typed,
 * kept at the price places, and amount = quantity × unit cost at the amount places. A blank unit
 * cost gives no value (the line enters at the moving average) unless one is required. `label`
 * names the unit cost field in messages (成本单价).
 */
export function computeLineValue(qty: unknown, price: unknown, places: Places, opts: { required: boolean; label: string }): { price?: string; amount?: string } {
  if (isBlank(price)) {
    if (opts.required) throw new MoneyInputError('price', `请输入${opts.label}`);
    return {};
  }
  const unit = toDec(price);
  if (!unit) throw new MoneyInputError('price', `${opts.label}不是有效数字`);
  if (unit.isNegative() && !unit.isZero()) throw new MoneyInputError('price', `${opts.label}不能为负数`);
  const kept = round(unit, places.price);
  const quantity = toDec(qty);
  return { price: fixed(kept, places.price), ...(quantity ? { amount: fixed(kept.times(quantity), places.amount) } : {}) };
}
