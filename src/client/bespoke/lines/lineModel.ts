/**
 * The bill lines as the line grid keeps them: each row's figures recomputed with the shared line
 * calculation as the user types (the server runs the same code and refuses a disagreement), the
 * summary row, merging a duplicate goods and unit, and spreadsheet paste.
 */
import { figureFields, type DocumentDef } from '../../../shared/document.ts';
import { computeLine, MoneyInputError, sumFields, type LineAmounts, type Places } from '../../../shared/money/index.ts';
import { Dec } from '../../../shared/money/index.ts';

export type LineValues = Record<string, unknown>;

export interface GridLine {
  /** Stable row key: the stored id, or a client key for a new line. */
  key: string;
  values: LineValues;
  /** field → message (client checks and the server's answer) */
  errors: Record<string, string>;
}

let seq = 0;
export const newKey = () => `new-${Date.now().toString(36)}-${(seq++).toString(36)}`;

const blank = (v: unknown) => v === undefined || v === null || v === '';

export { figureFields };

/** The field the clerk types the price into: tax-inclusive unless the bill is priced exclusive. */
export function priceInputField(doc: DocumentDef): string {
  return doc.amounts?.basis === 'exclusive' ? (doc.amounts.price ?? 'price') : 'taxPrice';
}

/** Recomputes one line's figures; an input the calculation cannot use becomes that cell's error. */
export function recompute(doc: DocumentDef, values: LineValues, places: Places): { values: LineValues; errors: Record<string, string> } {
  const map = figureFields(doc);
  const errors: Record<string, string> = {};
  if (blank(values.commInfoId)) return { values, errors: { commInfoId: '请选择商品' } };
  if (blank(values.unitId)) errors.unitId = '请选择单位';
  try {
    const computed = computeLine(
      {
        qty: values.qty,
        taxPrice: values.taxPrice,
        price: values[map.price],
        basis: doc.amounts?.basis ?? 'inclusive',
        taxRate: values.taxRate,
        discountRate: values.discountRate,
        couponAmt: values.couponAmt,
        isGift: Number(values.isGift) === 2,
        shouldQty: values.shouldQty,
        shouldAmt: values.shouldAmt,
      },
      places,
    );
    const next = { ...values };
    for (const [key, field] of Object.entries(map) as [keyof LineAmounts, string][]) {
      // What the clerk typed stays as typed (a price mid-edit); everything derived follows.
      if (field === priceInputField(doc) || key === 'qty' || key === 'couponAmt') continue;
      next[field] = computed[key];
    }
    const sign = doc.amounts?.sign ?? 1;
    const qty = new Dec(computed.qty);
    if (sign > 0 && !qty.gt(0)) errors.qty = '数量必须大于0';
    if (sign < 0 && !qty.lt(0)) errors.qty = '退货数量应为负数';
    if (sign === 0 && qty.isZero()) errors.qty = '数量不能为0（退回为负数，换货为正数）';
    return { values: next, errors };
  } catch (error) {
    if (!(error instanceof MoneyInputError)) throw error;
    const field = error.field === 'price' ? map.price : error.field;
    return { values, errors: { ...errors, [field]: error.message } };
  }
}

/** Summary row: Σ of the summable figure columns, never re-rounded. */
export function summaryOf(lines: GridLine[], fields: { field: string; places: number }[]): LineValues {
  const sums = sumFields(
    lines.map((l) => l.values),
    fields.map((f) => f.field),
    Object.fromEntries(fields.map((f) => [f.field, f.places])),
  );
  return { ...sums, __summary: true };
}

/** The line already holding this goods and unit (the duplicate dialog merges into it). */
export function duplicateOf(lines: GridLine[], commInfoId: unknown, unitId: unknown, exceptKey?: string): GridLine | undefined {
  return lines.find((l) => l.key !== exceptKey && String(l.values.commInfoId) === String(commInfoId) && String(l.values.unitId) === String(unitId));
}

export function addQuantities(a: unknown, b: unknown, places: number): string {
  return new Dec(String(blank(a) ? '0' : a)).plus(String(blank(b) ? '0' : b)).toFixed(places);
}

/** Cells copied from a spreadsheet: rows by newline, cells by tab (a trailing newline is not a row). */
export function parseClipboard(text: string): string[][] {
  const rows = text.replace(/\r\n?/g, '\n').split('\n');
  if (rows.length > 1 && rows[rows.length - 1] === '') rows.pop();
  return rows.map((r) => r.split('\t').map((c) => c.trim()));
}

/** Server line errors (by line id, else index) onto the grid's lines. */
export function applyServerErrors(lines: GridLine[], problems: { index: number; id?: string; field: string; message: string }[]): GridLine[] {
  return lines.map((line, index) => {
    const mine = problems.filter((p) => (p.id ? p.id === line.key : p.index === index));
    if (!mine.length) return line;
    return { ...line, errors: { ...line.errors, ...Object.fromEntries(mine.map((p) => [p.field, p.message.replace(/^第\d+行：/, '')])) } };
  });
}
