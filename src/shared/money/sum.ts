/**
 * Bill heads and grid summary rows. A head is the sum of its lines' already-rounded figures and
 * is never rounded again, so head and lines always agree to the cent (spec 000 §5).
 */
import { Dec, fixed, toDec, type Decimal } from './decimal.ts';

/** Price-like and rate columns: adding them up means nothing, so summary rows skip them. */
export const NON_SUMMABLE: readonly string[] = Object.freeze([
  'taxPrice',
  'price',
  'discountPrice',
  'taxRate',
  'discountRate',
  'costPrice',
  'salesPrice',
  'purchasePrice',
  'retailPrice',
  'wholesalePrice',
  'minPrice',
  'finalPrice',
  'specialPrice',
  'customerPrice',
  'giftUnitCost',
  'rate',
]);

function isBlank(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

// With places, the text is fixed there (the addends were rounded there already, so this only pads);
// without, the exact sum is printed in plain notation.
function print(total: Decimal, places: number | undefined): string {
  if (places !== undefined) return fixed(total, places);
  return total.isZero() ? '0' : total.toFixed();
}

/** Σ lines per field, printed at the field's places; blank or non-numeric cells count as nothing. */
export function sumFields(
  lines: Record<string, unknown>[],
  fields: string[],
  places: Record<string, number>,
): Record<string, string> {
  const head: Record<string, string> = {};
  for (const field of fields) {
    let total = new Dec(0);
    for (const line of lines) total = total.plus(toDec(line[field]) ?? 0);
    head[field] = print(total, places[field]);
  }
  return head;
}

/**
 * A grid's summary row: each column outside `nonSummable` whose non-blank cells are all numbers
 * (and at least one is) gets its sum; text columns and skipped columns are left out.
 */
export function summaryRow(
  rows: Record<string, unknown>[],
  columns: { field: string; places: number }[],
  nonSummable: readonly string[] = NON_SUMMABLE,
): Record<string, string> {
  const skip = new Set(nonSummable);
  const result: Record<string, string> = {};
  for (const { field, places } of columns) {
    if (skip.has(field)) continue;
    let total: Decimal | undefined;
    let numeric = true;
    for (const row of rows) {
      const value = row[field];
      if (isBlank(value)) continue;
      const decimal = toDec(value);
      if (!decimal) {
        numeric = false;
        break;
      }
      total = (total ?? new Dec(0)).plus(decimal);
    }
    if (numeric && total) result[field] = print(total, places);
  }
  return result;
}
