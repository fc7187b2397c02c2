/**
 * Settlement: matching a partner's open items. Every bill that posts a party amount leaves one
 * open item (erp_open_item), signed like its party-ledger row: a debit (a sale the customer owes,
 * goods the company owes a supplier for) or a credit (money received or paid, a return). A
 * settlement row pays part of a debit with a credit; each item's applied part never exceeds its
 * amount, checked on the locked rows, so what is open (|amount| − applied) is never negative.
 *
 * - A money bill (document.settle) settles the bills its lines name, by the lines' amounts; a
 *   refund (settle.refund) is a debit whose lines name the credits it pays back.
 * - A debit that posts takes the partner's unapplied credits, oldest first, when the system
 *   parameter PREPAYMENT_AUTO_USE is 2 (是, the default): a prepayment is used by the next sale.
 * - A flush mirrors every settlement touching the bill, so the other side's money is unapplied
 *   again, and marks the bill's item reversed. Settlement rows are insert-only.
 * - Statements: one lock read, one insert, one update for the items, whatever the line count; a
 *   debit posted with no credits to take costs one read and its item's insert.
 */
import { sql } from 'kysely';
import type { Services } from '../services.ts';
import type { Actor, Row } from '../engine/store.ts';
import { badRequest } from '../errors.ts';
import { Dec, type Decimal } from '../../shared/money/index.ts';
import type { Bill } from './bill.ts';

export interface OpenItem {
  id: string;
  billId: string;
  kind: string;
  partyId: string;
  billNo: string;
  billType: string;
  amount: Decimal;
  applied: Decimal;
  reversed: boolean;
}

const blank = (v: unknown) => v === undefined || v === null || v === '';
export const openAmount = (item: OpenItem) => item.amount.abs().minus(item.applied);

function asItem(row: Row): OpenItem {
  return {
    id: String(row.id),
    billId: String(row.billId),
    kind: String(row.kind),
    partyId: String(row.partyId),
    billNo: String(row.billNo ?? ''),
    billType: String(row.billType ?? ''),
    amount: new Dec(String(row.amount ?? '0')),
    applied: new Dec(String(row.applied ?? '0')),
    reversed: Number(row.reversed) === 1,
  };
}

/** The open items of these bills, locked in bill-id order (PostgreSQL; SQLite has one writer). */
async function lockItems(services: Services, actor: Actor, billIds: string[]): Promise<Map<string, OpenItem>> {
  const { store } = services;
  const model = services.internal.openItem;
  const ids = [...new Set(billIds)].sort();
  if (!ids.length) return new Map();
  let q = store.db.selectFrom(model.table).selectAll().where('tenant_id', '=', actor.tenantId).where('bill_id', 'in', ids).orderBy('bill_id');
  if (store.dialect === 'postgres') q = q.forUpdate();
  const rows = (await q.execute()).map((raw) => asItem(store.toRow(model, raw as Record<string, unknown>)));
  return new Map(rows.map((r) => [r.billId, r]));
}

async function saveItems(services: Services, actor: Actor, items: Iterable<OpenItem>) {
  const rows = [...items].map((i) => ({ id: i.id, applied: i.applied.toFixed(), reversed: i.reversed ? 1 : 0 }));
  await services.store.updateMany(services.internal.openItem, actor, rows);
}

/** The open item of a bill just posted (with what it has already taken of the partner's credits). */
export async function addOpenItem(services: Services, actor: Actor, bill: Bill, row: { kind: string; partyId: string; billType: string; billId: string; billNo: string; billDate: string }, amount: string, applied = '0') {
  await services.store.insertMany(services.internal.openItem, actor, [{ ...row, resource: bill.model.name, amount, applied, reversed: 0 }]);
}

interface Pairing {
  debit: OpenItem;
  credit: OpenItem;
  amount: Decimal;
  lineId?: string;
}

