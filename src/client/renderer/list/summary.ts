import Decimal from 'decimal.js';
import type { Row } from '../common/params.ts';

/** The summary row: exact decimal sums of the summable columns of the rows on screen. */
export function summaryRow(rows: Row[], fields: string[]): Row | undefined {
  if (!fields.length) return undefined;
  const sums: Row = {};
  for (const field of fields) {
    let total = new Decimal(0);
    for (const row of rows) {
      const value = row[field];
      if (value === null || value === undefined || value === '') continue;
      try {
        total = total.plus(new Decimal(value as Decimal.Value));
      } catch {
        // A non-numeric cell does not count.
      }
    }
    sums[field] = total.toString();
  }
  return sums;
}
