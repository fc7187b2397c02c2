/**
 * 支付配置 (one row per channel, made when the tenant is set up and only edited: schema editOnly,
 * as 公司信息, which needs no handler). Editing a channel keeps the stored API key when none is typed
 * (the key is never read back), and an enabled channel must have what a payment needs: app id,
 * merchant id and a key.
 */
import type { Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { runOp } from '../engine/ops.ts';

const ENABLED = 2;
const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';

export function registerSettingsHandlers(services: Services) {
  services.register('paymentConfig.submit', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const body = { ...((ctx.body && typeof ctx.body === 'object' ? ctx.body : {}) as Row) };
    // An add goes to the generic submit, which refuses it (editOnly).
    if (blank(body.id)) return (await runOp(ctx, model, { path: 'submit', method: 'POST', op: 'submit' })).data;
    const stored = await services.store.mustGet(model, caller.tenantId, String(body.id));
    const newKey = !blank(body.apiKey);
    if (!newKey) delete body.apiKey;
    const hasKey = newKey || Number(stored.apiKeySet) === ENABLED;
    if (Number(body.enabled ?? stored.enabled) === ENABLED) {
      const missing: Record<string, string> = {};
      if (blank(body.appId ?? stored.appId)) missing.appId = '请输入应用ID';
      if (blank(body.mchId ?? stored.mchId)) missing.mchId = '请输入商户号';
      if (!hasKey) missing.apiKey = '请输入API密钥';
      if (Object.keys(missing).length) throw badRequest('启用支付渠道须填写应用ID、商户号和API密钥', { fieldErrors: missing });
    }
    ctx.body = body;
    const saved = (await runOp(ctx, model, { path: 'submit', method: 'POST', op: 'submit' })).data as Row;
    if (newKey && Number(stored.apiKeySet) !== ENABLED) {
      return services.store.update(model, caller, String(body.id), { apiKeySet: ENABLED }, { includeReadonly: true });
    }
    return saved;
  });
}
