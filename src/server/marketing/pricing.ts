/**
 * The pricing engine of sales and mall lines (README “营销定价”): given an order's lines at their
 * base prices (the customer's own price, else the retail price), the campaigns in force and
 * perhaps a coupon, it says what each line is charged and why. Pure: no database, no clock (the
 * caller passes `now`), exact decimals throughout, every reduction allocated so the shares add up
 * to it to the cent.
 *
 * Order of precedence:
 * 1. Each line takes at most one line rule, the first that applies of 秒杀 > 团购 > 预售 > 套餐 >
 *    特价 > 商品促销; a line no rule takes stays at its base price.
 *    - 秒杀, 团购, 预售, 特价 set the unit price to the campaign price; 商品促销 sets the line's
 *      discount rate. A line over the per-order limit, or over the campaign stock left, is a problem
 *      (the order is refused), never silently charged another price. 团购 applies from its
 *      minimum quantity; below it the next rule is tried.
 *    - 套餐 applies when the order holds every goods of the package in whole sets (each line's
 *      quantity = sets × the package's quantity of it): the saving, Σ base totals − sets × package
 *      price, is allocated over those lines by their totals as 优惠金额.
 * 2. 整单促销: over the lines not priced by 秒杀 (flash-sale goods take no further saving), the
 *    subtotal after step 1 picks, among every whole-order campaign in force, the tier with the
 *    largest saving whose threshold it reaches; the saving is allocated over those lines by
 *    what each still costs.
 * 3. 优惠券: on what those lines cost after step 2; its threshold is checked against that, its
 *    amount (a 折扣券's capped at its 最高优惠, any coupon's at what is left) allocated likewise.
 * Gift lines are free and take part in nothing. A line's 优惠金额 (couponAmt) is the sum of its
 * package, whole-order and coupon shares, so final = total − 优惠金额 as on every bill.
 */
import { allocate, computeLine, Dec, fixed, type Places } from '../../shared/money/index.ts';
import { KIND, kindName } from './campaigns.ts';
import { COUPON_TYPE } from './coupons.ts';

export interface PriceInput {
  /** The caller's own key for the line (its index when blank). */
  key?: string;
  commInfoId: string;
  unitId: string;
  qty: string;
  /** Tax-inclusive base unit price: the customer's own price, else the retail price. */
  basePrice: string;
  taxRate: string;
  isGift?: boolean;
  /** For messages. */
  name?: string;
}

export interface CampaignLine {
  id: string;
  commInfoId?: string | null;
  unitId?: string | null;
  discountRate?: string | null;
  promoPrice?: string | null;
  qty?: string | null;
  minQty?: string | null;
  activityQty?: string | null;
  soldQty?: string | null;
  limitQty?: string | null;
  fullAmt?: string | null;
  reduceAmt?: string | null;
}

export interface Campaign {
  id: string;
  billNo: string;
  name: string;
  kind: number;
  beginTime: string;
  endTime: string;
  packagePrice?: string | null;
  lines: CampaignLine[];
}

export interface CouponInput {
  /** The customer's copy (customer-coupon id). */
  heldId: string;
  name: string;
  type: number;
  couponAmt?: string | null;
  fullAmt?: string | null;
  discountRate?: string | null;
  maxAmt?: string | null;
}

export interface LineRule {
  kind: number;
  marketingId: string;
  marketingBodyId: string;
  billNo: string;
  name: string;
}

export interface PricedLine extends PriceInput {
  taxPrice: string;
  discountRate: string | null;
  totalAmt: string;
  packageShare: string;
  orderShare: string;
  couponShare: string;
  couponAmt: string;
  finalAmt: string;
  /** The line rule that priced it, if any. */
  rule?: LineRule;
  /** Every rule that touched the line, as the line shows it (特价 MK…：9.90；整单满减分摊 3.00). */
  ruleText: string;
}

export interface Quote {
  lines: PricedLine[];
  orderPromotion?: { marketingId: string; marketingBodyId: string; billNo: string; name: string; fullAmt: string; reduceAmt: string };
  coupon?: { heldId: string; name: string; amount: string };
  /** Σ line totals after line rules (before 优惠金额). */
  totalAmt: string;
  /** Σ 优惠金额: package, whole-order and coupon savings. */
  couponAmt: string;
  finalAmt: string;
  /** Why the order cannot be placed as it is (over a limit, stock gone, coupon threshold not met). */
  problems: string[];
}

