/**
 * Party ledger: one AR (customer) or AP (supplier) row per posted bill, of its final amount (a
 * return's negative amount lowers it; money received or paid is negative), and its mirror on
 * flush. Balances add in the same statement that writes them, so concurrent postings for one
 * partner never lose an amount. Each posting also leaves an open item that settlement matches
 * (settlement.ts): a money bill settles the bills its lines name, a debit takes unapplied credits.
 */
import type { Services } from '../services.ts';
import type { Actor } from '../engine/store.ts';
import { badRequest } from '../errors.ts';
import type { Bill } from './bill.ts';
import { Dec, fixed, type Decimal } from '../../shared/money/index.ts';
import { documentConfig } from '../engine/document/context.ts';
import { addOpenItem, consumeCredits, settleByLines, unsettle } from './settlement.ts';

type Kind = 'AR' | 'AP';

/**
 * The party kind of a bill: its posting.party, or with posting.partyBy the kind its head field
 * names (期初财务: 往来类型 1 → AR, 2 → AP). Without a head (a list call) only a fixed party answers.
 */
export function partyKindOf(doc: Bill['doc'], head?: Bill['head']): Kind | undefined {
  const posting = doc.posting;
  if (posting?.party) return posting.party;
  const by = posting?.partyBy;
  if (!by || !head) return undefined;
  const kind = by.values[String(head[by.field] ?? '')];
  return kind === 'AR' || kind === 'AP' ? kind : undefined;
}

/** The head field holding the partner of that kind (partyBy.partners, else partnerField). */
export function partnerFieldOf(doc: Bill['doc'], kind: Kind): string | undefined {
  return doc.posting?.partyBy?.partners?.[kind] ?? doc.partnerField;
}

function partyOf(bill: Bill): { kind: Kind; partyId: string } | undefined {
  const by = bill.doc.posting?.partyBy;
  const kind = partyKindOf(bill.doc, bill.head);
  if (!kind && by) throw badRequest(`${bill.model.resource?.entity.properties[by.field]?.title ?? by.field}「${String(bill.head[by.field] ?? '')}」没有对应的往来（应收或应付）`);
  if (!kind) return undefined;
  const field = partnerFieldOf(bill.doc, kind);
  const partyId = field ? String(bill.head[field] ?? '') : '';
  // A counter sale paid on the spot needs no partner (walk-in customer): nothing is owed.
  if (!partyId && bill.doc.posting?.receipt) return undefined;
  if (!partyId) throw badRequest(kind === 'AR' ? '请选择客户' : '请选择供应商');
  return { kind, partyId };
}

/**
 * The bill's party amount: its final amount, or for a money bill (document.settle) minus the money;
 * a refund (settle.refund: money paid back to a customer, or received back from a supplier) plus it.
 */
function partyAmount(bill: Bill): Decimal {
  const settle = bill.doc.settle;
  if (settle) return new Dec(String(bill.head[settle.amount] || '0')).times(settle.refund ? 1 : -1);
  return new Dec(String(bill.head.finalAmt || '0'));
}

export async function postParty(services: Services, actor: Actor, bill: Bill, entry: 'post' | 'reverse'): Promise<void> {
  const party = partyOf(bill);
  if (!party) return;
  const final = partyAmount(bill);
  const amount = fixed(entry === 'post' ? final : final.neg(), bill.places.amount);
  const row = {
    kind: party.kind,
    partyId: party.partyId,
    billType: bill.doc.billType,
    billId: String(bill.head.id),
    billNo: String(bill.head[bill.doc.numberField] ?? ''),
    billDate: String(bill.head[bill.doc.dateField ?? 'billDate'] ?? ''),
  };
  const dated = { ...row, postDate: bill.postDate ?? null };
  if (bill.doc.posting?.receipt) {
    // Paid at the counter: the open item and its receipt in one statement; the balance is unchanged.
    const settled = fixed(new Dec(amount).neg(), bill.places.amount);
    await services.store.insertMany(services.internal.partyLedger, actor, [
      { ...dated, entry, amount },
      { ...dated, entry: entry === 'post' ? 'receipt' : 'unrcpt', amount: settled },
    ]);
    return;
  }
  await services.store.insertMany(services.internal.partyLedger, actor, [{ ...dated, entry, amount }]);
  await services.store.upsertByKey(services.internal.partyBalance, actor, [{ kind: party.kind, partyId: party.partyId, amount }], ['kind', 'partyId'], { add: ['amount'] });
  if (entry === 'reverse') return unsettle(services, actor, row.billId);
  const owed = new Dec(amount);
  // A refund settles exactly the credits its lines name: it takes none of them automatically.
  const autoUse = owed.gt(0) && !bill.doc.settle?.refund && (bill.config ?? (await documentConfig(services, actor.tenantId))).PREPAYMENT_AUTO_USE !== '1';
  const applied = autoUse ? await consumeCredits(services, actor, { billId: row.billId, kind: party.kind, partyId: party.partyId }, owed) : new Dec(0);
  await addOpenItem(services, actor, bill, row, amount, applied.toFixed());
  if (bill.doc.settle) await settleByLines(services, actor, bill);
}
