/**
 * Three finance calls read from what the engine already records:
 * - 业务历史 (businessHistory list, getTypeList): every action on any bill, from erp_bill_action
 *   through the view erp_business_history, newest first, with bill-type and state names;
 * - 单据核销明细 (billsettlement detail): how one posted bill of any kind stands against the
 *   settlements (erp_party_settlement, through the view erp_bill_settlement) and its open item;
 * - 单据附件 (billannex): attachments of bills, uploaded through the one shared upload path
 *   (files/upload.ts) and limited by the schema's putOrderFile params (types, size, count).
 * Figures are exact decimals at the tenant's places; every read is scoped to the caller's tenant.
 */
import type { Services } from '../services.ts';
import type { Ctx } from '../http/context.ts';
import { mustCaller, param } from '../http/context.ts';
import type { Actor, Row } from '../engine/store.ts';
import type { Model } from '../engine/model.ts';
import { badRequest, notFound } from '../errors.ts';
import { runOp } from '../engine/ops.ts';
import { documentModel, stateName, tenantPlaces } from '../engine/document/context.ts';
import { documentFor, documentOf } from '../../shared/document.ts';
import { receiveUpload } from '../files/upload.ts';
import { Dec, fixed, type Decimal } from '../../shared/money/index.ts';

const blank = (v: unknown) => v === undefined || v === null || v === '';

