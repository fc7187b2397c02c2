/**
 * The server's check of a submitted bill line against the recomputed one: the server refuses a
 * line whose figures disagree, naming the bill's own field.
 */
import { toDec } from './decimal.ts';
import type { LineAmounts } from './line.ts';

export interface LineMismatch {
  /** The bill's field name (fieldMap[key], else the LineAmounts key). */
  field: string;
  expected: string;
  got: string;
}

const KEYS: (keyof LineAmounts)[] = [
  'qty',
  'taxPrice',
  'price',
  'discountPrice',
  'discountAmt',
  'amount',
  'totalAmt',
  'taxAmt',
  'couponAmt',
  'finalAmt',
];

/**
 * Every computed figure whose submitted counterpart is numerically different (1.5 equals 1.50000).
 * A blank submission is not a disagreement: the server fills it in. Text that is not a number is.
 */
export function compareLine(
  submitted: Record<string, unknown>,
  computed: LineAmounts,
  fieldMap: Partial<Record<keyof LineAmounts, string>>,
): LineMismatch[] {
  const mismatches: LineMismatch[] = [];
  for (const key of KEYS) {
    const field = fieldMap[key] ?? key;
    const raw = submitted[field];
    if (raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '')) continue;
    const got = toDec(raw);
    if (!got || !got.eq(computed[key])) mismatches.push({ field, expected: computed[key], got: String(raw) });
  }
  return mismatches;
}
