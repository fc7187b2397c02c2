/**
 * Freight and shipping info on a bill head (fragment bill-freight: logistics company, courier
 * number, freight amount, freight note) for purchase orders, purchase-ins, sales orders and
 * sales-outs: saveFreight writes it, queryFreightInfo answers it. It is shipping information, so
 * it never touches the lines or the totals and is allowed on approved and posted bills; a
 * cancelled or reversed bill keeps what it had. One conditional update on id and version, like
 * every document action, so a stale version is refused and nothing is written.
 */
import type { Services } from '../services.ts';
import type { Ctx } from '../http/context.ts';
import { mustCaller, param } from '../http/context.ts';
import type { Actor, Row } from '../engine/store.ts';
import { badRequest, conflict, notFound, type ApiError } from '../errors.ts';
import { validateEntity } from '../engine/validate.ts';
import { fillLookups } from '../engine/lookups.ts';
import { documentModel, stateName, tenantPlaces, type DocumentModel } from '../engine/document/context.ts';
import { Dec, fixed, type Decimal } from '../../shared/money/index.ts';

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** States a bill no longer lives in: the targets of its cancel action and of a reversal (冲红). */
export function deadStates(dm: DocumentModel): Set<string> {
  return new Set(dm.doc.transitions.filter((t) => t.action === 'cancel' || t.effect === 'reverse').map((t) => t.to));
}

/** The version a call carries (query, form or JSON body), or undefined; a non-integer is refused. */
export function versionParam(ctx: Ctx): number | undefined {
  const body = (ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? ctx.body : {}) as Row;
  const text = param(ctx, 'version') ?? (blank(body.version) ? undefined : String(body.version));
  if (text === undefined) return undefined;
  const version = Number(text);
  if (!Number.isInteger(version)) throw badRequest('数据版本号(version)应为整数');
  return version;
}

/** A stale version, answered as the document engine answers it: who changed the bill, when, and its state now. */
export async function staleBill(services: Services, actor: Actor, dm: DocumentModel, row: Row): Promise<ApiError> {
  let who = '';
  if (!blank(row.updateUser)) {
    const user = await services.store.get(services.m('user'), actor.tenantId, String(row.updateUser));
    who = String(user?.realName ?? user?.name ?? user?.account ?? '');
  }
  const state = String(row[dm.doc.statusField] ?? '');
  return conflict(`单据已被${who || '他人'}于${row.updateTime}修改（当前状态：${stateName(services, dm, state)}），请刷新后重试`, {
    version: row.version,
    updateUser: who,
    updateTime: row.updateTime,
    status: state,
  });
}

/**
 * Changes head fields of one bill inside the caller's transaction: the bill is read, the stale
 * version refused first (as document actions do), then `check` sees the row, then one update
 * guarded by id, version and the state just read. Answers the row as it was before.
 */
export async function updateBillHead(
  services: Services,
  actor: Actor,
  dm: DocumentModel,
  id: string,
  version: number | undefined,
  patch: Row,
  check: (row: Row) => void,
): Promise<Row> {
  const { store } = services;
  const existing = await store.get(dm.model, actor.tenantId, id);
  if (!existing) throw notFound('单据不存在或已被删除');
  if (version !== undefined && Number(existing.version) !== version) throw await staleBill(services, actor, dm, existing);
  check(existing);
  if (dm.model.resource) validateEntity(dm.model.resource.entity, { ...existing, ...patch });
  const state = existing[dm.doc.statusField];
  const changed = await store.guardedUpdate(dm.model, actor, id, patch, { version: Number(existing.version), where: { [dm.doc.statusField]: state } });
  if (!changed) {
    const now = await store.get(dm.model, actor.tenantId, id);
    if (!now) throw notFound('单据不存在或已被删除');
    throw await staleBill(services, actor, dm, now);
  }
  return existing;
}

/** A field of the call: the JSON body's when it has the key (an empty value clears), else the query's or form's. */
function given(ctx: Ctx, name: string): { present: boolean; value: unknown } {
  const body = ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? (ctx.body as Row) : undefined;
  if (body && Object.prototype.hasOwnProperty.call(body, name)) return { present: true, value: body[name] };
  if (Object.prototype.hasOwnProperty.call(ctx.params, name)) return { present: true, value: ctx.params[name] };
  return { present: false, value: undefined };
}

