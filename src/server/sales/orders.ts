/**
 * Sales order extras: 生成采购需求 (demand: a purchase requisition for what an approved order has
 * not shipped, assigned to a user), 我的客户订单 (custormerOwn), and the mall orders (商城订单,
 * scdd: sales orders whose 订单来源 is 2 商城) — their lines by goods category, 以销定采 from them
 * and the order with its lines (openorder/scdddetail); a customer's mall sales invoices
 * (salesinvoiceheadmall/selectCustomerInvoices).
 */
import type { Services } from '../services.ts';
import { mustCaller, type Ctx } from '../http/context.ts';
import type { Actor, Row } from '../engine/store.ts';
import type { Model } from '../engine/model.ts';
import { badRequest, notFound } from '../errors.ts';
import { fillLookups } from '../engine/lookups.ts';
import { parseFilters, parsePaging, parseSort, type Condition } from '../engine/query.ts';
import { documentModel, formatFigures, loadBill, stateName, tenantPlaces } from '../engine/document/context.ts';
import { saveBill } from '../engine/document/transitions.ts';
import { sendTask } from '../desk/user-tasks.ts';
import { Dec, fixed } from '../../shared/money/index.ts';
import { idsParam, valueParam } from '../system/params.ts';

/** 订单来源 (dict order_source): 2 is an order placed in the mall; blank or 1 was entered in the back office. */
export const MALL_SOURCE = '2';

const blank = (v: unknown) => v === undefined || v === null || v === '';

/**
 * One page of a model as the generic page op answers it (the caller's map filters, the data scope
 * of the caller's roles, lookups, a view's figures at the tenant's places) with extra conditions.
 */
export async function pageWith(ctx: Ctx, model: Model, extra: Condition[], query: Record<string, unknown> = ctx.query): Promise<Row> {
  const caller = mustCaller(ctx);
  const { current, size } = parsePaging(query);
  const conditions = [...parseFilters(model, query, 'map'), ...extra];
  const scope = await ctx.services.perms.dataScope(caller, model);
  if (scope) conditions.push(scope);
  const { rows, total } = await ctx.services.store.page(model, caller.tenantId, {
    conditions,
    orderBy: parseSort(model, query),
    limit: size,
    offset: (current - 1) * size,
  });
  await fillLookups(ctx.services, model, caller.tenantId, rows);
  if (model.def.view) formatFigures(model, rows, await tenantPlaces(ctx.services, caller.tenantId));
  return { records: rows, total, size, current, pages: Math.ceil(total / size), orders: [] };
}

export function inCondition(model: Model, field: string, values: string[]): Condition {
  return { field: model.filterable.get(field)!, op: '_in', value: values };
}

/** Staff records of the signed-in user: linked by the staff's 关联用户, or the user's own staffId. */
export async function staffIdsOf(services: Services, caller: Actor): Promise<string[]> {
  const ids = new Set((await services.store.find(services.m('staff'), caller.tenantId, { where: { userId: caller.userId } })).map((s) => String(s.id)));
  const user = await services.store.get(services.m('user'), caller.tenantId, caller.userId);
  if (!blank(user?.staffId)) ids.add(String(user!.staffId));
  return [...ids];
}

