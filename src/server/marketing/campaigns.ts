/**
 * 营销活动 (schemas/marketing/marketing.json): the seven kinds' line rules checked on save, the
 * status a published campaign shows by its times, extending (delay), and the campaign goods calls
 * (commmarketing list, add, remove). Pricing with campaigns is pricing.ts; this file only keeps
 * campaigns well formed.
 */
import type { LineCheck, Services } from '../services.ts';
import type { Actor, Row } from '../engine/store.ts';
import { mergeJsonBody, mustCaller, param, idList, type Ctx } from '../http/context.ts';
import { badRequest, notFound } from '../errors.ts';
import { runOp } from '../engine/ops.ts';
import { documentModel, loadBill, tenantPlaces } from '../engine/document/context.ts';
import { lineRefusal, type LineProblem } from '../engine/document/lines.ts';
import { Dec, fixed, toDec } from '../../shared/money/index.ts';
import { formatDateTime } from '../../shared/dates.ts';
import type { DocumentDef } from '../../shared/document.ts';

export const KIND = { goods: 1, order: 2, special: 3, package: 4, group: 5, flash: 6, presale: 7 } as const;
export const CAMPAIGN = { draft: '9501', upcoming: '9502', running: '9503', extended: '9504', ended: '9505', cancelled: '9506' } as const;
/** Published campaigns, whatever their times say. */
export const LIVE_STATES: string[] = [CAMPAIGN.upcoming, CAMPAIGN.running, CAMPAIGN.extended];

const KIND_NAMES: Record<number, string> = { 1: '商品促销', 2: '整单促销', 3: '特价', 4: '套餐', 5: '团购', 6: '秒杀', 7: '预售' };
export const kindName = (kind: unknown) => KIND_NAMES[Number(kind)] ?? '营销活动';

const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';
const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** The status a published campaign shows at `now`: by its times; extended stays so while it runs. */
export function campaignStatusAt(stored: string, beginTime: string, endTime: string, now: string): string {
  if (!LIVE_STATES.includes(stored)) return stored;
  if (now > endTime) return CAMPAIGN.ended;
  if (now < beginTime) return CAMPAIGN.upcoming;
  return stored === CAMPAIGN.extended ? CAMPAIGN.extended : CAMPAIGN.running;
}

/** A decimal field of a line: undefined when blank; refused when not a number or not above `min`. */
function amount(line: Row, field: string, places: number, opts: { required?: string; positive?: boolean } = {}): string | undefined {
  const raw = line[field];
  if (blank(raw)) {
    if (opts.required) throw new LineError(field, opts.required);
    return undefined;
  }
  const value = toDec(String(raw).trim());
  if (!value || value.isNegative()) throw new LineError(field, '必须是不小于0的数字');
  if (opts.positive && !value.gt(0)) throw new LineError(field, '必须大于0');
  return fixed(value, places);
}

class LineError extends Error {
  constructor(
    public field: string,
    message: string,
  ) {
    super(message);
  }
}

const FIELD_TITLES: Record<string, string> = {
  commInfoId: '商品', discountRate: '折扣', promoPrice: '活动价', qty: '每套数量', minQty: '起团数量', activityQty: '活动库存',
  limitQty: '每单限购', depositAmt: '定金', fullAmt: '满额', reduceAmt: '减额',
};

/** The rule fields each kind uses; the others are cleared so a line never carries a stale rule. */
const KIND_FIELDS: Record<number, string[]> = {
  1: ['discountRate', 'limitQty'],
  2: ['fullAmt', 'reduceAmt'],
  3: ['promoPrice', 'limitQty'],
  4: ['qty'],
  5: ['promoPrice', 'minQty', 'activityQty', 'limitQty'],
  6: ['promoPrice', 'activityQty', 'limitQty'],
  7: ['promoPrice', 'depositAmt', 'activityQty', 'limitQty'],
};
const RULE_FIELDS = ['discountRate', 'promoPrice', 'qty', 'minQty', 'activityQty', 'limitQty', 'depositAmt', 'fullAmt', 'reduceAmt'];

