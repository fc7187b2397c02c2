/**
 * A transfer between two warehouses (document.posting.transfer names the head's receiving
 * warehouse). The leaving leg is an ordinary outbound posting of the bill (stock -1 at the moving
 * average, ledger entry `post`, postStock); the entering leg writes one row per leaving row into
 * the receiving warehouse with the same quantity and the same value (entry `postin`), so value
 * leaves at the source's average cost and enters the destination at exactly that value.
 *
 * Posted in two steps (调出, then 调入), the goods are in transit in between: in no warehouse's
 * balance, and still the bill's: its leaving rows not yet matched by entering rows. Every balance
 * change is a ledger row, so balance = Σ ledger holds per warehouse and goods at every step.
 * A flush mirrors both legs (stock.ts reverseStock: entering leg first).
 */
import type { Services } from '../services.ts';
import type { Actor, Row } from '../engine/store.ts';
import { badRequest } from '../errors.ts';
import { Dec } from '../../shared/money/index.ts';
import { balanceKey, lockBalances, saveBalances } from './balances.ts';
import { apply } from './stock.ts';
import type { Bill } from './bill.ts';

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** The receiving warehouse of a transfer bill, refused when missing or the same as the issuing one. */
function receiving(bill: Bill): string {
  const field = bill.doc.posting!.transfer!;
  const depotId = blank(bill.head[field]) ? '' : String(bill.head[field]);
  if (!depotId) throw badRequest('请选择调入仓库');
  const headDepot = bill.doc.depotField ? bill.head[bill.doc.depotField] : undefined;
  if (bill.lines.some((l) => String(blank(l.depotId) ? (headDepot ?? '') : l.depotId) === depotId)) throw badRequest('调入仓库不能与调出仓库相同');
  return depotId;
}

/**
 * Both legs in one step lock every balance they touch first, in the fixed order (warehouse,
 * goods), so two transfers in opposite directions never wait on each other.
 */
export async function lockTransfer(services: Services, actor: Actor, bill: Bill): Promise<void> {
  const into = receiving(bill);
  const headDepot = bill.doc.depotField ? bill.head[bill.doc.depotField] : undefined;
  const pairs = bill.lines.flatMap((l) => [
    { depotId: String(blank(l.depotId) ? (headDepot ?? '') : l.depotId), commInfoId: String(l.commInfoId) },
    { depotId: into, commInfoId: String(l.commInfoId) },
  ]);
  await lockBalances(services, actor, pairs);
}

/** The entering leg: each leaving row of the bill, mirrored into the receiving warehouse at its value. */
export async function postTransferIn(services: Services, actor: Actor, bill: Bill): Promise<void> {
  const { store } = services;
  const ledger = services.internal.stockLedger;
  const into = receiving(bill);
  const out = await store.find(ledger, actor.tenantId, { where: { billId: String(bill.head.id), entry: 'post' } });
  if (!out.length) throw badRequest('单据尚未调出，不能调入');
  const order = new Map(bill.lines.map((l, i) => [String(l.id), i]));
  out.sort((a, b) => (order.get(String(a.lineId)) ?? 0) - (order.get(String(b.lineId)) ?? 0));
  const balances = await lockBalances(services, actor, out.map((r) => ({ depotId: into, commInfoId: String(r.commInfoId) })));
  const rows: Row[] = out.map((r) => {
    const balance = balances.get(balanceKey(into, String(r.commInfoId)))!;
    const qty = new Dec(String(r.qty)).neg();
    const value = new Dec(String(r.value)).neg();
    const { unitCost } = apply(balance, qty, value, bill.places.price);
    return {
      depotId: into,
      commInfoId: r.commInfoId,
      billType: r.billType,
      billId: r.billId,
      billNo: r.billNo,
      lineId: r.lineId,
      sourceLineId: null,
      entry: 'postin',
      qty: qty.toFixed(),
      value: value.toFixed(),
      unitCost: unitCost.toFixed(),
      balanceQty: balance.qty.toFixed(),
      balanceValue: balance.value.toFixed(),
      seq: balance.seq,
      postDate: bill.postDate ?? null,
    };
  });
  await store.insertMany(ledger, actor, rows);
  await saveBalances(services, actor, balances.values());
}
