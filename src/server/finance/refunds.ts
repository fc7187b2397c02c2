/**
 * Refunds: money going back to the partner who is owed it, on 销售退款单 (sales-refund, AR) and
 * 采购退款单 (purchase-refund, AP), both money bills with settle.refund: a debit on the partner whose
 * lines use up the partner's credits (posting/settlement.ts).
 *
 * - createPrecpInfo (id, version) on a posted 销售退货单 / 采购退货单: saves a draft refund of the
 *   return's credit still open, capped by the partner's net credit (what we owe the customer, or
 *   what the supplier owes us, after every open bill): a customer who still owes more than the
 *   return has the return off its receivable and gets no money back. Refused for a return not
 *   posted, one whose credit is used up, and one with a live refund already (not cancelled or
 *   flushed). The return's version moves on in the same transaction, so a stale or repeated call
 *   is refused.
 * - generateUnOutRefund (soNo) / generateUnInRefund (poNo): an unsaved refund (nothing written) of
 *   the money the partner paid ahead (receipts and prepayments not applied; payments not applied)
 *   up to the order's amount not yet shipped (received), oldest money first, capped by the
 *   partner's net credit.
 * - selectPurchaseExins (id, body filters): the 费用单 on account (收支单 6002, 挂账) of a purchase
 *   invoice's supplier, posted, with their open amounts.
 */
import type { Handler, Services } from '../services.ts';
import type { Caller } from '../http/context.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller, param } from '../http/context.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { documentModel, stateName, tenantPlaces, type DocumentModel } from '../engine/document/context.ts';
import { saveBill, userName } from '../engine/document/transitions.ts';
import { requireVersion } from '../engine/records.ts';
import { fillLookups } from '../engine/lookups.ts';
import { openAmount, partnerItems } from '../posting/settlement.ts';
import { Dec, fixed, type Decimal, type Places } from '../../shared/money/index.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { documentOf } from '../../shared/document.ts';

type Kind = 'AR' | 'AP';

/** Each side: the refund bill, the partner's name in messages, the order that was paid ahead. */
const SIDES: Record<Kind, { refund: string; partner: string; order: string; orderParam: string; doneField: string; doneWord: string; orderTitle: string; partnerField: string }> = {
  AR: { refund: 'sales-refund', partner: '客户', order: 'sales-order', orderParam: 'soNo', doneField: 'outQty', doneWord: '发货', orderTitle: '销售订单', partnerField: 'customerId' },
  AP: { refund: 'purchase-refund', partner: '供应商', order: 'purchase-order', orderParam: 'poNo', doneField: 'inQty', doneWord: '入库', orderTitle: '采购订单', partnerField: 'supplierId' },
};
const RETURNS: Record<string, Kind> = { 'sales-return': 'AR', 'purchase-return': 'AP' };
const LIVE_REFUND = ['1301', '1302', '1303', '1304', '1305', '1306'];

const blank = (v: unknown) => v === undefined || v === null || v === '';
const today = () => formatDateTime().slice(0, 10);

/** The partner's balance (AR: what the customer owes; AP: what we owe the supplier). */
async function balanceOf(services: Services, caller: Caller, kind: Kind, partyId: string): Promise<Decimal> {
  const row = (await services.store.find(services.internal.partyBalance, caller.tenantId, { where: { kind, partyId }, limit: 1 }))[0];
  return new Dec(String(row?.amount ?? '0'));
}

/** What the partner is owed back: its net credit, refused (naming the balance) when there is none. */
async function netCredit(services: Services, caller: Caller, kind: Kind, partyId: string, places: Places): Promise<Decimal> {
  const balance = await balanceOf(services, caller, kind, partyId);
  if (balance.isZero()) throw badRequest(kind === 'AR' ? `客户往来余额为 ${fixed(balance, places.amount)}，没有可退给客户的余额` : `供应商往来余额为 ${fixed(balance, places.amount)}，供应商没有需要退回的款项`);
  if (balance.gt(0)) {
    throw badRequest(
      kind === 'AR'
        ? `客户目前仍欠款 ${fixed(balance, places.amount)}，没有可退给客户的余额（退货金额已冲减应收）`
        : `目前仍欠供应商 ${fixed(balance, places.amount)}，供应商没有需要退回的款项（退货金额已冲减应付）`,
    );
  }
  return balance.neg();
}

