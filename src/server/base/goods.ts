import type { Services } from '../services.ts';
import { mustCaller, param } from '../http/context.ts';
import type { Row } from '../engine/store.ts';
import { fillLookups } from '../engine/lookups.ts';
import { badRequest } from '../errors.ts';
import { idsParam } from '../system/params.ts';

const key = (r: Row) => `${r.commInfoId}|${r.unitId}`;

export function registerGoodsHandlers(services: Services) {
  const { store } = services;

  /**
   * Units of the given goods for order lines: main barcode, list prices, and the customer's own
   * price when a barterer is given.
   */
  services.register('goodsUnit.selectByCommInfoIds', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const ids = idsParam(ctx, 'commInfoIds', 'commInfoId');
    if (!ids.length) throw badRequest('请选择商品');
    const bartererId = param(ctx, 'bartererId') ?? ((ctx.body as Row | undefined)?.bartererId as string | undefined);
    const units = await store.find(model, caller.tenantId, {
      where: { commInfoId: ids },
      orderBy: [{ column: 'comm_info_id', dir: 'asc' }, { column: 'sort', dir: 'asc' }],
    });
    await fillLookups(services, model, caller.tenantId, units);
    const barcodes = await store.find(services.m('barcode'), caller.tenantId, { where: { commInfoId: ids } });
    const mainCode = new Map<string, string>();
    for (const b of barcodes) {
      if (!mainCode.has(key(b)) || Number(b.isMain) === 2) mainCode.set(key(b), String(b.barCode));
    }
    const prices = new Map((await store.find(services.m('price-management'), caller.tenantId, { where: { commInfoId: ids } })).map((p) => [key(p), p]));
    const customerPrices = bartererId
      ? new Map(
          (await store.find(services.m('customer-price'), caller.tenantId, { where: { commInfoId: ids, bartererId, status: 1 } })).map((p) => [key(p), p]),
        )
      : new Map<string, Row>();
    return units.map((u) => {
      const price = prices.get(key(u));
      return {
        ...u,
        barCode: mainCode.get(key(u)) ?? '',
        retailPrice: price?.retailPrice ?? '',
        wholesalePrice: price?.wholesalePrice ?? '',
        minPrice: price?.minPrice ?? '',
        purchasePrice: price?.purchasePrice ?? '',
        finalPrice: customerPrices.get(key(u))?.finalPrice ?? '',
      };
    });
  });

  /** The barterer's own tax rate when it has one, else the tenant's enabled default rate. */
  services.register('taxRate.queryDefaultByBarterer', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const bartererId = param(ctx, 'bartererId');
    if (bartererId) {
      for (const resource of ['customer', 'supplier']) {
        const row = await store.get(services.m(resource), caller.tenantId, bartererId);
        if (row?.taxRateId) {
          const rate = await store.get(model, caller.tenantId, String(row.taxRateId));
          if (rate) return rate;
        }
        if (row) break;
      }
    }
    return (await store.find(model, caller.tenantId, { where: { isDefault: 2, status: 1 }, limit: 1 }))[0] ?? null;
  });
}
