/**
 * 领料单 from a purchase order (purchaseorderhead/toUse?id=): goods bought for internal use are
 * requisitioned from the order. The answer is a new, unsaved requisition (head from the order:
 * warehouse, staff, department; lines with the order lines' quantities not yet requisitioned),
 * which the client opens as a new bill — the engine's pull (document.source of material-use).
 */
import type { Services } from '../services.ts';
import { mustCaller, param } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { documentModel, tenantPlaces } from '../engine/document/context.ts';
import { pullFromSource } from '../engine/document/sources.ts';

export function registerMaterialUseHandlers(services: Services) {
  services.register('materialUse.fromPurchaseOrder', async (ctx) => {
    const caller = mustCaller(ctx);
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    const dm = documentModel(services, services.m('material-use'));
    return pullFromSource(services, caller, dm, id, await tenantPlaces(services, caller.tenantId));
  });
}
