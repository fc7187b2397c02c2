/**
 * The bill lines as the line grid keeps them: each row's figures recomputed with the shared line
 * calculation as the user types (the server runs the same code and refuses a disagreement), the
 * summary row, merging a duplicate goods and unit, and spreadsheet paste.
 */
import { figureFields, type DocumentDef } from '../../../shared/document.ts';
import { computeLine, computeLineValue, MoneyInputError, type LineAmounts, type Places } from '../../../shared/money/index.ts';
import { Dec, fixed, toDec, type Decimal } from '../../../shared/money/index.ts';
import { computeCountLine } from '../../../shared/money/count.ts';

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

/** A money bill's line: the bill it settles and an amount above zero, within what is open. */
function settleErrors(doc: DocumentDef, values: LineValues): { values: LineValues; errors: Record<string, string> } {
  const { target = 'sourceBillId', lineAmount = 'settleAmt' } = doc.settle ?? {};
  const errors: Record<string, string> = {};
  if (blank(values[target])) errors[target] = '请选择要核销的单据';
  const amount = blank(values[lineAmount]) ? undefined : toDec(values[lineAmount]);
  const open = toDec(values.openAmt);
  if (!amount) errors[lineAmount] = blank(values[lineAmount]) ? '请输入核销金额' : '核销金额不是有效数字';
  else if (!amount.gt(0)) errors[lineAmount] = '核销金额必须大于0';
  else if (open && amount.gt(open)) errors[lineAmount] = `核销金额不能超过未结金额 ${values.openAmt}`;
  return { values, errors };
}

/** An item line (document.items, 收支单): an item picked and an amount above zero, as the server checks them. */
function itemErrors(doc: DocumentDef, values: LineValues): { values: LineValues; errors: Record<string, string> } {
  const { item, amount } = doc.items!;
  const errors: Record<string, string> = {};
  if (blank(values[item])) errors[item] = '请选择项目';
  const value = blank(values[amount]) ? undefined : toDec(values[amount]);
  if (!value) errors[amount] = blank(values[amount]) ? '请输入金额' : '金额不是有效数字';
  else if (!value.gt(0)) errors[amount] = '金额必须大于0';
  return { values, errors };
}

/**
 * A stock-count line (document.count): difference = counted − book and its value at the book unit
 * cost, as the server computes them. Book quantity and cost are the server's snapshot, answered by
 * the first save; until then the difference is unknown and shows blank (the counted figure is
 * still checked). What the clerk typed stays as typed.
 */
function countFigures(doc: DocumentDef, values: LineValues, places: Places): { values: LineValues; errors: Record<string, string> } {
  const { book, counted } = doc.count!;
  const amount = doc.lineValue?.amount ?? 'costAmt';
  const errors: Record<string, string> = {};
  if (blank(values.unitId)) errors.unitId = '请选择单位';
  const known = !blank(values[book]);
  try {
    const figures = computeCountLine(known ? values[book] : '0', values[counted], known ? values[doc.lineValue?.price ?? 'costPrice'] : '0', places);
    return { values: { ...values, qty: known ? figures.qty : null, [amount]: known ? figures.amount : null }, errors };
  } catch (error) {
    if (!(error instanceof MoneyInputError)) throw error;
    return { values: { ...values, qty: null, [amount]: null }, errors: { ...errors, [counted]: error.message } };
  }
}

/** Recomputes one line's figures; an input the calculation cannot use becomes that cell's error. */
export function recompute(doc: DocumentDef, values: LineValues, places: Places): { values: LineValues; errors: Record<string, string> } {
  const map = figureFields(doc);
  const errors: Record<string, string> = {};
  if (doc.settle) return settleErrors(doc, values);
  if (doc.items) return itemErrors(doc, values);
  // Rule lines (营销活动): each kind's rules are the server's, which names the cell at fault on save.
  if (doc.lineCheck) return { values, errors: {} };
  if (blank(values.commInfoId)) return { values, errors: { commInfoId: '请选择商品' } };
  if (doc.count) return countFigures(doc, values, places);
  if (blank(values.unitId)) errors.unitId = '请选择单位';
  // A bill without prices (material requisition) keeps goods and quantities only; one whose goods
  // come in with a value (document.lineValue) also computes the cost amount from the unit cost.
  if (!doc.amounts) {
    const qty = blank(values.qty) ? undefined : toDec(values.qty);
    if (!qty) errors.qty = blank(values.qty) ? '请输入数量' : '数量不是有效数字';
    else if (!qty.gt(0)) errors.qty = '数量必须大于0';
    const value = doc.lineValue;
    if (!value) return { values, errors };
    try {
      const figures = computeLineValue(qty?.toFixed(), values[value.price], places, { required: doc.posting?.cost === 'line', label: '成本单价' });
      return { values: { ...values, [value.amount]: figures.amount ?? null }, errors };
    } catch (error) {
      if (!(error instanceof MoneyInputError)) throw error;
      return { values: { ...values, [value.amount]: null }, errors: { ...errors, [value.price]: error.message } };
    }
  }
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

/**
 * The summary row kept up to date line by line: an edit of one line of a 1,000-line bill adds
 * the difference to each total instead of reading every line again (about 5 ms a commit; issue
 * 17 asks that a keystroke's work, Enter's included, stay within a frame). Totals are exact
 * decimals (40 significant digits), so they equal `sumFields` of the same lines: Σ of the
 * summable figure columns at their places, never re-rounded.
 */
export class RunningSummary {
  private totals: Decimal[] = [];

  constructor(private readonly fields: { field: string; places: number }[]) {}

  /** Every line again (a bill loaded, lines added, removed or pasted). */
  reset(lines: GridLine[]): void {
    this.totals = this.fields.map(({ field }) => lines.reduce((total, line) => total.plus(toDec(line.values[field]) ?? 0), new Dec(0)));
  }

  /** One line's figures replaced. */
  replace(previous: LineValues, next: LineValues): void {
    this.totals = this.fields.map(({ field }, i) => this.totals[i].minus(toDec(previous[field]) ?? 0).plus(toDec(next[field]) ?? 0));
  }

  row(): LineValues {
    return { ...Object.fromEntries(this.fields.map(({ field, places }, i) => [field, fixed(this.totals[i] ?? 0, places)])), __summary: true };
  }
}

/** The line already holding this goods and unit (the duplicate dialog merges into it). */
export function duplicateOf(lines: GridLine[], commInfoId: unknown, unitId: unknown, exceptKey?: string): GridLine | undefined {
  return lines.find((l) => l.key !== exceptKey && String(l.values.commInfoId) === String(commInfoId) && String(l.values.unitId) === String(unitId));
}

/** The line already counting this goods (a stock count has one line per goods, whatever the unit). */
export function countedLineOf(lines: GridLine[], commInfoId: unknown): GridLine | undefined {
  return lines.find((l) => String(l.values.commInfoId) === String(commInfoId));
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
