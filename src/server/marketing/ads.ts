/**
 * 弹窗广告 (schemas/marketing/popup-ad.json): the generic submit, after one cross-field rule the
 * meta-schema cannot state (x-differentFrom only says "not equal"): the end must be after the start.
 */
import type { Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller } from '../http/context.ts';
import { badRequest, notFound } from '../errors.ts';
import { runOp } from '../engine/ops.ts';
import { checkSubmitBody } from '../engine/precheck.ts';

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';

export function registerPopupAdHandlers(services: Services) {
  services.register('popupAd.submit', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const body = (ctx.body && typeof ctx.body === 'object' ? ctx.body : {}) as Row;
    await checkSubmitBody(services, caller, model, body);
    const stored = blank(body.id) ? undefined : await services.store.get(model, caller.tenantId, String(body.id));
    if (!blank(body.id) && !stored) throw notFound('弹窗广告不存在或已被删除');
    const from = String(body.showFrom ?? stored?.showFrom ?? '');
    const to = String(body.showTo ?? stored?.showTo ?? '');
    // Same-format texts compare as times; malformed ones are left to the schema's own messages.
    if (DATETIME.test(from) && DATETIME.test(to) && to <= from) {
      throw badRequest('结束时间必须晚于开始时间', { fieldErrors: { showTo: '结束时间必须晚于开始时间' } });
    }
    return (await runOp(ctx, model, { path: 'submit', method: 'POST', op: 'submit' })).data;
  });
}
