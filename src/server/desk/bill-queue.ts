/**
 * 待审单据 and 草稿单据 (统计分析): every bill, of any kind, whose latest action left it waiting for
 * approval (1302) or in draft (1301), read from the action log (views erp_pending_bill and
 * erp_draft_bill: the last erp_bill_action row of each bill). 待审单据 lists only the kinds whose
 * 审核通过 button the caller holds, and approves or rejects in place through the bill's own
 * transition (the engine's applyAction: version-checked, recorded, the same refusals as the bill
 * page), after checking that same button.
 */
import type { Services } from '../services.ts';
import type { Model } from '../engine/model.ts';
import { mustCaller, param, type Caller, type Ctx } from '../http/context.ts';
import { badRequest, notFound } from '../errors.ts';
import { runOp } from '../engine/ops.ts';
import { documentModel } from '../engine/document/context.ts';
import { applyAction } from '../engine/document/transitions.ts';
import { documentOf } from '../../shared/document.ts';

/** The bill kinds (resource names) whose `action` transition the caller may take. */
export async function allowedKinds(services: Services, caller: Caller, action: string): Promise<string[]> {
  const kinds: string[] = [];
  for (const model of services.registry.models.values()) {
    const doc = documentOf(model.resource);
    const transition = doc?.transitions.find((t) => t.action === action);
    if (!transition) continue;
    try {
      if (transition.perm) await services.perms.require(caller, transition.perm);
      kinds.push(model.name);
    } catch {
      // Not this caller's to approve.
    }
  }
  return kinds;
}

const page = (ctx: Ctx, model: Model) => runOp(ctx, model, { path: 'list', method: 'GET', op: 'page', filters: 'map' });

export function registerBillQueueHandlers(services: Services) {
  services.register('billQueue.pending', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const kinds = await allowedKinds(services, caller, 'pass');
    if (!kinds.length) return { records: [], total: 0, size: Number(param(ctx, 'size') ?? 10), current: 1, pages: 0 };
    return (await page({ ...ctx, query: { ...ctx.query, resource_in: kinds.join(',') } }, model)).data;
  });

  services.register('billQueue.drafts', async (ctx, model) => (await page(ctx, model)).data);

  /** 审核通过 / 驳回 of a waiting bill of any kind (resource, id; remark, required to reject). */
  const decide = (action: 'pass' | 'reject') => async (ctx: Ctx) => {
    const caller = mustCaller(ctx);
    const resource = param(ctx, 'resource') ?? '';
    const id = param(ctx, 'id') ?? '';
    if (!resource || !id) throw badRequest('缺少参数 resource、id');
    const model = services.registry.models.get(resource);
    const doc = documentOf(model?.resource);
    const transition = doc?.transitions.find((t) => t.action === action);
    if (!model || !doc || !transition) throw notFound('单据类型不存在');
    if (transition.perm) await services.perms.require(caller, transition.perm);
    const head = await services.store.get(model, caller.tenantId, id);
    if (!head) throw notFound('单据不存在或已被删除');
    const remark = param(ctx, 'remark', 'auditRemark');
    const done = await applyAction(services, caller, documentModel(services, model), action, { id, version: head.version, ...(remark ? { remark } : {}) });
    return { id: String(done.id), billStatus: done[doc.statusField] };
  };
  services.register('billQueue.pass', decide('pass'));
  services.register('billQueue.reject', decide('reject'));
}
