/**
 * 在线支付对账 (schemas/mall/online-payment.json): the mall reports each online payment (signed
 * with the channel's API key); each is recorded once per trade number and matched to its mall
 * order. A payment that agrees with the order becomes, in the same transaction, a posted 商城预收款
 * (0823) of the customer, which the order's sales-out consumes when it is posted; one that does
 * not is kept with the reason for finance to sort out and match again.
 */
import crypto from 'node:crypto';
import type { Services } from '../services.ts';
import type { Actor, Row } from '../engine/store.ts';
import { mergeJsonBody, mustCaller, param, type Ctx } from '../http/context.ts';
import { badRequest, forbidden, notFound } from '../errors.ts';
import { documentModel } from '../engine/document/context.ts';
import { applyAction, saveBill } from '../engine/document/transitions.ts';
import { tenantPlaces } from '../engine/document/context.ts';
import { Dec, fixed, toDec } from '../../shared/money/index.ts';
import { MALL_SOURCE } from '../sales/orders.ts';

export const MATCH = { booked: 1, amountDiffers: 2, noOrder: 3, paidTwice: 4 } as const;
const ENABLED = 2;
const MALL_PREPAYMENT = 2;
/** The settlement method (结算方式) a channel's money arrives by, by its seeded name. */
const CHANNEL_SETTLEMENT: Record<string, string> = { wechat: '微信', alipay: '支付宝', unionpay: '银行转账' };
const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';

/** The signature the mall puts on a payment: HMAC-SHA256 hex with the channel's API key. */
export function paymentSign(apiKey: string, p: { tenantId: string; payChannel: string; tradeNo: string; orderNo: string; payAmt: string; paidTime: string }): string {
  const text = [p.tenantId, p.payChannel, p.tradeNo, p.orderNo, p.payAmt, p.paidTime].join('|');
  return crypto.createHmac('sha256', apiKey).update(text).digest('hex');
}

/** The channel's API key when the channel is enabled (read past the secret filter: it never leaves the server). */
async function channelKey(services: Services, tenantId: string, channel: string): Promise<string | undefined> {
  const model = services.m('payment-config');
  const col = (name: string) => model.fields.get(name)!.column;
  const row = await services.store.db
    .selectFrom(model.table)
    .select([`${col('apiKey')} as apiKey`, `${col('enabled')} as enabled`])
    .where('tenant_id', '=', tenantId)
    .where(col('payChannel'), '=', channel)
    .where('is_deleted', '=', 0)
    .executeTakeFirst() as { apiKey?: string | null; enabled?: number | string | null } | undefined;
  if (!row || Number(row.enabled) !== ENABLED || blank(row.apiKey)) return undefined;
  return String(row.apiKey);
}

/**
 * Matches a recorded payment to its order; when it agrees, posts the mall prepayment. Runs inside
 * the caller's transaction; answers the fields to write on the payment.
 */
async function matchPayment(services: Services, actor: Actor, payment: Row): Promise<Row> {
  const places = await tenantPlaces(services, actor.tenantId);
  const [order] = await services.store.find(services.m('sales-order'), actor.tenantId, { where: { billNo: String(payment.orderNo), orderSource: MALL_SOURCE }, limit: 1 });
  if (!order) return { matchStatus: MATCH.noOrder, orderId: null, customerId: null, orderAmt: null, diffAmt: null, remark: '找不到该订单编号的商城订单' };
  const orderAmt = fixed(new Dec(String(order.finalAmt ?? '0')), places.amount);
  const diff = fixed(new Dec(String(payment.payAmt)).minus(orderAmt), places.amount);
  const found = { orderId: order.id, customerId: order.customerId, orderAmt, diffAmt: diff };
  const booked = (await services.store.find(services.m('online-payment'), actor.tenantId, { where: { orderId: String(order.id), matchStatus: MATCH.booked } })).filter((p) => String(p.id) !== String(payment.id));
  if (booked.length) return { ...found, matchStatus: MATCH.paidTwice, remark: `订单已有入账的支付 ${String(booked[0].tradeNo)}，请核实后退款` };
  if (!new Dec(diff).isZero()) return { ...found, matchStatus: MATCH.amountDiffers, remark: `支付金额与订单金额相差 ${diff}` };
  const channel = String(payment.payChannel);
  const [settlement] = await services.store.find(services.m('settlement'), actor.tenantId, { where: { settlementName: CHANNEL_SETTLEMENT[channel] ?? '银行转账' }, limit: 1 });
  if (!settlement) return { ...found, matchStatus: MATCH.amountDiffers, remark: `没有结算方式「${CHANNEL_SETTLEMENT[channel] ?? '银行转账'}」，请在结算方式中添加后重新对账` };
  const dm = documentModel(services, services.m('prepayment'));
  const saved = await saveBill(services, actor, dm, 'submit', {
    precpKind: MALL_PREPAYMENT,
    bartererId: order.customerId,
    settlementId: settlement.id,
    precpAmt: String(payment.payAmt),
    remark: `商城订单 ${String(order.billNo)} 在线支付 ${String(payment.tradeNo)}`,
  });
  const passed = await applyAction(services, actor, dm, 'pass', { id: String(saved.id), version: saved.version, remark: '在线支付自动入账' });
  await applyAction(services, actor, dm, 'accounting', { id: String(saved.id), version: passed.version });
  return { ...found, matchStatus: MATCH.booked, precpId: saved.id, precpNo: saved.billNo, remark: '' };
}

