/**
 * Replenishment: proposals (goods, warehouse, quantity and the reason) turned into purchase order
 * drafts, one per default supplier and warehouse, which the clerk edits and submits. 缺货补货
 * proposes the shortage of the chosen rows of its view, 预警补货 the refill of stock below its
 * warning minimum, 以销定采 (saveSalesToPurchase) the quantities of chosen sales orders not yet
 * shipped.
 */
import type { Services } from '../services.ts';
import { mustCaller, param } from '../http/context.ts';
import type { Actor, Row } from '../engine/store.ts';
import { badRequest } from '../errors.ts';
import { documentModel } from '../engine/document/context.ts';
import { saveBill } from '../engine/document/transitions.ts';
import { Dec, fixed } from '../../shared/money/index.ts';
import { tenantPlaces } from '../engine/document/context.ts';

export interface Proposal {
  commInfoId: string;
  unitId: string;
  depotId: string;
  qty: string;
  reason: string;
}

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** The ids a call names: `ids` or `id`, comma-separated, in the query or a JSON body. */
function idsOf(ctx: Parameters<Parameters<Services['register']>[1]>[0]): string[] {
  const body = (ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? ctx.body : {}) as Row;
  const raw = param(ctx, 'ids', 'id') ?? (body.ids as string | undefined) ?? (body.id as string | undefined) ?? '';
  const ids = String(raw).split(',').map((s) => s.trim()).filter(Boolean);
  if (!ids.length) throw badRequest('请至少选择一条记录');
  return ids;
}

