/**
 * The lifecycle of a bill, declared by its transition table: saving (draft, submit) and the
 * actions on a saved bill (approve, reject, post, cancel, flush, remove). Each is one conditional
 * update on id, version and status; on refusal nothing is written and the answer says why (who
 * changed the bill and when, or which states allow the action). Every action is recorded.
 */
import type { Services } from '../../services.ts';
import type { Actor, Row } from '../store.ts';
import type { TransitionDef } from '../../../shared/document.ts';
import { documentFor, NEW_BILL, variantOf } from '../../../shared/document.ts';
import { badRequest, conflict, notFound, type ApiError } from '../../errors.ts';
import { formatDateTime } from '../../../shared/dates.ts';
import { validateEntity } from '../validate.ts';
import { checkReferences } from '../references.ts';
import { applyDefaults, requireVersion, stripReadonly } from '../records.ts';
import { lineFields, saveLines, validateLines } from '../lines.ts';
import { generateBillNo, MALL_NUMBER_INFIX } from '../../system/config.ts';
import { postBill, reverseBill } from '../../posting/index.ts';
import { refreshBill } from '../materialized.ts';
import { closedPeriods, type ClosedPeriod } from '../../posting/periods.ts';
import { allocateBillFees, billTotals, computeBillLines } from './lines.ts';
import { checkAgainstSources } from './sources.ts';
import { checkSettle } from './settle.ts';
import { checkItems } from './items.ts';
import { countedDifferences, countLines } from './count.ts';
import { writeRelations } from './relations.ts';
import { updateSourceProgress } from './progress.ts';
import { notifyTransition } from '../../desk/approval-messages.ts';
import { cancelBillApproval, decideThroughProcess, startBillApproval } from '../../workflow/bill-approval.ts';
import { asBill, documentConfig, loadBill, mustTransition, presentBill, stateName, tenantPlaces, type DocumentModel } from './context.ts';
import { Dec, fixed, placesFromConfig, type Decimal, type Places } from '../../../shared/money/index.ts';

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** A user's display name; read through the store's short cache (called before a transaction opens). */
export async function userName(services: Services, actor: Actor, userId: unknown): Promise<string> {
  if (blank(userId)) return '';
  const users = services.m('user');
  return services.store.cached(users.table, `name|${actor.tenantId}|${userId}`, 10_000, async () => {
    const user = await services.store.get(users, actor.tenantId, String(userId));
    return String(user?.realName ?? user?.name ?? user?.account ?? userId);
  });
}

/** Why a conditional update changed nothing: gone, changed by someone else, or in a state the action does not accept. */
async function refusal(services: Services, actor: Actor, dm: DocumentModel, t: TransitionDef, id: string, version: number): Promise<ApiError> {
  const row = await services.store.get(dm.model, actor.tenantId, id);
  if (!row) return notFound('单据不存在或已被删除');
  const state = String(row[dm.doc.statusField] ?? '');
  const title = t.title ?? t.action;
  if (Number(row.version) !== version) {
    const who = await userName(services, actor, row.updateUser);
    return conflict(`单据已被${who || '他人'}于${row.updateTime}修改（当前状态：${stateName(services, dm, state)}），请刷新后重试`, {
      version: row.version,
      updateUser: who,
      updateTime: row.updateTime,
      status: state,
    });
  }
  const allowed = t.from.filter((s) => s !== NEW_BILL).map((s) => stateName(services, dm, s));
  return badRequest(`单据当前状态为「${stateName(services, dm, state)}」，不能${title}；只有「${allowed.join('、')}」的单据可以${title}`, { status: state });
}

/**
 * Every applied action, saves included, passes here inside its transaction: the action history,
 * then the approval messages it causes (waiting → the approvers; approved or rejected → the
 * submitter), committed or rolled back with the action.
 */
async function recordAction(services: Services, actor: Actor, dm: DocumentModel, t: TransitionDef, bill: Row, from: string, who: string, remark?: string) {
  const billNo = blank(bill[dm.doc.numberField]) ? null : String(bill[dm.doc.numberField]);
  await services.store.insertMany(services.internal.billAction, actor, [
    { resource: dm.model.name, billId: String(bill.id), billType: documentFor(dm.doc, bill).billType, billNo, action: t.action, actionName: t.title ?? t.action, fromStatus: from, toStatus: t.to, remark: remark ?? null, userName: who },
  ]);
  await notifyTransition(services, actor, dm, t, bill, who, remark);
}

