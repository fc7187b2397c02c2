/**
 * The lines of a stock count (document.count, 盘点单) as the server keeps them. The count is of one
 * warehouse (the head's); each line's book quantity and book unit cost are a snapshot of the stock
 * balance taken when the line is first saved and kept on later saves (same goods, same warehouse),
 * so goods that move while the count is open do not change what the count found: posting books
 * counted − book as a gain or loss at the book unit cost, on top of those movements.
 */
import type { Services } from '../../services.ts';
import type { Actor, Row } from '../store.ts';
import { badRequest } from '../../errors.ts';
import { stripReadonly } from '../records.ts';
import { Dec, fixed, MoneyInputError, type Places } from '../../../shared/money/index.ts';
import { computeCountLine } from '../../../shared/money/count.ts';
import type { DocumentModel } from './context.ts';

const blank = (v: unknown) => v === undefined || v === null || v === '';

interface Problem {
  index: number;
  id?: string;
  field: string;
  message: string;
}

async function byId(services: Services, actor: Actor, resource: string, ids: string[]): Promise<Map<string, Row>> {
  if (!ids.length) return new Map();
  const rows = await services.store.find(services.m(resource), actor.tenantId, { where: { id: [...new Set(ids)] } });
  return new Map(rows.map((r) => [String(r.id), r]));
}

/** The trusted lines of a count bill; every bad line is named in one refusal. */
export async function countLines(services: Services, actor: Actor, dm: DocumentModel, head: Row, raw: Row[], billId: string | undefined, places: Places): Promise<Row[]> {
  const { doc, lineModel } = dm;
  const count = doc.count!;
  const value = doc.lineValue;
  if (!lineModel || !doc.depotField || !value || !dm.lines) throw new Error(`${dm.model.name}: document.count needs lines, depotField and lineValue`);
  const depotId = blank(head[doc.depotField]) ? '' : String(head[doc.depotField]);
  if (!depotId) throw badRequest('请选择仓库', { fieldErrors: { [doc.depotField]: '请选择仓库' } });
  const { store } = services;
  const known = lineModel.resource?.entity.properties ?? {};
  const titleOf = (field: string) => known[field]?.title ?? field;

  // What was snapshotted before: the stored lines, valid only while the warehouse is the same.
  const existing = billId ? await store.get(dm.model, actor.tenantId, billId) : undefined;
  const sameDepot = existing && String(existing[doc.depotField] ?? '') === depotId;
  const stored = sameDepot ? await store.find(lineModel, actor.tenantId, { where: { [dm.lines.parentField]: billId } }) : [];
  const storedById = new Map(stored.map((l) => [String(l.id), l]));

  const goodsIds = raw.map((l) => String(l.commInfoId ?? '')).filter(Boolean);
  const goods = await byId(services, actor, 'goods', goodsIds);
  const units = await byId(services, actor, 'unit', [...goods.values()].map((g) => String(g.unitId ?? '')).filter(Boolean));
  const depot = (await byId(services, actor, 'depot', [depotId])).get(depotId);
  const balanceRows = goodsIds.length ? await store.find(services.internal.stockBalance, actor.tenantId, { where: { depotId, commInfoId: [...new Set(goodsIds)] } }) : [];
  const balances = new Map(balanceRows.map((b) => [String(b.commInfoId), b]));

  const problems: Problem[] = [];
  const seen = new Map<string, number>();
  const lines = raw.map((line, index) => {
    const id = blank(line.id) ? undefined : String(line.id);
    const fail = (field: string, message: string) => problems.push({ index, id, field, message: `第${index + 1}行：${message}` });
    const trusted: Row = {};
    for (const [key, v] of Object.entries(stripReadonly(lineModel, line))) if (key in known || key === 'version') trusted[key] = v;
    const goodsId = String(line.commInfoId ?? '');
    const item = goods.get(goodsId);
    if (!item) {
      fail('commInfoId', '商品不存在或已被删除');
      return trusted;
    }
    const name = String(item.commInfoName ?? goodsId);
    if (!blank(line.depotId) && String(line.depotId) !== depotId) {
      fail('depotId', `盘点行的仓库必须是盘点单的仓库「${depot?.depotName ?? depotId}」，一张盘点单只盘点一个仓库`);
    }
    if (seen.has(goodsId)) fail('commInfoId', `商品「${name}」与第${seen.get(goodsId)! + 1}行重复，每种商品只能盘点一行`);
    else seen.set(goodsId, index);
    // Book quantities are base units, so the count is too.
    const baseUnit = String(item.unitId ?? '');
    if (!blank(line.unitId) && baseUnit && String(line.unitId) !== baseUnit) {
      fail('unitId', `盘点按基本单位计数，商品「${name}」请选择「${units.get(baseUnit)?.unitName ?? baseUnit}」`);
    }
    const prior = id ? storedById.get(id) : undefined;
    const balance = balances.get(goodsId);
    const snapshot =
      prior && String(prior.commInfoId) === goodsId
        ? { book: String(prior[count.book] ?? '0'), cost: String(prior[value.price] ?? '0') }
        : { book: new Dec(String(balance?.qty ?? '0')).toFixed(), cost: fixed(String(balance?.unitCost ?? '0'), places.price) };
    try {
      const figures = computeCountLine(snapshot.book, line[count.counted], snapshot.cost, places, titleOf(count.counted));
      // A gain needs a book cost: goods that never moved in the warehouse have none.
      if (new Dec(figures.qty).gt(0) && new Dec(snapshot.cost).isZero() && Number(balance?.seq ?? 0) === 0) {
        fail(count.counted, `商品「${name}」在仓库「${depot?.depotName ?? depotId}」没有账面成本，不能按账面成本盘盈，请用报溢单填写成本单价入库`);
      }
      Object.assign(trusted, {
        depotId,
        unitId: baseUnit || line.unitId,
        [count.book]: snapshot.book,
        [count.counted]: figures.counted,
        qty: figures.qty,
        [value.price]: snapshot.cost,
        [value.amount]: figures.amount,
      });
    } catch (error) {
      if (!(error instanceof MoneyInputError)) throw error;
      fail(count.counted, error.message);
    }
    if (id) trusted.id = id;
    return trusted;
  });
  if (problems.length) {
    throw badRequest(problems.map((p) => p.message).join('；'), {
      fieldErrors: Object.fromEntries(problems.map((p) => [`${doc.lines}.${p.index}.${p.field}`, p.message])),
      lineErrors: problems,
    });
  }
  return lines;
}

/** The lines a count posts: those with a difference (a line counted as booked moves nothing). */
export function countedDifferences(lines: Row[]): Row[] {
  return lines.filter((l) => !new Dec(String(l.qty ?? '0')).isZero());
}
