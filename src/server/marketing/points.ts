/**
 * 积分兑换 (schemas/marketing/points-exchange.json) and the points ledger behind it
 * (points-ledger, insert-only; points-balance, one row per customer). A customer's balance is the
 * sum of their ledger changes. Every change first locks the customer's balance row (a version
 * bump that concurrent changes wait on, as coupons.ts lockCoupon does), then checks and writes in
 * the same transaction: concurrent exchanges never spend more points than the customer has.
 */
import { sql } from 'kysely';
import type { Services } from '../services.ts';
import type { Actor, Row } from '../engine/store.ts';
import { mergeJsonBody, mustCaller, param, type Ctx } from '../http/context.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { fillLookups } from '../engine/lookups.ts';
import { nextId } from '../db/ids.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { memberSettingsOf, pointsEnabled } from './members.ts';

export const EXCHANGE = { toShip: 1, shipped: 2, cancelled: 3 } as const;
export const CHANGE = { adjust: 1, exchange: 2, refund: 3 } as const;
const IN_POINTS_MALL = 2;
const DISABLED = 2;
const MAX_CHANGE = 100_000_000;
const STALE = '数据已被他人修改，请刷新后重试';

const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';

function refuse(field: string, message: string): never {
  throw badRequest(message, { fieldErrors: { [field]: message } });
}

/** A whole number parameter, or undefined when it is missing or not one. */
function wholeParam(ctx: Ctx, name: string): number | undefined {
  const raw = param(ctx, name);
  if (raw === undefined || !/^-?\d+$/.test(raw.trim())) return undefined;
  return Number(raw);
}

function versionParam(ctx: Ctx): number {
  const version = wholeParam(ctx, 'version');
  if (version === undefined) throw badRequest('缺少参数 version');
  return version;
}

async function mustCustomer(services: Services, tenantId: string, customerId: string | undefined): Promise<Row> {
  if (!customerId) refuse('customerId', '请选择客户');
  const customer = await services.store.get(services.m('customer'), tenantId, customerId);
  if (!customer) refuse('customerId', '客户不存在或已被删除');
  return customer;
}

/**
 * Locks the customer's balance row for the open transaction (made on first use; a concurrent
 * maker wins and nothing is overwritten): its version moves on with a conditional update that a
 * concurrent change's must wait for. Answers the row as locked.
 */
async function lockBalance(services: Services, actor: Actor, customerId: string): Promise<Row> {
  const model = services.m('points-balance');
  const { store } = services;
  await store.upsertByKey(model, actor, [{ customerId, balance: 0 }], ['customerId'], { keepExisting: true });
  for (let attempt = 0; attempt < 100; attempt++) {
    const [row] = await store.find(model, actor.tenantId, { where: { customerId }, limit: 1 });
    if (!row) throw new Error('points balance row missing after upsert');
    if (await store.guardedUpdate(model, actor, String(row.id), {}, { version: Number(row.version) })) return { ...row, version: Number(row.version) + 1 };
  }
  throw badRequest('该客户的积分正被频繁变动，请稍后重试');
}

/** The customer's points: the sum of their ledger changes (read under the balance lock to be exact). */
async function ledgerSum(services: Services, tenantId: string, customerId: string): Promise<number> {
  const model = services.m('points-ledger');
  const change = model.fields.get('change')!.column;
  const customer = model.fields.get('customerId')!.column;
  const result = await sql<{ n: unknown }>`select coalesce(sum(${sql.ref(change)}), 0) as n from ${sql.table(model.table)}
    where tenant_id = ${tenantId} and ${sql.ref(customer)} = ${customerId}`.execute(services.store.db);
  return Number(result.rows[0]?.n ?? 0);
}

export interface PointsChange {
  customerId: string;
  change: number;
  changeType: number;
  reason: string;
  billId?: string | null;
}

/**
 * Adds a signed change to a customer's points, in the caller's transaction: locks the balance,
 * refuses a balance below zero ("积分不足：需要 N，可用 M"), writes the ledger row with the balance
 * after it and keeps the balance row equal to the ledger's sum. Answers the ledger row.
 */
export async function changePoints(services: Services, actor: Actor, c: PointsChange): Promise<Row> {
  const { store } = services;
  return store.transaction(async () => {
    const locked = await lockBalance(services, actor, c.customerId);
    const available = await ledgerSum(services, actor.tenantId, c.customerId);
    const after = available + c.change;
    if (after < 0) throw badRequest(`积分不足：需要 ${-c.change}，可用 ${available}`, { needed: -c.change, available });
    const row = await store.insert(services.m('points-ledger'), actor, { customerId: c.customerId, changeType: c.changeType, change: c.change, balanceAfter: after, reason: c.reason.slice(0, 200), billId: c.billId ?? null }, { includeReadonly: true });
    const saved = await store.guardedUpdate(services.m('points-balance'), actor, String(locked.id), { balance: after }, { version: Number(locked.version) });
    if (!saved) throw new Error('locked points balance changed under its lock');
    return row;
  });
}

/** Why a conditional update of an exchange changed nothing: gone, already moved on, or a stale version. */
async function explainExchange(services: Services, tenantId: string, id: string, refusals: Partial<Record<number, string>>): Promise<never> {
  const row = await services.store.get(services.m('points-exchange'), tenantId, id);
  if (!row) throw notFound('兑换记录不存在或已被删除');
  const message = refusals[Number(row.exchangeStatus)];
  throw message ? badRequest(message) : conflict(STALE);
}