function refundLine(item: { billId: string; billNo: string; billType: string; billDate: string; amount: Decimal; applied: Decimal }, take: Decimal, places: Places): Row {
  return {
    sourceBillId: item.billId,
    sourceBillNo: item.billNo,
    sourceBillType: item.billType,
    sourceBillDate: item.billDate,
    billAmt: fixed(item.amount.abs(), places.amount),
    openAmt: fixed(item.amount.abs().minus(item.applied), places.amount),
    settleAmt: fixed(take, places.amount),
  };
}

/** Refund bills still alive (not cancelled, flushed or deleted) with a line using this credit. */
async function liveRefunds(services: Services, caller: Caller, dm: DocumentModel, creditId: string): Promise<Row[]> {
  const lines = await services.store.find(dm.lineModel!, caller.tenantId, { where: { sourceBillId: creditId }, limit: 200 });
  const heads = [...new Set(lines.map((l) => String(l.headId)))];
  if (!heads.length) return [];
  return services.store.find(dm.model, caller.tenantId, { where: { id: heads, [dm.doc.statusField]: LIVE_REFUND } });
}

export function registerRefundHandlers(services: Services) {
  /** createPrecpInfo (id, version): a draft refund of a posted return's open credit. */
  services.register('refund.fromReturn', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const kind = RETURNS[model.name];
    if (!kind) throw badRequest(`${model.title}不能生成退款单`);
    const side = SIDES[kind];
    const returns = documentModel(services, model);
    const refunds = documentModel(services, services.m(side.refund));
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    const version = requireVersion({ version: param(ctx, 'version') });
    const places = await tenantPlaces(services, caller.tenantId);
    const { store } = services;
    const bill = await store.get(model, caller.tenantId, id);
    if (!bill) throw notFound('单据不存在或已被删除');
    const billNo = String(bill[returns.doc.numberField] ?? '');
    const state = String(bill[returns.doc.statusField] ?? '');
    if (Number(bill.version) !== version) {
      const who = await userName(services, caller, bill.updateUser);
      throw conflict(`单据已被${who || '他人'}于${bill.updateTime}修改（当前状态：${stateName(services, returns, state)}），请刷新后重试`, { version: bill.version, updateUser: who, updateTime: bill.updateTime, status: state });
    }
    if (state !== '1306') throw badRequest(`${model.title}${billNo}当前状态为「${stateName(services, returns, state)}」，只有「已记账」的退货单可以生成退款单`);
    const partyId = String(bill[returns.doc.partnerField ?? side.partnerField] ?? '');
    const live = await liveRefunds(services, caller, refunds, id);
    if (live.length) {
      const other = live[0];
      throw badRequest(`${model.title}${billNo}已生成退款单${other[refunds.doc.numberField]}（${stateName(services, refunds, String(other[refunds.doc.statusField]))}），不能重复生成`);
    }
    const item = (await partnerItems(services, caller, kind, partyId, 'credit')).find((i) => i.billId === id);
    if (!item) throw badRequest(`${model.title}${billNo}的退货金额已全部冲抵或退款，没有可退金额`);
    const amount = Dec.min(openAmount(item), await netCredit(services, caller, kind, partyId, places));
    const head: Row = {
      bartererId: partyId,
      billDate: today(),
      precpAmt: fixed(amount, places.amount),
      sourceBillId: id,
      sourceBillNo: billNo,
      sourceBillType: returns.doc.billType,
      remark: `${model.title}${billNo}退款`,
      bodyList: [refundLine(item, amount, places)],
    };
    return store.transaction(async () => {
      // The return's version moves on: a second call with the same version is refused.
      const moved = await store.guardedUpdate(model, caller, id, {}, { version, where: { [returns.doc.statusField]: '1306' } });
      if (!moved) throw conflict('单据已被他人修改，请刷新后重试');
      return saveBill(services, caller, refunds, 'draft', head);
    });
  });

  /** generateUnOutRefund (soNo) / generateUnInRefund (poNo): an unsaved refund of money paid ahead on an order not yet delivered. */
  services.register('refund.fromOrder', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const kind = RETURNS[model.name];
    if (!kind) throw badRequest(`${model.title}不能生成退款单`);
    const side = SIDES[kind];
    const orders = documentModel(services, services.m(side.order));
    const refunds = documentModel(services, services.m(side.refund));
    const number = param(ctx, side.orderParam, 'billNo');
    if (!number) throw badRequest(`请输入${side.orderTitle}单号（${side.orderParam}）`);
    const places = await tenantPlaces(services, caller.tenantId);
    const order = (await services.store.find(orders.model, caller.tenantId, { where: { [orders.doc.numberField]: number }, limit: 1 }))[0];
    if (!order) throw badRequest(`${side.orderTitle}${number}不存在`);
    const state = String(order[orders.doc.statusField] ?? '');
    if (!['1304', '1307', '1309'].includes(state)) {
      throw badRequest(`${side.orderTitle}${number}当前状态为「${stateName(services, orders, state)}」，只有已审核、已完成或已作废的订单可以生成未${side.doneWord}退款`);
    }
    // What is not yet delivered: each line's final amount × (quantity − delivered) ÷ quantity.
    const lines = await services.store.find(orders.lineModel!, caller.tenantId, { where: { headId: String(order.id) } });
    const undelivered = lines.reduce<Decimal>((sum, line) => {
      const qty = new Dec(String(line.qty ?? '0'));
      const done = new Dec(String(line[side.doneField] ?? '0'));
      if (!qty.gt(0) || !qty.gt(done)) return sum;
      return sum.plus(fixed(new Dec(String(line.finalAmt ?? '0')).times(qty.minus(done)).div(qty), places.amount));
    }, new Dec(0));
    if (!undelivered.gt(0)) throw badRequest(`${side.orderTitle}${number}已全部${side.doneWord}，没有未${side.doneWord}的金额可退`);
    const partyId = String(order[orders.doc.partnerField ?? side.partnerField] ?? '');
    // Money paid ahead: the partner's unapplied receipts and prepayments (payments), not returns or adjustments.
    const money = new Set(
      [...services.registry.models.values()]
        .filter((m) => {
          const doc = documentOf(m.resource);
          return Boolean(doc?.settle && !doc.settle.refund && doc.posting?.party === kind);
        })
        .map((m) => m.name),
    );
    const credits = (await partnerItems(services, caller, kind, partyId, 'credit')).filter((i) => money.has(i.resource));
    if (!credits.length) throw badRequest(kind === 'AR' ? `客户没有未使用的预收款或收款，无需退款` : `供应商没有未使用的预付款，无需退款`);
    let left = Dec.min(undelivered, await netCredit(services, caller, kind, partyId, places));
    const body: Row[] = [];
    for (const item of credits) {
      if (!left.gt(0)) break;
      const take = Dec.min(left, openAmount(item));
      if (!take.gt(0)) continue;
      body.push(refundLine(item, take, places));
      left = left.minus(take);
    }
    const total = body.reduce<Decimal>((sum, l) => sum.plus(String(l.settleAmt)), new Dec(0));
    const head: Row = {
      bartererId: partyId,
      billDate: today(),
      billType: refunds.doc.billType,
      billStatus: '1301',
      precpAmt: fixed(total, places.amount),
      settlementAmt: fixed(total, places.amount),
      sourceBillId: String(order.id),
      sourceBillNo: number,
      sourceBillType: orders.doc.billType,
      remark: `${side.orderTitle}${number}未${side.doneWord}部分退款（未${side.doneWord}金额 ${fixed(undelivered, places.amount)}）`,
    };
    await fillLookups(services, refunds.model, caller.tenantId, [head]);
    return { ...head, [refunds.doc.lines!]: body };
  });

  /** selectPurchaseExins (id; body: billNo, billDateStart, billDateEnd, expendId, openOnly): a supplier's on-account expense bills. */
  const selectExins: Handler = async (ctx, model) => {
    const caller = mustCaller(ctx);
    const body = (ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? ctx.body : {}) as Row;
    const text = (name: string) => (blank(body[name]) ? undefined : String(body[name]).trim());
    const id = blank(ctx.query.id) ? text('id') : String(ctx.query.id);
    let supplierId = text('supplierId');
    if (id) {
      const invoice = await services.store.get(model, caller.tenantId, id);
      if (!invoice) throw notFound('采购发票不存在或已被删除');
      supplierId = String(invoice.supplierId ?? '');
    }
    if (!supplierId) throw badRequest('请先选择采购发票（id）或供应商（supplierId）');
    const places = await tenantPlaces(services, caller.tenantId);
    const exin = services.m('exin');
    const rows = await services.store.find(exin, caller.tenantId, {
      where: { supplierId, expendType: 6002, onAccount: 2, billStatus: '1306' },
      orderBy: [{ column: 'bill_date', dir: 'asc' }, { column: 'create_time', dir: 'asc' }],
      limit: 2000,
    });
    const billNo = text('billNo');
    const from = text('billDateStart');
    const to = text('billDateEnd');
    const expendId = text('expendId');
    const openOnly = !['false', '0'].includes(String(body.openOnly ?? 'true'));
    let picked = rows.filter((r) => {
      const date = String(r.billDate ?? '').slice(0, 10);
      return (!billNo || String(r.billNo ?? '').includes(billNo)) && (!from || date >= from) && (!to || date <= to);
    });
    const ids = picked.map((r) => String(r.id));
    const lines = ids.length ? await services.store.find(services.m('exin-body'), caller.tenantId, { where: { headId: ids }, orderBy: [{ column: 'sort', dir: 'asc' }] }) : [];
    await fillLookups(services, services.m('exin-body'), caller.tenantId, lines);
    if (expendId) {
      const having = new Set(lines.filter((l) => String(l.expendId) === expendId).map((l) => String(l.headId)));
      picked = picked.filter((r) => having.has(String(r.id)));
    }
    const items = ids.length ? await services.store.find(services.internal.openItem, caller.tenantId, { where: { billId: ids } }) : [];
    const byBill = new Map(items.map((i) => [String(i.billId), i]));
    await fillLookups(services, exin, caller.tenantId, picked);
    const answer = picked.map((r) => {
      const item = byBill.get(String(r.id));
      const amount = new Dec(String(r.finalAmt ?? '0'));
      const settled = new Dec(String(item?.applied ?? '0'));
      const open = item && Number(item.reversed) !== 1 ? new Dec(String(item.amount)).abs().minus(settled) : new Dec(0);
      const own = lines.filter((l) => String(l.headId) === String(r.id));
      return {
        id: String(r.id),
        billNo: r.billNo,
        billDate: r.billDate,
        billType: r.billType,
        expendType: r.expendType,
        supplierId: r.supplierId,
        supplierName: r.supplierName ?? '',
        expendNames: [...new Set(own.map((l) => String(l.expendName ?? '')).filter(Boolean))].join('、'),
        finalAmt: fixed(amount, places.amount),
        settledAmt: fixed(settled, places.amount),
        openAmt: fixed(open, places.amount),
        remark: r.remark ?? '',
      };
    });
    return openOnly ? answer.filter((r) => new Dec(r.openAmt).gt(0)) : answer;
  };
  services.register('refund.purchaseExins', selectExins);
}
