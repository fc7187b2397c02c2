/**
 * A bill's lines as the server keeps them: every derived figure recomputed by the shared line
 * calculation (src/shared/money), a submitted figure that disagrees refused naming its line and
 * field, and the head's totals summed from the lines (never re-rounded).
 */
import { figureFields, type DocumentDef } from '../../../shared/document.ts';
import { allocateFee, compareLine, computeLine, computeLineValue, Dec, fixed, MoneyInputError, sumFields, toDec, type LineAmounts, type Places } from '../../../shared/money/index.ts';
import type { Model } from '../model.ts';
import type { Row } from '../store.ts';
import { badRequest } from '../../errors.ts';
import { stripReadonly } from '../records.ts';

export interface LineProblem {
  index: number;
  id?: string;
  field: string;
  message: string;
}

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** One refusal naming every bad line and field (the grid marks each cell). */
export function lineRefusal(doc: DocumentDef, problems: LineProblem[]) {
  return badRequest(problems.map((p) => p.message).join('；'), {
    fieldErrors: Object.fromEntries(problems.map((p) => [`${doc.lines ?? 'lines'}.${p.index}.${p.field}`, p.message])),
    lineErrors: problems,
  });
}

export interface SourceLine {
  qty: string;
  totalAmt: string;
}

/**
 * The trusted lines of a bill. `sources` (by source line id) give the should-quantity and amount:
 * taking a whole source line takes its total as it is (spec 000 §5).
 */
export function computeBillLines(
  doc: DocumentDef,
  lineModel: Model,
  raw: Row[],
  places: Places,
  sources: Map<string, SourceLine> = new Map(),
): Row[] {
  if (doc.settle) return settleLines(doc, lineModel, raw, places);
  if (doc.lineCheck) return ruleLines(lineModel, raw);
  if (doc.items) return itemLines(doc, lineModel, raw, places);
  if (!doc.amounts) return quantityLines(doc, lineModel, raw, places);
  const map: Record<keyof LineAmounts, string> = figureFields(doc);
  const sign = doc.amounts?.sign ?? 1;
  const problems: LineProblem[] = [];
  const titleOf = (field: string) => lineModel.resource?.entity.properties[field]?.title ?? field;
  const lines = raw.map((line, index) => {
    const id = blank(line.id) ? undefined : String(line.id);
    const fail = (field: string, message: string) => problems.push({ index, id, field, message: `第${index + 1}行：${message}` });
    const source = blank(line.sourceBodyId) ? undefined : sources.get(String(line.sourceBodyId));
    // A return's should-figures mirror its source line; an inbound's are the order line's.
    const mirror = sign < 0 || (sign === 0 && Number(line.qty) < 0) ? '-' : '';
    const shouldQty = source ? `${mirror}${source.qty}`.replace('--', '') : undefined;
    const shouldAmt = source ? `${mirror}${source.totalAmt}`.replace('--', '') : undefined;
    let computed: LineAmounts;
    try {
      computed = computeLine(
        {
          qty: line.qty,
          taxPrice: line.taxPrice,
          price: line[map.price],
          basis: doc.amounts?.basis ?? 'inclusive',
          taxRate: line.taxRate,
          discountRate: line.discountRate,
          couponAmt: line.couponAmt,
          isGift: Number(line.isGift) === 2,
          shouldQty,
          shouldAmt,
        },
        places,
      );
    } catch (error) {
      if (!(error instanceof MoneyInputError)) throw error;
      fail(error.field === 'price' ? map.price : error.field, error.message);
      return line;
    }
    const qty = Number(computed.qty);
    if (sign > 0 && !(qty > 0)) fail('qty', '数量必须大于0');
    if (sign < 0 && !(qty < 0)) fail('qty', '退货数量应为负数');
    if (sign === 0 && !(qty !== 0)) fail('qty', '数量不能为0（退回为负数，换货为正数）');
    for (const m of compareLine(line, computed, map)) {
      fail(m.field, `${titleOf(m.field)}应为 ${m.expected}，提交的是 ${m.got}（请刷新金额后重试）`);
    }
    const trusted: Row = { ...stripReadonly(lineModel, line) };
    for (const [key, field] of Object.entries(map) as [keyof LineAmounts, string][]) trusted[field] = computed[key];
    trusted.shouldQty = shouldQty ?? null;
    trusted.shouldAmt = shouldAmt ?? null;
    if (blank(trusted.isGift)) trusted.isGift = 1;
    if (id) trusted.id = id;
    if (!blank(line.version)) trusted.version = line.version;
    return trusted;
  });
  if (problems.length) throw lineRefusal(doc, problems);
  return lines;
}

