/**
 * Posting a bill writes its stock movements, its party open item and a posting marker whose
 * unique key allows one posting and one reversal per bill; flush writes the mirror of each.
 * Everything runs in the caller's transaction: a refusal anywhere writes nothing.
 */
import type { Services } from '../services.ts';
import type { Actor } from '../engine/store.ts';
import { badRequest } from '../errors.ts';
import type { Bill } from './bill.ts';
import { postStock, reverseStock, type StockResult } from './stock.ts';
import { postParty } from './party.ts';

export type { Bill } from './bill.ts';

async function mark(services: Services, actor: Actor, bill: Bill, entry: 'post' | 'reverse') {
  try {
    await services.store.insertMany(services.internal.billPosting, actor, [{ resource: bill.model.name, billId: String(bill.head.id), entry }]);
  } catch {
    throw badRequest(entry === 'post' ? '单据已记账，不能重复记账' : '单据已冲红，不能重复冲红');
  }
}

export async function postBill(services: Services, actor: Actor, bill: Bill): Promise<StockResult | undefined> {
  await mark(services, actor, bill, 'post');
  const stock = bill.doc.posting?.stock ? await postStock(services, actor, bill) : undefined;
  await postParty(services, actor, bill, 'post');
  return stock;
}

export async function reverseBill(services: Services, actor: Actor, bill: Bill): Promise<void> {
  await mark(services, actor, bill, 'reverse');
  if (bill.doc.posting?.stock) await reverseStock(services, actor, bill);
  await postParty(services, actor, bill, 'reverse');
}