/** Retail prices (价格管理) of goods units, keyed commInfoId|unitId. */
async function listPrices(services: Services, tenantId: string, goodsIds: string[]): Promise<Map<string, string>> {
  if (!goodsIds.length) return new Map();
  const rows = await services.store.find(services.m('price-management'), tenantId, { where: { commInfoId: goodsIds } });
  return new Map(rows.filter((r) => !blank(r.retailPrice)).map((r) => [`${r.commInfoId}|${r.unitId}`, String(r.retailPrice)]));
}

const checkCampaign: LineCheck = async ({ services, actor, model, action, head, lines, existing }) => {
  const bill = { ...(existing ?? {}), ...head };
  const kind = Number(bill.marketingType);
  if (!KIND_NAMES[kind]) throw badRequest('请选择活动类型', { fieldErrors: { marketingType: '请选择活动类型' } });
  const begin = String(bill.beginTime ?? '');
  const end = String(bill.endTime ?? '');
  if (DATETIME.test(begin) && DATETIME.test(end) && end <= begin) throw badRequest('结束时间必须晚于开始时间', { fieldErrors: { endTime: '结束时间必须晚于开始时间' } });
  const now = formatDateTime();
  if (action === 'submit' && end && end < now) throw badRequest('结束时间已过，不能发布', { fieldErrors: { endTime: '结束时间已过' } });
  const places = await tenantPlaces(services, actor.tenantId);
  const goodsKind = kind !== KIND.order;
  const goodsIds = [...new Set(lines.map((l) => l.commInfoId).filter((v) => !blank(v)).map(String))];
  const goods = new Map(
    (goodsIds.length ? await services.store.find(services.m('goods'), actor.tenantId, { where: { id: goodsIds } }) : []).map((g) => [String(g.id), g]),
  );
  const prices = await listPrices(services, actor.tenantId, goodsIds);
  const problems: LineProblem[] = [];
  const seen = new Map<string, number>();
  const tiers = new Map<string, number>();
  let listTotal = new Dec(0);
  let listKnown = true;
  lines.forEach((line, index) => {
    const id = blank(line.id) ? undefined : String(line.id);
    const fail = (field: string, message: string) => problems.push({ index, id, field, message: `第${index + 1}行：${message}` });
    const used = KIND_FIELDS[kind];
    for (const f of RULE_FIELDS) if (!used.includes(f)) line[f] = null;
    try {
      if (goodsKind) {
        if (blank(line.commInfoId)) throw new LineError('commInfoId', '请选择商品');
        const item = goods.get(String(line.commInfoId));
        if (!item) throw new LineError('commInfoId', '商品不存在或已被删除');
        if (blank(line.unitId)) line.unitId = item.unitId;
        const key = `${line.commInfoId}|${line.unitId}`;
        if (seen.has(key)) throw new LineError('commInfoId', `与第${seen.get(key)! + 1}行是同一商品同一单位`);
        seen.set(key, index);
        line.salesPrice = prices.get(key) ?? null;
      } else {
        line.commInfoId = null;
        line.unitId = null;
        line.salesPrice = null;
      }
      line.soldQty = existing ? (line.soldQty ?? '0') : '0';
      if (blank(line.soldQty)) line.soldQty = '0';
      const limit = amount(line, 'limitQty', places.quantity, { positive: true });
      line.limitQty = limit ?? null;
      switch (kind) {
        case KIND.goods: {
          const rate = amount(line, 'discountRate', places.price, { required: '请输入折扣（如 90 表示九折）' })!;
          if (!new Dec(rate).gt(0) || !new Dec(rate).lt(100)) throw new LineError('discountRate', '折扣必须大于0且小于100（如 90 表示九折）');
          line.discountRate = rate;
          break;
        }
        case KIND.order: {
          const full = amount(line, 'fullAmt', places.amount, { required: '请输入满额', positive: true })!;
          const reduce = amount(line, 'reduceAmt', places.amount, { required: '请输入减额', positive: true })!;
          if (!new Dec(reduce).lt(full)) throw new LineError('reduceAmt', '减额必须小于满额');
          if (tiers.has(full)) throw new LineError('fullAmt', `与第${tiers.get(full)! + 1}行的满额相同`);
          tiers.set(full, index);
          Object.assign(line, { fullAmt: full, reduceAmt: reduce });
          break;
        }
        case KIND.package: {
          const qty = amount(line, 'qty', places.quantity, { required: '请输入每套数量', positive: true })!;
          line.qty = qty;
          if (line.salesPrice === null) listKnown = false;
          else listTotal = listTotal.plus(new Dec(String(line.salesPrice)).times(qty));
          break;
        }
        default: {
          const price = amount(line, 'promoPrice', places.price, { required: `请输入${kindName(kind)}价` })!;
          line.promoPrice = price;
          if (kind === KIND.group) line.minQty = amount(line, 'minQty', places.quantity, { required: '请输入起团数量', positive: true });
          const stock = amount(line, 'activityQty', places.quantity, { required: kind === KIND.flash ? '秒杀必须设置活动库存' : undefined, positive: true });
          line.activityQty = stock ?? null;
          if (kind === KIND.presale) {
            const deposit = amount(line, 'depositAmt', places.price);
            if (deposit !== undefined && new Dec(deposit).gt(price)) throw new LineError('depositAmt', '定金不能超过预售价');
            line.depositAmt = deposit ?? null;
          }
        }
      }
    } catch (error) {
      if (!(error instanceof LineError)) throw error;
      const title = FIELD_TITLES[error.field] ?? error.field;
      fail(error.field, error.message.startsWith('必须') ? `${title}${error.message}` : error.message);
    }
  });
  const doc = model.resource!.document as DocumentDef;
  if (problems.length) throw lineRefusal(doc, problems);
  if (kind === KIND.package) {
    const units = lines.reduce((sum, l) => sum.plus(String(l.qty ?? '0')), new Dec(0));
    if (units.lt(2)) throw badRequest('套餐至少要有两件商品（两种商品，或一种商品每套两件以上）');
    const price = blank(bill.packagePrice) ? undefined : toDec(String(bill.packagePrice).trim());
    if (!price || !price.gt(0)) throw badRequest('请输入套餐价', { fieldErrors: { packagePrice: '请输入套餐价' } });
    if (listKnown && !price.lt(listTotal)) {
      const total = fixed(listTotal, places.amount);
      throw badRequest(`套餐价应低于套内商品原价合计 ${total}`, { fieldErrors: { packagePrice: `应低于原价合计 ${total}` } });
    }
    head.packagePrice = fixed(price, places.price);
  } else head.packagePrice = null;
  if (kind === KIND.presale && blank(bill.deliveryDate)) throw badRequest('请选择发货日期', { fieldErrors: { deliveryDate: '请选择发货日期' } });
  if (kind !== KIND.presale) head.deliveryDate = null;
  head.goodsCount = lines.length;
  head.soldQty = fixed(lines.reduce((sum, l) => sum.plus(String(l.soldQty ?? '0')), new Dec(0)), places.quantity);
  if (action === 'submit') {
    if (goodsKind) await refuseOverlaps(services, actor, kind, begin, end, lines, goods, existing ? String(existing.id) : undefined);
    head.billStatus = campaignStatusAt(String(head.billStatus), begin, end, now);
  }
};

