/**
 * A purchase order's whole process (purchaseWholeProcess): the order, then every inbound taken
 * from it, every return and invoice taken from those inbounds, with quantities and amounts at
 * each step; and its completion rate (purchaseCompletionRate): received of ordered. Payments come
 * with the finance module and are listed from its bills once they exist.
 */
import type { Services } from '../services.ts';
import { mustCaller, param } from '../http/context.ts';
import type { Actor, Row } from '../engine/store.ts';
import { badRequest, notFound } from '../errors.ts';
import { documentModel, stateName, tenantPlaces, type DocumentModel } from '../engine/document/context.ts';
import { Dec, fixed, type Decimal, type Places } from '../../shared/money/index.ts';

interface Step {
  step: string;
  resource: string;
  bills: Row[];
  qty: string;
  amount: string;
}

/** Bills of `dm` whose lines were taken from `sourceLineIds`, live ones only, with their taken quantity and amount. */
async function takenBy(services: Services, actor: Actor, dm: DocumentModel, sourceLineIds: string[], places: Places, title: string): Promise<{ step: Step; lineIds: string[] }> {
  const { store } = services;
  const lines = sourceLineIds.length ? await store.find(dm.lineModel!, actor.tenantId, { where: { sourceBodyId: sourceLineIds } }) : [];
  const heads = lines.length ? await store.find(dm.model, actor.tenantId, { where: { id: [...new Set(lines.map((l) => String(l.headId)))] } }) : [];
  const dead = new Set(dm.doc.transitions.filter((t) => t.action === 'cancel' || t.effect === 'reverse').map((t) => t.to));
  const live = new Map(heads.filter((h) => !dead.has(String(h[dm.doc.statusField]))).map((h) => [String(h.id), h]));
  const bills = new Map<string, Row>();
  let qty = new Dec(0);
  let amount = new Dec(0);
  const lineIds: string[] = [];
  for (const line of lines) {
    const head = live.get(String(line.headId));
    if (!head) continue;
    lineIds.push(String(line.id));
    const bill = bills.get(String(head.id)) ?? {
      id: head.id,
      billNo: head[dm.doc.numberField],
      billDate: head[dm.doc.dateField ?? 'billDate'],
      billStatus: head[dm.doc.statusField],
      billStatusName: stateName(services, dm, String(head[dm.doc.statusField] ?? '')),
      qty: new Dec(0),
      amount: new Dec(0),
    };
    bill.qty = (bill.qty as Decimal).plus(String(line.qty ?? '0'));
    bill.amount = (bill.amount as Decimal).plus(String(line.totalAmt ?? '0'));
    bills.set(String(head.id), bill);
    qty = qty.plus(String(line.qty ?? '0'));
    amount = amount.plus(String(line.totalAmt ?? '0'));
  }
  const shown = [...bills.values()].map((b) => ({ ...b, qty: fixed(b.qty as Decimal, places.quantity), amount: fixed(b.amount as Decimal, places.amount) }));
  return { step: { step: title, resource: dm.model.name, bills: shown, qty: fixed(qty, places.quantity), amount: fixed(amount, places.amount) }, lineIds };
}

export function registerPurchaseProcessHandlers(services: Services) {
  const order = () => documentModel(services, services.m('purchase-order'));

  services.register('purchaseOrder.wholeProcess', async (ctx) => {
    const caller = mustCaller(ctx);
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    const places = await tenantPlaces(services, caller.tenantId);
    const po = order();
    const head = await services.store.get(po.model, caller.tenantId, id);
    if (!head) throw notFound('采购订单不存在或已被删除');
    const lines = await services.store.find(po.lineModel!, caller.tenantId, { where: { headId: id } });
    const sum = (field: string) => lines.reduce((a, l) => a.plus(String(l[field] ?? '0')), new Dec(0));
    const inbound = await takenBy(services, caller, documentModel(services, services.m('purchase-in')), lines.map((l) => String(l.id)), places, '采购入库');
    const returned = await takenBy(services, caller, documentModel(services, services.m('purchase-return')), inbound.lineIds, places, '采购退货');
    const invoiced = await takenBy(services, caller, documentModel(services, services.m('purchase-invoice')), inbound.lineIds, places, '采购发票');
    return {
      order: {
        id: head.id,
        billNo: head.billNo,
        billDate: head.billDate,
        billStatus: head.billStatus,
        billStatusName: stateName(services, po, String(head.billStatus ?? '')),
        inStatus: head.inStatus ?? null,
        qty: fixed(sum('qty'), places.quantity),
        amount: fixed(sum('totalAmt'), places.amount),
      },
      steps: [inbound.step, returned.step, invoiced.step],
    };
  });

  /** Received of ordered, per approved order (or the one named by id), as a percentage with two places. */
  services.register('purchaseOrder.completionRate', async (ctx) => {
    const caller = mustCaller(ctx);
    const id = param(ctx, 'id');
    const places = await tenantPlaces(services, caller.tenantId);
    const po = order();
    const heads = await services.store.find(po.model, caller.tenantId, { where: id ? { id } : { billStatus: ['1304', '1309'] }, limit: 2000 });
    if (id && !heads.length) throw notFound('采购订单不存在或已被删除');
    const lines = heads.length ? await services.store.find(po.lineModel!, caller.tenantId, { where: { headId: heads.map((h) => String(h.id)) } }) : [];
    const total = (rows: Row[], field: string) => rows.reduce((a, l) => a.plus(String(l[field] || '0')), new Dec(0));
    const rate = (done: Decimal, all: Decimal) => (all.isZero() ? '0.00' : fixed(done.div(all).times(100), 2));
    const orders = heads.map((h) => {
      const own = lines.filter((l) => String(l.headId) === String(h.id));
      const ordered = total(own, 'qty');
      const received = total(own, 'inQty');
      return { id: h.id, billNo: h.billNo, orderedQty: fixed(ordered, places.quantity), receivedQty: fixed(received, places.quantity), rate: rate(received, ordered) };
    });
    const ordered = total(lines, 'qty');
    const received = total(lines, 'inQty');
    return { orderedQty: fixed(ordered, places.quantity), receivedQty: fixed(received, places.quantity), rate: rate(received, ordered), orders };
  });
}
