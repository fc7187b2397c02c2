/**
 * The storefront's coupon calls, signed in as a buyer account: the coupons on offer, claiming one
 * (领取), and the buyer's own coupons to choose from at checkout.
 */
import type { Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { mergeJsonBody, mustCaller, param, type Ctx } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { fillLookups } from '../engine/lookups.ts';
import { claimCoupon, COUPON, HELD } from '../marketing/coupons.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { buyerOf } from './buyers.ts';

export function registerMallCouponHandlers(services: Services) {
  /** offers: coupons a buyer can claim now (on offer, not over, some left). */
  services.register('mallCoupon.offers', async (ctx: Ctx) => {
    const caller = mustCaller(ctx);
    await buyerOf(services, caller);
    const now = formatDateTime();
    const rows = await services.store.find(services.m('coupon'), caller.tenantId, { where: { couponStatus: [COUPON.upcoming, COUPON.issuing] } });
    return rows
      .filter((c) => String(c.endTime) >= now && Number(c.unSendNum) > 0)
      .map((c) => ({ id: c.id, couponName: c.couponName, couponType: c.couponType, useRule: c.useRule, beginTime: c.beginTime, endTime: c.endTime, perLimit: c.perLimit, left: c.unSendNum }));
  });

  /** receive (couponId): one copy for the buyer's customer. */
  services.register('mallCoupon.receive', async (ctx: Ctx) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const { customerId } = await buyerOf(services, caller);
    const couponId = param(ctx, 'couponId', 'id');
    if (!couponId) throw badRequest('缺少参数 couponId');
    return claimCoupon(services, caller, couponId, customerId);
  });

  /** mine: the buyer's unused coupons still valid, to choose one at checkout (couponId of quote/intake). */
  services.register('mallCoupon.mine', async (ctx: Ctx) => {
    const caller = mustCaller(ctx);
    const { customerId } = await buyerOf(services, caller);
    const held = services.m('customer-coupon');
    const rows = await services.store.find(held, caller.tenantId, { where: { customerId, useStatus: HELD.unused } });
    await fillLookups(services, held, caller.tenantId, rows);
    const now = formatDateTime();
    return rows.filter((r: Row) => String(r.endTime ?? '') >= now);
  });
}
