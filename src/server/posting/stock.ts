/**
 * Stock posting: insert-only ledger rows and balance caches, moving average in commit order.
 *
 * - A line moves `direction × qty × unit rate` base units (sales-out −, purchase-in +; return bills
 *   carry negative quantities, so their goods move the other way).
 * - Value-only lines (posting.valueOnly: fee allocation, cost adjustment) move no goods: each adds the
 *   amount in its posting.valueField (default its fee share) to the balance's value; refused for goods
 *   that never moved in the warehouse, or when the value would fall below zero (refuseUnvalued).
 * - Inbound value: the line's tax-exclusive amount plus its fee share (cost `line`; a bill without
 *   amounts: its typed value, document.lineValue), the source line's unit cost (`source`: returns),
 *   or the current average (`average`; a typed lineValue wins, and a line that could have had one
 *   but whose goods never moved in the warehouse is refused: there is no average to take).
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
  // A value-only bill (fee allocation) moves no goods: its lines' quantities are references.
  const direction = bill.doc.posting?.valueOnly ? 0 : (bill.doc.posting?.stock ?? 1);
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

/**
 * Goods coming in at the moving average (a 报溢单 line without a unit cost) that never moved in
 * that warehouse have no average to take: refused naming goods and warehouse, so the gain is not
 * booked at zero value and does not drag the later average down.
 */
async function refuseUncosted(services: Services, actor: Actor, bill: Bill, moves: Movement[]) {
  if (!moves.length) return;
  const { store } = services;
  const goods = new Map((await store.find(services.m('goods'), actor.tenantId, { where: { id: [...new Set(moves.map((m) => m.commInfoId))] } })).map((g) => [String(g.id), g]));
  const depots = new Map((await store.find(services.m('depot'), actor.tenantId, { where: { id: [...new Set(moves.map((m) => m.depotId))] } })).map((d) => [String(d.id), d]));
  const field = bill.doc.lineValue ? (bill.lineModel?.resource?.entity.properties[bill.doc.lineValue.price]?.title ?? '成本单价') : undefined;
  const parts = moves.map((m) => `第${m.index + 1}行 商品「${goods.get(m.commInfoId)?.commInfoName ?? m.commInfoId}」在仓库「${depots.get(m.depotId)?.depotName ?? m.depotId}」`);
  throw badRequest(`没有成本价：${parts.join('；')}尚无出入库记录，无法按移动平均成本入库${field ? `，请填写${field}` : ''}`, {
    uncosted: moves.map((m) => ({ line: m.index + 1, lineId: m.line.id, commInfoId: m.commInfoId, depotId: m.depotId })),
  });
}

interface Unvalued {
  move: Movement;
  value: Decimal;
  /** the balance as the line found it */
  balance: Balance;
}

/**
 * A value-only line (posting.valueOnly: fee allocation, 成本调整单) changes the value of goods in a
 * warehouse without moving them. Refused, naming line, goods and warehouse: goods that never moved
 * in that warehouse (there is no stock whose value could change), and a lowering that would leave
 * the balance's value below zero while its quantity is not negative.
 */
async function refuseUnvalued(services: Services, actor: Actor, problems: Unvalued[], amountPlaces: number) {
  if (!problems.length) return;
  const { store } = services;
  const goods = new Map((await store.find(services.m('goods'), actor.tenantId, { where: { id: [...new Set(problems.map((p) => p.move.commInfoId))] } })).map((g) => [String(g.id), g]));
  const depots = new Map((await store.find(services.m('depot'), actor.tenantId, { where: { id: [...new Set(problems.map((p) => p.move.depotId))] } })).map((d) => [String(d.id), d]));
  const parts = problems.map(({ move: m, value, balance: b }) => {
    const where = `第${m.index + 1}行 商品「${goods.get(m.commInfoId)?.commInfoName ?? m.commInfoId}」在仓库「${depots.get(m.depotId)?.depotName ?? m.depotId}」`;
    if (b.seq === 0) return `${where}没有库存，不能调整成本`;
    return `${where}结存数量 ${b.qty.toFixed()}、结存金额 ${b.value.toFixed(amountPlaces)}，调减 ${value.neg().toFixed(amountPlaces)} 后库存金额将为负数`;
  });
  throw badRequest(`不能调整库存金额：${parts.join('；')}`, {
    unvalued: problems.map((p) => ({ line: p.move.index + 1, lineId: p.move.line.id, commInfoId: p.move.commInfoId, depotId: p.move.depotId })),
  });
}

