/**
 * Stock posting: insert-only ledger rows and balance caches, moving average in commit order.
 *
 * - A line moves `direction × qty × unit rate` base units (sales-out −, purchase-in +; return bills
 *   carry negative quantities, so their goods move the other way).
 * - Inbound value: the line's tax-exclusive amount plus its fee share (cost `line`), the source
 *   line's unit cost (`source`: returns), or the current average (`average`).
 * - Outbound value: the moving average (value × qty / balance qty), or the source line's cost; an
 *   outbound that empties a balance takes the whole remaining value, so no cent is stranded.
 * - Later bills never rewrite earlier rows: the sequence is the order of commits, not bill dates.
 * - Statements per bill: unit rates, balances (ensure + lock), source rows (returns), returned
 *   sums (returns), ledger insert, balance write, line costs: constant whatever the line count.
 */
import { sql } from 'kysely';
import type { Services } from '../services.ts';
import type { Actor, Row } from '../engine/store.ts';
import { badRequest } from '../errors.ts';
import { Dec, round, type Decimal } from '../../shared/money/index.ts';
import { balanceKey, lockBalances, saveBalances, type Balance } from './balances.ts';
import type { Bill } from './bill.ts';

const UNIT_COST_PLACES = 6;

interface Movement {
  index: number;
  line: Row;
  depotId: string;
  commInfoId: string;
  /** signed base quantity */
  delta: Decimal;
  sourceLineId?: string;
}

