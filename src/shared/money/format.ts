/** Display of money, prices and quantities (spec 000 §9: three-digit grouping, zero shows 0.00). */
import { round, toDec } from './decimal.ts';

/** Commas every three digits of the whole part of plain decimal text. */
export function group(text: string): string {
  const negative = text.startsWith('-');
  const [whole, fraction] = (negative ? text.slice(1) : text).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${fraction !== undefined ? `.${fraction}` : ''}`;
}

/**
 * Grouped text rounded half up at `places`. Zero, and anything that rounds to it, shows "0.00"
 * whatever the places, as the spec words it (never "-0.00"). Blank gives ''; a value that is not
 * a number is shown as it is, so a stray text cell stays readable.
 */
export function formatAmount(value: unknown, places: number): string {
  if (value === null || value === undefined) return '';
  const decimal = toDec(value);
  if (!decimal) return typeof value === 'string' && value.trim() === '' ? '' : String(value);
  const rounded = round(decimal, places);
  if (rounded.isZero()) return '0.00';
  return group(rounded.toFixed(places));
}
