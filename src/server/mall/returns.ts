/**
 * 商城退货申请 (schemas/mall/mall-return.json): a request names lines of a shipped mall order and
 * how many of each come back; approving it makes, approves and posts the sales return from the
 * order's sales-out in one transaction (stock back, AR down). The order shows 售后中 while a
 * request waits, and its former mall status again once the request is decided.
 */
import type { LineCheck, Services } from '../services.ts';
import type { Actor, Row } from '../engine/store.ts';
import { mergeJsonBody, mustCaller, param, type Ctx } from '../http/context.ts';
import { badRequest, forbidden, notFound } from '../errors.ts';
import { documentModel, loadBill, tenantPlaces } from '../engine/document/context.ts';
import { applyAction, saveBill } from '../engine/document/transitions.ts';
import { pullFromSource } from '../engine/document/sources.ts';
import { lineRefusal, type LineProblem } from '../engine/document/lines.ts';
import { Dec, fixed, toDec, type Decimal } from '../../shared/money/index.ts';
import type { DocumentDef } from '../../shared/document.ts';
import { MALL_SOURCE } from '../sales/orders.ts';
import { MALL_STATUS } from './orders.ts';
import { buyerOf } from './buyers.ts';

const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';
const WAITING_OR_DONE = ['1302', '1304'];
const POSTED = '1306';
const INPUTS = new Set(['commInfoId', 'unitId', 'taxPrice', 'taxRate', 'taxRateId', 'discountRate', 'isGift', 'depotId', 'sourceBillId', 'sourceBillNo', 'sourceBillType', 'sourceBodyId', 'remark']);

/** Quantities already asked back per order line by other requests still waiting or approved. */
async function askedBack(services: Services, actor: Actor, orderId: string, exclude?: string): Promise<Map<string, Decimal>> {
  const heads = (await services.store.find(services.m('mall-return'), actor.tenantId, { where: { orderId, billStatus: WAITING_OR_DONE } })).filter((h) => String(h.id) !== exclude);
  const out = new Map<string, Decimal>();
  if (!heads.length) return out;
  for (const l of await services.store.find(services.m('mall-return-body'), actor.tenantId, { where: { headId: heads.map((h) => String(h.id)) } })) {
    const key = String(l.sourceBodyId);
    out.set(key, (out.get(key) ?? new Dec(0)).plus(String(l.qty)));
  }
  return out;
}

const checkReturnLines: LineCheck = async ({ services, actor, model, head, lines, existing }) => {
  const bill = { ...(existing ?? {}), ...head };
  if (blank(bill.orderId)) throw badRequest('请选择商城订单', { fieldErrors: { orderId: '请选择商城订单' } });
  const order = await services.store.get(services.m('sales-order'), actor.tenantId, String(bill.orderId));
  if (!order || String(order.orderSource) !== MALL_SOURCE) throw badRequest('商城订单不存在', { fieldErrors: { orderId: '商城订单不存在' } });
  const places = await tenantPlaces(services, actor.tenantId);
  const orderLines = new Map((await services.store.find(services.m('sales-order-body'), actor.tenantId, { where: { headId: String(order.id) } })).map((l) => [String(l.id), l]));
  const asked = await askedBack(services, actor, String(order.id), existing ? String(existing.id) : undefined);
  const problems: LineProblem[] = [];
  const seen = new Set<string>();
  let total = new Dec(0);
  lines.forEach((line, index) => {
    const id = blank(line.id) ? undefined : String(line.id);
    const fail = (field: string, message: string) => problems.push({ index, id, field, message: `第${index + 1}行：${message}` });
    const source = orderLines.get(String(line.sourceBodyId ?? ''));
    if (!source) return fail('sourceBodyId', '不是该订单的商品');
    if (seen.has(String(source.id))) return fail('sourceBodyId', '同一订单行只能退一次');
    seen.add(String(source.id));
    const qty = blank(line.qty) ? undefined : toDec(String(line.qty).trim());
    if (!qty || !qty.gt(0)) return fail('qty', '退货数量必须大于0');
    const returnable = new Dec(String(source.outQty ?? '0')).minus(asked.get(String(source.id)) ?? 0);
    if (qty.gt(returnable)) return fail('qty', `退货数量不能超过可退数量 ${fixed(Dec.max(returnable, 0), places.quantity)}`);
    const amount = fixed(new Dec(String(source.finalAmt ?? '0')).times(qty).div(String(source.qty)), places.amount);
    Object.assign(line, { commInfoId: source.commInfoId, unitId: source.unitId, orderQty: source.qty, taxPrice: source.taxPrice, qty: fixed(qty, places.quantity), returnAmt: amount });
    total = total.plus(amount);
  });
  if (problems.length) throw lineRefusal(model.resource!.document as DocumentDef, problems);
  Object.assign(head, { orderNo: order.billNo, customerId: order.customerId, returnAmt: fixed(total, places.amount), depotId: bill.depotId ?? order.depotId });
};

