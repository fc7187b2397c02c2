/**
 * Bills generated from other bills: an inbound pulled from an approved order (no more than the
 * order line's quantity not yet taken), a return generated from a posted sale (no more than the
 * sold quantity not yet returned). "Taken" counts the lines of live target bills — a cancelled or
 * flushed bill gives its quantity back.
 */
import { sql } from 'kysely';
import type { Services } from '../../services.ts';
import type { Actor, Row } from '../store.ts';
import { badRequest, notFound } from '../../errors.ts';
import { Dec, type Decimal, type Places } from '../../../shared/money/index.ts';
import { formatDateTime } from '../../../shared/dates.ts';
import { fillLookups } from '../lookups.ts';
import { computeBillLines, type SourceLine } from './lines.ts';
import { documentConfig, documentModel, loadBill, stateName, tenantPlaces, type DocumentModel } from './context.ts';
import { loadLines } from '../lines.ts';
import { postedBySource } from './progress.ts';
import type { Condition } from '../query.ts';

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** States a bill no longer counts in: where cancel and flush lead. */
export function deadStates(dm: DocumentModel): string[] {
  return [...new Set(dm.doc.transitions.filter((t) => t.action === 'cancel' || t.effect === 'reverse').map((t) => t.to))];
}

export function sourceModel(services: Services, dm: DocumentModel): DocumentModel {
  if (!dm.doc.source) throw badRequest(`${dm.model.title}不能从其他单据生成`);
  return documentModel(services, services.m(dm.doc.source.resource));
}

/** This bill kind and the kinds that take from the same source lines under one limit (source.sharedWith). */
export function takingKinds(services: Services, dm: DocumentModel): DocumentModel[] {
  return [dm, ...(dm.doc.source?.sharedWith ?? []).map((name) => documentModel(services, services.m(name)))];
}

/**
 * Σ quantity of live target lines per source line, leaving out bill `exclude`: this kind's and
 * those of the kinds it shares its source lines with (one grouped query each).
 */
export async function takenBySource(services: Services, actor: Actor, dm: DocumentModel, sourceLineIds: string[], exclude?: string): Promise<Map<string, Decimal>> {
  const out = new Map<string, Decimal>();
  for (const kind of takingKinds(services, dm)) {
    for (const [id, qty] of await takenByKind(services, actor, kind, sourceLineIds, kind === dm ? exclude : undefined)) out.set(id, (out.get(id) ?? new Dec(0)).plus(qty));
  }
  return out;
}

/** Σ quantity of live lines of one bill kind per source line (one grouped query), leaving out bill `exclude`. */
async function takenByKind(services: Services, actor: Actor, dm: DocumentModel, sourceLineIds: string[], exclude?: string): Promise<Map<string, Decimal>> {
  const out = new Map<string, Decimal>();
  if (!sourceLineIds.length || !dm.lineModel || !dm.lines) return out;
  const { store } = services;
  const body = dm.lineModel;
  const parent = body.filterable.get(dm.lines.parentField)!.column;
  const status = dm.model.filterable.get(dm.doc.statusField)!.column;
  const dead = deadStates(dm);
  let q = store.db
    .selectFrom(`${body.table} as b`)
    .innerJoin(`${dm.model.table} as h`, (join) => join.onRef('h.tenant_id', '=', 'b.tenant_id').onRef('h.id', '=', `b.${parent}`))
    .select(['b.source_body_id as sid', sql<string>`sum(b.qty)`.as('total')])
    .where('b.tenant_id', '=', actor.tenantId)
    .where('b.is_deleted', '=', 0)
    .where('h.is_deleted', '=', 0)
    .where('b.source_body_id', 'in', sourceLineIds)
    .groupBy('b.source_body_id');
  if (dead.length) q = q.where(`h.${status}`, 'not in', dead);
  if (exclude) q = q.where('h.id', '<>', exclude);
  const qty = body.fields.get('qty')!;
  for (const row of (await q.execute()) as { sid: string; total: unknown }[]) {
    out.set(String(row.sid), new Dec(String(store.toRow(body, { [qty.column]: row.total }).qty ?? '0')));
  }
  return out;
}

/**
 * What posted bills of the `source.netOf` kinds (returns, exchanges) took back from each source
 * line: an invoice may cover only what was received and kept.
 */
