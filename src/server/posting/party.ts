/**
 * Party ledger: one AR (customer) or AP (supplier) open item per posted bill, of its final amount
 * (a return's negative amount lowers it), and its mirror on flush. Balances add in the same
 * statement that writes them, so concurrent postings for one partner never lose an amount.
 */
import type { Services } from '../services.ts';
import type { Actor } from '../engine/store.ts';
import { badRequest } from '../errors.ts';
import type { Bill } from './bill.ts';
import { Dec, fixed } from '../../shared/money/index.ts';

function partyOf(bill: Bill): { kind: 'AR' | 'AP'; partyId: string } | undefined {
  const kind = bill.doc.posting?.party;
  if (!kind) return undefined;
  const partyId = bill.doc.partnerField ? String(bill.head[bill.doc.partnerField] ?? '') : '';
  // A counter sale paid on the spot needs no partner (walk-in customer): nothing is owed.
  if (!partyId && bill.doc.posting?.receipt) return undefined;
  if (!partyId) throw badRequest(kind === 'AR' ? '请选择客户' : '请选择供应商');
  return { kind, partyId };
}

export async function postParty(services: Services, actor: Actor, bill: Bill, entry: 'post' | 'reverse'): Promise<void> {
  const party = partyOf(bill);
  if (!party) return;
  const final = new Dec(String(bill.head.finalAmt || '0'));
  const amount = fixed(entry === 'post' ? final : final.neg(), bill.places.amount);
  const row = {
    kind: party.kind,
    partyId: party.partyId,
    billType: bill.doc.billType,
    billId: String(bill.head.id),
    billNo: String(bill.head[bill.doc.numberField] ?? ''),
    billDate: String(bill.head[bill.doc.dateField ?? 'billDate'] ?? ''),
  };
  if (bill.doc.posting?.receipt) {
    // Paid at the counter: the open item and its receipt in one statement; the balance is unchanged.
    const settled = fixed(new Dec(amount).neg(), bill.places.amount);
    await services.store.insertMany(services.internal.partyLedger, actor, [
      { ...row, entry, amount },
      { ...row, entry: entry === 'post' ? 'receipt' : 'unrcpt', amount: settled },
    ]);
    return;
  }
  await services.store.insertMany(services.internal.partyLedger, actor, [{ ...row, entry, amount }]);
  await services.store.upsertByKey(services.internal.partyBalance, actor, [{ kind: party.kind, partyId: party.partyId, amount }], ['kind', 'partyId'], { add: ['amount'] });
}