/** Saves and submits a request, the order turning 售后中 in the same transaction. */
async function submitRequest(services: Services, actor: Actor, input: Row): Promise<Row> {
  const dm = documentModel(services, services.m('mall-return'));
  const orders = services.m('sales-order');
  return services.store.transaction(async () => {
    const order = blank(input.orderId) ? undefined : await services.store.get(orders, actor.tenantId, String(input.orderId));
    const status = String(order?.mallStatus ?? '');
    if (order && status !== MALL_STATUS.afterSale && status !== MALL_STATUS.shipped && status !== MALL_STATUS.done) throw badRequest('只有已发货的商城订单可以申请退货');
    const saved = await saveBill(services, actor, dm, 'submit', input);
    if (order && status !== MALL_STATUS.afterSale) {
      await services.store.update(dm.model, actor, String(saved.id), { orderMallStatus: status }, { includeReadonly: true });
      await services.store.update(orders, actor, String(order.id), { mallStatus: MALL_STATUS.afterSale }, { includeReadonly: true });
    }
    return loadBill(services, actor, dm, String(saved.id));
  });
}

/** The order back to its status before the request, once no other request waits. */
async function restoreOrder(services: Services, actor: Actor, request: Row) {
  const waiting = (await services.store.find(services.m('mall-return'), actor.tenantId, { where: { orderId: String(request.orderId), billStatus: '1302' } })).filter((r) => String(r.id) !== String(request.id));
  if (waiting.length || blank(request.orderMallStatus)) return;
  await services.store.update(services.m('sales-order'), actor, String(request.orderId), { mallStatus: String(request.orderMallStatus) }, { includeReadonly: true });
}

/** The sales return for an approved request: from each sales-out of the order, the requested lines with their shares prorated. */
async function makeSalesReturn(services: Services, actor: Actor, request: Row, depotId: string, remark: string): Promise<Row> {
  const returns = documentModel(services, services.m('sales-return'));
  const outLines = await services.store.find(services.m('sales-out-body'), actor.tenantId, { where: { sourceBodyId: (request.bodyList as Row[]).map((l) => String(l.sourceBodyId)) } });
  const outs = new Map((outLines.length ? await services.store.find(services.m('sales-out'), actor.tenantId, { where: { id: [...new Set(outLines.map((l) => String(l.headId)))], billStatus: POSTED } }) : []).map((o) => [String(o.id), o]));
  const wanted = new Map((request.bodyList as Row[]).map((l) => [String(l.sourceBodyId), new Dec(String(l.qty))]));
  const byOrderLine = new Map(outLines.filter((l) => outs.has(String(l.headId))).map((l) => [String(l.id), String(l.sourceBodyId)]));
  const outIds = [...new Set(outLines.filter((l) => outs.has(String(l.headId))).map((l) => String(l.headId)))];
  if (!outIds.length) throw badRequest('该订单没有已记账的销售出库单，不能退货');
  if (outIds.length > 1) throw badRequest('该订单分多次出库，请在销售退货单中按出库单分别退货');
  const places = await tenantPlaces(services, actor.tenantId);
  const draft = await pullFromSource(services, actor, returns, outIds[0], places);
  draft.bodyList = (draft.bodyList as Row[])
    .filter((l) => wanted.has(byOrderLine.get(String(l.sourceBodyId)) ?? ''))
    .map((l) => {
      const qty = wanted.get(byOrderLine.get(String(l.sourceBodyId))!)!;
      const whole = new Dec(String(l.qty)).abs();
      // A partial return gives back its share of the line's savings; a whole one all of them.
      const share = qty.eq(whole) ? new Dec(String(l.couponAmt ?? '0')).abs() : new Dec(String(l.couponAmt ?? '0')).abs().times(qty).div(whole);
      // Only what the clerk would type: the engine computes the amounts from it.
      const typed = Object.fromEntries(Object.entries(l).filter(([k]) => INPUTS.has(k)));
      return { ...typed, qty: fixed(qty.neg(), places.quantity), couponAmt: fixed(share.neg(), places.amount) };
    });
  Object.assign(draft, { depotId, remark });
  const saved = await saveBill(services, actor, returns, 'submit', draft);
  const passed = await applyAction(services, actor, returns, 'pass', { id: String(saved.id), version: saved.version, depotId, remark });
  return applyAction(services, actor, returns, 'accounting', { id: String(saved.id), version: passed.version });
}