async function writeSettlements(services: Services, actor: Actor, billId: string, pairings: Pairing[], entry: 'settle' | 'unsettle') {
  if (!pairings.length) return;
  await services.store.insertMany(
    services.internal.settlement,
    actor,
    pairings.map((p) => ({ kind: p.debit.kind, partyId: p.debit.partyId, billId, lineId: p.lineId ?? null, debitId: p.debit.billId, creditId: p.credit.billId, entry, amount: p.amount.toFixed() })),
  );
}

/**
 * The money bill's lines settle the bills they name: each a posted, live debit of the same
 * partner, never beyond its open amount; Σ never beyond the money. Refusals name the line.
 */
export async function settleByLines(services: Services, actor: Actor, bill: Bill): Promise<void> {
  const settle = bill.doc.settle;
  if (!settle?.target || !settle.lineAmount) return;
  const lines = bill.lines.filter((l) => !blank(l[settle.target!]));
  if (!lines.length) return;
  const selfId = String(bill.head.id);
  const items = await lockItems(services, actor, [selfId, ...lines.map((l) => String(l[settle.target!]))]);
  const self = items.get(selfId)!;
  const refund = Boolean(settle.refund);
  const pairings: Pairing[] = [];
  bill.lines.forEach((line, i) => {
    if (blank(line[settle.target!])) return;
    const at = `第${i + 1}行：`;
    const target = items.get(String(line[settle.target!]));
    const amount = new Dec(String(line[settle.lineAmount!] ?? '0'));
    if (!target) throw badRequest(`${at}单据尚未记账，不能核销`);
    if (target.kind !== self.kind || target.partyId !== self.partyId) throw badRequest(`${at}单据${target.billNo}不属于该往来单位`);
    if (target.reversed) throw badRequest(`${at}单据${target.billNo}已冲红，不能核销`);
    // A refund (settle.refund) is itself the debit: it uses up the credits (a return, money ahead) its lines name.
    if (refund ? !target.amount.lt(0) : !target.amount.gt(0)) throw badRequest(refund ? `${at}单据${target.billNo}不是可退款的贷方单据（退货、预收或预付），不能退款` : `${at}单据${target.billNo}不是${self.kind === 'AR' ? '应收' : '应付'}单据，不能核销`);
    if (!amount.gt(0)) throw badRequest(`${at}核销金额必须大于0`);
    const open = openAmount(target);
    if (amount.gt(open)) throw badRequest(`${at}${refund ? '退款' : '核销'}金额 ${amount.toFixed(2)} 超过单据${target.billNo}的${refund ? '可退余额' : '未结金额'} ${open.toFixed(2)}`);
    target.applied = target.applied.plus(amount);
    self.applied = self.applied.plus(amount);
    pairings.push(refund ? { debit: self, credit: target, amount, lineId: String(line.id) } : { debit: target, credit: self, amount, lineId: String(line.id) });
  });
  if (self.applied.gt(self.amount.abs())) throw badRequest(`核销金额合计 ${self.applied.toFixed(2)} 超过本单金额 ${self.amount.abs().toFixed(2)}`);
  await writeSettlements(services, actor, selfId, pairings, 'settle');
  await saveItems(services, actor, items.values());
}

/**
 * A debit about to be posted takes the partner's unapplied credits, oldest first, up to its
 * amount: the credits are read and locked in one statement, and the debit's own item is then
 * written with what it took (so a posting without credits costs one read).
 */