async function returnedFrom(services: Services, actor: Actor, dm: DocumentModel, sourceLineIds: string[]): Promise<Map<string, Decimal>> {
  const out = new Map<string, Decimal>();
  for (const name of dm.doc.source?.netOf ?? []) {
    const other = documentModel(services, services.m(name));
    for (const [id, qty] of await postedBySource(services, actor, other, sourceLineIds)) out.set(id, (out.get(id) ?? new Dec(0)).plus(qty));
  }
  return out;
}

/**
 * Of `rows` (source lines), the ids of those taken from a line of a bill of the source.origin kind
 * whose head field holds the value (sales-out lines shipped from mall orders): two reads.
 */
async function fromOrigin(services: Services, actor: Actor, dm: DocumentModel, rows: Row[]): Promise<Set<string>> {
  const origin = dm.doc.source!.origin!;
  const originDm = documentModel(services, services.m(origin.resource));
  const refs = [...new Set(rows.map((r) => r.sourceBodyId).filter((v) => !blank(v)).map(String))];
  if (!refs.length || !originDm.lineModel || !originDm.lines) return new Set();
  const parent = originDm.lines.parentField;
  const originLines = await services.store.find(originDm.lineModel, actor.tenantId, { where: { id: refs } });
  const headIds = [...new Set(originLines.map((l) => String(l[parent])))];
  const heads = headIds.length ? await services.store.find(originDm.model, actor.tenantId, { where: { id: headIds, [origin.field]: origin.value } }) : [];
  const okHeads = new Set(heads.map((h) => String(h.id)));
  const okLines = new Set(originLines.filter((l) => okHeads.has(String(l[parent]))).map((l) => String(l.id)));
  return new Set(rows.filter((r) => okLines.has(String(r.sourceBodyId))).map((r) => String(r.id)));
}

/** The source lines a bill's lines name, with their heads' states. */
async function sourceLines(services: Services, actor: Actor, source: DocumentModel, ids: string[]): Promise<Map<string, Row>> {
  if (!ids.length || !source.lineModel) return new Map();
  const rows = await services.store.find(source.lineModel, actor.tenantId, { where: { id: ids } });
  return new Map(rows.map((r) => [String(r.id), r]));
}

/**
 * Checks a bill's lines against their source lines before it is saved, and gives the source
 * figures (should-quantity and amount) the line calculation uses.
 */
export async function checkAgainstSources(services: Services, actor: Actor, dm: DocumentModel, lines: Row[], billId?: string): Promise<Map<string, SourceLine>> {
  if (dm.doc.source?.required) {
    const index = lines.findIndex((l) => blank(l.sourceBodyId));
    if (index >= 0) throw badRequest(`第${index + 1}行：请从${sourceModel(services, dm).model.title}选择明细`);
  }
  const ids = [...new Set(lines.map((l) => l.sourceBodyId).filter((v) => !blank(v)).map(String))];
  if (!ids.length || !dm.doc.source) return new Map();
  const source = sourceModel(services, dm);
  const found = await sourceLines(services, actor, source, ids);
  if (dm.doc.source.origin) {
    const allowed = await fromOrigin(services, actor, dm, [...found.values()]);
    const index = lines.findIndex((l) => !blank(l.sourceBodyId) && found.has(String(l.sourceBodyId)) && !allowed.has(String(l.sourceBodyId)));
    if (index >= 0) throw badRequest(`第${index + 1}行：${dm.doc.source.origin.message}`);
  }
  const taken = await takenBySource(services, actor, dm, ids, billId);
  const returnedQty = await returnedFrom(services, actor, dm, ids);
  if (dm.doc.source.limit === 'whole') return wholeSourceLines(services, actor, source, dm.doc.source.states ?? [], found, lines);
  const running = new Map(taken);
  const returns = dm.doc.source.limit === 'returnable';
  const { unlimited, allowances } = returns ? { unlimited: false, allowances: new Map<string, Decimal>() } : await overAllowance(services, actor, dm, ids);
  lines.forEach((line, i) => {
    if (blank(line.sourceBodyId)) return;
    const sid = String(line.sourceBodyId);
    const src = found.get(sid);
    if (!src) throw badRequest(`第${i + 1}行：源单行不存在或已被删除`);
    if (String(src.commInfoId) !== String(line.commInfoId)) throw badRequest(`第${i + 1}行：商品与源单行不一致`);
    const before = running.get(sid) ?? new Dec(0);
    const qty = new Dec(String(line.qty ?? '0'));
    const after = before.plus(qty);
    const ordered = new Dec(String(src.qty ?? '0')).abs().minus(returnedQty.get(sid) ?? 0);
    const extra = allowances.get(sid);
    const limit = extra ? ordered.plus(extra) : ordered;
    if (!unlimited && after.abs().gt(limit)) {
      throw badRequest(
        returns
          ? `第${i + 1}行：累计退货数量不能超过源单数量（源单 ${limit.toFixed()}，已退 ${before.abs().toFixed()}，本次 ${qty.abs().toFixed()}）`
          : `第${i + 1}行：数量超过源单未完成数量（源单 ${ordered.toFixed()}${extra ? `，允许超收 ${extra.toFixed()}` : ''}，已生成 ${before.abs().toFixed()}，本次 ${qty.abs().toFixed()}）` +
            (dm.doc.source?.overConfig ? '；如需超量入库，请先登记超量入库或在系统参数中允许超量入库' : ''),
      );
    }
    running.set(sid, after);
  });
  return new Map([...found].map(([id, r]) => [id, { qty: String(r.qty), totalAmt: String(r.totalAmt ?? '0') }]));
}