export function registerPaymentHandlers(services: Services) {
  const payments = () => services.m('online-payment');

  /** notify: a payment result from the mall, signed; recorded once per trade number. */
  services.register('onlinePay.notify', async (ctx: Ctx) => {
    mergeJsonBody(ctx);
    const p = {
      tenantId: param(ctx, 'tenantId') ?? '',
      payChannel: param(ctx, 'payChannel') ?? '',
      tradeNo: param(ctx, 'tradeNo') ?? '',
      orderNo: param(ctx, 'orderNo') ?? '',
      payAmt: param(ctx, 'payAmt') ?? '',
      paidTime: param(ctx, 'paidTime') ?? '',
    };
    if (Object.values(p).some((v) => !v)) throw badRequest('支付结果缺少参数：tenantId、payChannel、tradeNo、orderNo、payAmt、paidTime 都必须有');
    const amount = toDec(p.payAmt);
    if (!amount || !amount.gt(0)) throw badRequest('支付金额必须大于0');
    if (!DATETIME.test(p.paidTime)) throw badRequest('支付时间格式应为 yyyy-MM-dd HH:mm:ss');
    if (p.tradeNo.length > 64) throw badRequest('交易号不能超过64个字符');
    const key = await channelKey(services, p.tenantId, p.payChannel);
    if (!key) throw forbidden('支付渠道未启用');
    const sign = param(ctx, 'sign') ?? '';
    const expected = paymentSign(key, p);
    if (sign.length !== expected.length || !crypto.timingSafeEqual(Buffer.from(sign), Buffer.from(expected))) throw forbidden('支付结果签名不正确');
    // The mall's own record keeper: rows it writes belong to the tenant and name no user.
    const actor: Actor = { tenantId: p.tenantId, userId: '0' };
    const [known] = await services.store.find(payments(), p.tenantId, { where: { tradeNo: p.tradeNo }, limit: 1 });
    if (known) return { tradeNo: p.tradeNo, matchStatus: Number(known.matchStatus) };
    return services.store.transaction(async () => {
      const places = await tenantPlaces(services, p.tenantId);
      const row = await services.store.insert(payments(), actor, { payChannel: p.payChannel, tradeNo: p.tradeNo, orderNo: p.orderNo, payAmt: fixed(amount, places.amount), paidTime: p.paidTime }, { includeReadonly: true });
      const outcome = await matchPayment(services, actor, row);
      await services.store.update(payments(), actor, String(row.id), outcome, { includeReadonly: true });
      return { tradeNo: p.tradeNo, matchStatus: outcome.matchStatus };
    });
  });

  /** match (id): an unmatched payment matched again after the order was put right. */
  services.register('onlinePay.match', async (ctx: Ctx) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    return services.store.transaction(async () => {
      const payment = await services.store.get(payments(), caller.tenantId, id);
      if (!payment) throw notFound('支付记录不存在');
      if (Number(payment.matchStatus) === MATCH.booked) throw badRequest('该笔支付已入账');
      const outcome = await matchPayment(services, caller, payment);
      const ok = await services.store.guardedUpdate(payments(), caller, id, outcome, { version: Number(payment.version), where: { matchStatus: Number(payment.matchStatus) } });
      if (!ok) throw badRequest('该笔支付已被他人处理，请刷新后重试');
      return services.store.get(payments(), caller.tenantId, id);
    });
  });
}