function blank(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

/** Base units per line unit, from the goods' unit table (1 when the unit is the base or not listed). */
async function unitRates(services: Services, actor: Actor, lines: Row[]): Promise<Map<string, Decimal>> {
  const goods = [...new Set(lines.map((l) => String(l.commInfoId)))];
  const rows = goods.length ? await services.store.find(services.m('goods-unit'), actor.tenantId, { where: { commInfoId: goods } }) : [];
  return new Map(rows.filter((r) => !blank(r.rate)).map((r) => [`${r.commInfoId}|${r.unitId}`, new Dec(String(r.rate))]));
}

function movementsOf(bill: Bill, rates: Map<string, Decimal>): Movement[] {
  const direction = bill.doc.posting?.stock ?? 1;
  const headDepot = bill.doc.depotField ? bill.head[bill.doc.depotField] : undefined;
  return bill.lines.map((line, index) => {
    const depotId = String(blank(line.depotId) ? (headDepot ?? '') : line.depotId);
    if (!depotId) throw badRequest(`第${index + 1}行：请选择仓库`);
    const rate = rates.get(`${line.commInfoId}|${line.unitId}`) ?? new Dec(1);
    return {
      index,
      line,
      depotId,
      commInfoId: String(line.commInfoId),
      delta: new Dec(String(line.qty)).times(rate).times(direction),
      sourceLineId: blank(line.sourceBodyId) ? undefined : String(line.sourceBodyId),
    };
  });
}

interface SourceCost {
  unitCost: Decimal;
  qty: Decimal;
  reversed: boolean;
}

/** The posted ledger rows of the source lines (their cost and quantity) and how much was returned against them. */
async function sourceRows(services: Services, actor: Actor, ids: string[]): Promise<{ costs: Map<string, SourceCost>; returned: Map<string, Decimal> }> {
  const costs = new Map<string, SourceCost>();
  const returned = new Map<string, Decimal>();
  if (!ids.length) return { costs, returned };
  const { store } = services;
  const ledger = services.internal.stockLedger;
  for (const row of await store.find(ledger, actor.tenantId, { where: { lineId: ids } })) {
    const id = String(row.lineId);
    const known = costs.get(id);
    if (row.entry === 'post') costs.set(id, { unitCost: new Dec(String(row.unitCost)), qty: new Dec(String(row.qty)), reversed: known?.reversed ?? false });
    else if (known) known.reversed = true;
    else costs.set(id, { unitCost: new Dec(0), qty: new Dec(0), reversed: true });
  }
  const qtyField = ledger.fields.get('qty')!;
  const sums = await store.db
    .selectFrom(ledger.table)
    .select(['source_line_id', sql<string>`sum(qty)`.as('total')])
    .where('tenant_id', '=', actor.tenantId)
    .where('source_line_id', 'in', ids)
    .groupBy('source_line_id')
    .execute();
  for (const s of sums as { source_line_id: string; total: unknown }[]) {
    const total = store.toRow(ledger, { [qtyField.column]: s.total }).qty;
    returned.set(String(s.source_line_id), new Dec(String(total ?? '0')));
  }
  return { costs, returned };
}

/** Refuses returns beyond what their source line moved, naming the line. */
function checkReturnable(moves: Movement[], costs: Map<string, SourceCost>, returned: Map<string, Decimal>) {
  const running = new Map(returned);
  for (const m of moves) {
    if (!m.sourceLineId) throw badRequest(`第${m.index + 1}行：退货行必须关联源单行`);
    const source = costs.get(m.sourceLineId);
    if (!source || source.reversed) throw badRequest(`第${m.index + 1}行：源单行尚未记账或已冲红，不能退货`);
    const before = running.get(m.sourceLineId) ?? new Dec(0);
    const after = before.plus(m.delta);
    if (!m.delta.isZero() && m.delta.isPositive() === source.qty.isPositive()) throw badRequest(`第${m.index + 1}行：退货数量应为负数`);
    if (after.abs().gt(source.qty.abs())) {
      throw badRequest(`第${m.index + 1}行：累计退货数量不能超过源单数量（源单 ${source.qty.abs().toFixed()}，已退 ${before.abs().toFixed()}，本次 ${m.delta.abs().toFixed()}）`);
    }
    running.set(m.sourceLineId, after);
  }
}

interface Shortfall {
  move: Movement;
  missing: Decimal;
}

/** Negative stock is refused unless the goods or the warehouse allows it; the message names both and the shortfall. */
async function refuseShortfalls(services: Services, actor: Actor, shortfalls: Shortfall[], prefix = '库存不足') {
  if (!shortfalls.length) return;
  const { store } = services;
  const goodsIds = [...new Set(shortfalls.map((s) => s.move.commInfoId))];
  const depotIds = [...new Set(shortfalls.map((s) => s.move.depotId))];
  const goods = new Map((await store.find(services.m('goods'), actor.tenantId, { where: { id: goodsIds } })).map((g) => [String(g.id), g]));
  const depots = new Map((await store.find(services.m('depot'), actor.tenantId, { where: { id: depotIds } })).map((d) => [String(d.id), d]));
  const refused = shortfalls.filter((s) => Number(goods.get(s.move.commInfoId)?.allowNegativeStock) !== 2 && Number(depots.get(s.move.depotId)?.allowNegativeStock) !== 2);
  if (!refused.length) return;
  const parts = refused.map((s) => {
    const g = goods.get(s.move.commInfoId);
    const d = depots.get(s.move.depotId);
    return `第${s.move.index + 1}行 商品「${g?.commInfoName ?? s.move.commInfoId}」在仓库「${d?.depotName ?? s.move.depotId}」缺少 ${s.missing.toFixed()}`;
  });
  throw badRequest(`${prefix}：${parts.join('；')}`, {
    shortfalls: refused.map((s) => ({ line: s.move.index + 1, lineId: s.move.line.id, commInfoId: s.move.commInfoId, depotId: s.move.depotId, missing: s.missing.toFixed() })),
  });
}

/** Moves a balance by `delta` worth `value`, returning the ledger row's figures. */
function apply(balance: Balance, delta: Decimal, value: Decimal, pricePlaces: number) {
  balance.qty = balance.qty.plus(delta);
  balance.value = balance.value.plus(value);
  if (balance.qty.gt(0)) balance.unitCost = round(balance.value.div(balance.qty), UNIT_COST_PLACES);
  else if (delta.gt(0)) balance.unitCost = round(value.div(delta), UNIT_COST_PLACES);
  balance.seq += 1;
  return { unitCost: delta.isZero() ? new Dec(0) : round(value.div(delta).abs(), pricePlaces) };
}

/** Value of an outbound `delta` (< 0) at the moving average; emptying the balance takes all of it. */
function averageValue(balance: Balance, delta: Decimal, amountPlaces: number): Decimal {
  if (balance.qty.plus(delta).isZero()) return balance.value.neg();
  if (balance.qty.gt(0)) return round(balance.value.times(delta).div(balance.qty), amountPlaces);
  return round(balance.unitCost.times(delta), amountPlaces);
}

export interface StockResult {
  /** cost of each line, signed like its quantity (sales-out positive, a sales return negative) */
  lineCosts: { id: string; costAmt: string; costPrice: string }[];
  costAmt: string;
}

export async function postStock(services: Services, actor: Actor, bill: Bill): Promise<StockResult> {
  const posting = bill.doc.posting!;
  const { amount: ap, price: pp } = bill.places;
  const moves = movementsOf(bill, await unitRates(services, actor, bill.lines));
  const balances = await lockBalances(services, actor, moves);
  const sourceIds = [...new Set(moves.map((m) => m.sourceLineId).filter((id): id is string => Boolean(id)))];
  // An exchange takes back goods from source lines (at their cost) and sends others out.
  const exchange = posting.cost === 'exchange';
  const sourced = posting.cost === 'source' || exchange;
  const { costs, returned } = sourced ? await sourceRows(services, actor, sourceIds) : { costs: new Map(), returned: new Map() };
  if (posting.cost === 'source') checkReturnable(moves, costs, returned);
  if (exchange) checkReturnable(moves.filter((m) => m.sourceLineId), costs, returned);
  const costOf = (m: Movement) => (exchange ? (m.sourceLineId ? 'source' : (posting.stock ?? 1) > 0 ? 'line' : 'average') : posting.cost);
  const amountField = bill.doc.amounts?.amount ?? 'amount';
  const shortfalls: Shortfall[] = [];
  const ledgerRows: Row[] = [];
  const lineCosts: StockResult['lineCosts'] = [];
  let total = new Dec(0);
  for (const m of moves) {
    const balance = balances.get(balanceKey(m.depotId, m.commInfoId))!;
    let value: Decimal;
    const basis = costOf(m);
    if (m.delta.lt(0) && balance.qty.plus(m.delta).isZero()) value = balance.value.neg();
    else if (basis === 'source') value = round(costs.get(m.sourceLineId!)!.unitCost.times(m.delta), ap);
    else if (basis === 'line') value = new Dec(String(m.line[amountField] || '0')).plus(String(m.line.feeAmt || '0')).times(posting.stock ?? 1);
    else value = m.delta.lt(0) ? averageValue(balance, m.delta, ap) : round(balance.unitCost.times(m.delta), ap);
    if (m.delta.lt(0) && balance.qty.plus(m.delta).lt(0)) {
      shortfalls.push({ move: m, missing: balance.qty.plus(m.delta).neg().minus(Dec.max(balance.qty.neg(), 0)) });
    }
    const { unitCost } = apply(balance, m.delta, value, pp);
    ledgerRows.push({
      depotId: m.depotId,
      commInfoId: m.commInfoId,
      billType: bill.doc.billType,
      billId: String(bill.head.id),
      billNo: String(bill.head[bill.doc.numberField] ?? ''),
      lineId: String(m.line.id),
      sourceLineId: m.sourceLineId ?? null,
      entry: 'post',
      qty: m.delta.toFixed(),
      value: value.toFixed(),
      unitCost: unitCost.toFixed(),
      balanceQty: balance.qty.toFixed(),
      balanceValue: balance.value.toFixed(),
      seq: balance.seq,
    });
    const cost = value.times(posting.stock ?? 1);
    total = total.plus(cost);
    const qty = new Dec(String(m.line.qty));
    lineCosts.push({ id: String(m.line.id), costAmt: cost.toFixed(ap), costPrice: qty.isZero() ? '0' : round(cost.div(qty), pp).toFixed(pp) });
  }
  await refuseShortfalls(services, actor, shortfalls);
  await services.store.insertMany(services.internal.stockLedger, actor, ledgerRows);
  await saveBalances(services, actor, balances.values());
  return { lineCosts, costAmt: total.toFixed(ap) };
}

/** Flush: a mirrored row for every posted row, last first; refused when it would drive stock negative. */
export async function reverseStock(services: Services, actor: Actor, bill: Bill): Promise<void> {
  const { store } = services;
  const ledger = services.internal.stockLedger;
  const posted = await store.find(ledger, actor.tenantId, { where: { billId: String(bill.head.id), entry: 'post' } });
  const byLine = new Map(bill.lines.map((l, i) => [String(l.id), i]));
  posted.sort((a, b) => (byLine.get(String(b.lineId)) ?? 0) - (byLine.get(String(a.lineId)) ?? 0));
  const moves: Movement[] = posted.map((row) => ({
    index: byLine.get(String(row.lineId)) ?? 0,
    line: bill.lines[byLine.get(String(row.lineId)) ?? 0] ?? { id: row.lineId },
    depotId: String(row.depotId),
    commInfoId: String(row.commInfoId),
    delta: new Dec(String(row.qty)).neg(),
    sourceLineId: blank(row.sourceLineId) ? undefined : String(row.sourceLineId),
  }));
  const balances = await lockBalances(services, actor, moves);
  const shortfalls: Shortfall[] = [];
  const rows: Row[] = [];
  posted.forEach((row, i) => {
    const m = moves[i];
    const balance = balances.get(balanceKey(m.depotId, m.commInfoId))!;
    const value = new Dec(String(row.value)).neg();
    if (m.delta.lt(0) && balance.qty.plus(m.delta).lt(0)) shortfalls.push({ move: m, missing: balance.qty.plus(m.delta).neg().minus(Dec.max(balance.qty.neg(), 0)) });
    apply(balance, m.delta, value, bill.places.price);
    rows.push({
      ...row,
      id: undefined,
      entry: 'reverse',
      qty: m.delta.toFixed(),
      value: value.toFixed(),
      balanceQty: balance.qty.toFixed(),
      balanceValue: balance.value.toFixed(),
      seq: balance.seq,
    });
  });
  await refuseShortfalls(services, actor, shortfalls, '冲红后库存将为负数，不能冲红');
  await store.insertMany(ledger, actor, rows);
  await saveBalances(services, actor, balances.values());
}