export function registerMallReturnHandlers(services: Services) {
  services.registerLineCheck('mall.returnLines', checkReturnLines);
  const requests = () => documentModel(services, services.m('mall-return'));

  services.register('mallReturn.submit', async (ctx: Ctx) => {
    const caller = mustCaller(ctx);
    return submitRequest(services, caller, (ctx.body && typeof ctx.body === 'object' ? ctx.body : ctx.params) as Row);
  });

  /** apply: the buyer's own request for its own shipped order. */
  services.register('mallReturn.apply', async (ctx: Ctx) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const { customerId } = await buyerOf(services, caller);
    const order = blank(ctx.params.orderId) ? undefined : await services.store.get(services.m('sales-order'), caller.tenantId, String(ctx.params.orderId));
    if (!order || String(order.customerId) !== customerId) throw forbidden('只能对自己的订单申请退货');
    const { orderId, lines, returnReason, remark } = ctx.params as Row;
    return submitRequest(services, caller, { orderId, returnReason, remark, bodyList: lines });
  });

  /** pass (id, version, depotId, remark): the sales return made and posted, the request approved. */
  services.register('mallReturn.pass', async (ctx: Ctx) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    const dm = requests();
    const request = await loadBill(services, caller, dm, id).catch(() => undefined);
    if (!request) throw notFound('退货申请不存在或已被删除');
    if (String(request.billStatus) !== '1302') throw badRequest('只有待审核的退货申请可以审核通过');
    const depotId = param(ctx, 'depotId') ?? String(request.depotId ?? '');
    if (!depotId) throw badRequest('请选择退回仓库', { fieldErrors: { depotId: '请选择退回仓库' } });
    const remark = param(ctx, 'remark') ?? '同意退货';
    await services.store.transaction(async () => {
      const salesReturn = await makeSalesReturn(services, caller, request, depotId, `商城退货申请 ${String(request.billNo)}：${remark}`);
      await applyAction(services, caller, dm, 'pass', { id, version: param(ctx, 'version') ?? request.version, remark, depotId });
      await services.store.update(dm.model, caller, id, { salesReturnId: String(salesReturn.id), salesReturnNo: String(salesReturn.billNo) }, { includeReadonly: true });
      await restoreOrder(services, caller, request);
    });
    return loadBill(services, caller, dm, id);
  });

  /** reject (id, version, remark): refused with a reason; the order's status comes back. */
  services.register('mallReturn.reject', async (ctx: Ctx) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    const dm = requests();
    const request = await services.store.get(dm.model, caller.tenantId, id);
    if (!request) throw notFound('退货申请不存在或已被删除');
    await services.store.transaction(async () => {
      await applyAction(services, caller, dm, 'reject', { id, version: param(ctx, 'version') ?? request.version, remark: param(ctx, 'remark') });
      await restoreOrder(services, caller, request);
    });
    return loadBill(services, caller, dm, id);
  });
}
