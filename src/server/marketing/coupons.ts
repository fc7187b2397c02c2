/**
 * 优惠券 (schemas/marketing/coupon.json): saving a coupon (its rule text, counters and status are
 * the server's), sending it to customers one by one or in bulk, cancelling it, and using a
 * customer's copy on a bill. Every change of a coupon's counters happens with the coupon row
 * locked (a version bump that concurrent senders wait on), so issued = sent + claimed + left and
 * used ≤ sent + claimed hold under any number of concurrent sends.
 */
import type { Services } from '../services.ts';
import type { Actor, Row } from '../engine/store.ts';
import { mergeJsonBody, mustCaller, param, idList, type Ctx } from '../http/context.ts';
import { badRequest, notFound } from '../errors.ts';
import { runOp } from '../engine/ops.ts';
import { tenantPlaces } from '../engine/document/context.ts';
import { Dec, fixed, toDec } from '../../shared/money/index.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { checkSubmitBody } from '../engine/precheck.ts';

export const COUPON_TYPE = { threshold: 1, discount: 2, voucher: 3 } as const;
export const COUPON = { draft: '9401', upcoming: '9402', issuing: '9403', allGone: '9404', disabled: '9405', expired: '9406', cancelled: '9407' } as const;
export const HELD = { unused: 1, used: 2, cancelled: 3 } as const;
const GET_SENT = 1;
const GET_CLAIMED = 2;
const BATCH = { running: 1, done: 2, stopped: 3 } as const;
/** Customers written per transaction: the coupon row stays locked for one chunk only. */
export const SEND_CHUNK = 500;

const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';
const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const num = (v: unknown) => Number(v ?? 0) || 0;

/** A coupon's status at `now`, from its times and what is left. */
export function couponStatusAt(coupon: Row, now: string): string {
  const stored = String(coupon.couponStatus ?? '');
  if (stored === COUPON.cancelled || stored === COUPON.disabled) return stored;
  if (now > String(coupon.endTime)) return COUPON.expired;
  if (num(coupon.unSendNum) <= 0) return COUPON.allGone;
  return now < String(coupon.beginTime) ? COUPON.upcoming : COUPON.issuing;
}

/** 满100减10, 满200打85折，最高减50, 代金券5元: the rule as the lists show it. */
export function couponRule(coupon: Row): string {
  const plain = (v: unknown) => new Dec(String(v ?? '0')).toString();
  const full = blank(coupon.fullAmt) ? '0' : plain(coupon.fullAmt);
  switch (Number(coupon.couponType)) {
    case COUPON_TYPE.threshold:
      return `满${full}减${plain(coupon.couponAmt)}`;
    case COUPON_TYPE.discount: {
      const rate = new Dec(String(coupon.discountRate)).div(10).toString();
      const head = full === '0' ? `打${rate}折` : `满${full}打${rate}折`;
      return blank(coupon.maxAmt) ? head : `${head}，最高减${plain(coupon.maxAmt)}`;
    }
    default:
      return `代金券${plain(coupon.couponAmt)}元`;
  }
}

function refuse(field: string, message: string): never {
  throw badRequest(message, { fieldErrors: { [field]: message } });
}

/** The coupon's money fields for its kind, at the tenant's places; the other kind's fields cleared. */
function ruleFields(body: Row, places: { amount: number; price: number }): Row {
  const money = (field: string, title: string, required: boolean): string | null => {
    if (blank(body[field])) {
      if (required) refuse(field, `请输入${title}`);
      return null;
    }
    const v = toDec(String(body[field]).trim());
    if (!v || !v.gt(0)) refuse(field, `${title}必须大于0`);
    return fixed(v, field === 'discountRate' ? places.price : places.amount);
  };
  switch (Number(body.couponType)) {
    case COUPON_TYPE.threshold: {
      const couponAmt = money('couponAmt', '面额', true)!;
      const fullAmt = money('fullAmt', '满额', true)!;
      if (!new Dec(couponAmt).lt(fullAmt)) refuse('couponAmt', '面额必须小于满额');
      return { couponAmt, fullAmt, discountRate: null, maxAmt: null };
    }
    case COUPON_TYPE.discount: {
      const discountRate = money('discountRate', '折扣', true)!;
      if (!new Dec(discountRate).lt(100)) refuse('discountRate', '折扣必须大于0且小于100（如 85 表示八五折）');
      return { couponAmt: null, fullAmt: money('fullAmt', '满额', false) ?? '0', discountRate, maxAmt: money('maxAmt', '最高优惠', false) };
    }
    case COUPON_TYPE.voucher:
      return { couponAmt: money('couponAmt', '面额', true), fullAmt: '0', discountRate: null, maxAmt: null };
    default:
      return refuse('couponType', '请选择优惠券类型');
  }
}