/** The lines of a bill as posting reads them: stored values, no display names. */
async function storedLines(services: Services, actor: Actor, dm: DocumentModel, id: string): Promise<Row[]> {
  if (!dm.lines || !dm.lineModel) return [];
  const sort = dm.lineModel.fields.get('sort');
  return services.store.find(dm.lineModel, actor.tenantId, {
    where: { [dm.lines.parentField]: id },
    orderBy: [...(sort ? [{ column: sort.column, dir: 'asc' as const }] : []), { column: 'id', dir: 'asc' as const }],
  });
}

/** States a save may start from: the transition's, within the bill's editable states. */
function saveStates(dm: DocumentModel, t: TransitionDef): string[] {
  const editable = dm.doc.editable;
  return t.from.filter((s) => !editable || editable.includes(s));
}

/** draft / submit with the bill's body: lines recomputed, totals summed, numbered on first save. */
export async function saveBill(services: Services, actor: Actor, dm: DocumentModel, action: string, input: Row): Promise<Row> {
  const t = mustTransition(dm, action);
  if (!t.save) throw badRequest(`${t.title ?? action}不接受单据内容`);
  const { doc, model } = dm;
  const places = await tenantPlaces(services, actor.tenantId);
  const id = blank(input.id) ? undefined : String(input.id);
  const from = saveStates(dm, t);
  // A money bill may settle nothing (all of it stays unapplied credit); any other bill needs lines.
  const rawLines = doc.lines ? (doc.settle && input[doc.lines] === undefined ? [] : input[doc.lines]) : undefined;
  if (doc.lines) {
    if (!Array.isArray(rawLines) || (!rawLines.length && !doc.settle)) throw badRequest(doc.items ? `请添加${dm.lineModel?.resource?.entity.properties[doc.items.item]?.title ?? ''}明细` : '请添加商品明细');
    // A count's quantity is the server's (counted − its book snapshot): the clerk sends none.
    validateLines(services, model, { [doc.lines]: doc.count ? (rawLines as Row[]).map((l) => ({ ...l, qty: '0' })) : rawLines });
  }
  const sources = doc.lines ? await checkAgainstSources(services, actor, dm, rawLines as Row[], id) : new Map();
  const lines = !doc.lines ? [] : doc.count ? await countLines(services, actor, dm, input, rawLines as Row[], id, places) : computeBillLines(doc, dm.lineModel!, rawLines as Row[], places, sources);
  const head: Row = stripReadonly(model, input);
  if (doc.lines) delete head[doc.lines];
  const config = await documentConfig(services, actor.tenantId);
  const periods = t.effect ? await closedPeriods(services, actor.tenantId) : undefined;
  const fee = allocateBillFees(doc, model, input, lines, config, places);
  if (doc.fees && fee !== undefined) head[doc.fees.head] = fee;
  Object.assign(head, billTotals(doc, lines, places));
  if (doc.settle) await checkSettle(services, actor, dm, head, lines, places);
  if (doc.cash) Object.assign(head, counterChange(doc, input, String(head.finalAmt ?? '0'), places));
  head[doc.statusField] = t.to;
  head.billType = documentFor(doc, head).billType;
  if (doc.dateField && blank(head[doc.dateField])) head[doc.dateField] = formatDateTime().slice(0, 10);
  if (doc.lineCheck) {
    const existing = id ? await services.store.get(model, actor.tenantId, id) : undefined;
    await services.lineCheck(doc.lineCheck)({ services, actor, model, action, head, lines, existing });
  }
  const { store } = services;
  const who = await userName(services, actor, actor.userId);
  const saved = await store.transaction(async () => {
    let billId: string;
    let before: string;
    if (!id) {
      if (!from.includes(NEW_BILL)) throw badRequest(`新单据不能直接${t.title ?? action}`);
      delete head.id;
      // A new bill takes the schema's defaults as a new record does (收支单 挂账: 否).
      applyDefaults(model, head);
      head[doc.numberField] = await generateBillNo(services, actor.tenantId, String(head.billType), doc.mallNumber ? MALL_NUMBER_INFIX : '');
      if (model.resource) validateEntity(model.resource.entity, head);
      if (doc.items?.match) await checkItems(services, actor, dm, head, lines);
      await checkReferences(services, actor, model, [head]);
      billId = String((await store.insert(model, actor, head, { includeReadonly: true })).id);
      before = NEW_BILL;
    } else {
      const version = requireVersion(input);
      const existing = await store.get(model, actor.tenantId, id);
      if (!existing) throw notFound('单据不存在或已被删除');
      delete head[doc.numberField];
      if (doc.variants) Object.assign(head, sameKind(dm, existing, head));
      if (model.resource) validateEntity(model.resource.entity, { ...existing, ...head });
      if (doc.items?.match) await checkItems(services, actor, dm, { ...existing, ...head }, lines);
      await checkReferences(services, actor, model, [head], () => existing);
      const changed = await store.guardedUpdate(model, actor, id, head, { version, where: { [doc.statusField]: from.filter((s) => s !== NEW_BILL) } });
      if (!changed) throw await refusal(services, actor, dm, { ...t, from }, id, version);
      billId = id;
      before = String(existing[doc.statusField] ?? '');
    }
    const saved = doc.lines ? (await saveLines(services, actor, model, billId, { [doc.lines]: lines }, { trusted: true }))[doc.lines] : [];
    const stored = (await store.get(model, actor.tenantId, billId))!;
    const number = String(stored[doc.numberField] ?? '');
    await writeRelations(services, actor, dm, billId, number, head, lines);
    await recordAction(services, actor, dm, t, stored, before, who, blank(input.remark) ? undefined : String(input.remark));
    // 审批设置: a bill type that needs approval starts its process as the bill starts waiting.
    await startBillApproval(services, actor, dm, t, stored);
    // A counter sale is saved and posted in one step (its transition saves and posts).
    if (t.effect === 'post') await postSaved(services, actor, dm, { ...stored, [doc.lines ?? 'lines']: saved }, places, formatDateTime(), config, t.stage, periods);
    await refreshBill(store.db, services.registry, actor.tenantId, [model.table, ...store.writtenInTransaction()], billId);
    return billId;
  });
  return loadBill(services, actor, dm, saved, places);
}