/** The same goods may not be in two published campaigns of one kind whose times overlap. */
async function refuseOverlaps(services: Services, actor: Actor, kind: number, begin: string, end: string, lines: Row[], goods: Map<string, Row>, selfId?: string) {
  const heads = services.m('marketing');
  const others = (await services.store.find(heads, actor.tenantId, { where: { marketingType: kind, billStatus: LIVE_STATES } })).filter(
    (h) => String(h.id) !== selfId && String(h.beginTime) <= end && String(h.endTime) >= begin,
  );
  if (!others.length) return;
  const byId = new Map(others.map((h) => [String(h.id), h]));
  const theirs = await services.store.find(services.m('marketing-body'), actor.tenantId, { where: { headId: [...byId.keys()] } });
  for (const line of lines) {
    const clash = theirs.find((t) => String(t.commInfoId) === String(line.commInfoId) && String(t.unitId) === String(line.unitId));
    if (!clash) continue;
    const other = byId.get(String(clash.headId))!;
    const name = String(goods.get(String(line.commInfoId))?.commInfoName ?? line.commInfoId);
    throw badRequest(`商品「${name}」已在${kindName(kind)}活动「${String(other.marketingName)}」（${String(other.billNo)}，${String(other.beginTime)} 至 ${String(other.endTime)}）中，时间重叠`);
  }
}