/**
 * Locks the coupon row for the open transaction: its version moves on with a conditional update
 * that a concurrent sender's must wait for. Answers the row as locked.
 */
async function lockCoupon(services: Services, actor: Actor, id: string): Promise<Row> {
  const model = services.m('coupon');
  for (let attempt = 0; attempt < 100; attempt++) {
    const row = await services.store.get(model, actor.tenantId, id);
    if (!row) throw notFound('优惠券不存在或已被删除');
    if (await services.store.guardedUpdate(model, actor, id, {}, { version: Number(row.version) })) return { ...row, version: Number(row.version) + 1 };
  }
  throw badRequest('优惠券正被频繁修改，请稍后重试');
}

/** Writes a locked coupon's new counters and the status they give. */
async function saveCounters(services: Services, actor: Actor, coupon: Row, counters: Row): Promise<Row> {
  const next = { ...coupon, ...counters };
  next.couponStatus = couponStatusAt(next, formatDateTime());
  const ok = await services.store.guardedUpdate(services.m('coupon'), actor, String(coupon.id), { ...counters, couponStatus: next.couponStatus }, { version: Number(coupon.version) });
  if (!ok) throw new Error('locked coupon changed under its lock');
  return { ...next, version: Number(coupon.version) + 1 };
}

interface SendOutcome {
  batchNo: string;
  total: number;
  sent: number;
  skipped: number;
  status: number;
  message: string;
}

/**
 * Sends one copy of a coupon to each customer, in chunks of SEND_CHUNK, as batch `batchNo`:
 * customers already in the batch, or holding as many copies as the per-customer limit, are
 * skipped; when the coupons run out the batch stops there and says so. The batch row (progress)
 * is committed after every chunk.
 */
export async function sendCoupon(services: Services, actor: Actor, couponId: string, customerIds: string[], batchNo: string, target: string): Promise<SendOutcome> {
  const { store } = services;
  const batches = services.m('coupon-batch');
  const held = services.m('customer-coupon');
  const [known] = await store.find(batches, actor.tenantId, { where: { batchNo }, limit: 1 });
  if (known && String(known.couponId) !== couponId) throw badRequest('发放批次号已用于另一张优惠券');
  const coupon = await store.get(services.m('coupon'), actor.tenantId, couponId);
  if (!coupon) throw notFound('优惠券不存在或已被删除');
  checkSendable(coupon);
  const batchId = known
    ? String(known.id)
    : String((await store.insert(batches, actor, { batchNo, couponId, target: target.slice(0, 200), total: customerIds.length, sent: 0, skipped: 0, batchStatus: BATCH.running, message: '' }, { includeReadonly: true })).id);
  if (known) await store.update(batches, actor, batchId, { total: customerIds.length, sent: 0, skipped: 0, batchStatus: BATCH.running, message: '' }, { includeReadonly: true });
  let sent = 0;
  let skipped = 0;
  let stopped = '';
  for (let from = 0; from < customerIds.length && !stopped; from += SEND_CHUNK) {
    // Between chunks other requests (the progress polls) get their turn, SQLite's calls being synchronous.
    if (from) await new Promise((resolve) => setImmediate(resolve));
    const chunk = customerIds.slice(from, from + SEND_CHUNK);
    await store.transaction(async () => {
      const locked = await lockCoupon(services, actor, couponId);
      try {
        checkSendable(locked);
      } catch (error) {
        stopped = (error as Error).message;
        return;
      }
      const copies = await store.find(held, actor.tenantId, { where: { couponId, customerId: chunk } });
      const inBatch = new Set(copies.filter((c) => String(c.batchNo) === batchNo).map((c) => String(c.customerId)));
      const count = new Map<string, number>();
      for (const c of copies) count.set(String(c.customerId), (count.get(String(c.customerId)) ?? 0) + 1);
      const limit = Math.max(1, num(locked.perLimit));
      const fresh = chunk.filter((c) => !inBatch.has(c) && (count.get(c) ?? 0) < limit);
      const left = num(locked.unSendNum);
      const take = fresh.slice(0, left);
      const now = formatDateTime();
      if (take.length) {
        await store.insertMany(held, actor, take.map((customerId) => ({ couponId, customerId, batchNo, getType: GET_SENT, getTime: now, useStatus: HELD.unused })));
        await saveCounters(services, actor, locked, { sendNum: num(locked.sendNum) + take.length, unSendNum: left - take.length });
      }
      sent += take.length;
      skipped += chunk.length - fresh.length;
      if (take.length < fresh.length) stopped = `优惠券剩余数量不足：已发 ${sent} 张，还有 ${customerIds.length - sent - skipped} 个客户未发`;
      await store.update(batches, actor, batchId, { sent, skipped, message: stopped }, { includeReadonly: true });
    });
  }
  const status = stopped ? BATCH.stopped : BATCH.done;
  const message = stopped || `发放 ${sent} 张${skipped ? `，跳过 ${skipped} 个客户（已在本批次中或已达每人限领）` : ''}`;
  await store.update(batches, actor, batchId, { sent, skipped, batchStatus: status, message }, { includeReadonly: true });
  return { batchNo, total: customerIds.length, sent, skipped, status, message };
}