/**
 * The lines of a bill without `amounts` (a material requisition): goods and quantities only, no
 * prices. Each quantity must be a number above zero and is kept at the quantity places; fields the
 * line resource does not have (prices copied from a source line) are dropped. A bill with
 * `lineValue` (goods coming in with a value) also keeps the typed unit cost at the price places and
 * computes the cost amount (quantity × unit cost); the unit cost is required when the posting
 * takes the line's value (cost `line`), optional when a blank one means the moving average.
 */
function quantityLines(doc: DocumentDef, lineModel: Model, raw: Row[], places: Places): Row[] {
  const problems: LineProblem[] = [];
  const known = lineModel.resource?.entity.properties ?? {};
  const value = doc.lineValue;
  const titleOf = (field: string) => known[field]?.title ?? field;
  const lines = raw.map((line, index) => {
    const id = blank(line.id) ? undefined : String(line.id);
    const fail = (message: string, field = 'qty') => problems.push({ index, id, field, message: `第${index + 1}行：${message}` });
    const trusted: Row = {};
    for (const [key, value] of Object.entries(stripReadonly(lineModel, line))) if (key in known || key === 'version') trusted[key] = value;
    let qty: string | undefined;
    try {
      qty = blank(line.qty) ? undefined : fixed(String(line.qty).trim(), places.quantity);
    } catch {
      fail('数量不是有效数字');
      return trusted;
    }
    if (qty === undefined) fail('请输入数量');
    else if (!new Dec(qty).gt(0)) fail('数量必须大于0');
    else trusted.qty = qty;
    if (value) {
      // The value fields are the engine's to fill whatever the line resource marks readonly.
      try {
        const figures = computeLineValue(qty, line[value.price], places, { required: doc.posting?.cost === 'line', label: titleOf(value.price) });
        const submitted = line[value.amount];
        if (figures.amount !== undefined && !blank(submitted) && !toDec(submitted)?.eq(figures.amount)) {
          fail(`${titleOf(value.amount)}应为 ${figures.amount}，提交的是 ${String(submitted)}（请刷新金额后重试）`, value.amount);
        }
        trusted[value.price] = figures.price ?? null;
        trusted[value.amount] = figures.amount ?? null;
      } catch (error) {
        if (!(error instanceof MoneyInputError)) throw error;
        fail(error.message, value.price);
      }
    }
    return trusted;
  });
  if (problems.length) throw lineRefusal(doc, problems);
  return lines;
}

/**
 * Rule lines (document.lineCheck, 营销活动): the fields the line resource has, as its own rules
 * validated them; the bill's named line check judges them on save.
 */
function ruleLines(lineModel: Model, raw: Row[]): Row[] {
  const known = lineModel.resource?.entity.properties ?? {};
  return raw.map((line) => {
    const trusted: Row = {};
    for (const [key, value] of Object.entries(stripReadonly(lineModel, line))) if (key in known || key === 'version') trusted[key] = value;
    if (!blank(line.id)) trusted.id = String(line.id);
    return trusted;
  });
}

/**
 * The lines of a money bill (document.settle): each names a bill to settle once, with an amount
 * above zero at the amount places. Whether the bill is the partner's and still open is checked
 * against its open item on save and again, under lock, on posting.
 */
function settleLines(doc: DocumentDef, lineModel: Model, raw: Row[], places: Places): Row[] {
  const { target, lineAmount } = doc.settle!;
  const problems: LineProblem[] = [];
  const known = lineModel.resource?.entity.properties ?? {};
  const seen = new Map<string, number>();
  const lines = raw.map((line, index) => {
    const id = blank(line.id) ? undefined : String(line.id);
    const fail = (field: string, message: string) => problems.push({ index, id, field, message: `第${index + 1}行：${message}` });
    const trusted: Row = {};
    for (const [key, value] of Object.entries(stripReadonly(lineModel, line))) if (key in known || key === 'version') trusted[key] = value;
    if (!target || !lineAmount) return trusted;
    const bill = blank(line[target]) ? '' : String(line[target]);
    if (!bill) fail(target, '请选择要核销的单据');
    else if (seen.has(bill)) fail(target, `与第${seen.get(bill)! + 1}行是同一张单据`);
    else seen.set(bill, index);
    try {
      const amount = blank(line[lineAmount]) ? undefined : fixed(String(line[lineAmount]).trim(), places.amount);
      if (amount === undefined) fail(lineAmount, '请输入核销金额');
      else if (!new Dec(amount).gt(0)) fail(lineAmount, '核销金额必须大于0');
      else trusted[lineAmount] = amount;
    } catch {
      fail(lineAmount, '核销金额不是有效数字');
    }
    return trusted;
  });
  if (problems.length) throw lineRefusal(doc, problems);
  return lines;
}

