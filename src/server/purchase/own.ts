/**
 * supplierTicketOwn (the catalogue names the call, not its path: /blade-purchase/supplierTicketOwn):
 * the purchase invoices (票) of the caller's own suppliers — those whose 业务员 is the caller's staff
 * record — or with the caller as salesman or creator, as salesorderhead/custormerOwn does for a
 * salesman's customers' orders.
 */
import type { Services } from '../services.ts';
import { mustCaller } from '../http/context.ts';
import type { Condition } from '../engine/query.ts';
import { inCondition, pageWith, staffIdsOf } from '../sales/orders.ts';

export function registerOwnSupplierHandlers(services: Services) {
  services.register('purchaseInvoice.supplierOwn', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const staffIds = await staffIdsOf(services, caller);
    const supplierIds = staffIds.length ? (await services.store.find(services.m('supplier'), caller.tenantId, { where: { staffId: staffIds } })).map((s) => String(s.id)) : [];
    const mine: Condition[] = [{ field: model.filterable.get('createUser')!, op: '_equal', value: caller.userId }];
    if (staffIds.length) mine.push(inCondition(model, 'staffId', staffIds));
    if (supplierIds.length) mine.push(inCondition(model, 'supplierId', supplierIds));
    return pageWith(ctx, model, [{ ...mine[0], any: mine }]);
  });
}