function checkSendable(coupon: Row) {
  const status = String(coupon.couponStatus);
  if (status === COUPON.cancelled) throw badRequest('优惠券已作废，不能发放');
  if (status === COUPON.disabled) throw badRequest('优惠券已停用，不能发放');
  if (formatDateTime() > String(coupon.endTime)) throw badRequest('优惠券已过期，不能发放');
  if (num(coupon.unSendNum) <= 0) throw badRequest('优惠券已发完');
}

/** The customers a bulk send goes to: the given ids (each must exist), or a level, a range, or all active customers. */
async function recipients(services: Services, actor: Actor, ctx: Ctx): Promise<{ ids: string[]; target: string }> {
  const customers = services.m('customer');
  const raw = ctx.params.customerIds;
  const given = [...new Set(Array.isArray(raw) ? raw.map(String) : idList(raw === undefined || raw === null ? '' : String(raw)))];
  if (given.length) {
    const found = await services.store.find(customers, actor.tenantId, { where: { id: given } });
    if (found.length !== given.length) throw badRequest('所选客户不存在或已被删除', { fieldErrors: { customerIds: '所选客户不存在或已被删除' } });
    const names = found.slice(0, 3).map((c) => String(c.bartererName));
    return { ids: given, target: `客户：${names.join('、')}${found.length > 3 ? ` 等 ${found.length} 个` : ''}` };
  }
  const where: Row = { status: 1 };
  let target = '全部客户';
  const levelId = param(ctx, 'levelId');
  const rangeId = param(ctx, 'rangeId');
  if (levelId) {
    const level = await services.store.get(services.m('customer-level'), actor.tenantId, levelId);
    if (!level) throw badRequest('客户等级不存在', { fieldErrors: { levelId: '客户等级不存在' } });
    where.levelId = levelId;
    target = `客户等级：${String(level.levelName ?? level.customerLevelName ?? levelId)}`;
  }
  if (rangeId) {
    const range = await services.store.get(services.m('customer-range'), actor.tenantId, rangeId);
    if (!range) throw badRequest('客户范围不存在', { fieldErrors: { rangeId: '客户范围不存在' } });
    where.rangeId = rangeId;
    target = `${levelId ? `${target}，` : ''}客户范围：${String(range.crName ?? rangeId)}`;
  }
  if (!levelId && !rangeId && Number(param(ctx, 'all')) !== 2) throw badRequest('请选择发放对象：客户、客户等级、客户范围或全部客户');
  const rows = await services.store.find(customers, actor.tenantId, { where, orderBy: [{ column: 'id', dir: 'asc' }] });
  if (!rows.length) throw badRequest('没有符合条件的客户');
  return { ids: rows.map((r) => String(r.id)), target };
}

