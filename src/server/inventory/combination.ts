/**
 * 组合与拆分 (blade-warehouse/inventory selectMergeNum, selectSplitNum, merge, split): a
 * combination goods (礼盒 = 12 瓶 + 1 个纸盒) is made of component goods, so many of each per set
 * (goods-combination rows; without rows, the goods' 组合明细商品 alIds at one base unit each).
 *
 * - selectMergeNum: the whole sets the components' stock in a warehouse makes: min ⌊stock ÷ per set⌋.
 * - selectSplitNum: the whole sets of the combination the warehouse holds: ⌊stock⌋.
 * - merge / split move stock, and stock moves only through posted bills: each is one transaction
 *   that saves, approves and posts an 其他出库单 (what is used up) and then an 其他入库单 (what is
 *   made) through the document engine, so the ledgers, balances, bill numbers, history and flush
 *   work as for any bill. The value going in equals the cost that went out, to the cent: merge puts
 *   the components' cost on the sets; split shares the sets' cost over the components by their
 *   current unit cost in the warehouse (by quantity when none has one).
 */
import type { Services } from '../services.ts';
import type { Ctx } from '../http/context.ts';
import { mustCaller, param } from '../http/context.ts';
import type { Actor, Row } from '../engine/store.ts';
import type { Model } from '../engine/model.ts';
import { badRequest, notFound } from '../errors.ts';
import { runOp } from '../engine/ops.ts';
import { documentModel, tenantPlaces } from '../engine/document/context.ts';
import { applyAction, saveBill } from '../engine/document/transitions.ts';
import { Dec, allocate, fixed, round, type Decimal, type Places } from '../../shared/money/index.ts';

/** 其他出库/入库类型 其他 (dict-biz other_out_type / other_in_type). */
const REASON_OTHER = '4';

interface Part {
  commInfoId: string;
  commInfoName: string;
  unitId: string;
  perSet: Decimal;
}

interface Combination {
  combo: Row;
  parts: Part[];
}

const blank = (v: unknown) => v === undefined || v === null || v === '';
const nameOf = (goods: Row) => String(goods.commInfoName ?? goods.id);

/** A parameter from the query, a form body or a JSON body. */
function input(ctx: Ctx, name: string): string {
  const body = ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? (ctx.body as Row) : {};
  const value = param(ctx, name) ?? body[name];
  return blank(value) ? '' : String(value).trim();
}

