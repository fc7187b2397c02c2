/**
 * Posting a bill writes its stock movements, its party open item, its general-ledger voucher
 * (voucher.ts) and a posting marker whose unique key allows one posting and one reversal per bill;
 * flush writes the mirror of each.
 * Everything runs in the caller's transaction: a refusal anywhere writes nothing.
 * A transfer (posting.transfer) posts in two stages, each with its own marker: `out` (the leaving
 * leg, marker post) and `in` (the entering leg, marker postin); without a stage both at once.
 */
import type { Services } from '../services.ts';
import type { Actor } from '../engine/store.ts';
import { badRequest } from '../errors.ts';
import type { Bill } from './bill.ts';
import { postStock, reverseStock, type StockResult } from './stock.ts';
import { postParty } from './party.ts';
import { lockTransfer, postTransferIn } from './transfer.ts';
import { closedPeriods, postingDate } from './periods.ts';
import { postVoucher, reverseVoucher } from './voucher.ts';
import { formatDate } from '../../shared/dates.ts';

export type { Bill } from './bill.ts';

const REFUSED = { post: '单据已记账，不能重复记账', postin: '单据已调入，不能重复调入', reverse: '单据已冲红，不能重复冲红' };

async function mark(services: Services, actor: Actor, bill: Bill, entry: keyof typeof REFUSED) {
  try {
    await services.store.insertMany(services.internal.billPosting, actor, [{ resource: bill.model.name, billId: String(bill.head.id), entry }]);
  } catch {
    throw badRequest(REFUSED[entry]);
  }
}

/** The bill with the date its ledger rows carry; refused when that date is in a closed period. */
async function dated(services: Services, actor: Actor, bill: Bill, entry: 'post' | 'reverse', day: unknown): Promise<Bill> {
  const periods = bill.periods ?? (await closedPeriods(services, actor.tenantId));
  return { ...bill, postDate: postingDate(periods, entry, day) };
}

export async function postBill(services: Services, actor: Actor, given: Bill, stage?: 'out' | 'in'): Promise<StockResult | undefined> {
  // Goods called in (a transfer's second leg) arrive today, whatever the bill's date.
  const bill = await dated(services, actor, given, 'post', stage === 'in' ? formatDate() : given.head[given.doc.dateField ?? 'billDate']);
  const transfer = Boolean(bill.doc.posting?.transfer);
  if (transfer && !stage) await lockTransfer(services, actor, bill);
  let stock: StockResult | undefined;
  if (!transfer || stage !== 'in') {
    await mark(services, actor, bill, 'post');
    stock = bill.doc.posting?.stock ? await postStock(services, actor, bill) : undefined;
    await postParty(services, actor, bill, 'post');
    await postVoucher(services, actor, bill, 'post');
  }
  if (transfer && stage !== 'out') {
    await mark(services, actor, bill, 'postin');
    await postTransferIn(services, actor, bill);
    await postVoucher(services, actor, bill, 'postin');
  }
  return stock;
}

export async function reverseBill(services: Services, actor: Actor, given: Bill): Promise<void> {
  const bill = await dated(services, actor, given, 'reverse', undefined);
  await mark(services, actor, bill, 'reverse');
  if (bill.doc.posting?.stock) await reverseStock(services, actor, bill);
  await postParty(services, actor, bill, 'reverse');
  await reverseVoucher(services, actor, bill);
}