/** A saved bill keeps its kind (document.variants): the field may be left out, not changed. */
function sameKind(dm: DocumentModel, existing: Row, head: Row): Row {
  const field = dm.doc.variants!.field;
  if (blank(head[field]) || String(head[field]) === String(existing[field])) {
    return { [field]: existing[field], billType: documentFor(dm.doc, existing).billType };
  }
  const title = (value: unknown) => variantOf(dm.doc, value)?.title ?? String(value);
  throw badRequest(`已保存的${title(existing[field])}不能改为${title(head[field])}`, { fieldErrors: { [field]: '单据保存后不能修改' } });
}

/** Counter payment: what was handed over and the change; less than the bill's final amount is refused. */
function counterChange(doc: DocumentModel['doc'], input: Row, final: string, places: Places): Row {
  const { received, change } = doc.cash!;
  const raw = blank(input[received]) ? final : String(input[received]).trim();
  let paid: Decimal;
  try {
    paid = new Dec(raw);
  } catch {
    throw badRequest('实收金额格式不正确', { fieldErrors: { [received]: '实收金额格式不正确' } });
  }
  if (paid.lt(final)) throw badRequest(`实收金额不能少于应收金额 ${fixed(final, places.amount)}`, { fieldErrors: { [received]: '实收金额不能少于应收金额' } });
  return { [received]: fixed(paid, places.amount), [change]: fixed(paid.minus(final), places.amount) };
}

export interface ActionParams {
  id?: string;
  version?: unknown;
  remark?: string;
  [name: string]: unknown;
}

const AUDIT_ACTIONS = new Set(['pass', 'reject', 'audit', 'approve', 'bossAudit', 'cashierAudit']);

