/**
 * The calls around money bills, read from the open items posting keeps (posting/settlement.ts):
 * a partner's bills still open (billlist, unreceipt) and its money not yet applied (precplist,
 * unprepayment); a 按单收款 (按单付款) drafted from chosen bills (mergecollect, mergepay); how a
 * bill was settled (settlebodydist); and approving several bills at once (batchaudit). The kind
 * (AR for receipts, AP for payments) is the resource's posting.party (partyKindOf).
 */
import type { Handler, Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller, param } from '../http/context.ts';
import { badRequest, notFound } from '../errors.ts';
import { documentModel, tenantPlaces } from '../engine/document/context.ts';
import { applyAction } from '../engine/document/transitions.ts';
import { fillLookups } from '../engine/lookups.ts';
import { openAmount, partnerItems } from '../posting/settlement.ts';
import { partyKindOf } from '../posting/party.ts';
import { Dec, fixed, type Decimal } from '../../shared/money/index.ts';
import { formatDateTime } from '../../shared/dates.ts';

export function registerSettlementHandlers(services: Services) {
  const lister = (side: 'debit' | 'credit'): Handler => async (ctx, model) => {
    const caller = mustCaller(ctx);
    const partyId = param(ctx, 'bartererId', 'customerId', 'supplierId');
    const kind = partyKindOf(documentModel(services, model).doc) ?? 'AR';
    if (!partyId) throw badRequest(kind === 'AR' ? '请选择客户' : '请选择供应商');
    const places = await tenantPlaces(services, caller.tenantId);
    const bills = new Map(services.registry.dicts.find((d) => d.code === 'bill_type')?.items.map((i) => [i.key, i.value]) ?? []);
    return (await partnerItems(services, caller, kind, partyId, side)).map((item) => ({
      billId: item.billId,
      billNo: item.billNo,
      billType: item.billType,
      billTypeName: bills.get(item.billType) ?? item.billType,
      billDate: item.billDate,
      billAmt: fixed(item.amount.abs(), places.amount),
      settledAmt: fixed(item.applied, places.amount),
      openAmt: fixed(openAmount(item), places.amount),
    }));
  };
  services.register('settlement.billList', lister('debit'));
  services.register('settlement.precpList', lister('credit'));
  registerSettlementBillHandlers(services);
}

/** Open items by bill id (any partner), for naming the other side of a settlement. */
async function itemsById(services: Services, tenantId: string, ids: string[]) {
  const rows = ids.length ? await services.store.find(services.internal.openItem, tenantId, { where: { billId: ids } }) : [];
  return new Map(rows.map((r) => [String(r.billId), r]));
}

export function registerSettlementBillHandlers(services: Services) {
  /** mergecollect / mergepay: an unsaved 按单收款 (按单付款) settling the chosen open bills in full. */
  services.register('settlement.merge', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const dm = documentModel(services, model);
    const settle = dm.doc.settle;
    const kind = partyKindOf(dm.doc) ?? 'AR';
    const partyId = param(ctx, 'bartererId', 'customerId', 'supplierId');
    if (!partyId) throw badRequest(kind === 'AR' ? '请选择客户' : '请选择供应商');
    if (!settle?.target || !settle.lineAmount || !dm.doc.lines) throw badRequest(`${dm.model.title}不能按单合并`);
    const ids = (param(ctx, 'billIds', 'ids') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (!ids.length) throw badRequest('请选择要核销的单据');
    const places = await tenantPlaces(services, caller.tenantId);
    const open = new Map((await partnerItems(services, caller, kind, partyId, 'debit')).map((i) => [i.billId, i]));
    const lines = ids.map((id, i) => {
      const item = open.get(id);
      if (!item) throw badRequest(`第${i + 1}张单据不是该往来单位已记账且未结清的${kind === 'AR' ? '应收' : '应付'}单据`);
      const left = fixed(openAmount(item), places.amount);
      return { [settle.target!]: id, sourceBillNo: item.billNo, sourceBillType: item.billType, sourceBillDate: item.billDate, billAmt: fixed(item.amount.abs(), places.amount), openAmt: left, [settle.lineAmount!]: left };
    });
    const total = lines.reduce((sum, l) => sum.plus(String(l[settle.lineAmount!])), new Dec(0));
    const head: Row = { [dm.doc.partnerField ?? 'bartererId']: partyId, [dm.doc.dateField ?? 'billDate']: formatDateTime().slice(0, 10), [settle.amount]: fixed(total, places.amount) };
    await fillLookups(services, dm.model, caller.tenantId, [head]);
    return { ...head, [dm.doc.lines]: lines };
  });

  /** settlebodydist: how a bill was settled (the money that paid it) or what a money bill paid, net of reversals. */
  services.register('settlement.distribution', async (ctx) => {
    const caller = mustCaller(ctx);
    const billId = param(ctx, 'billId', 'id');
    if (!billId) throw badRequest('缺少参数 billId');
    const places = await tenantPlaces(services, caller.tenantId);
    const ledger = services.internal.settlement;
    const rows = [...(await services.store.find(ledger, caller.tenantId, { where: { debitId: billId } })), ...(await services.store.find(ledger, caller.tenantId, { where: { creditId: billId } }))];
    const net = new Map<string, Decimal>();
    for (const r of rows) {
      const other = String(r.debitId) === billId ? String(r.creditId) : String(r.debitId);
      const amount = new Dec(String(r.amount));
      net.set(other, (net.get(other) ?? new Dec(0)).plus(r.entry === 'unsettle' ? amount.neg() : amount));
    }
    const others = [...net].filter(([, amount]) => amount.gt(0));
    const items = await itemsById(services, caller.tenantId, others.map(([id]) => id));
    return others.map(([id, amount]) => {
      const item = items.get(id);
      return { billId: id, billNo: item?.billNo ?? '', billType: item?.billType ?? '', billDate: item?.billDate ?? '', settleAmt: fixed(amount, places.amount) };
    });
  });

  /**
   * batchaudit (ids) and the finance approval levels' batches (batchBossAudit, batchCashierAudit):
   * approves each bill in its own transaction and says how each one went.
   */
  const batch = (action: string, done: string): Handler => async (ctx, model) => {
    const caller = mustCaller(ctx);
    const dm = documentModel(services, model);
    const body = (ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? ctx.body : {}) as Row;
    const raw = Array.isArray(ctx.body) ? ctx.body : (body.ids ?? param(ctx, 'ids') ?? '');
    const ids = (Array.isArray(raw) ? raw.map(String) : String(raw).split(',')).map((s) => s.trim()).filter(Boolean);
    if (!ids.length) throw badRequest('请选择要审核的单据');
    const remark = body.remark === undefined ? param(ctx, 'remark') : String(body.remark);
    const results: Row[] = [];
    for (const id of ids) {
      const row = await services.store.get(dm.model, caller.tenantId, id);
      const billNo = row?.[dm.doc.numberField] ?? '';
      try {
        if (!row) throw notFound('单据不存在或已被删除');
        await applyAction(services, caller, dm, action, { id, version: row.version, remark });
        results.push({ id, billNo, success: true, msg: done });
      } catch (error) {
        results.push({ id, billNo, success: false, msg: (error as Error).message });
      }
    }
    return { total: ids.length, passed: results.filter((r) => r.success).length, results };
  };
  services.register('document.batchAudit', batch('pass', '审核通过'));
  services.register('document.batchBossAudit', batch('bossAudit', '老板审批通过'));
  services.register('document.batchCashierAudit', batch('cashierAudit', '出纳审批通过'));
}