const text = (v: unknown) => (blank(v) ? null : String(Array.isArray(v) ? v[v.length - 1] : v).trim() || null);

/** The freight amount as money: a non-negative decimal, rounded half-up at the tenant's amount places. */
function freightAmount(value: unknown, places: number): string | null {
  const raw = text(value);
  if (raw === null) return null;
  const refuse = (msg: string) => badRequest(msg, { fieldErrors: { freightAmt: msg } });
  let amount: Decimal;
  try {
    if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(raw)) throw new Error('not a number');
    amount = new Dec(raw);
  } catch {
    throw refuse('运费必须是不小于0的数字');
  }
  if (amount.isZero()) return fixed(new Dec(0), places);
  if (amount.isNegative()) throw refuse('运费不能为负数');
  return fixed(amount, places);
}

/** The freight fields of one bill as queryFreightInfo answers them. */
async function freightInfo(services: Services, actor: Actor, dm: DocumentModel, id: string): Promise<Row> {
  const head = await services.store.get(dm.model, actor.tenantId, id);
  if (!head) throw notFound('单据不存在或已被删除');
  await fillLookups(services, dm.model, actor.tenantId, [head]);
  const places = await tenantPlaces(services, actor.tenantId);
  const state = String(head[dm.doc.statusField] ?? '');
  return {
    id: head.id,
    billNo: head[dm.doc.numberField] ?? null,
    billType: head.billType ?? dm.doc.billType,
    billStatus: state,
    billStatusName: stateName(services, dm, state),
    bartererName: head.bartererName ?? null,
    version: head.version,
    logisticsCompanyId: head.logisticsCompanyId ?? null,
    logisticsCompanyName: head.logisticsCompanyName || null,
    courierNo: head.courierNo ?? null,
    freightAmt: blank(head.freightAmt) ? null : fixed(String(head.freightAmt), places.amount),
    // saveFreight takes the note as `remark`; it is stored apart from the bill's own remark.
    remark: head.freightRemark ?? null,
    freightRemark: head.freightRemark ?? null,
  };
}

export function registerFreightHandlers(services: Services) {
  /** POST saveFreight (query id, optional version; body logisticsCompanyId, courierNo, freightAmt, remark). */
  services.register('bill.saveFreight', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const dm = documentModel(services, model);
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    const version = versionParam(ctx);
    const places = await tenantPlaces(services, caller.tenantId);
    const patch: Row = {};
    const company = given(ctx, 'logisticsCompanyId');
    if (company.present) patch.logisticsCompanyId = text(company.value);
    const courier = given(ctx, 'courierNo');
    if (courier.present) patch.courierNo = text(courier.value);
    const amount = given(ctx, 'freightAmt');
    if (amount.present) patch.freightAmt = freightAmount(amount.value, places.amount);
    const note = given(ctx, 'remark').present ? given(ctx, 'remark') : given(ctx, 'freightRemark');
    if (note.present) patch.freightRemark = text(note.value);
    if (!Object.keys(patch).length) throw badRequest('请填写物流公司、快递单号、运费或备注');
    if (patch.logisticsCompanyId) {
      const found = await services.store.get(services.m('logistics-company'), caller.tenantId, String(patch.logisticsCompanyId));
      if (!found) throw badRequest('物流公司不存在或已被删除', { fieldErrors: { logisticsCompanyId: '物流公司不存在或已被删除' } });
    }
    const dead = deadStates(dm);
    await services.store.transaction(() =>
      updateBillHead(services, caller, dm, id, version, patch, (row) => {
        const state = String(row[dm.doc.statusField] ?? '');
        if (dead.has(state)) throw badRequest(`单据当前状态为「${stateName(services, dm, state)}」，不能保存运费信息`, { status: state });
      }),
    );
    return freightInfo(services, caller, dm, id);
  });

  /** GET queryFreightInfo (id): bill number, logistics company (id and name), courier number, freight and its note. */
  services.register('bill.queryFreightInfo', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    return freightInfo(services, caller, documentModel(services, model), id);
  });
}
