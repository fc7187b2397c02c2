import fs from 'node:fs';
import type { Services } from '../services.ts';
import { fileLinkSignature } from '../files/routes.ts';
import { mustCaller } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { resolveKey } from '../files/storage.ts';
import { receiveUpload } from '../files/upload.ts';
import type { Model } from '../engine/model.ts';
import type { Row } from '../engine/store.ts';
import { idsParam, valueParam } from './params.ts';
import { sendSms } from './sms.ts';

/** Exactly one enabled config per tenant (status 2 = enabled, as yes_no). */
async function enableOnly(services: Services, tenantId: string, actor: { tenantId: string; userId: string }, model: Model, id: string) {
  const target = await services.store.mustGet(model, tenantId, id);
  await services.store.transaction(async (db) => {
    await db.updateTable(model.table).set({ status: 1 }).where('tenant_id', '=', tenantId).where('is_deleted', '=', 0).execute();
    await services.store.update(model, actor, String(target.id), {}, { raw: { status: 2 }, db });
  });
}

export function registerResourceHandlers(services: Services) {
  const { store } = services;

  services.register('oss.enable', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const id = valueParam(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    await enableOnly(services, caller.tenantId, caller, model, id);
    return undefined;
  });

  services.register('sms.enable', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const id = valueParam(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    await enableOnly(services, caller.tenantId, caller, model, id);
    return undefined;
  });

  services.register('sms.sendMessage', async (ctx) => {
    const caller = mustCaller(ctx);
    const phones = idsParam(ctx, 'phones', 'phone');
    const content = valueParam(ctx, 'content', 'params') ?? '';
    if (!phones.length) throw badRequest('请输入手机号码');
    if (!content) throw badRequest('请输入短信内容');
    for (const phone of phones) {
      if (!/^1\d{10}$/.test(phone)) throw badRequest(`手机号码 ${phone} 不正确`);
    }
    for (const phone of phones) await sendSms(services, caller.tenantId, phone, content);
    return undefined;
  });

  /** Multipart field `file`; checked by name, extension, content and size; stored on local disk (files/upload.ts). */
  services.register('oss.putFile', async (ctx) => {
    const { link, domain, name, originalName, attachId } = await receiveUpload(services, ctx);
    return { link, domain, name, originalName, attachId };
  });

  /**
   * endpoint/sign-link (link or name, expires seconds: default 3600, at most 7 days): a link to one
   * of the tenant's files that anyone may open until it expires (a mall page, a partner's mail).
   */
  services.register('oss.signLink', async (ctx) => {
    const caller = mustCaller(ctx);
    const given = valueParam(ctx, 'link', 'name') ?? '';
    const name = given.replace(/^.*?\/oss\//, '').split('?')[0];
    if (!name.startsWith(`${caller.tenantId}/`) || !resolveKey(services.config.dataDir, name)) throw badRequest('文件不存在');
    const seconds = Number(valueParam(ctx, 'expires') ?? 3600);
    if (!Number.isInteger(seconds) || seconds < 60 || seconds > 7 * 24 * 3600) throw badRequest('有效期应为60秒到7天之间的整数秒');
    const expires = Math.floor(Date.now() / 1000) + seconds;
    const base = given.includes('/oss/') ? given.split('?')[0] : `/oss/${name}`;
    return { link: `${base}?expires=${expires}&signature=${fileLinkSignature(services, name, expires)}`, expires };
  });

  services.register('oss.removeFile', async (ctx) => {
    const caller = mustCaller(ctx);
    const names = idsParam(ctx, 'fileName', 'fileNames');
    if (!names.length) throw badRequest('缺少参数 fileName');
    for (const name of names) {
      // Only this tenant's own objects: the key starts with the tenant code.
      if (!name.startsWith(`${caller.tenantId}/`)) throw badRequest('文件不存在');
      const full = resolveKey(services.config.dataDir, name);
      if (!full) throw badRequest('文件名不合法');
      const rows = await store.find(services.m('attach'), caller.tenantId, { where: { name } });
      if (rows.length) await store.softRemove(services.m('attach'), caller, rows.map((r: Row) => String(r.id)));
      if (fs.existsSync(full)) fs.unlinkSync(full);
    }
    return undefined;
  });

  /** Client view errors, uploaded in batches by the browser (one object or an array). */
  services.register('log.uploadError', async (ctx) => {
    const caller = mustCaller(ctx);
    const body = ctx.body;
    const entries = (Array.isArray(body) ? body : [body]).filter((e) => e && typeof e === 'object').slice(0, 100) as Row[];
    for (const e of entries) {
      await store.insert(services.m('log-error'), caller, {
        serviceId: 'erp-console-web',
        errorType: 'view',
        message: String(e.message ?? '').slice(0, 2000),
        stackTrace: String(e.stackTrace ?? e.stack ?? '').slice(0, 60000),
        url: String(e.url ?? '').slice(0, 500),
        exceptionName: String(e.type ?? e.exceptionName ?? 'Error').slice(0, 255),
        userAgent: String(ctx.req.headers['user-agent'] ?? '').slice(0, 255),
        remoteIp: ctx.req.ip,
        createBy: caller.account,
      });
    }
    return { count: entries.length };
  });
}