export function registerCampaignHandlers(services: Services) {
  services.registerLineCheck('marketing.campaign', checkCampaign);

  /** delay (id, version, endTime): a published campaign ends later. */
  services.register('marketing.delay', async (ctx: Ctx) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    const version = Number(param(ctx, 'version'));
    if (!Number.isInteger(version)) throw badRequest('缺少参数 version');
    const endTime = param(ctx, 'endTime')?.trim() ?? '';
    if (!DATETIME.test(endTime)) throw badRequest('请选择延期后的结束时间（yyyy-MM-dd HH:mm:ss）', { fieldErrors: { endTime: '请选择结束时间' } });
    const dm = documentModel(services, services.m('marketing'));
    const campaign = await services.store.get(dm.model, caller.tenantId, id);
    if (!campaign) throw notFound('营销活动不存在或已被删除');
    const now = formatDateTime();
    const shown = campaignStatusAt(String(campaign.billStatus), String(campaign.beginTime), String(campaign.endTime), now);
    if (!LIVE_STATES.includes(String(campaign.billStatus)) || shown === CAMPAIGN.ended) {
      throw badRequest('只有已发布且未结束的活动可以延期');
    }
    if (endTime <= String(campaign.endTime)) {
      throw badRequest(`延期后的结束时间必须晚于原结束时间 ${String(campaign.endTime)}`, { fieldErrors: { endTime: '必须晚于原结束时间' } });
    }
    const status = String(campaign.beginTime) <= now ? CAMPAIGN.extended : CAMPAIGN.upcoming;
    const changed = await services.store.guardedUpdate(dm.model, caller, id, { endTime, billStatus: status }, { version, where: { billStatus: LIVE_STATES } });
    if (!changed) throw badRequest('活动已被他人修改，请刷新后重试');
    return loadBill(services, caller, dm, id);
  });

  /** commmarketing/list: lines of one campaign (marketingId or headId), or of all, each with its campaign. */
  services.register('marketing.lines', async (ctx: Ctx, model) => {
    const caller = mustCaller(ctx);
    const headId = param(ctx, 'marketingId', 'headId');
    // The list reads its filters from the query: the campaign's id under the line's own field.
    ctx.query = { ...ctx.query, marketingId: undefined, headId: headId ?? undefined };
    const page = (await runOp(ctx, model, { path: 'list', method: 'GET', op: 'page', filters: 'map' })).data as { records: Row[] };
    const campaignIds = [...new Set(page.records.map((r) => String(r.headId)))];
    const heads = services.m('marketing');
    const campaigns = new Map((campaignIds.length ? await services.store.find(heads, caller.tenantId, { where: { id: campaignIds } }) : []).map((h) => [String(h.id), h]));
    const records = page.records.map((r) => {
      const h = campaigns.get(String(r.headId));
      return { ...r, marketingId: r.headId, billNo: h?.billNo ?? '', marketingName: h?.marketingName ?? '', marketingType: h?.marketingType ?? null, beginTime: h?.beginTime ?? '', endTime: h?.endTime ?? '', billStatus: h?.billStatus ?? '' };
    });
    return { ...page, records };
  });

  /** commmarketing/add (marketingId, commInfoIds): goods join a draft campaign in their base units. */
  services.register('marketing.addGoods', async (ctx: Ctx) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const id = param(ctx, 'marketingId', 'headId', 'id');
    if (!id) throw badRequest('缺少参数 marketingId');
    const raw = ctx.params.commInfoIds;
    const goodsIds = [...new Set(Array.isArray(raw) ? raw.map(String) : idList(raw === undefined || raw === null ? '' : String(raw)))];
    if (!goodsIds.length) throw badRequest('请选择商品');
    const dm = documentModel(services, services.m('marketing'));
    const bill = await loadBill(services, caller, dm, id).catch(() => undefined);
    if (!bill) throw notFound('营销活动不存在或已被删除');
    if (String(bill.billStatus) !== CAMPAIGN.draft) throw badRequest('只有草稿状态的活动可以添加商品');
    if (Number(bill.marketingType) === KIND.order) throw badRequest('整单促销没有活动商品，请添加满减档位');
    const found = await services.store.find(services.m('goods'), caller.tenantId, { where: { id: goodsIds } });
    if (found.length !== goodsIds.length) throw badRequest('商品不存在或已被删除');
    const lines = (bill.bodyList as Row[]) ?? [];
    const have = new Set(lines.map((l) => `${l.commInfoId}|${l.unitId}`));
    const added = found.filter((g) => !have.has(`${g.id}|${g.unitId}`)).map((g) => ({ commInfoId: g.id, unitId: g.unitId }));
    // Saved as a draft: the new lines' rule fields are blank, so the kind's rules ask for them on 发布.
    ctx.body = { ...bill, bodyList: [...lines, ...added] };
    return saveDraftUnchecked(services, caller, dm, ctx.body as Row);
  });

  /** commmarketing/remove (ids): lines leave their draft campaigns. */
  services.register('marketing.removeGoods', async (ctx: Ctx) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const ids = idList(param(ctx, 'ids', 'id'));
    if (!ids.length) throw badRequest('请选择要移除的活动商品');
    const bodies = services.m('marketing-body');
    const rows = await services.store.find(bodies, caller.tenantId, { where: { id: ids } });
    if (rows.length !== ids.length) throw badRequest('活动商品不存在或已被移除');
    const heads = await services.store.find(services.m('marketing'), caller.tenantId, { where: { id: [...new Set(rows.map((r) => String(r.headId)))] } });
    if (heads.some((h) => String(h.billStatus) !== CAMPAIGN.draft)) throw badRequest('只有草稿状态的活动可以移除商品');
    await services.store.transaction(async () => {
      await services.store.softRemove(bodies, caller, ids);
      for (const h of heads) {
        const left = await services.store.count(bodies, caller.tenantId, { where: { headId: String(h.id) } });
        await services.store.update(services.m('marketing'), caller, String(h.id), { goodsCount: left }, { includeReadonly: true });
      }
    });
    return ids.length;
  });
}

/**
 * Goods added to a draft before their rules are typed: the draft keeps the lines as they are
 * (rule fields blank), without the kind's checks, which 发布 applies.
 */
async function saveDraftUnchecked(services: Services, actor: Actor, dm: ReturnType<typeof documentModel>, bill: Row): Promise<Row> {
  const bodies = services.m('marketing-body');
  const prices = await listPrices(services, actor.tenantId, [...new Set(((bill.bodyList as Row[]) ?? []).map((l) => String(l.commInfoId)))]);
  const fresh = ((bill.bodyList as Row[]) ?? []).filter((l) => blank(l.id));
  await services.store.transaction(async () => {
    const existing = await services.store.count(bodies, actor.tenantId, { where: { headId: String(bill.id) } });
    await services.store.insertMany(
      bodies,
      actor,
      fresh.map((l, i) => ({ headId: bill.id, commInfoId: l.commInfoId, unitId: l.unitId, salesPrice: prices.get(`${l.commInfoId}|${l.unitId}`) ?? null, soldQty: '0', sort: existing + i + 1 })),
    );
    await services.store.update(dm.model, actor, String(bill.id), { goodsCount: existing + fresh.length }, { includeReadonly: true });
  });
  return loadBill(services, actor, dm, String(bill.id));
}