/** Purchase order drafts for the proposals: one per default supplier and warehouse, lines at the supplier's last price. */
export async function draftPurchaseOrders(services: Services, actor: Actor, proposals: Proposal[]): Promise<Row[]> {
  const { store } = services;
  const goodsIds = [...new Set(proposals.map((p) => p.commInfoId))];
  const goods = new Map((await store.find(services.m('goods'), actor.tenantId, { where: { id: goodsIds } })).map((g) => [String(g.id), g]));
  const missing = goodsIds.filter((id) => blank(goods.get(id)?.supplierId));
  if (missing.length) {
    const names = missing.map((id) => goods.get(id)?.commInfoName ?? id).join('、');
    throw badRequest(`以下商品没有默认供应商，请先在商品资料中设置：${names}`);
  }
  const prices = new Map(
    (await store.find(services.m('purchase-price-inquiry'), actor.tenantId, { where: { commInfoId: goodsIds } })).map((p) => [`${p.commInfoId}|${p.unitId}|${p.supplierId}`, p]),
  );
  const places = await tenantPlaces(services, actor.tenantId);
  const groups = new Map<string, { supplierId: string; depotId: string; lines: Row[] }>();
  for (const p of proposals) {
    const g = goods.get(p.commInfoId)!;
    const supplierId = String(g.supplierId);
    const key = `${supplierId}|${p.depotId}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { supplierId, depotId: p.depotId, lines: [] }));
    const last = prices.get(`${p.commInfoId}|${p.unitId}|${supplierId}`)?.lastPrice;
    group.lines.push({
      commInfoId: p.commInfoId,
      unitId: p.unitId,
      qty: fixed(p.qty, places.quantity),
      purchasePrice: blank(last) ? '0' : String(last),
      taxRate: blank(g.taxRate) ? '13' : String(g.taxRate),
      taxRateId: g.taxRateId ?? null,
      remark: p.reason.slice(0, 255),
    });
  }
  const dm = documentModel(services, services.m('purchase-order'));
  const made: Row[] = [];
  for (const group of groups.values()) {
    const bill = await saveBill(services, actor, dm, 'draft', { supplierId: group.supplierId, depotId: group.depotId, remark: '由补货建议生成', bodyList: group.lines });
    made.push({ id: bill.id, billNo: bill.billNo, supplierId: group.supplierId, bartererName: bill.bartererName, lines: group.lines.length });
  }
  return made;
}

export function registerReplenishHandlers(services: Services) {
  /**
   * 生成采购订单 on a strategy view: the chosen rows at their proposed quantity, each line's
   * remark saying why. One handler per view, differing in the quantity column and the reason.
   */
  const fromView =
    (gone: string, qtyField: string, reason: (r: Row, n: (v: unknown) => string) => string): Parameters<Services['register']>[1] =>
    async (ctx, model) => {
      const caller = mustCaller(ctx);
      const rows = await services.store.find(model, caller.tenantId, { where: { id: idsOf(ctx) } });
      if (!rows.length) throw badRequest(gone);
      const n = (v: unknown) => new Dec(String(v ?? '0')).toFixed();
      const proposals = rows.map((r) => ({
        commInfoId: String(r.commInfoId),
        unitId: String(r.unitId),
        depotId: String(r.depotId),
        qty: String(r[qtyField]),
        reason: reason(r, n),
      }));
      return draftPurchaseOrders(services, caller, proposals);
    };

  // 缺货补货: the shortage of open sales demand over stock and what is on order.
  services.register('replenish.shortage', fromView('所选商品已不再缺货，请刷新后重试', 'shortageQty', (r, n) => `缺货补货：订单需求 ${n(r.demandQty)}，库存 ${n(r.stockQty)}，在途 ${n(r.onOrderQty)}`));
  // 预警补货: up to the maximum (or minimum) less stock and what is on order.
  services.register('replenish.warning', fromView('所选商品的库存已不低于下限，请刷新后重试', 'proposeQty', (r, n) =>
    `预警补货：库存 ${n(r.stockQty)} 低于下限 ${n(r.minQty)}${blank(r.maxQty) ? '' : `，补到上限 ${n(r.maxQty)}`}，在途 ${n(r.onOrderQty)}`));
  // 智能补货: enough for the cover days at the window's daily sales, less stock and what is on order.
  services.register('replenish.smart', fromView('所选商品已无需补货，请刷新后重试', 'proposeQty', (r, n) =>
    `智能补货：近${r.windowDays}天销量 ${n(r.soldQty)}，备货${r.coverDays}天需要 ${n(r.needQty)}，库存 ${n(r.stockQty)}，在途 ${n(r.onOrderQty)}`));

  /** demandhead/purchase: approved requisitions ordered in full from each goods' default supplier; the requisitions are then 已完成. */
  services.register('replenish.demandToPurchase', async (ctx) => {
    const caller = mustCaller(ctx);
    const { store } = services;
    const heads = await store.find(services.m('purchase-demand'), caller.tenantId, { where: { id: idsOf(ctx) } });
    if (!heads.length) throw badRequest('采购需求单不存在或已被删除');
    const refused = heads.filter((h) => String(h.billStatus) !== '1304');
    if (refused.length) throw badRequest(`只有已审核的采购需求单可以生成采购订单：${refused.map((h) => h.billNo).join('、')}`);
    const lines = await store.find(services.m('purchase-demand-body'), caller.tenantId, { where: { headId: heads.map((h) => String(h.id)) } });
    const byId = new Map(heads.map((h) => [String(h.id), h]));
    const proposals: Proposal[] = lines.map((line) => {
      const head = byId.get(String(line.headId))!;
      return {
        commInfoId: String(line.commInfoId),
        unitId: String(line.unitId),
        depotId: String(blank(line.depotId) ? (head.depotId ?? '') : line.depotId),
        qty: String(line.qty),
        reason: `采购需求：${head.billNo}${blank(line.remark) ? '' : ` ${line.remark}`}`,
      };
    });
    return store.transaction(async () => {
      const made = await draftPurchaseOrders(services, caller, proposals);
      await store.updateMany(services.m('purchase-demand'), caller, heads.map((h) => ({ id: String(h.id), billStatus: '1309' })));
      return made;
    });
  });

  /** saveSalesToPurchase (以销定采): what approved sales orders have not shipped yet, ordered from each goods' default supplier. */
  services.register('replenish.salesToPurchase', async (ctx) => {
    const caller = mustCaller(ctx);
    const { store } = services;
    const orders = await store.find(services.m('sales-order'), caller.tenantId, { where: { id: idsOf(ctx) } });
    const refused = orders.filter((o) => String(o.billStatus) !== '1304');
    if (!orders.length) throw badRequest('销售订单不存在或已被删除');
    if (refused.length) throw badRequest(`只有已审核未完成的销售订单可以以销定采：${refused.map((o) => o.billNo).join('、')}`);
    const lines = await store.find(services.m('sales-order-body'), caller.tenantId, { where: { headId: orders.map((o) => String(o.id)) } });
    const byId = new Map(orders.map((o) => [String(o.id), o]));
    const proposals: Proposal[] = [];
    for (const line of lines) {
      const open = new Dec(String(line.qty ?? '0')).minus(String(line.outQty || '0'));
      if (!open.gt(0)) continue;
      const head = byId.get(String(line.headId))!;
      proposals.push({
        commInfoId: String(line.commInfoId),
        unitId: String(line.unitId),
        depotId: String(blank(line.depotId) ? head.depotId : line.depotId),
        qty: open.toFixed(),
        reason: `以销定采：销售订单 ${head.billNo} 未出库 ${open.toFixed()}`,
      });
    }
    if (!proposals.length) throw badRequest('所选销售订单已全部出库');
    return draftPurchaseOrders(services, caller, proposals);
  });
}
