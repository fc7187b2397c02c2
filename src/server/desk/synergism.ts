/**
 * 协同消息 (msg-synergism): a message a user sends to several users of the tenant. The sent
 * message is one row here; each receiver's copy is a message (message-info, type 5, linked by
 * resource msg-synergism + billId), whose read status is that receiver's read status. So nothing
 * is kept twice: the top bar counts these too, and marking one read here or on 消息 is the same.
 */
import { sql } from 'kysely';
import type { Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { idList, mustCaller, param } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { runOp } from '../engine/ops.ts';
import { fillLookups } from '../engine/lookups.ts';
import { validateEntity } from '../engine/validate.ts';
import { valueParam } from '../system/params.ts';
import { managesMessages, markRead, MESSAGE_TYPE, messageModel, READ, readTargets, sendMessages } from './messages.ts';

export const SYNERGISM_RESOURCE = 'msg-synergism';
const MAX_RECEIVERS = 200;

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** Per sent message: how many receivers, how many have read it (one grouped read). */
async function readCounts(services: Services, tenantId: string, ids: string[]): Promise<Map<string, { receiverCount: number; readCount: number }>> {
  const out = new Map<string, { receiverCount: number; readCount: number }>();
  if (!ids.length) return out;
  const model = messageModel(services);
  const col = (name: string) => sql.ref(model.fields.get(name)!.column);
  const result = await sql<{ bill_id: string; n: unknown; r: unknown }>`
    select ${col('billId')} as bill_id, count(*) as n, sum(case when ${col('readStatus')} = ${READ} then 1 else 0 end) as r
    from ${sql.table(model.table)}
    where tenant_id = ${tenantId} and is_deleted = 0 and ${col('resource')} = ${SYNERGISM_RESOURCE} and ${col('billId')} in (${sql.join(ids)})
    group by ${col('billId')}`.execute(services.store.db);
  for (const row of result.rows) out.set(String(row.bill_id), { receiverCount: Number(row.n), readCount: Number(row.r ?? 0) });
  return out;
}

export function registerSynergismHandlers(services: Services) {
  const { store } = services;

  /** page: what the caller received, as their messages say (newest first, their read status), with the sent rows' fields. */
  services.register('msgSynergism.page', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const endpoint = { path: 'page', method: 'GET' as const, op: 'page' as const, filters: 'map' as const, params: { userId: caller.userId, resource: SYNERGISM_RESOURCE } };
    const page = (await runOp(ctx, messageModel(services), endpoint)).data as { records: Row[] };
    const ids = [...new Set(page.records.map((m) => String(m.billId)))];
    const heads = ids.length ? await store.find(model, caller.tenantId, { where: { id: ids } }) : [];
    await fillLookups(services, model, caller.tenantId, heads);
    const byId = new Map(heads.map((h) => [String(h.id), h]));
    const records = page.records.map((m) => {
      // A sent row removed since: the caller's copy still says what it was.
      const head = byId.get(String(m.billId)) ?? { id: m.billId, title: m.title, content: m.content, createUser: m.createUser, createTime: m.createTime, sendUserName: m.sendUserName };
      return { ...head, readStatus: m.readStatus, readTime: m.readTime, messageId: m.id };
    });
    return { ...page, records };
  });

  /** sentPage: what the caller sent, newest first, with receiver and reader counts. */
  services.register('msgSynergism.sent', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const page = (await runOp(ctx, model, { path: 'sentPage', method: 'GET', op: 'page', filters: 'map', params: { createUser: caller.userId } })).data as { records: Row[] };
    const counts = await readCounts(services, caller.tenantId, page.records.map((r) => String(r.id)));
    return { ...page, records: page.records.map((r) => ({ ...r, receiverCount: 0, readCount: 0, ...counts.get(String(r.id)) })) };
  });

  /** detail: for the sender, a receiver or an administrator of messages; with every receiver's read status. */
  services.register('msgSynergism.detail', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少查询参数 id');
    const head = await store.get(model, caller.tenantId, id);
    if (!head) return null;
    const messages = messageModel(services);
    const copies = await store.find(messages, caller.tenantId, { where: { resource: SYNERGISM_RESOURCE, billId: id }, orderBy: [{ column: 'id', dir: 'asc' }] });
    const own = copies.find((m) => String(m.userId) === caller.userId);
    if (String(head.createUser) !== caller.userId && !own && !(await managesMessages(services, caller))) return null;
    await fillLookups(services, model, caller.tenantId, [head]);
    await fillLookups(services, messages, caller.tenantId, copies);
    return {
      ...head,
      readStatus: own?.readStatus ?? null,
      readTime: own?.readTime ?? null,
      receiverCount: copies.length,
      readCount: copies.filter((m) => Number(m.readStatus) === READ).length,
      receivers: copies.map((m) => ({ userId: m.userId, userName: m.userName, readStatus: m.readStatus, readTime: m.readTime })),
    };
  });

  /** submit: sends (title, content, receiverIds); a sent message is never edited. */
  services.register('msgSynergism.send', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const body = (ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? ctx.body : {}) as Row;
    if (!blank(body.id) || param(ctx, 'id')) throw badRequest('协同消息发送后不能修改');
    const raw = body.receiverIds ?? param(ctx, 'receiverIds');
    const receiverIds = [...new Set(Array.isArray(raw) ? raw.map(String).map((s) => s.trim()).filter(Boolean) : idList(blank(raw) ? '' : String(raw)))];
    const data: Row = { title: valueParam(ctx, 'title') ?? '', content: valueParam(ctx, 'content') ?? '', receiverIds: receiverIds.join(',') };
    validateEntity(model.resource!.entity, data);
    if (receiverIds.length > MAX_RECEIVERS) throw badRequest(`接收人不能超过${MAX_RECEIVERS}个`, { fieldErrors: { receiverIds: `接收人不能超过${MAX_RECEIVERS}个` } });
    const users = await store.find(services.m('user'), caller.tenantId, { where: { id: receiverIds } });
    if (users.length !== receiverIds.length) throw badRequest('接收人不存在', { fieldErrors: { receiverIds: '接收人不存在' } });
    const id = await store.transaction(async () => {
      const saved = await store.insert(model, caller, data);
      const title = String(data.title);
      const content = String(data.content);
      await sendMessages(services, caller, receiverIds.map((userId) => ({ userId, msgType: MESSAGE_TYPE.synergism, title, content, resource: SYNERGISM_RESOURCE, billId: String(saved.id) })));
      return String(saved.id);
    });
    const row = (await store.get(model, caller.tenantId, id))!;
    await fillLookups(services, model, caller.tenantId, [row]);
    return row;
  });

  /** updateReadStatus: the caller's received ones (ids of sent rows, or all=1) marked read. */
  services.register('msgSynergism.read', async (ctx) => {
    const caller = mustCaller(ctx);
    const { ids } = readTargets(ctx, '协同消息');
    return { count: await markRead(services, caller, { resource: SYNERGISM_RESOURCE, ...(ids ? { billIds: ids } : {}) }) };
  });
}