export function registerSalesOrderHandlers(services: Services) {
  const { store } = services;
  const order = () => documentModel(services, services.m('sales-order'));

  /**
   * demand (id, demandUserId): the order's lines not yet shipped become a purchase requisition
   * (采购需求单) draft assigned to demandUserId, with a task in that user's 我的任务. Only an approved
   * order (已审核, not yet 已完成) may raise one, and only once while its requisition is live.
   */
  services.register('salesOrder.demand', async (ctx) => {
    const caller = mustCaller(ctx);
    const id = valueParam(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    const demandUserId = valueParam(ctx, 'demandUserId');
    if (!demandUserId) throw badRequest('请选择需求负责人', { fieldErrors: { demandUserId: '请选择需求负责人' } });
    const so = order();
    const head = await store.get(so.model, caller.tenantId, id);
    if (!head) throw notFound('销售订单不存在或已被删除');
    if (String(head.billStatus) !== '1304') {
      throw badRequest(`只有已审核的销售订单可以生成采购需求单：${head.billNo}（当前状态：${stateName(services, so, String(head.billStatus ?? ''))}）`);
    }
    const user = await store.get(services.m('user'), caller.tenantId, demandUserId);
    if (!user) throw badRequest('需求负责人不存在', { fieldErrors: { demandUserId: '需求负责人不存在' } });
    const dm = documentModel(services, services.m('purchase-demand'));
    const live = (await store.find(dm.model, caller.tenantId, { where: { sourceBillId: id } })).filter((d) => String(d.billStatus) !== '1307');
    if (live.length) throw badRequest(`销售订单 ${head.billNo} 已生成采购需求单 ${live.map((d) => d.billNo).join('、')}，请勿重复生成`);
    const lines = await store.find(so.lineModel!, caller.tenantId, { where: { headId: id }, orderBy: [{ column: 'sort', dir: 'asc' }, { column: 'id', dir: 'asc' }] });
    const open = lines
      .map((line, i) => ({ line, n: i + 1, qty: new Dec(String(line.qty ?? '0')).minus(String(line.outQty || '0')) }))
      .filter((x) => x.qty.gt(0));
    if (!open.length) throw badRequest(`销售订单 ${head.billNo} 已全部出库，无需采购`);
    const places = await tenantPlaces(services, caller.tenantId);
    const goodsIds = [...new Set(open.map((x) => String(x.line.commInfoId)))];
    const goods = new Map((await store.find(services.m('goods'), caller.tenantId, { where: { id: goodsIds } })).map((g) => [String(g.id), g]));
    // Reference price: the latest posted inbound price of the goods and unit, from any supplier.
    const latest = new Map<string, Row>();
    for (const p of await store.find(services.m('purchase-price-inquiry'), caller.tenantId, { where: { commInfoId: goodsIds } })) {
      const key = `${p.commInfoId}|${p.unitId}`;
      const seen = latest.get(key);
      if (!seen || String(p.lastDate ?? '') > String(seen.lastDate ?? '')) latest.set(key, p);
    }
    const bodyList = open.map(({ line, n, qty }) => {
      const g = goods.get(String(line.commInfoId));
      const price = latest.get(`${line.commInfoId}|${line.unitId}`)?.lastPrice;
      return {
        commInfoId: String(line.commInfoId),
        unitId: String(line.unitId),
        qty: fixed(qty, places.quantity),
        purchasePrice: blank(price) ? '0' : String(price),
        taxRate: String(g?.taxRate ?? line.taxRate ?? '13'),
        taxRateId: g?.taxRateId ?? line.taxRateId ?? null,
        ...(blank(line.depotId) ? {} : { depotId: String(line.depotId) }),
        sourceBillId: id,
        sourceBillNo: head.billNo,
        sourceBodyId: String(line.id),
        remark: `销售订单 ${head.billNo} 第${n}行未出库 ${qty.toFixed()}`.slice(0, 500),
      };
    });
    const customer = head.customerId ? await store.get(services.m('customer'), caller.tenantId, String(head.customerId)) : undefined;
    return store.transaction(async () => {
      const bill = await saveBill(services, caller, dm, 'draft', {
        depotId: head.depotId,
        ...(blank(head.staffId) ? {} : { staffId: String(head.staffId) }),
        demandUserId,
        sourceBillId: id,
        sourceBillNo: head.billNo,
        sourceBillType: so.doc.billType,
        remark: `由销售订单 ${head.billNo} 生成`,
        bodyList,
      });
      await store.insertMany(services.m('bill-relation'), caller, [
        { sourceBillType: so.doc.billType, sourceBillId: id, sourceBillNo: head.billNo, targetBillType: dm.doc.billType, targetBillId: bill.id, targetBillNo: bill.billNo },
      ]);
      await sendTask(services, caller, {
        userId: demandUserId,
        title: `采购需求单 ${bill.billNo} 待处理`,
        content: `销售订单 ${head.billNo}${customer ? `（客户 ${customer.bartererName}）` : ''}未出库的 ${bodyList.length} 行商品已生成采购需求单 ${bill.billNo}，请核对后提交。`,
        taskType: '采购需求',
        resource: dm.model.name,
        billId: String(bill.id),
        billNo: String(bill.billNo ?? ''),
        billType: dm.doc.billType,
      });
      return bill;
    });
  });

  /**
   * custormerOwn: the signed-in user's own orders — orders of customers whose 业务员 is one of the
   * user's staff records, orders whose 业务员 is the user's staff, and orders the user entered.
   * Takes the list's map filters and paging.
   */
  services.register('salesOrder.customerOwn', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const staffIds = await staffIdsOf(services, caller);
    const customerIds = staffIds.length
      ? (await store.find(services.m('customer'), caller.tenantId, { where: { staffId: staffIds } })).map((c) => String(c.id))
      : [];
    const mine: Condition[] = [{ field: model.filterable.get('createUser')!, op: '_equal', value: caller.userId }];
    if (staffIds.length) mine.push(inCondition(model, 'staffId', staffIds));
    if (customerIds.length) mine.push(inCondition(model, 'customerId', customerIds));
    return pageWith(ctx, model, [{ ...mine[0], any: mine }]);
  });

  /** scddsalesorderhead/purchase: 以销定采 from mall orders only, as salesorderhead/purchase does. */
  services.register('scdd.purchase', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const ids = idsParam(ctx, 'ids', 'id');
    if (!ids.length) throw badRequest('请至少选择一条记录');
    const rows = await store.find(model, caller.tenantId, { where: { id: ids } });
    const other = rows.filter((r) => String(r.orderSource ?? '') !== MALL_SOURCE);
    if (other.length) throw badRequest(`以下订单不是商城订单：${other.map((r) => r.billNo).join('、')}`);
    const handler = services.handlers.get('replenish.salesToPurchase');
    if (!handler) throw new Error('replenish.salesToPurchase is not registered');
    return handler(ctx, model);
  });

  /** openorder/scdddetail (soHeadId): a mall order with its lines, as detail answers it. */
  services.register('scdd.detail', async (ctx) => {
    const caller = mustCaller(ctx);
    const id = valueParam(ctx, 'soHeadId', 'id');
    if (!id) throw badRequest('缺少参数 soHeadId');
    const so = order();
    const scope = await services.perms.dataScope(caller, so.model);
    const [head] = await store.find(so.model, caller.tenantId, { where: { id, orderSource: MALL_SOURCE }, conditions: scope ? [scope] : [] });
    if (!head) throw notFound('商城订单不存在或已被删除');
    return loadBill(services, caller, so, id);
  });

  /**
   * salesinvoiceheadmall/selectCustomerInvoices (POST, customerId from the query or the body): one
   * customer's mall sales invoices, paged, in every state unless the list's map filters narrow them
   * (billStatus_equal …), each with its quantity and amount totals at the tenant's places.
   */
  services.register('scdd.customerInvoices', async (ctx, model) => {
    const customerId = valueParam(ctx, 'customerId');
    if (!customerId) throw badRequest('请选择客户');
    const query = Object.fromEntries(Object.entries(ctx.query).filter(([k]) => !k.startsWith('customerId')));
    const page = await pageWith(ctx, model, [{ field: model.filterable.get('customerId')!, op: '_equal', value: customerId }], query);
    formatFigures(model, page.records as Row[], await tenantPlaces(services, mustCaller(ctx).tenantId));
    return page;
  });

  /**
   * scddsalesorderbody/list: lines of mall orders; classifyId takes the goods of that category and
   * of every category below it. Other map filters as any list (headId, commInfoId, customerId …).
   */
  services.register('scdd.bodyList', async (ctx, model) => {
    const classifyId = valueParam(ctx, 'classifyId');
    const query = Object.fromEntries(Object.entries(ctx.query).filter(([k]) => !k.startsWith('classifyId')));
    const extra: Condition[] = classifyId ? [{ field: model.filterable.get('classifyPath')!, op: '_like', value: `,${classifyId},` }] : [];
    return pageWith(ctx, model, extra, query);
  });
}