/**
 * Lines that each refer to a whole source line of a bill in one of `states` (a fee allocation over
 * posted inbound lines): the goods and quantity are the source line's; no limit on how many bills
 * refer to the same line, since a second fee (insurance after freight) adds to the first.
 */
async function wholeSourceLines(services: Services, actor: Actor, source: DocumentModel, states: string[], found: Map<string, Row>, lines: Row[]): Promise<Map<string, SourceLine>> {
  const headIds = [...new Set([...found.values()].map((r) => String(r.headId)))];
  const heads = new Map((headIds.length ? await services.store.find(source.model, actor.tenantId, { where: { id: headIds } }) : []).map((h) => [String(h.id), h]));
  lines.forEach((line, i) => {
    const src = blank(line.sourceBodyId) ? undefined : found.get(String(line.sourceBodyId));
    if (!src) throw badRequest(`第${i + 1}行：源单行不存在或已被删除`);
    const head = heads.get(String(src.headId));
    const state = String(head?.[source.doc.statusField] ?? '');
    if (!head || !states.includes(state)) {
      throw badRequest(`第${i + 1}行：${source.model.title}${head?.[source.doc.numberField] ?? ''}当前状态为「${stateName(services, source, state)}」，只能选择「${states.map((s) => stateName(services, source, s)).join('、')}」的单据`);
    }
    if (String(src.commInfoId) !== String(line.commInfoId)) throw badRequest(`第${i + 1}行：商品与源单行不一致`);
    if (!new Dec(String(line.qty ?? '0')).eq(String(src.qty ?? '0'))) throw badRequest(`第${i + 1}行：数量应等于${source.model.title}的数量 ${new Dec(String(src.qty ?? '0')).toFixed()}`);
    // The value lands where the goods went in: the source line's warehouse, never one typed here.
    line.depotId = blank(src.depotId) && source.doc.depotField ? head[source.doc.depotField] : src.depotId;
  });
  return new Map([...found].map(([id, r]) => [id, { qty: String(r.qty), totalAmt: String(r.totalAmt ?? '0') }]));
}

/**
 * How far lines may exceed their source lines: without limit when the over-receipt config says
 * so (2 是), else by the quantities registered per source line (purchase order exceed records).
 */
async function overAllowance(services: Services, actor: Actor, dm: DocumentModel, ids: string[]): Promise<{ unlimited: boolean; allowances: Map<string, Decimal> }> {
  const source = dm.doc.source!;
  const allowances = new Map<string, Decimal>();
  if (source.overConfig && (await documentConfig(services, actor.tenantId))[source.overConfig] === '2') return { unlimited: true, allowances };
  if (!source.allowance) return { unlimited: false, allowances };
  const { resource, lineField, qtyField } = source.allowance;
  for (const row of await services.store.find(services.m(resource), actor.tenantId, { where: { [lineField]: ids } })) {
    const id = String(row[lineField]);
    allowances.set(id, (allowances.get(id) ?? new Dec(0)).plus(String(row[qtyField] ?? '0')));
  }
  return { unlimited: false, allowances };
}

