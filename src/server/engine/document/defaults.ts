/**
 * initAdd (GET): a new bill's defaults, nothing written — the bill date (today), its type, the
 * caller's staff record (the staff linked to the user, else the user's own staffId) with its
 * department, and the caller's default warehouse (用户 → 分配仓库, the one marked default), each
 * only when the bill has the field; a bill of several kinds (document.variants) answers the kind
 * its field's parameter names (收支单 ?expendType=6001), else its default kind. The client may open a new bill from it; saving is submit/draft.
 */
import type { Services } from '../../services.ts';
import type { Model } from '../model.ts';
import type { Row } from '../store.ts';
import { mustCaller, param } from '../../http/context.ts';
import { variantByBillType, variantOf } from '../../../shared/document.ts';
import { formatDate } from '../../../shared/dates.ts';
import { fillLookups } from '../lookups.ts';
import { documentModel } from './context.ts';

const blank = (v: unknown) => v === undefined || v === null || v === '';

export function registerDocumentDefaults(services: Services) {
  services.register('document.initAdd', async (ctx, model: Model) => {
    const caller = mustCaller(ctx);
    const { doc } = documentModel(services, model);
    const { store } = services;
    const bill: Row = { billType: doc.billType };
    // A bill of several kinds (收支单): the kind asked for (expendType=6001), else the default one.
    if (doc.variants) {
      const kind = variantOf(doc, param(ctx, doc.variants.field)) ?? variantByBillType(doc, doc.billType);
      if (kind) Object.assign(bill, { [doc.variants.field]: kind.value, billType: kind.billType });
    }
    // The head's own defaults (收支单 挂账: 否), as a new record's form starts with them.
    for (const field of model.fields.values()) if (field.schema.default !== undefined && !field.readonly) bill[field.name] = field.schema.default;
    if (doc.dateField) bill[doc.dateField] = formatDate();
    if (doc.lines) bill[doc.lines] = [];
    if (model.fields.has('staffId')) {
      const linked = await store.find(services.m('staff'), caller.tenantId, { where: { userId: caller.userId } });
      const user = linked.length ? undefined : await store.get(services.m('user'), caller.tenantId, caller.userId);
      const staff = linked[0] ?? (blank(user?.staffId) ? undefined : await store.get(services.m('staff'), caller.tenantId, String(user!.staffId)));
      if (staff) {
        bill.staffId = String(staff.id);
        if (model.fields.has('deptId') && !blank(staff.deptId)) bill.deptId = String(staff.deptId);
      }
    }
    if (doc.depotField) {
      const depots = await store.find(services.internal.userDepot, caller.tenantId, { where: { userId: caller.userId } });
      const preferred = depots.find((d) => Number(d.isDefault) === 2) ?? (depots.length === 1 ? depots[0] : undefined);
      if (preferred) bill[doc.depotField] = String(preferred.depotId);
    }
    await fillLookups(services, model, caller.tenantId, [bill]);
    return bill;
  });
}
