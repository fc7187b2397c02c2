/**
 * 短信营销 (schemas/marketing/sms-campaign.json): a draft message to all customers, a customer
 * level or a customer range, sent once into the SMS outbox (sms-outbox, as the embedded SMS
 * service writes it: src/server/system/sms.ts) with one row per target customer that has a
 * mobile phone. The draft turns sent by one conditional update, so it is never sent twice.
 */
import type { Services } from '../services.ts';
import type { Actor, Row } from '../engine/store.ts';
import { idList, mergeJsonBody, mustCaller, param, type Ctx } from '../http/context.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { runOp } from '../engine/ops.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { checkSubmitBody } from '../engine/precheck.ts';

export const SMS = { draft: 1, sent: 2 } as const;
const TARGET = { all: 1, level: 2, range: 3 } as const;
const ENABLED_CUSTOMER = 1;
const ACTIVE_CONFIG = 2;
const LOCAL_OUTBOX = 1;
const DEFAULT_CONTACT = '2';
const MOBILE = /^1\d{10}$/;
/** Customers whose contacts are read per query (keeps the IN list well under the parameter limit). */
const CHUNK = 5000;

const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';
const mobile = (v: unknown) => (typeof v === 'string' && MOBILE.test(v.trim()) ? v.trim() : undefined);

/** The enabled customers a campaign targets. */
async function targetCustomers(services: Services, tenantId: string, campaign: Row): Promise<Row[]> {
  const where: Row = { status: ENABLED_CUSTOMER };
  const target = Number(campaign.target);
  if (target === TARGET.level) where.levelId = String(campaign.levelId ?? '');
  if (target === TARGET.range) where.rangeId = String(campaign.rangeId ?? '');
  return services.store.find(services.m('customer'), tenantId, { where, orderBy: [{ column: 'id', dir: 'asc' }] });
}

/** Each customer's mobile: its telephone when that is a mobile number, else its default contact's, else its first contact's with one. */
async function mobilesOf(services: Services, tenantId: string, customers: Row[]): Promise<string[]> {
  const contacts = new Map<string, Row[]>();
  const model = services.m('customer-contact');
  for (let from = 0; from < customers.length; from += CHUNK) {
    const ids = customers.slice(from, from + CHUNK).map((c) => String(c.id));
    const rows = await services.store.find(model, tenantId, { where: { customerId: ids }, orderBy: [{ column: 'sort', dir: 'asc' }, { column: 'create_time', dir: 'asc' }] });
    for (const row of rows) contacts.set(String(row.customerId), [...(contacts.get(String(row.customerId)) ?? []), row]);
  }
  const phones: string[] = [];
  for (const customer of customers) {
    const own = contacts.get(String(customer.id)) ?? [];
    const main = own.find((c) => String(c.isDefault) === DEFAULT_CONTACT && mobile(c.phone));
    const phone = mobile(customer.telephone) ?? mobile(main?.phone) ?? own.map((c) => mobile(c.phone)).find(Boolean);
    if (phone) phones.push(phone);
  }
  return phones;
}

/** The SMS config the outbox rows name; a real provider is refused, as sendSms refuses it. */
async function outboxConfig(services: Services, tenantId: string): Promise<string> {
  const [active] = await services.store.find(services.m('sms'), tenantId, { where: { status: ACTIVE_CONFIG }, limit: 1 });
  if (Number(active?.category ?? LOCAL_OUTBOX) !== LOCAL_OUTBOX) throw badRequest('当前启用的短信配置暂不支持发送，请启用本地发件箱(local)配置');
  return String(active?.smsCode ?? 'local');
}

async function sendCampaign(services: Services, actor: Actor, id: string, version: number): Promise<void> {
  const { store } = services;
  const model = services.m('sms-campaign');
  const campaign = await store.get(model, actor.tenantId, id);
  if (!campaign) throw notFound('短信营销不存在或已被删除');
  if (Number(campaign.smsStatus) === SMS.sent) throw badRequest('短信已发送');
  const phones = await mobilesOf(services, actor.tenantId, await targetCustomers(services, actor.tenantId, campaign));
  if (!phones.length) throw badRequest('发送对象中没有有手机号码的客户');
  const smsCode = await outboxConfig(services, actor.tenantId);
  const now = formatDateTime();
  await store.transaction(async () => {
    const ok = await store.guardedUpdate(model, actor, id, { smsStatus: SMS.sent, sendTime: now, sentCount: phones.length }, { version, where: { smsStatus: SMS.draft } });
    if (!ok) {
      const current = await store.get(model, actor.tenantId, id);
      throw Number(current?.smsStatus) === SMS.sent ? badRequest('短信已发送') : conflict('数据已被他人修改，请刷新后重试');
    }
    const content = String(campaign.content);
    await store.insertMany(services.m('sms-outbox'), actor, phones.map((phone) => ({ phone, content, smsCode, provider: 'local', sendTime: now })));
  });
  services.log('info', `sms campaign ${id}: ${phones.length} messages to the outbox`, { tenantId: actor.tenantId });
}

export function registerSmsCampaignHandlers(services: Services) {
  const { store } = services;

  services.register('smsCampaign.submit', async (ctx: Ctx, model) => {
    const caller = mustCaller(ctx);
    const body = { ...((ctx.body && typeof ctx.body === 'object' ? ctx.body : {}) as Row) };
    await checkSubmitBody(services, caller, model, body);
    const stored = blank(body.id) ? undefined : await store.get(model, caller.tenantId, String(body.id));
    if (!blank(body.id) && !stored) throw notFound('短信营销不存在或已被删除');
    if (stored && Number(stored.smsStatus) === SMS.sent) throw badRequest('短信已发送，不能修改');
    // The level or range of another audience is dropped, so a draft never keeps a stale one.
    const target = Number(body.target ?? stored?.target ?? TARGET.all);
    if (target !== TARGET.level) body.levelId = null;
    if (target !== TARGET.range) body.rangeId = null;
    ctx.body = body;
    return (await runOp(ctx, model, { path: 'submit', method: 'POST', op: 'submit' })).data;
  });

  services.register('smsCampaign.remove', async (ctx: Ctx, model) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const ids = idList(param(ctx, 'ids', 'id'));
    if (!ids.length) throw badRequest('请选择至少一条数据');
    const rows = await store.find(model, caller.tenantId, { where: { id: ids } });
    if (rows.some((r) => Number(r.smsStatus) === SMS.sent)) throw badRequest('已发送的短信不能删除');
    const n = await store.softRemove(model, caller, ids);
    if (!n) throw badRequest('数据不存在或已被删除');
    return null;
  });

  services.register('smsCampaign.send', async (ctx: Ctx, model) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    const raw = param(ctx, 'version');
    if (raw === undefined || !/^\d+$/.test(raw)) throw badRequest('缺少参数 version');
    await sendCampaign(services, caller, id, Number(raw));
    return store.get(model, caller.tenantId, id);
  });
}
