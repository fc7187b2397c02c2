/**
 * 推广管理 (schemas/marketing/recommended-withdraw.json): a partner's withdrawal request. The
 * server stamps the apply time, refuses a disabled partner, and keeps an audited request as it
 * was audited (pass / refuse are generic setFields calls from 待审核 only).
 */
import type { Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller } from '../http/context.ts';
import { badRequest, notFound } from '../errors.ts';
import { runOp } from '../engine/ops.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { checkSubmitBody } from '../engine/precheck.ts';

export const WITHDRAW = { pending: 1, passed: 2, refused: 3 } as const;
const DISABLED = 2;
const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';

export function registerRecommendedWithdrawHandlers(services: Services) {
  const { store } = services;

  services.register('recommendedWithdraw.submit', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const body = (ctx.body && typeof ctx.body === 'object' ? ctx.body : {}) as Row;
    await checkSubmitBody(services, caller, model, body);
    const isNew = blank(body.id);
    const stored = isNew ? undefined : await store.get(model, caller.tenantId, String(body.id));
    if (!isNew && !stored) throw notFound('提现申请不存在或已被删除');
    if (stored && Number(stored.withdrawStatus) !== WITHDRAW.pending) throw badRequest('已审核的提现申请不能修改');
    const partnerId = body.partnerId ?? stored?.partnerId;
    if (!blank(partnerId)) {
      const partner = await store.get(services.m('partner'), caller.tenantId, String(partnerId));
      if (!partner) throw badRequest('合伙人不存在或已被删除', { fieldErrors: { partnerId: '合伙人不存在或已被删除' } });
      if (Number(partner.status) === DISABLED) throw badRequest('合伙人已停用，不能申请提现', { fieldErrors: { partnerId: '合伙人已停用，不能申请提现' } });
    }
    return store.transaction(async () => {
      const saved = (await runOp(ctx, model, { path: 'submit', method: 'POST', op: 'submit' })).data as Row;
      if (!isNew) return saved;
      await store.update(model, caller, String(saved.id), { applyTime: formatDateTime() }, { includeReadonly: true });
      return store.get(model, caller.tenantId, String(saved.id));
    });
  });
}