export function registerCombinationHandlers(services: Services) {
  const { store } = services;
  const goodsModel = () => services.m('goods');
  const combinationModel = () => services.m('goods-combination');

  async function mustGoods(actor: Actor, id: string, what: string): Promise<Row> {
    const row = await store.get(goodsModel(), actor.tenantId, id);
    if (!row) throw notFound(`${what}不存在或已被删除`);
    return row;
  }

  async function mustDepot(actor: Actor, id: string): Promise<Row> {
    if (!id) throw badRequest('请选择仓库', { fieldErrors: { depotId: '请选择仓库' } });
    const row = await store.get(services.m('depot'), actor.tenantId, id);
    if (!row) throw notFound('仓库不存在或已被删除');
    return row;
  }

  /** The combination and its components with their per-set quantities, in the rows' order. */
  async function combinationOf(actor: Actor, comboId: string): Promise<Combination> {
    if (!comboId) throw badRequest('请选择组合商品', { fieldErrors: { commInfoId: '请选择组合商品' } });
    const combo = await mustGoods(actor, comboId, '组合商品');
    const sortField = combinationModel().fields.get('sort')!;
    const rows = await store.find(combinationModel(), actor.tenantId, {
      where: { comboId },
      orderBy: [{ column: sortField.column, dir: 'asc' }, { column: 'create_time', dir: 'asc' }, { column: 'id', dir: 'asc' }],
    });
    let wanted: { id: string; perSet: Decimal }[];
    if (rows.length) wanted = rows.map((r) => ({ id: String(r.commInfoId), perSet: new Dec(String(r.qty)) }));
    else if (Number(combo.isCombination) === 2 && !blank(combo.alIds)) {
      wanted = [...new Set(String(combo.alIds).split(',').map((s) => s.trim()).filter(Boolean))].map((id) => ({ id, perSet: new Dec(1) }));
    } else {
      throw badRequest(`商品「${nameOf(combo)}」不是组合商品或尚未设置组合明细，请先在“组合商品明细”中设置每套包含的商品与数量`);
    }
    const found = new Map((await store.find(goodsModel(), actor.tenantId, { where: { id: wanted.map((w) => w.id) } })).map((g) => [String(g.id), g]));
    const parts = wanted.map((w) => {
      if (w.id === comboId) throw badRequest(`组合商品「${nameOf(combo)}」的明细不能是它自己`);
      const goods = found.get(w.id);
      if (!goods) throw badRequest(`组合商品「${nameOf(combo)}」的明细商品（${w.id}）不存在或已被删除`);
      return { commInfoId: w.id, commInfoName: nameOf(goods), unitId: String(goods.unitId ?? ''), perSet: w.perSet };
    });
    return { combo, parts };
  }

  /** Stock (quantity, unit cost) of the goods in one warehouse, from the balances. */
  async function stockIn(actor: Actor, depotId: string, ids: string[]): Promise<Map<string, { qty: Decimal; unitCost: Decimal }>> {
    const rows = await store.find(services.internal.stockBalance, actor.tenantId, { where: { depotId, commInfoId: ids } });
    return new Map(rows.map((r) => [String(r.commInfoId), { qty: new Dec(String(r.qty ?? '0')), unitCost: new Dec(String(r.unitCost ?? '0')) }]));
  }

  const wholeSets = (qty: Decimal) => (qty.isNegative() ? new Dec(0) : qty.floor());

  async function mergeFigures(actor: Actor, comboId: string, depotId: string, places: Places) {
    const { combo, parts } = await combinationOf(actor, comboId);
    const depot = await mustDepot(actor, depotId);
    const stock = await stockIn(actor, depotId, parts.map((p) => p.commInfoId));
    const components = parts.map((p) => {
      const qty = stock.get(p.commInfoId)?.qty ?? new Dec(0);
      return { part: p, qty, sets: wholeSets(qty.div(p.perSet)) };
    });
    const mergeNum = components.reduce((min, c) => Dec.min(min, c.sets), components[0].sets);
    return { combo, depot, parts, components, mergeNum, places };
  }

  async function splitFigures(actor: Actor, comboId: string, depotId: string) {
    const { combo, parts } = await combinationOf(actor, comboId);
    const depot = await mustDepot(actor, depotId);
    const stock = await stockIn(actor, depotId, [comboId]);
    const qty = stock.get(comboId)?.qty ?? new Dec(0);
    return { combo, depot, parts, qty, splitNum: wholeSets(qty) };
  }

  const partRows = (parts: Part[], places: Places) =>
    parts.map((p) => ({ commInfoId: p.commInfoId, commInfoName: p.commInfoName, qtyPerSet: fixed(p.perSet, places.quantity) }));

  services.register('inventory.selectMergeNum', async (ctx) => {
    const caller = mustCaller(ctx);
    const places = await tenantPlaces(services, caller.tenantId);
    const f = await mergeFigures(caller, input(ctx, 'commInfoId'), input(ctx, 'depotId'), places);
    return {
      commInfoId: String(f.combo.id),
      commInfoName: nameOf(f.combo),
      depotId: String(f.depot.id),
      depotName: String(f.depot.depotName ?? ''),
      mergeNum: fixed(f.mergeNum, places.quantity),
      components: f.components.map((c) => ({
        ...partRows([c.part], places)[0],
        stockQty: fixed(c.qty, places.quantity),
        sets: fixed(c.sets, places.quantity),
      })),
    };
  });

  services.register('inventory.selectSplitNum', async (ctx) => {
    const caller = mustCaller(ctx);
    const places = await tenantPlaces(services, caller.tenantId);
    const f = await splitFigures(caller, input(ctx, 'commInfoId'), input(ctx, 'depotId'));
    return {
      commInfoId: String(f.combo.id),
      commInfoName: nameOf(f.combo),
      depotId: String(f.depot.id),
      depotName: String(f.depot.depotName ?? ''),
      stockQty: fixed(f.qty, places.quantity),
      splitNum: fixed(f.splitNum, places.quantity),
      components: partRows(f.parts, places),
    };
  });

  /** The number of sets to merge or split: a whole number above 0. */
  function setsWanted(ctx: Ctx, verb: string): Decimal {
    const text = input(ctx, 'num') || input(ctx, 'qty');
    if (!text) throw badRequest(`请输入${verb}套数`, { fieldErrors: { num: `请输入${verb}套数` } });
    if (!/^\d+$/.test(text) || new Dec(text).isZero()) throw badRequest(`${verb}套数必须是大于0的整数`, { fieldErrors: { num: `${verb}套数必须是大于0的整数` } });
    return new Dec(text);
  }

  /**
   * Inbound lines worth exactly `amount` for `qty` of a goods item: one line at amount ÷ qty (price
   * places) when that multiplies back to the amount; otherwise qty − 1 at that price and one unit
   * at the rest, so the bill's cost amount is the amount to the cent.
   */
  function valueLines(commInfoId: string, unitId: string, qty: Decimal, amount: Decimal, places: Places): Row[] {
    const line = (q: Decimal, price: Decimal) => ({ commInfoId, unitId, qty: fixed(q, places.quantity), costPrice: fixed(price, places.price) });
    if (qty.isZero()) return [];
    const price = round(amount.div(qty), places.price);
    if (round(qty.times(price), places.amount).eq(amount) || qty.lte(1)) return [line(qty, price)];
    const rest = amount.minus(round(qty.minus(1).times(price), places.amount));
    if (rest.isNegative()) return [line(qty, price)];
    return [line(qty.minus(1), price), line(new Dec(1), rest)];
  }

  /** Saves, approves and posts one bill of `resource` (inside the caller's transaction). */
  async function postedBill(actor: Actor, resource: string, head: Row, lines: Row[]): Promise<Row> {
    const dm = documentModel(services, services.m(resource));
    let bill = await saveBill(services, actor, dm, 'submit', { ...head, [dm.doc.lines ?? 'bodyList']: lines });
    bill = await applyAction(services, actor, dm, 'pass', { id: String(bill.id), version: bill.version, remark: head.remark as string });
    return applyAction(services, actor, dm, 'accounting', { id: String(bill.id), version: bill.version });
  }

  async function requirePostingRights(actor: ReturnType<typeof mustCaller>) {
    for (const code of ['otherOut_accounting', 'otherIn_accounting']) await services.perms.require(actor, code);
  }

  const billDateOf = (ctx: Ctx) => {
    const date = input(ctx, 'billDate').slice(0, 10);
    if (date && !/^\d{4}-\d{2}-\d{2}$/.test(date)) throw badRequest('单据日期格式应为 yyyy-MM-dd', { fieldErrors: { billDate: '单据日期格式应为 yyyy-MM-dd' } });
    return date || undefined;
  };

  const brief = (bill: Row) => ({ id: String(bill.id), billNo: String(bill.billNo ?? ''), costAmt: String(bill.costAmt ?? '') });

  services.register('inventory.merge', async (ctx) => {
    const caller = mustCaller(ctx);
    await requirePostingRights(caller);
    const num = setsWanted(ctx, '组合');
    const billDate = billDateOf(ctx);
    const remark = input(ctx, 'remark');
    const places = await tenantPlaces(services, caller.tenantId);
    return store.transaction(async () => {
      const f = await mergeFigures(caller, input(ctx, 'commInfoId'), input(ctx, 'depotId'), places);
      if (num.gt(f.mergeNum)) {
        const short = f.components.filter((c) => c.sets.lt(num)).map((c) => `「${c.part.commInfoName}」库存 ${fixed(c.qty, places.quantity)}，每套 ${fixed(c.part.perSet, places.quantity)}`);
        throw badRequest(`仓库「${f.depot.depotName}」的明细商品最多可组合 ${fixed(f.mergeNum, 0)} 套，不能组合 ${fixed(num, 0)} 套：${short.join('；')}`);
      }
      const comboName = nameOf(f.combo);
      const note = `组合：${fixed(num, 0)} 套「${comboName}」${remark ? `；${remark}` : ''}`;
      const head = { depotId: String(f.depot.id), reasonType: REASON_OTHER, ...(billDate ? { billDate } : {}) };
      const out = await postedBill(caller, 'other-out', { ...head, remark: `${note}（明细出库）` }, f.parts.map((p) => ({ commInfoId: p.commInfoId, unitId: p.unitId, qty: fixed(p.perSet.times(num), places.quantity) })));
      const cost = new Dec(String(out.costAmt ?? '0'));
      const inn = await postedBill(caller, 'other-in', { ...head, remark: `${note}（组合入库，由其他出库单 ${out.billNo}）` }, valueLines(String(f.combo.id), String(f.combo.unitId ?? ''), num, cost, places));
      return { commInfoId: String(f.combo.id), depotId: String(f.depot.id), num: fixed(num, places.quantity), costAmt: fixed(cost, places.amount), outBill: brief(out), inBill: brief(inn) };
    });
  });

  services.register('inventory.split', async (ctx) => {
    const caller = mustCaller(ctx);
    await requirePostingRights(caller);
    const num = setsWanted(ctx, '拆分');
    const billDate = billDateOf(ctx);
    const remark = input(ctx, 'remark');
    const places = await tenantPlaces(services, caller.tenantId);
    return store.transaction(async () => {
      const f = await splitFigures(caller, input(ctx, 'commInfoId'), input(ctx, 'depotId'));
      const comboName = nameOf(f.combo);
      if (num.gt(f.splitNum)) {
        throw badRequest(`仓库「${f.depot.depotName}」的「${comboName}」库存 ${fixed(f.qty, places.quantity)}，最多可拆分 ${fixed(f.splitNum, 0)} 套，不能拆分 ${fixed(num, 0)} 套`);
      }
      const note = `拆分：${fixed(num, 0)} 套「${comboName}」${remark ? `；${remark}` : ''}`;
      const head = { depotId: String(f.depot.id), reasonType: REASON_OTHER, ...(billDate ? { billDate } : {}) };
      const out = await postedBill(caller, 'other-out', { ...head, remark: `${note}（组合出库）` }, [{ commInfoId: String(f.combo.id), unitId: String(f.combo.unitId ?? ''), qty: fixed(num, places.quantity) }]);
      const cost = new Dec(String(out.costAmt ?? '0'));
      // The sets' cost shared over the components by what they are worth now in this warehouse.
      const stock = await stockIn(caller, String(f.depot.id), f.parts.map((p) => p.commInfoId));
      const qtys = f.parts.map((p) => p.perSet.times(num));
      const worth = f.parts.map((p, i) => qtys[i].times(stock.get(p.commInfoId)?.unitCost ?? 0));
      const weights = worth.some((w) => !w.isZero()) ? worth : qtys;
      const shares = allocate(cost, weights.map((w) => w.toFixed()), places.amount);
      const lines = f.parts.flatMap((p, i) => valueLines(p.commInfoId, p.unitId, qtys[i], new Dec(shares[i]), places));
      const inn = await postedBill(caller, 'other-in', { ...head, remark: `${note}（明细入库，由其他出库单 ${out.billNo}）` }, lines);
      return { commInfoId: String(f.combo.id), depotId: String(f.depot.id), num: fixed(num, places.quantity), costAmt: fixed(cost, places.amount), outBill: brief(out), inBill: brief(inn) };
    });
  });

  /** One component row: both goods must exist, a component is never the combination itself. */
  services.register('goodsCombination.submit', async (ctx, model: Model) => {
    const caller = mustCaller(ctx);
    const body = ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? (ctx.body as Row) : {};
    const comboId = blank(body.comboId) ? '' : String(body.comboId);
    const partId = blank(body.commInfoId) ? '' : String(body.commInfoId);
    // An id longer than its field is the generic submit's to refuse, with the field's own message.
    const fits = (field: string, value: string) => value.length <= Number(model.resource?.entity.properties[field]?.maxLength ?? Number.POSITIVE_INFINITY);
    if (comboId && fits('comboId', comboId)) await mustGoods(caller, comboId, '组合商品');
    if (partId && fits('commInfoId', partId)) await mustGoods(caller, partId, '明细商品');
    if (comboId && comboId === partId) throw badRequest('明细商品不能是组合商品本身', { fieldErrors: { commInfoId: '明细商品不能是组合商品本身' } });
    const reply = await runOp(ctx, model, { path: 'submit', method: 'POST', op: 'submit', perm: 'goods_edit' });
    return reply.data;
  });
}