const PRECEDENCE = [KIND.flash, KIND.group, KIND.presale, KIND.special, KIND.goods];
const dec = (v: unknown) => new Dec(v === null || v === undefined || v === '' ? '0' : String(v));
const has = (v: unknown) => v !== null && v !== undefined && String(v).trim() !== '';

/** Campaigns in force at `now` (the caller passes only published ones). */
export function inForce(campaigns: Campaign[], now: string): Campaign[] {
  return campaigns.filter((c) => c.beginTime <= now && now <= c.endTime);
}

export function priceOrder(input: PriceInput[], campaigns: Campaign[], coupon: CouponInput | undefined, places: Places, now: string): Quote {
  const active = inForce(campaigns, now);
  const problems: string[] = [];
  const label = (line: PriceInput) => `「${line.name ?? line.commInfoId}」`;
  const matches = (c: Campaign, line: PriceInput) => c.lines.find((l) => l.commInfoId === line.commInfoId && l.unitId === line.unitId);

  // Step 1: one line rule per line.
  const priced = input.map((line, index) => {
    const state = { line, key: line.key ?? String(index), taxPrice: line.basePrice, discountRate: null as string | null, rule: undefined as LineRule | undefined, packageShare: '0' };
    if (line.isGift) return state;
    const qty = dec(line.qty);
    for (const kind of PRECEDENCE) {
      const hit = active.filter((c) => c.kind === kind).map((c) => ({ c, l: matches(c, line) })).find((x) => x.l);
      if (!hit?.l) continue;
      const { c, l } = hit;
      if (kind === KIND.group && has(l.minQty) && qty.lt(dec(l.minQty))) continue;
      if (has(l.limitQty) && qty.gt(dec(l.limitQty))) problems.push(`${label(line)}参加${kindName(kind)}「${c.name}」，每单限购 ${dec(l.limitQty).toString()}`);
      if (has(l.activityQty)) {
        const left = Dec.max(0, dec(l.activityQty).minus(dec(l.soldQty)));
        if (qty.gt(left)) problems.push(left.isZero() ? `${label(line)}的${kindName(kind)}「${c.name}」已抢光` : `${label(line)}的${kindName(kind)}「${c.name}」仅剩 ${left.toString()}`);
      }
      if (kind === KIND.goods) state.discountRate = fixed(dec(l.discountRate), places.price);
      else state.taxPrice = fixed(dec(l.promoPrice), places.price);
      state.rule = { kind, marketingId: c.id, marketingBodyId: l.id, billNo: c.billNo, name: c.name };
      break;
    }
    return state;
  });

  const figures = (i: number, couponAmt = '0') => {
    const s = priced[i];
    return computeLine({ qty: s.line.qty, taxPrice: s.taxPrice, taxRate: s.line.taxRate, discountRate: s.discountRate ?? undefined, couponAmt, isGift: s.line.isGift }, places);
  };
  const totals = priced.map((_, i) => figures(i).totalAmt);

  // 套餐: whole sets of every component, on lines no other rule took.
  for (const c of active.filter((x) => x.kind === KIND.package && has(x.packagePrice))) {
    const parts = c.lines.map((l) => ({ l, i: priced.findIndex((s) => !s.rule && !s.line.isGift && s.line.commInfoId === l.commInfoId && s.line.unitId === l.unitId) }));
    if (!parts.length || parts.some((p) => p.i < 0 || !dec(p.l.qty).gt(0))) continue;
    const sets = dec(priced[parts[0].i].line.qty).div(dec(parts[0].l.qty));
    if (!sets.isInteger() || !sets.gt(0) || parts.some((p) => !dec(priced[p.i].line.qty).eq(sets.times(dec(p.l.qty))))) continue;
    const base = parts.reduce((sum, p) => sum.plus(totals[p.i]), new Dec(0));
    const saving = base.minus(sets.times(dec(c.packagePrice)));
    if (!saving.gt(0)) continue;
    const shares = allocate(fixed(saving, places.amount), parts.map((p) => totals[p.i]), places.amount);
    parts.forEach((p, k) => {
      priced[p.i].packageShare = shares[k];
      priced[p.i].rule = { kind: KIND.package, marketingId: c.id, marketingBodyId: p.l.id, billNo: c.billNo, name: c.name };
    });
  }

  // Steps 2 and 3 over the lines that take further savings.
  const open = priced.map((s, i) => ({ s, i })).filter(({ s }) => !s.line.isGift && s.rule?.kind !== KIND.flash);
  const left = (i: number, ...shares: string[]) => shares.reduce((v, x) => v.minus(x), dec(totals[i]));
  const orderShares = new Map<number, string>();
  let orderPromotion: Quote['orderPromotion'];
  const subtotal = open.reduce((sum, { s, i }) => sum.plus(left(i, s.packageShare)), new Dec(0));
  for (const c of active.filter((x) => x.kind === KIND.order)) {
    for (const tier of c.lines) {
      if (!has(tier.fullAmt) || !has(tier.reduceAmt) || subtotal.lt(dec(tier.fullAmt))) continue;
      if (orderPromotion && !dec(tier.reduceAmt).gt(orderPromotion.reduceAmt)) continue;
      orderPromotion = { marketingId: c.id, marketingBodyId: tier.id, billNo: c.billNo, name: c.name, fullAmt: fixed(dec(tier.fullAmt), places.amount), reduceAmt: fixed(dec(tier.reduceAmt), places.amount) };
    }
  }
  if (orderPromotion && open.length) {
    const shares = allocate(orderPromotion.reduceAmt, open.map(({ s, i }) => left(i, s.packageShare)), places.amount);
    open.forEach(({ i }, k) => orderShares.set(i, shares[k]));
  }

  const couponShares = new Map<number, string>();
  let couponOut: Quote['coupon'];
  if (coupon) {
    const base = open.reduce((sum, { s, i }) => sum.plus(left(i, s.packageShare, orderShares.get(i) ?? '0')), new Dec(0));
    const threshold = dec(coupon.fullAmt);
    if (!open.length) problems.push(`优惠券「${coupon.name}」不能用于秒杀商品与赠品`);
    else if (coupon.type !== COUPON_TYPE.voucher && base.lt(threshold)) problems.push(`未满足优惠券「${coupon.name}」的使用条件：满 ${threshold.toString()} 可用，本单可用金额 ${fixed(base, places.amount)}`);
    else {
      let amount = coupon.type === COUPON_TYPE.discount ? base.times(new Dec(100).minus(dec(coupon.discountRate))).div(100) : dec(coupon.couponAmt);
      if (coupon.type === COUPON_TYPE.discount && has(coupon.maxAmt)) amount = Dec.min(amount, dec(coupon.maxAmt));
      amount = Dec.min(amount, base);
      const total = fixed(amount, places.amount);
      const shares = allocate(total, open.map(({ s, i }) => left(i, s.packageShare, orderShares.get(i) ?? '0')), places.amount);
      open.forEach(({ i }, k) => couponShares.set(i, shares[k]));
      couponOut = { heldId: coupon.heldId, name: coupon.name, amount: total };
    }
  }

  const lines: PricedLine[] = priced.map((s, i) => {
    const orderShare = orderShares.get(i) ?? fixed(0, places.amount);
    const couponShare = couponShares.get(i) ?? fixed(0, places.amount);
    const packageShare = fixed(dec(s.packageShare), places.amount);
    const saving = fixed(dec(packageShare).plus(orderShare).plus(couponShare), places.amount);
    const f = figures(i, saving);
    const notes: string[] = [];
    if (s.rule && s.rule.kind !== KIND.package) notes.push(s.rule.kind === KIND.goods ? `${kindName(s.rule.kind)}「${s.rule.name}」${s.discountRate}%` : `${kindName(s.rule.kind)}「${s.rule.name}」${f.taxPrice}`);
    if (s.rule?.kind === KIND.package) notes.push(`套餐「${s.rule.name}」优惠 ${packageShare}`);
    if (!dec(orderShare).isZero()) notes.push(`整单促销「${orderPromotion!.name}」分摊 ${orderShare}`);
    if (!dec(couponShare).isZero()) notes.push(`优惠券「${coupon!.name}」分摊 ${couponShare}`);
    return {
      ...s.line,
      key: s.key,
      taxPrice: f.taxPrice,
      discountRate: s.discountRate,
      totalAmt: f.totalAmt,
      packageShare,
      orderShare,
      couponShare,
      couponAmt: f.couponAmt,
      finalAmt: f.finalAmt,
      rule: s.rule,
      ruleText: notes.length ? notes.join('；') : s.line.isGift ? '赠品' : '原价',
    };
  });
  const sum = (field: 'totalAmt' | 'couponAmt' | 'finalAmt') => fixed(lines.reduce((v, l) => v.plus(l[field]), new Dec(0)), places.amount);
  return { lines, orderPromotion, coupon: couponOut, totalAmt: sum('totalAmt'), couponAmt: sum('couponAmt'), finalAmt: sum('finalAmt'), problems };
}