/**
 * The lines of an item bill (document.items, 收支单): each names an item and an amount above zero
 * at the amount places; fields the line resource does not have are dropped. The line resource's
 * own rules (required, lengths) were checked before.
 */
function itemLines(doc: DocumentDef, lineModel: Model, raw: Row[], places: Places): Row[] {
  const { item, amount } = doc.items!;
  const problems: LineProblem[] = [];
  const known = lineModel.resource?.entity.properties ?? {};
  const titleOf = (field: string) => known[field]?.title ?? field;
  const lines = raw.map((line, index) => {
    const id = blank(line.id) ? undefined : String(line.id);
    const fail = (field: string, message: string) => problems.push({ index, id, field, message: `第${index + 1}行：${message}` });
    const trusted: Row = {};
    for (const [key, value] of Object.entries(stripReadonly(lineModel, line))) if (key in known || key === 'version') trusted[key] = value;
    // A picked item (x-ref) is chosen, a text key (a waybill number) is typed.
    if (blank(line[item]) || !String(line[item]).trim()) fail(item, `请${known[item]?.['x-ref'] ? '选择' : '填写'}${titleOf(item)}`);
    try {
      const value = blank(line[amount]) ? undefined : fixed(String(line[amount]).trim(), places.amount);
      if (value === undefined) fail(amount, `请输入${titleOf(amount)}`);
      else if (!new Dec(value).gt(0)) fail(amount, `${titleOf(amount)}必须大于0`);
      else trusted[amount] = value;
    } catch {
      fail(amount, `${titleOf(amount)}不是有效数字`);
    }
    return trusted;
  });
  if (problems.length) throw lineRefusal(doc, problems);
  return lines;
}

/** Head totals: Σ of each line field at its places, never re-rounded. */
export function billTotals(doc: DocumentDef, lines: Row[], places: Places): Row {
  const totals = doc.totals ?? {};
  const lineFields = [...new Set(Object.values(totals))];
  const placesOf = Object.fromEntries(lineFields.map((f) => [f, f === 'qty' ? places.quantity : places.amount]));
  const sums = sumFields(lines, lineFields, placesOf);
  return Object.fromEntries(Object.entries(totals).map(([head, line]) => [head, sums[line]]));
}

/**
 * The head's fee (freight, handling) over the lines (document.fees), written on each line's fee
 * field: by quantity share (COST_ALLOCATION_MODEL 1) or by amount share (0); gift lines take
 * shares; Σ shares = the fee exactly. Answers the fee as stored on the head.
 */
export function allocateBillFees(doc: DocumentDef, model: Model, head: Row, lines: Row[], config: Record<string, string>, places: Places): string | undefined {
  const fees = doc.fees;
  if (!fees) return undefined;
  const raw = blank(head[fees.head]) ? '0' : String(head[fees.head]).trim();
  // The head field's own rule and message (采购费用必须是不小于0的数字), before any arithmetic.
  const schema = model.resource?.entity.properties[fees.head];
  const refuse = (message: string) => badRequest(message, { fieldErrors: { [fees.head]: message } });
  const message = (schema?.errorMessage as { pattern?: string } | undefined)?.pattern ?? `${schema?.title ?? fees.head}必须是不小于0的数字`;
  if (schema?.pattern && !new RegExp(schema.pattern).test(raw)) throw refuse(message);
  let fee: string;
  try {
    fee = fixed(raw, places.amount);
  } catch {
    throw refuse(message);
  }
  if (new Dec(fee).isNegative()) throw refuse(message);
  const allocation = config[fees.config ?? 'COST_ALLOCATION_MODEL'] === '0' ? '0' : '1';
  const shares = allocateFee(
    fee,
    lines.map((l) => ({ qty: l.qty, totalAmt: l.totalAmt, isGift: Number(l.isGift) === 2, taxPrice: l.taxPrice })),
    allocation,
    places.amount,
  );
  lines.forEach((line, i) => (line[fees.line] = shares[i]));
  return fee;
}