export function registerFinanceViewHandlers(services: Services) {
  const { store } = services;

  const dictValue = (code: string, key: string) => services.registry.dicts.find((d) => d.code === code)?.items.find((i) => i.key === key);
  const billTypeName = (type: string) => dictValue('bill_type', type)?.value ?? '';

  /** Bill resources by bill type (a bill of several kinds, 收支单, by each kind's type). */
  let byType: Map<string, Model> | undefined;
  const billModels = () => {
    if (!byType) {
      byType = new Map();
      for (const model of services.registry.models.values()) {
        const doc = documentOf(model.resource);
        for (const type of doc ? [doc.billType, ...(doc.variants?.values.map((v) => v.billType) ?? [])] : []) if (!byType.has(type)) byType.set(type, model);
      }
    }
    return byType;
  };
  const billModel = (resource: string): Model | undefined => {
    const model = services.registry.models.get(resource);
    return model && documentOf(model.resource) ? model : undefined;
  };

  // ───────────── 业务历史 ─────────────

  /** State names as the bill's own status dictionary spells them; 新建 before the first save, 已删除 after remove. */
  function statusName(resource: string, state: string): string {
    if (blank(state)) return '';
    if (state === 'deleted') return '已删除';
    const model = billModel(resource);
    return model ? stateName(services, documentModel(services, model), state) : state;
  }

  /** Rows written before erp_bill_action carried the bill's number and type take them from the bill. */
  async function fillLegacy(tenantId: string, rows: Row[]) {
    const missing = new Map<string, Row[]>();
    for (const r of rows) if (blank(r.billNo) || blank(r.billType)) missing.set(String(r.resource), [...(missing.get(String(r.resource)) ?? []), r]);
    for (const [resource, list] of missing) {
      const model = billModel(resource);
      if (!model) continue;
      const doc = documentOf(model.resource)!;
      const bills = new Map((await store.find(model, tenantId, { where: { id: [...new Set(list.map((r) => String(r.billId)))] } })).map((b) => [String(b.id), b]));
      for (const r of list) {
        const bill = bills.get(String(r.billId));
        if (blank(r.billType)) r.billType = bill ? documentFor(doc, bill).billType : doc.billType;
        if (blank(r.billNo) && bill) r.billNo = bill[doc.numberField] ?? null;
      }
    }
  }

  /** Exact filters on codes (a bare billType=0803 is not a text search), and startDate/endDate as the time range. */
  const EXACT = ['billType', 'billId', 'resource', 'action', 'userId', 'fromStatus', 'toStatus'];

  services.register('businessHistory.list', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const query: Row = { ...ctx.query };
    for (const key of EXACT) {
      if (!blank(query[key])) {
        query[`${key}_equal`] = query[key];
        delete query[key];
      }
    }
    const start = param(ctx, 'startDate', 'startTime', 'beginDate', 'beginTime');
    const end = param(ctx, 'endDate', 'endTime');
    if (start) query.actionTime_datege = start;
    if (end) query.actionTime_datele = end;
    // A day as the range's end takes in the whole day (the time is yyyy-MM-dd HH:mm:ss).
    for (const key of ['actionTime_datele', 'actionTime_le']) {
      const value = query[key];
      if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value.trim())) query[key] = `${value.trim()} 23:59:59`;
    }
    const view: Ctx = { ...ctx, query };
    const page = (await runOp(view, model, { path: 'list', method: 'GET', op: 'page', filters: 'map' })).data as { records: Row[] };
    await fillLegacy(caller.tenantId, page.records);
    for (const r of page.records) {
      r.billTypeName = billTypeName(String(r.billType ?? ''));
      r.fromStatusName = statusName(String(r.resource), String(r.fromStatus ?? ''));
      r.toStatusName = statusName(String(r.resource), String(r.toStatus ?? ''));
    }
    return page;
  });

  services.register('businessHistory.typeList', async (ctx) => {
    const caller = mustCaller(ctx);
    const table = services.internal.billAction.table;
    const rows = await store.db
      .selectFrom(table)
      .select(['bill_type', 'resource'])
      .distinct()
      .where('tenant_id', '=', caller.tenantId)
      .execute();
    const types = new Set<string>();
    for (const r of rows as { bill_type: string | null; resource: string }[]) {
      if (!blank(r.bill_type)) types.add(String(r.bill_type));
      else {
        // A row from before the column: the bill's declared type.
        const doc = documentOf(billModel(String(r.resource))?.resource);
        if (doc) types.add(doc.billType);
      }
    }
    return [...types].sort().map((value) => {
      const item = dictValue('bill_type', value);
      const model = billModels().get(value);
      return { value, label: item?.value ?? model?.title ?? value, labelEn: item?.valueEn ?? model?.resource?.titleEn ?? value };
    });
  });

  // ───────────── 单据核销明细 ─────────────

  services.register('billSettlement.detail', async (ctx) => {
    const caller = mustCaller(ctx);
    const id = param(ctx, 'id', 'billId');
    if (!id) throw badRequest('缺少参数 id');
    const item = (await store.find(services.internal.openItem, caller.tenantId, { where: { billId: id } }))[0];
    if (!item) throw badRequest('单据尚未记账或不产生往来，没有核销信息');
    const places = await tenantPlaces(services, caller.tenantId);
    const money = (v: Decimal | string) => fixed(v, places.amount);
    const rows = await store.find(services.m('bill-settlement'), caller.tenantId, {
      where: { billId: id },
      orderBy: [{ column: 'create_time', dir: 'asc' }, { column: 'id', dir: 'asc' }],
    });
    // Net per bill settled with: a reversal's unsettle row takes back what its settle row gave.
    const net = new Map<string, { row: Row; amount: Decimal }>();
    for (const r of rows) {
      const key = String(r.otherBillId);
      const entry = net.get(key) ?? { row: r, amount: new Dec(0) };
      entry.amount = entry.amount.plus(String(r.settleAmt ?? '0'));
      net.set(key, entry);
    }
    const amount = new Dec(String(item.amount ?? '0'));
    const applied = new Dec(String(item.applied ?? '0'));
    const reversed = Number(item.reversed) === 1;
    const kind = String(item.kind);
    const partner = await store.get(services.m(kind === 'AP' ? 'supplier' : 'customer'), caller.tenantId, String(item.partyId));
    const resource = billModel(String(item.resource ?? ''));
    const side = amount.gt(0) ? 'debit' : 'credit';
    return {
      billId: id,
      billNo: item.billNo ?? '',
      billType: item.billType ?? '',
      billTypeName: billTypeName(String(item.billType ?? '')),
      billDate: item.billDate ?? '',
      resource: item.resource ?? '',
      resourceTitle: resource?.title ?? '',
      kind,
      kindName: dictValue('party_kind', kind)?.value ?? kind,
      partyId: item.partyId,
      bartererName: partner?.bartererName ?? '',
      side,
      sideName: dictValue('settle_side', side)?.value ?? side,
      reversed,
      billAmt: money(amount.abs()),
      settledAmt: money(applied),
      openAmt: money(reversed ? new Dec(0) : amount.abs().minus(applied)),
      settlements: [...net.entries()]
        .filter(([, n]) => !n.amount.isZero())
        .map(([otherId, n]) => ({
          billId: otherId,
          billNo: n.row.otherBillNo ?? '',
          billType: n.row.otherBillType ?? '',
          billTypeName: billTypeName(String(n.row.otherBillType ?? '')),
          billDate: n.row.otherBillDate ?? '',
          settleAmt: money(n.amount),
        })),
      records: rows.map((r) => ({
        id: r.id,
        createTime: r.createTime,
        entry: r.entry,
        entryName: dictValue('settle_entry', String(r.entry))?.value ?? r.entry,
        otherBillId: r.otherBillId,
        otherBillNo: r.otherBillNo ?? '',
        otherBillType: r.otherBillType ?? '',
        otherBillTypeName: billTypeName(String(r.otherBillType ?? '')),
        settleAmt: money(String(r.settleAmt ?? '0')),
        byBillId: r.byBillId,
        byBillNo: r.byBillNo ?? '',
      })),
    };
  });

  // ───────────── 单据附件 ─────────────

  interface AnnexLimits {
    accept?: string[];
    maxSizeKb?: number;
    maxCount: number;
    countMessage: string;
  }
  /** The limits are declared once, on the putOrderFile endpoint's params. */
  const limitsOf = (model: Model): AnnexLimits => {
    const params = (model.resource?.api.endpoints.find((e) => e.handler === 'billAnnex.put')?.params ?? {}) as Partial<AnnexLimits>;
    return { accept: params.accept, maxSizeKb: params.maxSizeKb, maxCount: params.maxCount ?? 6, countMessage: params.countMessage ?? `每张单据最多上传${params.maxCount ?? 6}个附件` };
  };

  /** The bill an attachment belongs to: by its type, or by the resource its history or posting names. */
  async function resolveBill(actor: Actor, billId: string, billType: string | undefined): Promise<{ billId: string; billType: string; billNo: string | null }> {
    let model: Model | undefined;
    if (!blank(billType)) {
      model = billModels().get(String(billType));
      if (!model) throw badRequest(`单据类型 ${billType} 不存在`);
    } else {
      const seen =
        (await store.find(services.internal.billAction, actor.tenantId, { where: { billId }, limit: 1 }))[0] ??
        (await store.find(services.internal.openItem, actor.tenantId, { where: { billId }, limit: 1 }))[0];
      model = seen ? billModel(String(seen.resource)) : undefined;
      if (!model) throw badRequest('请指定单据类型（billType）');
    }
    const bill = await store.get(model, actor.tenantId, billId);
    if (!bill) throw notFound('单据不存在或已被删除');
    const doc = documentOf(model.resource)!;
    return { billId, billType: documentFor(doc, bill).billType, billNo: blank(bill[doc.numberField]) ? null : String(bill[doc.numberField]) };
  }

  const ofBill = (tenantId: string, billIds: string[]) =>
    store.find(services.m('bill-annex'), tenantId, {
      where: { billId: billIds },
      orderBy: [{ column: 'sort', dir: 'asc' }, { column: 'create_time', dir: 'asc' }, { column: 'id', dir: 'asc' }],
    });

  services.register('billAnnex.put', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const limits = limitsOf(model);
    let bill: Awaited<ReturnType<typeof resolveBill>> | undefined;
    let count = 0;
    const file = await receiveUpload(services, ctx, {
      allowed: limits.accept,
      limit: limits.maxSizeKb ? limits.maxSizeKb * 1024 : undefined,
      before: async (fields) => {
        const billId = param(ctx, 'billId') ?? (blank(fields.billId) ? undefined : fields.billId);
        if (!billId) return;
        bill = await resolveBill(caller, billId, param(ctx, 'billType') ?? (blank(fields.billType) ? undefined : fields.billType));
        count = await store.count(model, caller.tenantId, { where: { billId } });
        if (count >= limits.maxCount) throw badRequest(limits.countMessage);
      },
    });
    if (!bill) return file;
    const annex = await store.insert(model, caller, { ...bill, attachId: file.attachId, link: file.link, domain: file.domain, name: file.name, originalName: file.originalName, extension: file.extension, attachSize: file.attachSize, sort: count + 1 });
    return { ...file, id: String(annex.id), billId: bill.billId, billType: bill.billType, billNo: bill.billNo };
  });

  services.register('billAnnex.ofBill', async (ctx) => {
    const caller = mustCaller(ctx);
    const billId = param(ctx, 'billId', 'id');
    if (!billId) throw badRequest('缺少参数 billId');
    return ofBill(caller.tenantId, [billId]);
  });

  services.register('billAnnex.save', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const limits = limitsOf(model);
    const body = (ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? ctx.body : {}) as Row;
    const billId = blank(body.billId) ? param(ctx, 'billId') : String(body.billId);
    if (!billId) throw badRequest('缺少参数 billId');
    const list = Array.isArray(ctx.body) ? ctx.body : (body.annexList ?? body.fileInfoVoForms ?? body.attachList);
    if (!Array.isArray(list)) throw badRequest('缺少附件清单（annexList）');
    const bill = await resolveBill(caller, billId, blank(body.billType) ? param(ctx, 'billType') : String(body.billType));
    if (list.length > limits.maxCount) throw badRequest(limits.countMessage);
    const attachIds = list.map((item, i) => {
      const id = item && typeof item === 'object' ? (item as Row).attachId : item;
      if (blank(id)) throw badRequest(`第${i + 1}个附件：缺少附件ID（attachId），请先上传`);
      return String(id);
    });
    const twice = attachIds.findIndex((id, i) => attachIds.indexOf(id) !== i);
    if (twice >= 0) throw badRequest(`第${twice + 1}个附件重复`);
    const attaches = new Map((attachIds.length ? await store.find(services.m('attach'), caller.tenantId, { where: { id: attachIds } }) : []).map((a) => [String(a.id), a]));
    const limit = limits.maxSizeKb ? limits.maxSizeKb * 1024 : undefined;
    const rows = attachIds.map((id, i) => {
      const a = attaches.get(id);
      if (!a) throw badRequest(`第${i + 1}个附件不存在或已被删除，请重新上传`);
      // What was uploaded through another call (oss put-file) must still fit this resource's limits.
      const ext = String(a.extension ?? '').toLowerCase();
      if (limits.accept && !limits.accept.includes(ext)) throw badRequest(`第${i + 1}个附件：不支持的文件类型，仅支持：${limits.accept.join('、')}`);
      if (limit !== undefined && Number(a.attachSize ?? 0) > limit) throw badRequest(`第${i + 1}个附件：上传文件大小不能超过${Math.round(limit / 1024 / 1024)}M`);
      return { ...bill, attachId: id, link: a.link, domain: a.domain ?? null, name: a.name ?? null, originalName: a.originalName ?? null, extension: ext || null, attachSize: a.attachSize ?? null, sort: i + 1 };
    });
    await store.transaction(async () => {
      const before = await store.find(model, caller.tenantId, { where: { billId } });
      if (before.length) await store.softRemove(model, caller, before.map((r) => String(r.id)));
      if (rows.length) await store.insertMany(model, caller, rows);
    });
    return ofBill(caller.tenantId, [billId]);
  });

  /** An invoice's attachments and its source bills' (one level up the bill relations), the invoice's first. */
  services.register('billAnnex.ofInvoice', async (ctx) => {
    const caller = mustCaller(ctx);
    const invoiceId = param(ctx, 'invoiceId', 'id', 'billId');
    if (!invoiceId) throw badRequest('缺少参数 invoiceId');
    const sources = (await store.find(services.m('bill-relation'), caller.tenantId, { where: { targetBillId: invoiceId } })).map((r) => String(r.sourceBillId));
    const order = [invoiceId, ...new Set(sources.filter((s) => s !== invoiceId))];
    const rows = await ofBill(caller.tenantId, order);
    return rows.sort((a, b) => order.indexOf(String(a.billId)) - order.indexOf(String(b.billId)));
  });
}
