/**
 * The partner tabs' account reports (客户 / 供应商详情 → 对账, 往来明细): one partner's open items
 * (bartererbalance/archeck, businessbalance/apcheck; view erp_barterer_check) and its ledger rows
 * with the running balance (businessbalance/arYwcheck, apYwcheck; view erp_barterer_detail), read
 * through the generic page with the partner matched exactly and the kind fixed by the call; the
 * bill type's name is added for the tab.
 */
import type { Services } from '../services.ts';
import type { Model } from '../engine/model.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller, param, type Ctx } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { runOp } from '../engine/ops.ts';

export function registerPartnerReportHandlers(services: Services) {
  const billTypeName = (type: unknown) => services.registry.dicts.find((d) => d.code === 'bill_type')?.items.find((i) => i.key === String(type ?? ''))?.value ?? '';

  const report = (kind: 'AR' | 'AP') => async (ctx: Ctx, model: Model) => {
    mustCaller(ctx);
    const partner = param(ctx, 'bartererId', 'customerId', 'supplierId');
    if (!partner) throw badRequest(kind === 'AR' ? '请选择客户' : '请选择供应商');
    const { bartererId: _b, customerId: _c, supplierId: _s, ...rest } = ctx.query as Row;
    const query = { ...rest, bartererId_equal: partner, kind_equal: kind };
    const page = (await runOp({ ...ctx, query }, model, { path: 'list', method: 'GET', op: 'page', filters: 'map' })).data as { records: Row[] };
    for (const r of page.records) r.billTypeName = billTypeName(r.billType);
    return page;
  };
  services.register('partnerReport.arCheck', report('AR'));
  services.register('partnerReport.apCheck', report('AP'));
  services.register('partnerReport.arDetail', report('AR'));
  services.register('partnerReport.apDetail', report('AP'));
}