/** Parameters an action must carry, with the message when one is missing. */
function checkRequired(t: TransitionDef, params: ActionParams) {
  for (const name of t.requires ?? []) {
    if (!blank(params[name]) && String(params[name]).trim()) continue;
    if (name === 'remark') throw badRequest(t.action === 'reject' ? '驳回时请填写审核意见' : `${t.title ?? t.action}时请填写备注`);
    throw badRequest(`缺少参数 ${name}`);
  }
}

/**
 * An action on a saved bill. Posting and reversal run in the same transaction as the status
 * change. `viaWorkflow`: the approval process applies its decision (审批设置), not a person.
 */
export async function applyAction(services: Services, actor: Actor, dm: DocumentModel, action: string, params: ActionParams, options: { viaWorkflow?: boolean } = {}): Promise<Row> {
  const t = mustTransition(dm, action);
  if (t.save) throw badRequest(`${t.title ?? action}需要提交单据内容`);
  if (t.to === 'deleted' && blank(params.id) && !blank(params.ids)) return removeBills(services, actor, dm, t, String(params.ids));
  if (blank(params.id)) throw badRequest('缺少参数 id');
  const id = String(params.id);
  const version = requireVersion(params as Row);
  checkRequired(t, params);
  const { doc, model } = dm;
  const { store } = services;
  const now = formatDateTime();
  const remark = blank(params.remark) ? undefined : String(params.remark);
  // A bill in an approval process is approved or rejected by completing the caller's task.
  if (!options.viaWorkflow && (await decideThroughProcess(services, actor, dm, t, id, remark))) return loadBill(services, actor, dm, id);
  const set: Row = {};
  if (t.to !== 'deleted') set[doc.statusField] = t.to;
  if (AUDIT_ACTIONS.has(t.action)) Object.assign(set, { auditRemark: remark ?? '', auditUser: actor.userId, auditTime: now });
  if (t.effect === 'post') Object.assign(set, { accountingUser: actor.userId, accountingTime: now });
  for (const name of t.params ?? []) {
    if (name !== 'remark' && !blank(params[name]) && model.fields.has(name)) set[name] = params[name];
  }
  for (const [name, value] of Object.entries(t.set ?? {})) if (model.fields.has(name)) set[name] = value;
  const config = await documentConfig(services, actor.tenantId);
  const places = placesFromConfig(config);
  const periods = t.effect ? await closedPeriods(services, actor.tenantId) : undefined;
  const who = await userName(services, actor, actor.userId);
  // The transaction holds only what changes state: the status, the history, the postings.
  const done = await store.transaction(async () => {
    const result = await act();
    // The reports' materialized views see the bill as it now stands, in the same transaction.
    await refreshBill(store.db, services.registry, actor.tenantId, [model.table, ...store.writtenInTransaction()], id);
    return result;
  });
  if (done.deleted) return done.deleted;
  return answerBill(services, actor, dm, done.head!, done.lines, places);

  async function act(): Promise<{ deleted?: Row; head?: Row; lines?: Row[] }> {
    const existing = await store.get(model, actor.tenantId, id);
    if (!existing) throw notFound('单据不存在或已被删除');
    const raw = t.to === 'deleted' ? { is_deleted: 1 } : undefined;
    const changed = await store.guardedUpdate(model, actor, id, set, { version, where: { [doc.statusField]: t.from }, raw, at: now });
    if (!changed) throw await refusal(services, actor, dm, t, id, version);
    if (t.to === 'deleted') await store.adjustCount(model, actor.tenantId, -1);
    await recordAction(services, actor, dm, t, existing, String(existing[doc.statusField] ?? ''), who, remark);
    if (!options.viaWorkflow) await cancelBillApproval(services, actor, dm, t, id, String(existing[doc.statusField] ?? ''));
    if (t.to === 'deleted') return { deleted: { ...existing, isDeleted: 1 } };
    // The head as now stored, for the answer: no second read.
    const head = { ...existing, ...set, version: version + 1, updateUser: actor.userId, updateTime: now };
    if (!t.effect) return { head };
    const lines = await storedLines(services, actor, dm, id);
    if (t.effect === 'reverse') {
      await reverseBill(services, actor, asBill(dm, { ...head, [doc.lines ?? 'lines']: lines }, places, config, periods));
      await updateSourceProgress(services, actor, dm, lines, places);
      return { head, lines };
    }
    return postSaved(services, actor, dm, { ...head, [doc.lines ?? 'lines']: lines }, places, now, config, t.stage, periods);
  }
}

