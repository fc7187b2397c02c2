import crypto from 'node:crypto';
import type { Services } from '../services.ts';
import { mustCaller } from '../http/context.ts';
import { insertEntity, updateEntity } from '../engine/ops.ts';
import { badRequest } from '../errors.ts';
import { PLATFORM_TENANT, type Row } from '../engine/store.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { valueParam } from './params.ts';
import { seedTenant } from '../db/seed.ts';

/** Config values as the client wants them: numbers as numbers, true/false as booleans. */
function typed(value: unknown): unknown {
  const text = String(value ?? '');
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

export function registerConfigHandlers(services: Services) {
  const { store } = services;

  /** Public front config: keys marked isPublic 2, plus the social providers of the tenant. */
  services.register('sysconfig.front', async (ctx) => {
    const tenantId = valueParam(ctx, 'tenantId') ?? String(ctx.req.headers['tenant-id'] ?? PLATFORM_TENANT);
    const rows = await store.find(services.m('sysconfig'), tenantId, { where: { isPublic: 2 } });
    const out: Row = { tenantMode: true, captchaMode: false, tokenTime: 3000 };
    for (const row of rows) out[String(row.configKey)] = typed(row.configValue);
    const providers = await store.find(services.m('social'), tenantId, { where: { enabled: 2 } });
    out.socialProviders = providers.map((p) => ({ source: p.source, name: p.name }));
    return out;
  });

  services.register('region.select', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const code = valueParam(ctx, 'code') ?? '00';
    return store.find(model, caller.tenantId, { where: { parentCode: code }, orderBy: [{ column: 'sort', dir: 'asc' }, { column: 'code', dir: 'asc' }] });
  });

  /** tenant/info (domain): the tenant of a domain; an empty object when none, as BladeX answers (Saber reads data.tenantId). */
  services.register('tenant.info', async (ctx, model) => {
    const domain = valueParam(ctx, 'domain');
    if (!domain) return {};
    const rows = await store.find(model, PLATFORM_TENANT, { where: { domain } });
    const t = rows[0];
    return t ? { tenantId: t.tenantId, tenantName: t.tenantName, domain: t.domain, backgroundUrl: t.backgroundUrl ?? '' } : {};
  });

  /** New tenants get their own code, administrator, menus, dictionaries and regions. */
  services.register('tenant.submit', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const data = { ...((ctx.body ?? {}) as Row) };
    if (data.id) {
      await services.perms.require(caller, 'tenant_edit');
      delete data.tenantId;
      return updateEntity(ctx, model, data);
    }
    await services.perms.require(caller, 'tenant_add');
    let tenantId = '';
    for (let i = 0; i < 20 && !tenantId; i++) {
      const candidate = String(crypto.randomInt(100000, 1000000));
      if (!(await store.find(model, PLATFORM_TENANT, { where: { tenantId: candidate } })).length) tenantId = candidate;
    }
    // The code goes in with the row: tenant_code is not null, so it cannot be filled in afterwards.
    // The tenant row and its seed data land together or not at all.
    const row = await store.transaction(async () => {
      const inserted = await insertEntity(ctx, model, data, { tenantId });
      await seedTenant(services, tenantId, String(data.tenantName));
      return inserted;
    });
    return store.get(model, PLATFORM_TENANT, String(row.id));
  });

  services.register('billrule.generate', async (ctx) => generateBillNo(services, mustCaller(ctx).tenantId, requireBillType(ctx), ''));
  // Mall bills number from the same rule with an M after the prefix, so the two never collide.
  services.register('billrule.mallgenerate', async (ctx) => generateBillNo(services, mustCaller(ctx).tenantId, requireBillType(ctx), MALL_NUMBER_INFIX));
}

/** What a mall bill's number has after the rule's prefix (billrule/mallgenerate, document.mallNumber). */
export const MALL_NUMBER_INFIX = 'M';

function requireBillType(ctx: Parameters<Parameters<Services['register']>[1]>[0]): string {
  const billType = valueParam(ctx, 'billType');
  if (!billType) throw badRequest('缺少参数 billType');
  return billType;
}

function formatByPattern(pattern: string, date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return pattern
    .replace('yyyy', String(date.getFullYear()))
    .replace('yy', String(date.getFullYear()).slice(2))
    .replace('MM', pad(date.getMonth() + 1))
    .replace('dd', pad(date.getDate()));
}

function cycleKey(cycle: string, date: Date): string {
  const d = formatByPattern('yyyyMMdd', date);
  if (cycle === 'never') return '';
  if (cycle === 'year') return d.slice(0, 4);
  if (cycle === 'month') return d.slice(0, 6);
  return d;
}

/** Next bill number: prefix + date + zero-padded serial, incremented with an optimistic lock. */
export async function generateBillNo(services: Services, tenantId: string, billType: string, infix: string): Promise<string> {
  const model = services.m('billrule');
  const actor = { tenantId, userId: '0' };
  for (let attempt = 0; attempt < 20; attempt++) {
    const rule = (await services.store.find(model, tenantId, { where: { billType } }))[0];
    if (!rule) throw badRequest(`单据类型 ${billType} 未配置编号规则`);
    const now = new Date();
    const cycle = String(rule.resetCycle ?? 'day');
    const key = cycleKey(cycle, now);
    const serial = String(rule.currentDate ?? '') === key ? Number(rule.currentSerial ?? 0) + 1 : 1;
    try {
      await services.store.update(model, actor, String(rule.id), { currentDate: key, currentSerial: serial }, {
        version: Number(rule.version),
        includeReadonly: true,
      });
    } catch {
      continue; // someone else took this number: read again
    }
    const length = Number(rule.serialLength ?? 4) || 4;
    return `${rule.prefix ?? ''}${infix}${formatByPattern(String(rule.dateFormat || 'yyyyMMdd'), now)}${String(serial).padStart(length, '0')}`;
  }
  throw badRequest(`生成单据编号繁忙，请重试（${formatDateTime()}）`);
}