/** Moves a balance by `delta` worth `value`, returning the ledger row's figures. */
export function apply(balance: Balance, delta: Decimal, value: Decimal, pricePlaces: number) {
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

/**
 * Opening stock (posting.opening): each goods' first movement in its warehouse, once. Refused,
 * naming line, goods and warehouse, when the pair appears twice in the bill, or has any ledger row
 * already other than those of an opening bill since flushed (a flushed opening may be entered again).
 */
async function refuseMoved(services: Services, actor: Actor, bill: Bill, moves: Movement[], balances: Map<string, Balance>) {
  const seen = new Map<string, number>();
  const problems: { move: Movement; why: string }[] = [];
  for (const m of moves) {
    const key = balanceKey(m.depotId, m.commInfoId);
    if (seen.has(key)) problems.push({ move: m, why: `与第${seen.get(key)! + 1}行重复` });
    else seen.set(key, m.index);
  }
  const moved = moves.filter((m) => balances.get(balanceKey(m.depotId, m.commInfoId))!.seq > 0);
  if (moved.length) {
    const rows = await services.store.find(services.internal.stockLedger, actor.tenantId, {
      where: { depotId: [...new Set(moved.map((m) => m.depotId))], commInfoId: [...new Set(moved.map((m) => m.commInfoId))] },
    });
    // Per pair: any other bill's row, or an opening posted and not reversed, means it has moved.
    const standing = new Set<string>();
    const reversed = new Set(rows.filter((r) => r.entry === 'reverse').map((r) => String(r.billId)));
    for (const r of rows) {
      const opening = String(r.billType) === bill.doc.billType;
      if (!opening || !reversed.has(String(r.billId))) standing.add(balanceKey(String(r.depotId), String(r.commInfoId)));
    }
    for (const m of moved) {
      if (standing.has(balanceKey(m.depotId, m.commInfoId))) problems.push({ move: m, why: '已有出入库记录，不能再录入期初库存（差异请用报溢单、报损单或盘点单调整）' });
    }
  }
  if (!problems.length) return;
  const goods = new Map((await services.store.find(services.m('goods'), actor.tenantId, { where: { id: [...new Set(problems.map((p) => p.move.commInfoId))] } })).map((g) => [String(g.id), g]));
  const depots = new Map((await services.store.find(services.m('depot'), actor.tenantId, { where: { id: [...new Set(problems.map((p) => p.move.depotId))] } })).map((d) => [String(d.id), d]));
  const parts = problems.sort((a, b) => a.move.index - b.move.index).map(({ move: m, why }) => `第${m.index + 1}行 商品「${goods.get(m.commInfoId)?.commInfoName ?? m.commInfoId}」在仓库「${depots.get(m.depotId)?.depotName ?? m.depotId}」${why}`);
  throw badRequest(`期初库存不能记账：${parts.join('；')}`);
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
  if (posting.opening) await refuseMoved(services, actor, bill, moves, balances);
  const sourceIds = [...new Set(moves.map((m) => m.sourceLineId).filter((id): id is string => Boolean(id)))];
  // An exchange takes back goods from source lines (at their cost) and sends others out.
  const exchange = posting.cost === 'exchange';
  const sourced = posting.cost === 'source' || exchange;
  const { costs, returned } = sourced ? await sourceRows(services, actor, sourceIds) : { costs: new Map(), returned: new Map() };
  if (posting.cost === 'source') checkReturnable(moves, costs, returned);
  if (exchange) checkReturnable(moves.filter((m) => m.sourceLineId), costs, returned);
  const costOf = (m: Movement) => (exchange ? (m.sourceLineId ? 'source' : (posting.stock ?? 1) > 0 ? 'line' : 'average') : posting.cost);
  const amountField = bill.doc.amounts?.amount ?? bill.doc.lineValue?.amount ?? 'amount';
  // A goods-only inbound's typed value (document.lineValue): with cost average, a line without one
  // enters at the current average unit cost of its goods in its warehouse.
  const typed = (m: Movement) => (bill.doc.lineValue && !blank(m.line[bill.doc.lineValue.amount]) ? new Dec(String(m.line[bill.doc.lineValue.amount])) : undefined);
  const shortfalls: Shortfall[] = [];
  const uncosted: Movement[] = [];
  // A value-only line's value: the line field posting.valueField names, else its fee share (document.fees.line).
  const valueField = posting.valueField ?? bill.doc.fees?.line ?? 'feeAmt';
  const unvalued: Unvalued[] = [];
  const ledgerRows: Row[] = [];
  const lineCosts: StockResult['lineCosts'] = [];
  let total = new Dec(0);
  for (const m of moves) {
    const balance = balances.get(balanceKey(m.depotId, m.commInfoId))!;
    let value: Decimal;
    const basis = costOf(m);
    if (m.delta.lt(0) && balance.qty.plus(m.delta).isZero()) value = balance.value.neg();
    else if (basis === 'source') value = round(costs.get(m.sourceLineId!)!.unitCost.times(m.delta), ap);
    else if (posting.valueOnly) {
      value = round(new Dec(String(m.line[valueField] || '0')), ap);
      // Value may leave a balance only while some stays: never below zero while quantity is not negative.
      if (balance.seq === 0 || (value.lt(0) && !balance.qty.lt(0) && balance.value.plus(value).lt(0))) unvalued.push({ move: m, value, balance: { ...balance } });
    } else if (basis === 'line') value = new Dec(String(m.line[amountField] || '0')).plus(String(m.line.feeAmt || '0')).times(posting.stock ?? 1);
    else if (m.delta.gt(0) && typed(m)) value = typed(m)!.times(posting.stock ?? 1);
    else {
      // A bill whose lines could carry a value needs an average to fall back on: goods never moved
      // in this warehouse have none yet.
      if (bill.doc.lineValue && m.delta.gt(0) && balance.seq === 0) uncosted.push(m);
      value = m.delta.lt(0) ? averageValue(balance, m.delta, ap) : round(balance.unitCost.times(m.delta), ap);
    }
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
      postDate: bill.postDate ?? null,
    });
    const cost = value.times(posting.stock ?? 1);
    total = total.plus(cost);
    const qty = new Dec(String(m.line.qty));
    // A unit cost the clerk typed stays as typed (its amount is the value taken).
    const typedPrice = bill.doc.lineValue && typed(m) ? m.line[bill.doc.lineValue.price] : undefined;
    const costPrice = !blank(typedPrice) ? new Dec(String(typedPrice)).toFixed(pp) : qty.isZero() ? '0' : round(cost.div(qty), pp).toFixed(pp);
    lineCosts.push({ id: String(m.line.id), costAmt: cost.toFixed(ap), costPrice });
  }
  await refuseUncosted(services, actor, bill, uncosted);
  await refuseUnvalued(services, actor, unvalued, ap);
  await refuseShortfalls(services, actor, shortfalls);
  await services.store.insertMany(services.internal.stockLedger, actor, ledgerRows);
  await saveBalances(services, actor, balances.values());
  return { lineCosts, costAmt: total.toFixed(ap) };
}

/** The entry of the mirror of each kind of posted row (a transfer's entering leg is `postin`, see transfer.ts). */
const MIRROR: Record<string, string> = { post: 'reverse', postin: 'revin' };

/**
 * Flush: a mirrored row for every posted row, last first (a transfer's entering leg before its
 * leaving leg); refused when it would drive stock negative.
 */
export async function reverseStock(services: Services, actor: Actor, bill: Bill): Promise<void> {
  const { store } = services;
  const ledger = services.internal.stockLedger;
  const posted = await store.find(ledger, actor.tenantId, { where: { billId: String(bill.head.id), entry: Object.keys(MIRROR) } });
  const byLine = new Map(bill.lines.map((l, i) => [String(l.id), i]));
  const leg = (row: Row) => (row.entry === 'post' ? 1 : 0);
  posted.sort((a, b) => leg(a) - leg(b) || (byLine.get(String(b.lineId)) ?? 0) - (byLine.get(String(a.lineId)) ?? 0));
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
      entry: MIRROR[String(row.entry)],
      postDate: bill.postDate ?? null,
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