export async function consumeCredits(services: Services, actor: Actor, debit: { billId: string; kind: string; partyId: string }, amount: Decimal): Promise<Decimal> {
  const { store } = services;
  const model = services.internal.openItem;
  const col = (f: string) => sql.ref(model.fields.get(f)!.column);
  // Credits with something left: applied < −amount (both columns stored alike, so comparable in SQL).
  let q = store.db
    .selectFrom(model.table)
    .selectAll()
    .where('tenant_id', '=', actor.tenantId)
    .where(col('kind'), '=', debit.kind)
    .where(col('partyId'), '=', debit.partyId)
    .where(col('reversed'), '=', 0)
    .where(sql<boolean>`${col('applied')} < -${col('amount')}`)
    .orderBy('bill_id')
    .limit(500);
  if (store.dialect === 'postgres') q = q.forUpdate();
  const rows = (await q.execute()).map((raw) => store.toRow(model, raw as Record<string, unknown>));
  if (!rows.length) return new Dec(0);
  rows.sort((a, b) => String(a.billDate ?? '').localeCompare(String(b.billDate ?? '')) || String(a.createTime ?? '').localeCompare(String(b.createTime ?? '')) || String(a.id).localeCompare(String(b.id)));
  const self: OpenItem = { id: '', billId: debit.billId, kind: debit.kind, partyId: debit.partyId, billNo: '', billType: '', amount, applied: new Dec(0), reversed: false };
  const pairings: Pairing[] = [];
  const used: OpenItem[] = [];
  for (const credit of rows.map(asItem)) {
    const need = openAmount(self);
    if (!need.gt(0)) break;
    const take = Dec.min(need, openAmount(credit));
    if (!take.gt(0)) continue;
    self.applied = self.applied.plus(take);
    credit.applied = credit.applied.plus(take);
    pairings.push({ debit: self, credit, amount: take });
    used.push(credit);
  }
  await writeSettlements(services, actor, debit.billId, pairings, 'settle');
  await saveItems(services, actor, used);
  return self.applied;
}

/** On flush: every settlement the bill is part of is mirrored, both sides reopened; its item is reversed. */
export async function unsettle(services: Services, actor: Actor, billId: string): Promise<void> {
  const { store } = services;
  const ledger = services.internal.settlement;
  const rows = [...(await store.find(ledger, actor.tenantId, { where: { debitId: billId } })), ...(await store.find(ledger, actor.tenantId, { where: { creditId: billId } }))];
  const net = new Map<string, { debitId: string; creditId: string; lineId?: string; amount: Decimal }>();
  for (const r of rows) {
    const key = `${r.debitId}|${r.creditId}|${r.lineId ?? ''}`;
    const entry = net.get(key) ?? { debitId: String(r.debitId), creditId: String(r.creditId), lineId: blank(r.lineId) ? undefined : String(r.lineId), amount: new Dec(0) };
    const amount = new Dec(String(r.amount));
    entry.amount = r.entry === 'unsettle' ? entry.amount.minus(amount) : entry.amount.plus(amount);
    net.set(key, entry);
  }
  const open = [...net.values()].filter((n) => n.amount.gt(0));
  const items = await lockItems(services, actor, [billId, ...open.flatMap((n) => [n.debitId, n.creditId])]);
  const pairings: Pairing[] = [];
  for (const n of open) {
    const debit = items.get(n.debitId);
    const credit = items.get(n.creditId);
    if (!debit || !credit) continue;
    debit.applied = debit.applied.minus(n.amount);
    credit.applied = credit.applied.minus(n.amount);
    pairings.push({ debit, credit, amount: n.amount, lineId: n.lineId });
  }
  const own = items.get(billId);
  if (own) own.reversed = true;
  await writeSettlements(services, actor, billId, pairings, 'unsettle');
  await saveItems(services, actor, items.values());
}

/** Open items of a partner for the pickers: debits still owed (billlist) or credits not yet used (precplist). */
export async function partnerItems(services: Services, actor: Actor, kind: string, partyId: string, side: 'debit' | 'credit'): Promise<(OpenItem & { billDate: string; resource: string })[]> {
  const rows = await services.store.find(services.internal.openItem, actor.tenantId, {
    where: { kind, partyId, reversed: 0 },
    orderBy: [{ column: 'bill_date', dir: 'asc' }, { column: 'create_time', dir: 'asc' }],
    limit: 2000,
  });
  return rows
    .map((r) => ({ ...asItem(r), billDate: String(r.billDate ?? ''), resource: String(r.resource ?? '') }))
    .filter((i) => (side === 'debit' ? i.amount.gt(0) : i.amount.lt(0)) && openAmount(i).gt(0));
}
