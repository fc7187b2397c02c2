/**
 * 消息中心: messages to one user (message-info) and the templates the server writes them from
 * (message-template). Everything else that tells a user something — approvals
 * (approval-messages.ts), tasks (user-tasks.ts), collaboration messages (synergism.ts) — writes
 * through `sendMessages` here, so one table holds every message and one count is the top bar's.
 * A user reads and marks only their own messages; administration of all of them needs the
 * message_manage button.
 */
import { sql } from 'kysely';
import type { Services } from '../services.ts';
import type { Model } from '../engine/model.ts';
import type { Actor } from '../engine/store.ts';
import { mustCaller, param, type Caller, type Ctx } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { runOp } from '../engine/ops.ts';
import { fillLookups } from '../engine/lookups.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { idsParam, valueParam } from '../system/params.ts';

/** Dictionary message_type. */
export const MESSAGE_TYPE = { system: 1, approval: 2, task: 3, notice: 4, synergism: 5 } as const;
/** Dictionary message_status. */
export const UNREAD = 1;
export const READ = 2;

/** Ids one read-status call may name. */
const MAX_IDS = 1000;

export interface NewMessage {
  userId: string;
  msgType: number;
  title: string;
  content?: string;
  /** Business link: the resource and row (bill) the message is about. */
  resource?: string;
  billId?: string;
  billNo?: string;
  billType?: string;
}

export const messageModel = (services: Services): Model => services.m('message-info');

/** Text cut to the field's length: a rendered template may run longer than the column. */
function fit(model: Model, field: string, value: string | undefined): string | null {
  if (value === undefined || value === null || value === '') return null;
  const max = model.fields.get(field)?.maxLength;
  return max && value.length > max ? value.slice(0, max) : value;
}

/** Writes unread messages, one statement for all, inside the caller's transaction when one is open. */
export async function sendMessages(services: Services, actor: Actor, messages: NewMessage[]): Promise<void> {
  if (!messages.length) return;
  const model = messageModel(services);
  const rows = messages.map((m) => ({
    userId: m.userId,
    msgType: m.msgType,
    title: fit(model, 'title', m.title) ?? '',
    content: fit(model, 'content', m.content),
    resource: fit(model, 'resource', m.resource),
    billId: fit(model, 'billId', m.billId),
    billNo: fit(model, 'billNo', m.billNo),
    billType: fit(model, 'billType', m.billType),
    readStatus: UNREAD,
  }));
  await services.store.insertMany(model, actor, rows);
}

/**
 * A message's title and content from the tenant's template `code`, with {placeholders} filled
 * (unknown ones left as written). A deleted template falls back to the schema's seeded text; a
 * disabled one (status 2) means "do not send": the answer is null.
 */
export async function fromTemplate(services: Services, tenantId: string, code: string, vars: Record<string, string>): Promise<{ title: string; content: string } | null> {
  const model = services.m('message-template');
  const stored = (await services.store.find(model, tenantId, { where: { code }, limit: 1 }))[0];
  const row = stored ?? (model.resource?.seed ?? []).find((s) => s.code === code);
  if (!row) throw new Error(`message template ${code} is neither stored nor seeded`);
  if (Number(row.status ?? 1) === 2) return null;
  const fill = (text: unknown) => String(text ?? '').replace(/\{(\w+)\}/g, (all, name: string) => (name in vars ? vars[name] : all));
  return { title: fill(row.title), content: fill(row.content) };
}

/**
 * Marks the caller's own unread messages read in one statement: those with the given ids, or
 * about the given rows of a resource, or all. Other users' rows are never touched. Answers how many.
 */
export async function markRead(services: Services, caller: Caller, filter: { ids?: string[]; resource?: string; billIds?: string[] }): Promise<number> {
  for (const list of [filter.ids, filter.billIds]) {
    if (list && !list.length) return 0;
    if (list && list.length > MAX_IDS) throw badRequest(`一次最多标记${MAX_IDS}条消息`);
  }
  const { store } = services;
  const model = messageModel(services);
  const col = (name: string) => model.fields.get(name)!.column;
  const now = formatDateTime();
  let q = store.db
    .updateTable(model.table)
    .set({ [col('readStatus')]: READ, [col('readTime')]: now, update_user: caller.userId, update_time: now, version: sql`version + 1` })
    .where('tenant_id', '=', caller.tenantId)
    .where('is_deleted', '=', 0)
    .where(col('userId'), '=', caller.userId)
    .where(col('readStatus'), '=', UNREAD);
  if (filter.ids) q = q.where('id', 'in', filter.ids);
  if (filter.resource) q = q.where(col('resource'), '=', filter.resource);
  if (filter.billIds) q = q.where(col('billId'), 'in', filter.billIds);
  const result = await q.executeTakeFirst();
  store.invalidate(model.table);
  return Number(result.numUpdatedRows ?? 0);
}

/** Whether the caller administers every message of the tenant (button message_manage). */
export async function managesMessages(services: Services, caller: Caller): Promise<boolean> {
  try {
    await services.perms.require(caller, 'message_manage');
    return true;
  } catch {
    return false;
  }
}

/** ids (comma-joined) or all=1 of a read-status call; neither is refused. */
export function readTargets(ctx: Ctx, what: string): { ids?: string[] } {
  const all = valueParam(ctx, 'all');
  if (all === '1' || all === 'true') return {};
  const ids = [...new Set(idsParam(ctx, 'ids', 'id'))];
  if (!ids.length) throw badRequest(`请选择要标记为已读的${what}`);
  return { ids };
}

export function registerMessageHandlers(services: Services) {
  const { store } = services;

  /** selectMessageInfoPage: the caller's own messages, newest first, with the list's map filters. */
  services.register('messageInfo.mine', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const endpoint = { path: 'selectMessageInfoPage', method: 'GET' as const, op: 'page' as const, filters: 'map' as const, params: { userId: caller.userId } };
    return (await runOp(ctx, model, endpoint)).data;
  });

  /** One message: the caller's own, or any for an administrator of messages; another's answers empty. */
  services.register('messageInfo.detail', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少查询参数 id');
    const row = await store.get(model, caller.tenantId, id);
    if (!row || (String(row.userId) !== caller.userId && !(await managesMessages(services, caller)))) return null;
    await fillLookups(services, model, caller.tenantId, [row]);
    return row;
  });

  services.register('messageInfo.read', async (ctx) => {
    const caller = mustCaller(ctx);
    return { count: await markRead(services, caller, readTargets(ctx, '消息')) };
  });

  services.register('messageInfo.unreadCount', async (ctx, model) => {
    const caller = mustCaller(ctx);
    return { count: await store.count(model, caller.tenantId, { where: { userId: caller.userId, readStatus: UNREAD } }) };
  });

  /** changeStatus: enables (1) or disables (2) templates by id or ids. */
  services.register('messageTemplate.changeStatus', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const ids = [...new Set(idsParam(ctx, 'ids', 'id'))];
    if (!ids.length) throw badRequest('请选择至少一条数据');
    const status = valueParam(ctx, 'status');
    if (status !== '1' && status !== '2') throw badRequest('状态只能为 1（启用）或 2（停用）');
    await store.transaction(async () => {
      for (const id of ids) await store.update(model, caller, id, {}, { raw: { status: Number(status) } });
    });
    return undefined;
  });
}