/**
 * Uses a customer's coupon on a bill: only an unused copy of that customer, of a coupon not
 * cancelled and within its times; the copy turns used (a conditional update: at most once) and
 * the coupon's used count moves with it, in the caller's transaction.
 */
export async function useCustomerCoupon(services: Services, actor: Actor, heldId: string, customerId: string, bill: { id: string; billNo: string; amount: string }): Promise<void> {
  const held = services.m('customer-coupon');
  const copy = await services.store.get(held, actor.tenantId, heldId);
  if (!copy || String(copy.customerId) !== customerId) throw badRequest('优惠券不存在或不属于该客户');
  if (Number(copy.useStatus) !== HELD.unused) throw badRequest(Number(copy.useStatus) === HELD.used ? '优惠券已使用' : '优惠券已作废');
  const coupon = await lockCoupon(services, actor, String(copy.couponId));
  const now = formatDateTime();
  if (String(coupon.couponStatus) === COUPON.cancelled) throw badRequest('优惠券已作废');
  if (now < String(coupon.beginTime)) throw badRequest(`优惠券未到使用时间（${String(coupon.beginTime)} 起可用）`);
  if (now > String(coupon.endTime)) throw badRequest('优惠券已过期');
  const used = await services.store.guardedUpdate(held, actor, heldId, { useStatus: HELD.used, useTime: now, useBillId: bill.id, useBillNo: bill.billNo, useAmt: bill.amount }, { version: Number(copy.version), where: { useStatus: HELD.unused } });
  if (!used) throw badRequest('优惠券已使用');
  await saveCounters(services, actor, coupon, { usedNum: num(coupon.usedNum) + 1 });
}