const COPIED_LINE_FIELDS = ['commInfoId', 'unitId', 'taxPrice', 'taxRate', 'taxRateId', 'discountRate', 'isGift', 'depotId', 'couponAmt'];

/** Lines of `dm` for the open quantities of the source bills' lines (none when all are taken). */
export async function openLinesFrom(services: Services, actor: Actor, dm: DocumentModel, source: DocumentModel, heads: Row[], places: Places): Promise<Row[]> {
  // Only lines of the declared origin (shipped from mall orders) may be taken at all.
  const allowed = dm.doc.source?.origin ? await fromOrigin(services, actor, dm, heads.flatMap((h) => (h[source.doc.lines!] as Row[]) ?? [])) : undefined;
  const linesOf = (h: Row) => ((h[source.doc.lines!] as Row[]) ?? []).filter((l) => !allowed || allowed.has(String(l.id)));
  const lineIds = heads.flatMap((h) => linesOf(h).map((l) => String(l.id)));
  // A bill of whole source lines (a fee allocation) takes every line as it is, however often.
  const whole = dm.doc.source?.limit === 'whole';
  const taken = whole ? new Map<string, Decimal>() : await takenBySource(services, actor, dm, lineIds);
  const returnedQty = whole ? new Map<string, Decimal>() : await returnedFrom(services, actor, dm, lineIds);
  const returns = dm.doc.source?.limit === 'returnable';
  const priceField = dm.doc.amounts?.price;
  const raw: Row[] = [];
  const sources = new Map<string, SourceLine>();
  for (const h of heads) {
    for (const l of linesOf(h)) {
      const total = new Dec(String(l.qty ?? '0'));
      const open = total.abs().minus(taken.get(String(l.id))?.abs() ?? 0).minus(returnedQty.get(String(l.id)) ?? 0);
      if (!open.gt(0)) continue;
      const line: Row = {
        sourceBillId: String(h.id),
        sourceBillNo: String(h[source.doc.numberField] ?? ''),
        sourceBillDate: h[source.doc.dateField ?? 'billDate'] ?? '',
        sourceBodyId: String(l.id),
      };
      for (const f of COPIED_LINE_FIELDS) if (!blank(l[f])) line[f] = l[f];
      if (priceField && !blank(l[priceField])) line[priceField] = l[priceField];
      if (blank(line.depotId) && dm.doc.depotField && !blank(h[dm.doc.depotField])) line.depotId = h[dm.doc.depotField];
      if (blank(line.depotId) && whole && source.doc.depotField && !blank(h[source.doc.depotField])) line.depotId = h[source.doc.depotField];
      // A priced return carries negative quantities; a goods-only one (no amounts) positive ones, its posting direction says which way they move.
      line.qty = (returns && dm.doc.amounts ? open.neg() : open).toFixed(places.quantity);
      sources.set(String(l.id), { qty: String(l.qty), totalAmt: String(l.totalAmt ?? '0') });
      raw.push(line);
    }
  }
  if (!raw.length) return [];
  const lines = computeBillLines(dm.doc, dm.lineModel!, raw, places, sources);
  await fillLookups(services, dm.lineModel!, actor.tenantId, lines);
  return lines;
}

/** A new, unsaved bill of `dm` from source bills: head from the first, lines with their open quantities. */
async function draftFrom(services: Services, actor: Actor, dm: DocumentModel, source: DocumentModel, heads: Row[], places: Places): Promise<Row> {
  const first = heads[0];
  const head: Row = {
    [dm.doc.dateField ?? 'billDate']: formatDateTime().slice(0, 10),
    sourceBillId: String(first.id),
    sourceBillNo: String(first[source.doc.numberField] ?? ''),
    sourceBillType: source.doc.billType,
  };
  for (const f of [dm.doc.partnerField, dm.doc.depotField, 'staffId', 'deptId']) if (f && !blank(first[f])) head[f] = first[f];
  const lines = await openLinesFrom(services, actor, dm, source, heads, places);
  if (!lines.length) throw badRequest(dm.doc.source?.limit === 'returnable' ? '源单商品已全部退货' : `源单商品已全部生成${dm.model.title}`);
  await fillLookups(services, dm.model, actor.tenantId, [head]);
  return { ...head, [dm.doc.lines!]: lines };
}