async function answer(services: Services, tenantId: string, id: string): Promise<Row> {
  const model = services.m('points-exchange');
  const rows = await fillLookups(services, model, tenantId, [(await services.store.get(model, tenantId, id))!]);
  return rows[0];
}

export function registerPointsHandlers(services: Services) {
  const { store } = services;

  services.register('pointsExchange.exchange', async (ctx: Ctx, model) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const customer = await mustCustomer(services, caller.tenantId, param(ctx, 'customerId'));
    if (Number(customer.status) === DISABLED) refuse('customerId', '客户已停用，不能兑换');
    const customerId = String(customer.id);
    const goodsId = param(ctx, 'commInfoId');
    if (!goodsId) refuse('commInfoId', '请选择兑换商品');
    const qty = wholeParam(ctx, 'qty');
    if (qty === undefined || qty < 1 || qty > 9999) refuse('qty', '兑换数量必须是1到9999的整数');
    const memberId = param(ctx, 'memberId');
    if (memberId) {
      const member = await store.get(services.m('member'), caller.tenantId, memberId);
      if (!member || String(member.customerId) !== customerId) refuse('memberId', '会员不属于该客户');
    }
    const remark = param(ctx, 'remark') ?? null;
    if (remark && remark.length > 500) refuse('remark', '备注不能超过500个字符');
    const goods = await store.get(services.m('goods'), caller.tenantId, goodsId);
    if (!goods) refuse('commInfoId', '商品不存在或已被删除');
    const name = String(goods.commInfoName ?? '');
    if (Number(goods.isScore) !== IN_POINTS_MALL) refuse('commInfoId', `商品「${name}」不在积分商城中，不能兑换`);
    if (Number(goods.status) === DISABLED) refuse('commInfoId', `商品「${name}」已停用，不能兑换`);
    const unitPoints = Number(goods.score ?? 0);
    if (!(unitPoints > 0)) refuse('commInfoId', `商品「${name}」未设置兑换积分`);
    if (!pointsEnabled(await memberSettingsOf(services, caller.tenantId))) throw badRequest('会员积分未启用，不能兑换（营销管理 → 会员设置）');
    const points = unitPoints * qty;
    // Points first: the balance is checked under its lock before anything else is written.
    const id = nextId();
    await store.transaction(async () => {
      await changePoints(services, caller, { customerId, change: -points, changeType: CHANGE.exchange, reason: `兑换「${name}」×${qty}`, billId: id });
      await store.insert(model, caller, { id, customerId, memberId: memberId ?? null, commInfoId: goodsId, qty, unitPoints, points, exchangeStatus: EXCHANGE.toShip, exchangeTime: formatDateTime(), remark }, { includeReadonly: true });
    });
    return answer(services, caller.tenantId, id);
  });

  services.register('pointsExchange.ship', async (ctx: Ctx, model) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    const version = versionParam(ctx);
    const expressNo = param(ctx, 'expressNo')?.trim();
    if (!expressNo) refuse('expressNo', '请输入快递单号');
    if (expressNo.length > 50) refuse('expressNo', '快递单号不能超过50个字符');
    const ok = await store.guardedUpdate(model, caller, id, { exchangeStatus: EXCHANGE.shipped, expressNo, shipTime: formatDateTime() }, { version, where: { exchangeStatus: EXCHANGE.toShip } });
    if (!ok) await explainExchange(services, caller.tenantId, id, { [EXCHANGE.shipped]: '兑换记录已发货', [EXCHANGE.cancelled]: '已取消的兑换不能发货' });
    return answer(services, caller.tenantId, id);
  });

  services.register('pointsExchange.cancel', async (ctx: Ctx, model) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    const version = versionParam(ctx);
    await store.transaction(async () => {
      const ok = await store.guardedUpdate(model, caller, id, { exchangeStatus: EXCHANGE.cancelled }, { version, where: { exchangeStatus: EXCHANGE.toShip } });
      if (!ok) await explainExchange(services, caller.tenantId, id, { [EXCHANGE.shipped]: '已发货的兑换不能取消', [EXCHANGE.cancelled]: '兑换记录已取消' });
      const row = (await store.get(model, caller.tenantId, id))!;
      const goods = await store.get(services.m('goods'), caller.tenantId, String(row.commInfoId));
      await changePoints(services, caller, { customerId: String(row.customerId), change: Number(row.points), changeType: CHANGE.refund, reason: `取消兑换「${String(goods?.commInfoName ?? '')}」，积分退回`, billId: id });
    });
    return answer(services, caller.tenantId, id);
  });

  services.register('pointsLedger.adjust', async (ctx: Ctx, model) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const customer = await mustCustomer(services, caller.tenantId, param(ctx, 'customerId'));
    const change = wholeParam(ctx, 'change');
    if (change === undefined || change === 0 || Math.abs(change) > MAX_CHANGE) refuse('change', '积分变动必须是不为0的整数（增加为正，扣减为负）');
    const reason = param(ctx, 'reason')?.trim();
    if (!reason) refuse('reason', '请输入调整原因');
    if (reason.length > 200) refuse('reason', '原因不能超过200个字符');
    const row = await changePoints(services, caller, { customerId: String(customer.id), change, changeType: CHANGE.adjust, reason });
    const rows = await fillLookups(services, model, caller.tenantId, [(await store.get(model, caller.tenantId, String(row.id)))!]);
    return rows[0];
  });
}
