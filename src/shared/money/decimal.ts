/**
 * Exact decimal arithmetic for money (spec 000 §9: "Arithmetic is exact decimal. toFixed rounds
 * half up"). One Decimal constructor shared by client and server so both sides round alike.
 */
import Decimal from 'decimal.js';

/**
 * 40 significant digits leaves ample room above the 8 places a config may ask for, so the only
 * rounding that shows is the explicit one at the configured places. Half-up in decimal.js means
 * ties away from zero, so round(-x) = -round(x) and a return line mirrors its sale exactly.
 */
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type { Decimal };

// Plain decimal text only: no hex/binary/octal, no Infinity/NaN, which decimal.js would accept.
const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** A number, numeric string or Decimal as a Decimal; blank or anything else gives undefined. */
export function toDec(value: unknown): Decimal | undefined {
  if (value instanceof Decimal) return value.isFinite() ? new Dec(value) : undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? new Dec(value) : undefined;
  if (typeof value === 'string') {
    const text = value.trim();
    return NUMERIC.test(text) ? new Dec(text) : undefined;
  }
  return undefined;
}

/** `value` itself when it is already a Dec (Decimals are immutable), else a new Dec of it. */
function asDec(value: Decimal.Value): Decimal {
  return value instanceof Decimal && value.constructor === Dec ? value : new Dec(value);
}

/** Half-up (ties away from zero) at `places` decimals. */
export function round(value: Decimal.Value, places: number): Decimal {
  // A Dec needs no copy (toDecimalPlaces returns a new one); anything else, a plain Decimal too,
  // becomes a Dec so later arithmetic on the result keeps Dec's precision.
  return asDec(value).toDecimalPlaces(places, Decimal.ROUND_HALF_UP);
}

// A minus sign followed only by zeros (and a point): what toFixed prints for a negative that rounds to 0.
const NEGATIVE_ZERO = /^-[0.]+$/;

/** Text at exactly `places` decimals, rounded half up; a result of zero never shows a minus sign. */
export function fixed(value: Decimal.Value, places: number): string {
  // toFixed rounds (half up, as asked) by itself, so no separate round and no intermediate Decimal.
  const text = asDec(value).toFixed(places, Decimal.ROUND_HALF_UP);
  return NEGATIVE_ZERO.test(text) ? text.slice(1) : text;
}