/**
 * Posts a bill whose head and lines are in hand (inside the caller's transaction): the ledgers,
 * the lines' costs, the source's progress. Answers head and lines as they now stand.
 */
async function postSaved(
  services: Services,
  actor: Actor,
  dm: DocumentModel,
  bill: Row,
  places: Places,
  now: string,
  config?: Record<string, string>,
  stage?: 'out' | 'in',
  periods?: ClosedPeriod[],
): Promise<{ head: Row; lines: Row[] }> {
  const { doc, model } = dm;
  const { store } = services;
  const collection = doc.lines ?? 'lines';
  const lines = (bill[collection] as Row[]) ?? [];
  const { [collection]: _lines, ...head } = bill;
  void _lines;
  const id = String(head.id);
  // A count posts only its differences: a line counted as booked writes no ledger row.
  const posted = doc.count ? { ...bill, [collection]: countedDifferences(lines) } : bill;
  const stock = await postBill(services, actor, asBill(dm, posted, places, config, periods), stage);
  await updateSourceProgress(services, actor, dm, lines, places);
  if (!stock || !dm.lineModel) return { head, lines };
  await store.updateMany(dm.lineModel, actor, stock.lineCosts, now);
  if (model.fields.has('costAmt')) await store.updateMany(model, actor, [{ id, costAmt: stock.costAmt }], now);
  const costs = new Map(stock.lineCosts.map((c) => [c.id, c]));
  return {
    head: model.fields.has('costAmt') ? { ...head, costAmt: stock.costAmt } : head,
    lines: lines.map((l) => ({ ...l, ...costs.get(String(l.id)), updateUser: actor.userId, updateTime: now })),
  };
}

/**
 * The bill after an action, from the rows the action had in hand (the head as updated, the lines
 * read for posting); only a bill with other line collections, or none read, is read again.
 */
async function answerBill(services: Services, actor: Actor, dm: DocumentModel, head: Row, lines: Row[] | undefined, places: Places): Promise<Row> {
  const collections = lineFields(dm.model);
  const id = String(head.id);
  if (collections.length > 1 || (collections.length === 1 && collections[0].field !== dm.doc.lines)) return loadBill(services, actor, dm, id, places);
  const shown = services.store.normalize(dm.model, head);
  if (!dm.lineModel || !dm.doc.lines) return presentBill(services, actor, dm, shown, [], places);
  const lineModel = dm.lineModel;
  const rows = (lines ?? (await storedLines(services, actor, dm, id))).map((l) => services.store.normalize(lineModel, l));
  shown[dm.doc.lines] = rows;
  return presentBill(services, actor, dm, shown, [[lineModel, rows]], places);
}

/**
 * remove with ids (the contract's remove carries no version): each bill is deleted only in a state
 * the transition allows, all or none, with the version each had when read in this transaction.
 */
async function removeBills(services: Services, actor: Actor, dm: DocumentModel, t: TransitionDef, ids: string): Promise<Row> {
  const list = ids.split(',').map((s) => s.trim()).filter(Boolean);
  return services.store.transaction(async () => {
    for (const id of list) {
      const row = await services.store.get(dm.model, actor.tenantId, id);
      if (!row) throw notFound('单据不存在或已被删除');
      await applyAction(services, actor, dm, t.action, { id, version: row.version });
    }
    return { ids: list };
  });
}

/** The bill's action history, oldest first, with state names. */
export async function billHistory(services: Services, actor: Actor, dm: DocumentModel, id: string): Promise<Row[]> {
  const rows = await services.store.find(services.internal.billAction, actor.tenantId, {
    where: { billId: id, resource: dm.model.name },
    orderBy: [{ column: 'create_time', dir: 'asc' }, { column: 'id', dir: 'asc' }],
  });
  return rows.map((r) => ({
    ...r,
    fromStatusName: stateName(services, dm, String(r.fromStatus ?? '')),
    toStatusName: r.toStatus === 'deleted' ? '已删除' : stateName(services, dm, String(r.toStatus ?? '')),
  }));
}
