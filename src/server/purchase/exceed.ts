/**
 * Over-receipt allowances (purchaseorderexceed/saveBatchOrderExceed): extra quantity an approved
 * purchase order's lines may be received beyond what was ordered, used by the inbound's source
 * check when OVER_RECEIPT is 1 (否). All lines of a batch are saved, or none.
 */
import type { Services } from '../services.ts';
import { mustCaller } from '../http/context.ts';
import type { Row } from '../engine/store.ts';
import { badRequest } from '../errors.ts';
import { validateEntity } from '../engine/validate.ts';
import { Dec, fixed } from '../../shared/money/index.ts';
import { tenantPlaces } from '../engine/document/context.ts';

/** The batch as the contract sends it: an array, or { list } / { data }. */
function batchOf(body: unknown): Row[] {
  const list = Array.isArray(body) ? body : ((body as Row | undefined)?.list ?? (body as Row | undefined)?.data);
  if (!Array.isArray(list) || !list.length) throw badRequest('请至少登记一条超量入库明细');
  return list.map((item, i) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw badRequest(`第${i + 1}条：应为对象`);
    return item as Row;
  });
}

export function registerPurchaseHandlers(services: Services) {
  services.register('purchaseOrderExceed.saveBatch', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const { store } = services;
    const items = batchOf(ctx.body);
    const places = await tenantPlaces(services, caller.tenantId);
    const orderLines = services.m('purchase-order-body');
    const orders = services.m('purchase-order');
    const ids = [...new Set(items.map((i) => String(i.orderBodyId ?? '')).filter(Boolean))];
    const lines = new Map((ids.length ? await store.find(orderLines, caller.tenantId, { where: { id: ids } }) : []).map((l) => [String(l.id), l]));
    const heads = new Map(
      (lines.size ? await store.find(orders, caller.tenantId, { where: { id: [...new Set([...lines.values()].map((l) => String(l.headId)))] } }) : []).map((h) => [String(h.id), h]),
    );
    const rows = items.map((item, i) => {
      const at = `第${i + 1}条：`;
      const line = lines.get(String(item.orderBodyId ?? ''));
      if (!line) throw badRequest(`${at}采购订单明细不存在或已被删除`);
      const head = heads.get(String(line.headId));
      if (!head || !['1304', '1309'].includes(String(head.billStatus))) throw badRequest(`${at}只有已审核的采购订单可以登记超量入库`);
      const row: Row = { orderBodyId: String(line.id), exceedQty: item.exceedQty === undefined || item.exceedQty === null ? '' : String(item.exceedQty), remark: item.remark ?? null };
      try {
        validateEntity(model.resource!.entity, row);
      } catch (error) {
        throw badRequest(`${at}${error instanceof Error ? error.message : String(error)}`);
      }
      const qty = new Dec(String(row.exceedQty));
      if (!qty.gt(0)) throw badRequest(`${at}超量数量必须大于0`);
      return { ...row, exceedQty: fixed(qty, places.quantity), orderId: String(head.id), orderNo: String(head.billNo ?? ''), commInfoId: String(line.commInfoId) };
    });
    await store.transaction(() => store.insertMany(model, caller, rows));
    return true;
  });
}
