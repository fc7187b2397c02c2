/**
 * The pricing engine fed from the database: the published campaigns, an order's base prices
 * (the customer's own price, else the retail price of 价格管理), the goods' tax rates and the
 * customer's coupon. Used by the mall's quote and order intake (src/server/mall/intake.ts).
 */
import type { Services } from '../services.ts';
import type { Actor, Row } from '../engine/store.ts';
import { badRequest } from '../errors.ts';
import { tenantPlaces } from '../engine/document/context.ts';
import { Dec, fixed, toDec, type Places } from '../../shared/money/index.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { LIVE_STATES } from './campaigns.ts';
import { COUPON, HELD } from './coupons.ts';
import { priceOrder, type Campaign, type CouponInput, type PriceInput, type Quote } from './pricing.ts';

const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';
const ON_SHELF = 2;
const text = (v: unknown) => (blank(v) ? null : String(v));

/** Published campaigns not yet over, with their lines, as the engine reads them. */
export async function liveCampaigns(services: Services, tenantId: string, now: string): Promise<Campaign[]> {
  const heads = (await services.store.find(services.m('marketing'), tenantId, { where: { billStatus: LIVE_STATES } })).filter((h) => String(h.endTime) >= now);
  if (!heads.length) return [];
  const lines = await services.store.find(services.m('marketing-body'), tenantId, { where: { headId: heads.map((h) => String(h.id)) } });
  return heads.map((h) => ({
    id: String(h.id),
    billNo: String(h.billNo ?? ''),
    name: String(h.marketingName ?? ''),
    kind: Number(h.marketingType),
    beginTime: String(h.beginTime),
    endTime: String(h.endTime),
    packagePrice: text(h.packagePrice),
    lines: lines
      .filter((l) => String(l.headId) === String(h.id))
      .map((l) => ({
        id: String(l.id),
        commInfoId: text(l.commInfoId),
        unitId: text(l.unitId),
        discountRate: text(l.discountRate),
        promoPrice: text(l.promoPrice),
        qty: text(l.qty),
        minQty: text(l.minQty),
        activityQty: text(l.activityQty),
        soldQty: text(l.soldQty),
        limitQty: text(l.limitQty),
        fullAmt: text(l.fullAmt),
        reduceAmt: text(l.reduceAmt),
      })),
  }));
}

export interface OrderLineIn {
  commInfoId: string;
  unitId?: string;
  qty: string;
}

export interface PricedOrder {
  quote: Quote;
  places: Places;
  goods: Map<string, Row>;
  coupon?: Row;
}

/** The lines an order asks for, checked: goods that exist, are on the shelf, and a quantity above zero. */
function readLines(raw: unknown): OrderLineIn[] {
  if (!Array.isArray(raw) || !raw.length) throw badRequest('请选择要购买的商品');
  return raw.map((line, i) => {
    const row = (line && typeof line === 'object' ? line : {}) as Row;
    if (blank(row.commInfoId)) throw badRequest(`第${i + 1}行：请选择商品`);
    const qty = blank(row.qty) ? undefined : toDec(String(row.qty).trim());
    if (!qty || !qty.gt(0)) throw badRequest(`第${i + 1}行：购买数量必须大于0`);
    return { commInfoId: String(row.commInfoId), unitId: blank(row.unitId) ? undefined : String(row.unitId), qty: qty.toString() };
  });
}

/** Prices an order for a customer at `now`: the engine's quote over the live campaigns and the coupon asked for. */
export async function priceForCustomer(services: Services, actor: Actor, customerId: string, rawLines: unknown, heldId: string | undefined, now = formatDateTime()): Promise<PricedOrder> {
  const { store } = services;
  const wanted = readLines(rawLines);
  const places = await tenantPlaces(services, actor.tenantId);
  const goodsIds = [...new Set(wanted.map((l) => l.commInfoId))];
  const goods = new Map((await store.find(services.m('goods'), actor.tenantId, { where: { id: goodsIds } })).map((g) => [String(g.id), g]));
  const lines: PriceInput[] = [];
  const own = new Map(
    (await store.find(services.m('customer-price'), actor.tenantId, { where: { commInfoId: goodsIds, bartererId: customerId, status: 1 } })).map((p) => [`${p.commInfoId}|${p.unitId}`, p]),
  );
  const list = new Map((await store.find(services.m('price-management'), actor.tenantId, { where: { commInfoId: goodsIds } })).map((p) => [`${p.commInfoId}|${p.unitId}`, p]));
  const customer = await store.get(services.m('customer'), actor.tenantId, customerId);
  const listed = (v: unknown) => String(v ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  wanted.forEach((line, i) => {
    const item = goods.get(line.commInfoId);
    if (!item || Number(item.status ?? 1) !== 1) throw badRequest(`第${i + 1}行：商品不存在或已停用`);
    const name = String(item.commInfoName ?? line.commInfoId);
    if (Number(item.isShelves) !== ON_SHELF) throw badRequest(`商品「${name}」未上架，不能在商城下单`);
    // 商品授权: goods shielded from this customer, its level or its range are not sold to it.
    const shielded =
      listed(item.alCustomerIds).includes(customerId) ||
      (!blank(customer?.levelId) && listed(item.alLevelIds).includes(String(customer!.levelId))) ||
      (!blank(customer?.rangeId) && listed(item.alRangeIds).includes(String(customer!.rangeId)));
    if (shielded) throw badRequest(`商品「${name}」不对您销售`);
    if (!blank(item.startQty) && new Dec(line.qty).lt(String(item.startQty)) && new Dec(String(item.startQty)).gt(0)) {
      throw badRequest(`商品「${name}」起订量为 ${new Dec(String(item.startQty)).toString()}`);
    }
    const unitId = line.unitId ?? String(item.saleUnit || item.unitId);
    const key = `${line.commInfoId}|${unitId}`;
    const price = own.get(key)?.finalPrice ?? list.get(key)?.retailPrice;
    if (blank(price)) throw badRequest(`商品「${name}」未设置零售价，不能在商城下单`);
    lines.push({ key: String(i), commInfoId: line.commInfoId, unitId, qty: fixed(line.qty, places.quantity), basePrice: fixed(new Dec(String(price)), places.price), taxRate: String(item.taxRate ?? '0'), name });
  });
  let coupon: Row | undefined;
  let couponIn: CouponInput | undefined;
  if (heldId) {
    const copy = await store.get(services.m('customer-coupon'), actor.tenantId, heldId);
    if (!copy || String(copy.customerId) !== customerId) throw badRequest('优惠券不存在或不属于该客户');
    if (Number(copy.useStatus) !== HELD.unused) throw badRequest(Number(copy.useStatus) === HELD.used ? '优惠券已使用' : '优惠券已作废');
    coupon = await store.get(services.m('coupon'), actor.tenantId, String(copy.couponId));
    if (!coupon || String(coupon.couponStatus) === COUPON.cancelled) throw badRequest('优惠券已作废');
    if (now < String(coupon.beginTime)) throw badRequest(`优惠券未到使用时间（${String(coupon.beginTime)} 起可用）`);
    if (now > String(coupon.endTime)) throw badRequest('优惠券已过期');
    couponIn = { heldId, name: String(coupon.couponName), type: Number(coupon.couponType), couponAmt: text(coupon.couponAmt), fullAmt: text(coupon.fullAmt), discountRate: text(coupon.discountRate), maxAmt: text(coupon.maxAmt) };
  }
  const quote = priceOrder(lines, await liveCampaigns(services, actor.tenantId, now), couponIn, places, now);
  return { quote, places, goods, coupon };
}
