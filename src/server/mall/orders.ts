/**
 * 商城订单 handled by staff: 确认 (the order approved), 发货 (a sales-out made from the order's open
 * lines with the courier number, submitted, approved and posted in one transaction: stock leaves
 * and the customer owes), 完成 (received). The order's mall status (mall_order_status) follows:
 * 6202 待发货 → 6203 待收货 → 6204 已完成; the buyer may also confirm receipt of its own order.
 */
import type { Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { mergeJsonBody, mustCaller, param, type Caller, type Ctx } from '../http/context.ts';
import { badRequest, forbidden, notFound } from '../errors.ts';
import { documentModel, loadBill, tenantPlaces } from '../engine/document/context.ts';
import { applyAction, saveBill } from '../engine/document/transitions.ts';
import { pullFromSource } from '../engine/document/sources.ts';
import { MALL_SOURCE } from '../sales/orders.ts';
import { memberSettingsOf, pointsEnabled } from '../marketing/members.ts';
import { changePoints } from '../marketing/points.ts';
import { Dec } from '../../shared/money/index.ts';

export const MALL_STATUS = { unpaid: '6201', toShip: '6202', shipped: '6203', done: '6204', cancelled: '6205', afterSale: '6206' } as const;
const APPROVED = '1304';
/** points_change_type 4 消费得积分. */
const EARNED = 4;

const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';

async function mallOrder(services: Services, caller: Caller, id: string | undefined): Promise<Row> {
  if (!id) throw badRequest('缺少参数 id');
  const order = await services.store.get(services.m('sales-order'), caller.tenantId, id);
  if (!order) throw notFound('订单不存在或已被删除');
  if (String(order.orderSource) !== MALL_SOURCE) throw badRequest('只有商城订单可以这样处理');
  return order;
}

/** Moves the mall status on, only from the state expected (a second click finds it moved and is refused). */
async function setMallStatus(services: Services, caller: Caller, order: Row, from: string, to: string): Promise<void> {
  const ok = await services.store.guardedUpdate(services.m('sales-order'), caller, String(order.id), { mallStatus: to }, { version: Number(order.version), where: { mallStatus: from } });
  if (!ok) throw badRequest('订单已被他人处理，请刷新后重试');
}

/**
 * 消费得积分: a received order earns its customer one point per 会员设置 每消费金额 of what was paid
 * (finalAmt; the remainder earns nothing), when member points are enabled.
 */
async function earnPoints(services: Services, caller: Caller, order: Row): Promise<void> {
  const settings = await memberSettingsOf(services, caller.tenantId);
  if (!pointsEnabled(settings) || blank(settings.earnAmt)) return;
  const per = new Dec(String(settings.earnAmt));
  if (!per.gt(0)) return;
  const points = new Dec(String(order.finalAmt ?? '0')).div(per).floor().toNumber();
  if (points <= 0) return;
  await changePoints(services, caller, { customerId: String(order.customerId), change: points, changeType: EARNED, reason: `商城订单 ${String(order.billNo)} 确认收货`, billId: String(order.id) });
}

export function registerMallOrderHandlers(services: Services) {
  const orders = () => documentModel(services, services.m('sales-order'));

  /** confirm (id, version): the order approved, ready to ship. */
  services.register('mall.confirm', async (ctx: Ctx) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const order = await mallOrder(services, caller, param(ctx, 'id'));
    return applyAction(services, caller, orders(), 'pass', { id: String(order.id), version: param(ctx, 'version') ?? order.version, remark: '商城订单确认' });
  });

  /** ship (id, courierNo): a posted sales-out of everything still open on the order. */
  services.register('mall.ship', async (ctx: Ctx) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const order = await mallOrder(services, caller, param(ctx, 'id'));
    if (String(order.mallStatus) !== MALL_STATUS.toShip) throw badRequest('订单不是待发货状态');
    if (String(order.billStatus) !== APPROVED) throw badRequest('请先确认订单，再发货');
    const courierNo = param(ctx, 'courierNo')?.trim() ?? '';
    if (Number(order.isSalesroom) !== 2 && !courierNo) throw badRequest('请填写快递单号', { fieldErrors: { courierNo: '请填写快递单号' } });
    const out = documentModel(services, services.m('sales-out'));
    const places = await tenantPlaces(services, caller.tenantId);
    const outId = await services.store.transaction(async () => {
      const draft = await pullFromSource(services, caller, out, String(order.id), places);
      if (!blank(courierNo)) draft.courierNo = courierNo;
      draft.remark = `商城订单 ${String(order.billNo)} 发货`;
      const saved = await saveBill(services, caller, out, 'submit', draft);
      const passed = await applyAction(services, caller, out, 'pass', { id: String(saved.id), version: saved.version, remark: '商城发货' });
      await applyAction(services, caller, out, 'accounting', { id: String(saved.id), version: passed.version });
      const now = await services.store.get(services.m('sales-order'), caller.tenantId, String(order.id));
      await setMallStatus(services, caller, now!, MALL_STATUS.toShip, MALL_STATUS.shipped);
      return String(saved.id);
    });
    return { order: await loadBill(services, caller, orders(), String(order.id)), salesOut: await loadBill(services, caller, out, outId) };
  });

  /** complete (id): received; staff for any mall order, a buyer for its own. */
  services.register('mall.complete', async (ctx: Ctx) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const order = await mallOrder(services, caller, param(ctx, 'id'));
    const [member] = await services.store.find(services.m('member'), caller.tenantId, { where: { memberId: caller.userId }, limit: 1 });
    if (member && String(member.customerId) !== String(order.customerId)) throw forbidden('只能确认自己的订单');
    if (!member) await services.perms.require(caller, 'salesOrder_audit');
    if (String(order.mallStatus) !== MALL_STATUS.shipped) throw badRequest('订单不是待收货状态');
    await services.store.transaction(async () => {
      await setMallStatus(services, caller, order, MALL_STATUS.shipped, MALL_STATUS.done);
      await earnPoints(services, caller, order);
    });
    return loadBill(services, caller, orders(), String(order.id));
  });
}
