/**
 * An amount in Chinese capital numerals (人民币大写), as printed on bills and receipts:
 * 1234.5 → 壹仟贰佰叁拾肆元伍角, 100 → 壹佰元整, -12.3 → 负壹拾贰元叁角. nzh writes the words; the
 * amount is first rounded half up to the fen with decimal.js (never a JS number), and whole yuan
 * are passed without decimals because nzh leaves 整 off "10.00".
 */
import Decimal from 'decimal.js';
import Nzh from 'nzh';

export function amountInWords(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  let amount: Decimal;
  try {
    amount = new Decimal(String(value)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  } catch {
    return '';
  }
  const text = amount.isInteger() ? amount.toFixed(0) : amount.toFixed(2);
  return Nzh.cn.toMoney(text, { outSymbol: false });
}
