/**
 * 商城下单: the calls a storefront makes, signed in as a buyer account (买家账号): quote (the cart
 * priced, nothing written) and intake (the order placed). An order is a sales order with
 * orderSource 2 and its mall part (self pickup at a salesroom, or delivery to a contact), its
 * lines priced by the pricing engine; in one transaction the campaign stock each line takes is
 * reserved (a conditional update: sold + qty ≤ campaign stock, so a flash sale is never
 * oversold), the coupon is used (at most once), the order is submitted and the participation
 * rows (customer-marketing) are written. Anything refused leaves nothing behind.
 */
import { sql } from 'kysely';
import type { Services } from '../services.ts';
import type { Actor, Row } from '../engine/store.ts';
import { mergeJsonBody, mustCaller, param, type Ctx } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { documentModel } from '../engine/document/context.ts';
import { saveBill } from '../engine/document/transitions.ts';
import { toDb } from '../engine/model.ts';
import { Dec, fixed } from '../../shared/money/index.ts';
import { KIND, kindName } from '../marketing/campaigns.ts';
import { useCustomerCoupon } from '../marketing/coupons.ts';
import { priceForCustomer } from '../marketing/quote.ts';
import type { Quote } from '../marketing/pricing.ts';
import { buyerOf } from './buyers.ts';
import { MALL_STATUS } from './orders.ts';
import { MALL_SOURCE } from '../sales/orders.ts';
import { SELF_PICKUP } from '../sales/receipt.ts';

const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';
const SALES_ORDER_TYPE = '0802';

/** Adds `qty` to a campaign line's sold quantity unless that would pass its campaign stock. */
async function reserve(services: Services, actor: Actor, bodyId: string, qty: string): Promise<boolean> {
  const model = services.m('marketing-body');
  const sold = model.fields.get('soldQty')!;
  const stock = model.fields.get('activityQty')!;
  const dialect = services.store.dialect;
  const raw = toDb(sold, qty, dialect);
  const amount = dialect === 'postgres' ? sql`cast(${raw} as numeric)` : sql`${raw}`;
  const result = await services.store.db
    .updateTable(model.table)
    .set({ [sold.column]: sql`${sql.ref(sold.column)} + ${amount}`, version: sql`version + 1` })
    .where('tenant_id', '=', actor.tenantId)
    .where('id', '=', bodyId)
    .where('is_deleted', '=', 0)
    .where((eb) => eb.or([eb(stock.column, 'is', null), eb(sql`${sql.ref(sold.column)} + ${amount}`, '<=', sql.ref(stock.column))]))
    .executeTakeFirst();
  services.store.invalidate(model.table);
  return Number(result.numUpdatedRows ?? 0) > 0;
}

/** The mall part of the order: a salesroom to pick up at, or a contact of the customer to deliver to. */
async function delivery(services: Services, actor: Actor, customerId: string, input: Row): Promise<Row> {
  if (Number(input.isSalesroom) === SELF_PICKUP) {
    if (blank(input.roomName)) throw badRequest('请选择自提门店', { fieldErrors: { roomName: '请选择自提门店' } });
    return { isSalesroom: SELF_PICKUP, roomName: input.roomName, roomAreaName: input.roomAreaName ?? null, roomAddress: input.roomAddress ?? null };
  }
  if (!blank(input.contactsId)) {
    const contact = await services.store.get(services.m('customer-contact'), actor.tenantId, String(input.contactsId));
    if (!contact || String(contact.customerId) !== customerId) throw badRequest('收货地址不存在', { fieldErrors: { contactsId: '收货地址不存在' } });
    return { isSalesroom: 1, contactsId: contact.id, contacts: contact.contacts, contactsPhone: contact.phone, contactsAreaName: contact.areaName, contactsAddress: contact.address };
  }
  if (blank(input.contacts) || blank(input.contactsPhone) || blank(input.contactsAddress)) throw badRequest('请填写收货人、电话和地址');
  return { isSalesroom: 1, contacts: input.contacts, contactsPhone: input.contactsPhone, contactsAreaName: input.contactsAreaName ?? null, contactsAddress: input.contactsAddress };
}

/** The warehouse mall orders ship from: the system parameter MALL_DEPOT_ID, else the first warehouse. */
async function mallDepot(services: Services, tenantId: string): Promise<string> {
  const [config] = await services.store.find(services.m('sysconfig'), tenantId, { where: { configKey: 'MALL_DEPOT_ID' }, limit: 1 });
  if (!blank(config?.configValue)) return String(config!.configValue);
  const [depot] = await services.store.find(services.m('depot'), tenantId, { limit: 1, orderBy: [{ column: 'create_time', dir: 'asc' }] });
  if (!depot) throw badRequest('还没有仓库，商城不能下单');
  return String(depot.id);
}

function refuseProblems(quote: Quote) {
  if (quote.problems.length) throw badRequest(quote.problems.join('；'), { problems: quote.problems });
}

