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
  const factor = new Dec(1).plus(taxRate.div(100));

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
  const discounted = discountRate !== undefined && !discountRate.eq(100);
  const discountPrice = discounted ? round(taxPrice.times(discountRate).div(100), pp) : taxPrice;

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
  const discountAmt = discounted ? round(taxPrice.times(qty), ap).minus(totalAmt) : new Dec(0);
  const couponAmt = round(read(input, 'couponAmt') ?? 0, ap);

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