export function registerCouponHandlers(services: Services) {
  services.register('coupon.submit', async (ctx: Ctx, model) => {
    const caller = mustCaller(ctx);
    const body = { ...((ctx.body && typeof ctx.body === 'object' ? ctx.body : {}) as Row) };
    await checkSubmitBody(services, caller, model, body);
    const stored = blank(body.id) ? undefined : await services.store.get(model, caller.tenantId, String(body.id));
    if (!blank(body.id) && !stored) throw notFound('优惠券不存在或已被删除');
    if (stored && (num(stored.sendNum) + num(stored.receiveNum) > 0 || String(stored.couponStatus) === COUPON.cancelled)) {
      throw badRequest(String(stored.couponStatus) === COUPON.cancelled ? '已作废的优惠券不能修改' : '优惠券已发放，不能修改');
    }
    const merged = { ...(stored ?? {}), ...body };
    if (blank(merged.couponType)) merged.couponType = COUPON_TYPE.threshold;
    const places = await tenantPlaces(services, caller.tenantId);
    const rule = ruleFields(merged, places);
    const begin = String(merged.beginTime ?? '');
    const end = String(merged.endTime ?? '');
    if (DATETIME.test(begin) && DATETIME.test(end) && end <= begin) refuse('endTime', '结束时间必须晚于开始时间');
    ctx.body = { ...body, ...rule };
    return services.store.transaction(async () => {
      const saved = (await runOp(ctx, model, { path: 'submit', method: 'POST', op: 'submit' })).data as Row;
      const id = String(saved.id);
      const row = (await services.store.get(model, caller.tenantId, id))!;
      const counters = { sendNum: 0, receiveNum: 0, usedNum: 0, unSendNum: num(row.couponNum), useRule: couponRule(row), couponStatus: '' };
      counters.couponStatus = couponStatusAt({ ...row, ...counters }, formatDateTime());
      // The server's own fields of the row just saved, in the same save: its version stays the one the save gave.
      const col = (f: string) => model.fields.get(f)!.column;
      await services.store.db
        .updateTable(model.table)
        .set(Object.fromEntries(Object.entries(counters).map(([f, v]) => [col(f), v])))
        .where('tenant_id', '=', caller.tenantId)
        .where('id', '=', id)
        .execute();
      services.store.invalidate(model.table);
      return services.store.get(model, caller.tenantId, id);
    });
  });

  services.register('coupon.cancel', async (ctx: Ctx, model) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    const version = Number(param(ctx, 'version'));
    if (!Number.isInteger(version)) throw badRequest('缺少参数 version');
    const held = services.m('customer-coupon');
    return services.store.transaction(async () => {
      const coupon = await services.store.get(model, caller.tenantId, id);
      if (!coupon) throw notFound('优惠券不存在或已被删除');
      if (String(coupon.couponStatus) === COUPON.cancelled) throw badRequest('优惠券已作废');
      const ok = await services.store.guardedUpdate(model, caller, id, { couponStatus: COUPON.cancelled }, { version });
      if (!ok) throw badRequest('优惠券已被他人修改，请刷新后重试');
      const unused = await services.store.find(held, caller.tenantId, { where: { couponId: id, useStatus: HELD.unused } });
      if (unused.length) await services.store.updateMany(held, caller, unused.map((c) => ({ id: c.id, useStatus: HELD.cancelled })));
      return services.store.get(model, caller.tenantId, id);
    });
  });

  services.register('coupon.send', async (ctx: Ctx) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    if (blank(ctx.params.customerIds)) throw badRequest('请选择客户', { fieldErrors: { customerIds: '请选择客户' } });
    const { ids, target } = await recipients(services, caller, ctx);
    return sendCoupon(services, caller, id, ids, `S${Date.now()}${Math.random().toString(36).slice(2, 8)}`, target);
  });

  services.register('coupon.sendBatch', async (ctx: Ctx) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    const batchNo = param(ctx, 'batchNo') ?? `B${Date.now()}${Math.random().toString(36).slice(2, 8)}`;
    if (batchNo.length > 64) throw badRequest('发放批次号不能超过64个字符');
    const { ids, target } = await recipients(services, caller, ctx);
    return sendCoupon(services, caller, id, ids, batchNo, target);
  });

  services.register('coupon.sendBatchProgress', async (ctx: Ctx) => {
    const caller = mustCaller(ctx);
    const batchNo = param(ctx, 'batchNo');
    if (!batchNo) throw badRequest('缺少参数 batchNo');
    const [batch] = await services.store.find(services.m('coupon-batch'), caller.tenantId, { where: { batchNo }, limit: 1 });
    // Asked before the send has written its batch row: nothing done yet.
    if (!batch) return { batchNo, total: 0, sent: 0, skipped: 0, status: BATCH.running, message: '' };
    return { batchNo, total: num(batch.total), sent: num(batch.sent), skipped: num(batch.skipped), status: num(batch.batchStatus), message: String(batch.message ?? '') };
  });
}

/**
 * A buyer claims a coupon in the mall (领取): one copy, within the per-customer limit, taken from
 * what is left; counted as claimed (receiveNum), not sent. The coupon row is locked as for sends.
 */
export async function claimCoupon(services: Services, actor: Actor, couponId: string, customerId: string): Promise<Row> {
  const held = services.m('customer-coupon');
  return services.store.transaction(async () => {
    const locked = await lockCoupon(services, actor, couponId);
    if (String(locked.couponStatus) === COUPON.cancelled) throw badRequest('优惠券已作废，不能领取');
    if (formatDateTime() > String(locked.endTime)) throw badRequest('优惠券已过期，不能领取');
    if (num(locked.unSendNum) <= 0) throw badRequest('优惠券已领完');
    const copies = await services.store.count(held, actor.tenantId, { where: { couponId, customerId } });
    const limit = Math.max(1, num(locked.perLimit));
    if (copies >= limit) throw badRequest(`每人限领 ${limit} 张，您已领取`);
    const now = formatDateTime();
    const copy = await services.store.insert(held, actor, { couponId, customerId, batchNo: `R${now.replace(/\D/g, '')}${copies + 1}`, getType: GET_CLAIMED, getTime: now, useStatus: HELD.unused }, { includeReadonly: true });
    await saveCounters(services, actor, locked, { receiveNum: num(locked.receiveNum) + 1, unSendNum: num(locked.unSendNum) - 1 });
    return copy;
  });
}
