/**
 * One stock-count line (document.count, 盘点单): the difference between what was counted and the
 * book quantity snapshotted when the count was opened, valued at the snapshot's unit cost. The same
 * code runs in the browser (as the clerk types) and on the server (which keeps what it computes).
 */
import { fixed, round, toDec } from './decimal.ts';
import { MoneyInputError } from './line.ts';
import type { Places } from './places.ts';

export interface CountFigures {
  /** counted at the quantity places */
  counted: string;
  /** counted − book: positive a gain, negative a loss, zero nothing to post */
  qty: string;
  /** qty × book unit cost at the amount places (signed like qty) */
  amount: string;
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Refuses a missing, malformed or negative counted quantity with the field's message. */
export function computeCountLine(book: unknown, counted: unknown, unitCost: unknown, places: Places, label = '实盘数量'): CountFigures {
  if (blank(counted)) throw new MoneyInputError('counted', `请输入${label}`);
  const value = toDec(counted);
  if (!value) throw new MoneyInputError('counted', `${label}不是有效数字`);
  if (value.isNegative() && !value.isZero()) throw new MoneyInputError('counted', `${label}不能为负数`);
  const kept = round(value, places.quantity);
  const qty = kept.minus(toDec(book) ?? 0);
  const cost = toDec(unitCost) ?? toDec(0)!;
  return { counted: fixed(kept, places.quantity), qty: qty.toFixed(), amount: fixed(qty.times(cost), places.amount) };
}