/** A quote as the storefront shows it: each line's price, savings and rule, and the totals. */
function quoteView(quote: Quote) {
  return {
    lines: quote.lines.map((l) => ({
      commInfoId: l.commInfoId, unitId: l.unitId, qty: l.qty, basePrice: l.basePrice, taxPrice: l.taxPrice, discountRate: l.discountRate,
      totalAmt: l.totalAmt, couponAmt: l.couponAmt, finalAmt: l.finalAmt, marketingId: l.rule?.marketingId ?? null, ruleText: l.ruleText,
    })),
    orderPromotion: quote.orderPromotion ?? null,
    coupon: quote.coupon ?? null,
    totalAmt: quote.totalAmt,
    couponAmt: quote.couponAmt,
    finalAmt: quote.finalAmt,
    problems: quote.problems,
  };
}

export function registerIntakeHandlers(services: Services) {
  /** quote: the cart priced for the buyer (lines, couponId), nothing written. */
  services.register('mall.quote', async (ctx: Ctx) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const { customerId } = await buyerOf(services, caller);
    const { quote } = await priceForCustomer(services, caller, customerId, ctx.params.lines, param(ctx, 'couponId'));
    return quoteView(quote);
  });

  /** intake: the order placed, as quote prices it; refused whole when any line or the coupon cannot be had. */
  services.register('mall.intake', async (ctx: Ctx) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const { customerId } = await buyerOf(services, caller);
    const input = ctx.params as Row;
    const heldId = param(ctx, 'couponId');
    const { quote, places } = await priceForCustomer(services, caller, customerId, input.lines, heldId);
    refuseProblems(quote);
    const mall = await delivery(services, caller, customerId, input);
    const depotId = await mallDepot(services, caller.tenantId);
    const dm = documentModel(services, services.m('sales-order'));
    const names = new Map(quote.lines.map((l) => [l.key, l.name ?? l.commInfoId]));
    const { store } = services;
    const order = await store.transaction(async () => {
      for (const line of quote.lines) {
        const rule = line.rule;
        if (!rule || rule.kind === KIND.package) continue;
        if (!(await reserve(services, caller, rule.marketingBodyId, line.qty))) {
          throw badRequest(`「${names.get(line.key)}」的${kindName(rule.kind)}「${rule.name}」已抢光`);
        }
      }
      const bill = await saveBill(services, caller, dm, 'submit', {
        customerId,
        depotId,
        orderSource: MALL_SOURCE,
        remark: blank(input.remark) ? null : String(input.remark),
        ...mall,
        bodyList: quote.lines.map((l) => ({
          commInfoId: l.commInfoId,
          unitId: l.unitId,
          qty: l.qty,
          taxPrice: l.taxPrice,
          taxRate: l.taxRate,
          discountRate: l.discountRate,
          couponAmt: l.couponAmt,
          isGift: l.isGift ? 2 : 1,
          marketingId: l.rule?.marketingId ?? null,
          marketingBodyId: l.rule?.marketingBodyId ?? null,
          priceRule: l.ruleText,
        })),
      });
      const billId = String(bill.id);
      const billNo = String(bill.billNo);
      const head: Row = { mallStatus: MALL_STATUS.toShip };
      if (quote.coupon && heldId) {
        await useCustomerCoupon(services, caller, heldId, customerId, { id: billId, billNo, amount: quote.coupon.amount });
        head.customerCouponId = heldId;
      }
      if (quote.orderPromotion) head.orderMarketingId = quote.orderPromotion.marketingId;
      await store.update(dm.model, caller, billId, head, { includeReadonly: true });
      await store.insertMany(services.m('customer-marketing'), caller, participation(quote, customerId, billId, billNo, places.amount));
      return billId;
    });
    const saved = await store.get(dm.model, caller.tenantId, order);
    return { id: order, billNo: saved?.billNo ?? '', billStatus: saved?.billStatus ?? '', ...quoteView(quote) };
  });
}

/** One row per line a campaign priced (its saving against the base price) and one for the whole-order promotion. */
function participation(quote: Quote, customerId: string, billId: string, billNo: string, amountPlaces: number): Row[] {
  const common = { customerId, billId, billNo, billType: SALES_ORDER_TYPE };
  const rows: Row[] = quote.lines
    .filter((l) => l.rule)
    .map((l) => {
      const base = fixed(new Dec(l.basePrice).times(l.qty), amountPlaces);
      const saving = fixed(new Dec(base).minus(l.totalAmt).plus(l.packageShare), amountPlaces);
      return { ...common, marketingId: l.rule!.marketingId, marketingType: l.rule!.kind, marketingBodyId: l.rule!.marketingBodyId, commInfoId: l.commInfoId, qty: l.qty, promoAmt: saving, finalAmt: l.finalAmt };
    });
  const promo = quote.orderPromotion;
  if (promo) rows.push({ ...common, marketingId: promo.marketingId, marketingType: KIND.order, marketingBodyId: promo.marketingBodyId, commInfoId: null, qty: null, promoAmt: promo.reduceAmt, finalAmt: quote.finalAmt });
  return rows;
}