function requirePullable(services: Services, source: DocumentModel, head: Row, states: string[]) {
  const state = String(head[source.doc.statusField] ?? '');
  if (!states.includes(state)) {
    throw badRequest(`${source.model.title}${head[source.doc.numberField] ?? ''}当前状态为「${stateName(services, source, state)}」，只有「${states.map((s) => stateName(services, source, s)).join('、')}」的单据可以生成`);
  }
}

/** pullOrderById: the unsaved bill from one source bill (only its open quantities). */
export async function pullFromSource(services: Services, actor: Actor, dm: DocumentModel, sourceId: string, places: Places): Promise<Row> {
  const source = sourceModel(services, dm);
  const head = await loadBill(services, actor, source, sourceId);
  requirePullable(services, source, head, dm.doc.source!.states ?? []);
  return draftFrom(services, actor, dm, source, [head], places);
}

/** generate by number (soNo / poNo): the source bills with that number, or generated from the order with that number. */
export async function generateFromNumber(services: Services, actor: Actor, dm: DocumentModel, number: string, places: Places): Promise<Row> {
  const source = sourceModel(services, dm);
  const byNo = await services.store.find(source.model, actor.tenantId, { where: { [source.doc.numberField]: number } });
  const byOrder = byNo.length ? [] : await services.store.find(source.model, actor.tenantId, { where: { sourceBillNo: number } });
  const states = dm.doc.source!.states ?? [];
  const candidates = [...byNo, ...byOrder].filter((h) => states.includes(String(h[source.doc.statusField])));
  if (!candidates.length) {
    if (byNo.length) requirePullable(services, source, byNo[0], states);
    throw notFound(`没有单号为 ${number} 的可退${source.model.title}`);
  }
  const heads = [];
  for (const h of candidates) heads.push(await loadBill(services, actor, source, String(h.id)));
  return draftFrom(services, actor, dm, source, heads, places);
}

/** Most source bills one open-lines call reads (a partner's un-invoiced inbounds of about a year). */
const OPEN_LINES_MAX_BILLS = 500;

/**
 * selectBySupplierId / selectByCustomerId: the partner's source bills in a state that may be
 * taken (posted inbounds for an invoice), as lines of this bill with their open quantities.
 * Filters: the partner (by this bill's partner field), sourceBillNo, billDateStart / billDateEnd.
 */
export async function openSourceLines(services: Services, actor: Actor, dm: DocumentModel, query: Row): Promise<Row[]> {
  const source = sourceModel(services, dm);
  const partnerField = dm.doc.partnerField;
  const partner = partnerField ? query[partnerField] : undefined;
  if (!partnerField || blank(partner)) throw badRequest(dm.doc.source?.resource.startsWith('sales') ? '请选择客户' : '请选择供应商');
  const where: Row = { [source.doc.partnerField ?? partnerField]: String(partner), [source.doc.statusField]: dm.doc.source!.states ?? [] };
  if (!blank(query.sourceBillNo)) where[source.doc.numberField] = String(query.sourceBillNo);
  const dateField = source.doc.dateField ?? 'billDate';
  const dateModel = source.model.filterable.get(dateField)!;
  const conditions: Condition[] = [
    ...(blank(query.billDateStart) ? [] : [{ field: dateModel, op: '_ge', value: String(query.billDateStart) }]),
    ...(blank(query.billDateEnd) ? [] : [{ field: dateModel, op: '_le', value: String(query.billDateEnd) }]),
  ];
  const heads = await services.store.find(source.model, actor.tenantId, {
    where,
    conditions,
    orderBy: [{ column: source.model.filterable.get(dateField)!.column, dir: 'asc' }, { column: 'id', dir: 'asc' }],
    limit: OPEN_LINES_MAX_BILLS,
  });
  if (!heads.length) return [];
  await loadLines(services, actor.tenantId, source.model, heads, { lookups: false });
  return openLinesFrom(services, actor, dm, source, heads, await tenantPlaces(services, actor.tenantId));
}

/** Lines grouped by their source bill, in order of first appearance (the …GroupOrder calls). */
export function groupBySource(lines: Row[]): Row[] {
  const groups = new Map<string, Row>();
  for (const line of lines) {
    const key = String(line.sourceBillId ?? '');
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { sourceBillId: line.sourceBillId ?? '', sourceBillNo: line.sourceBillNo ?? '', sourceBillDate: line.sourceBillDate ?? '', lines: [] as Row[] }));
    (group.lines as Row[]).push(line);
  }
  return [...groups.values()];
}
