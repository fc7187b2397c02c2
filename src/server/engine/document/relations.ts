/**
 * Bill relations (单据关联): which bills a bill was generated from. Written on every save from the
 * lines' source bills (replaced as a set per target bill); read as the whole chain a bill belongs
 * to — order → inbound/outbound → return — upstream first.
 */
import type { Services } from '../../services.ts';
import type { Actor, Row } from '../store.ts';
import { badRequest } from '../../errors.ts';
import { documentOf } from '../../../shared/document.ts';
import type { Model } from '../model.ts';
import { documentModel, stateName, type DocumentModel } from './context.ts';

const blank = (v: unknown) => v === undefined || v === null || v === '';
const MAX_DEPTH = 6;

/** Replaces the relations of a saved bill with its lines' (and head's) source bills. */
export async function writeRelations(services: Services, actor: Actor, dm: DocumentModel, billId: string, billNo: string, head: Row, lines: Row[]) {
  if (!dm.doc.source) return;
  const sourceType = documentOf(services.m(dm.doc.source.resource).resource)?.billType ?? '';
  const sources = new Map<string, string>();
  for (const row of [head, ...lines]) if (!blank(row.sourceBillId)) sources.set(String(row.sourceBillId), String(row.sourceBillNo ?? ''));
  const model = services.m('bill-relation');
  await services.store.deleteWhere(model, actor, { targetBillId: billId });
  if (!sources.size) return;
  await services.store.insertMany(
    model,
    actor,
    [...sources].map(([id, no]) => ({ sourceBillType: sourceType, sourceBillId: id, sourceBillNo: no, targetBillType: dm.doc.billType, targetBillId: billId, targetBillNo: billNo })),
  );
}

/** Every bill resource by its bill type. */
function byBillType(services: Services): Map<string, Model> {
  const out = new Map<string, Model>();
  for (const model of services.registry.models.values()) {
    const doc = documentOf(model.resource);
    // A bill of several kinds (收支单) is found by each kind's type.
    for (const type of doc ? [doc.billType, ...(doc.variants?.values.map((v) => v.billType) ?? [])] : []) out.set(type, model);
  }
  return out;
}

/** The chain of bills around one bill, upstream first, each with its type, number, state and total. */
export async function relationChain(services: Services, actor: Actor, id: string, billType: string): Promise<Row[]> {
  const types = byBillType(services);
  if (!types.has(billType)) throw badRequest(`单据类型 ${billType} 不存在`);
  const relations = services.m('bill-relation');
  const level = new Map<string, number>([[id, 0]]);
  const typeOf = new Map<string, string>([[id, billType]]);
  let frontier = [id];
  for (let depth = 0; depth < MAX_DEPTH && frontier.length; depth++) {
    const [up, down] = await Promise.all([
      services.store.find(relations, actor.tenantId, { where: { targetBillId: frontier } }),
      services.store.find(relations, actor.tenantId, { where: { sourceBillId: frontier } }),
    ]);
    const next: string[] = [];
    for (const r of up) {
      const source = String(r.sourceBillId);
      if (level.has(source)) continue;
      level.set(source, (level.get(String(r.targetBillId)) ?? 0) - 1);
      typeOf.set(source, String(r.sourceBillType));
      next.push(source);
    }
    for (const r of down) {
      const target = String(r.targetBillId);
      if (level.has(target)) continue;
      level.set(target, (level.get(String(r.sourceBillId)) ?? 0) + 1);
      typeOf.set(target, String(r.targetBillType));
      next.push(target);
    }
    frontier = next;
  }
  const typeNames = new Map((services.registry.dicts.find((d) => d.code === 'bill_type')?.items ?? []).map((i) => [i.key, i.value]));
  const out: Row[] = [];
  const idsByType = new Map<string, string[]>();
  for (const [billId, type] of typeOf) idsByType.set(type, [...(idsByType.get(type) ?? []), billId]);
  for (const [type, ids] of idsByType) {
    const model = types.get(type);
    if (!model) continue;
    const dm = documentModel(services, model);
    for (const bill of await services.store.find(model, actor.tenantId, { where: { id: ids } })) {
      const state = String(bill[dm.doc.statusField] ?? '');
      out.push({
        id: bill.id,
        billType: type,
        billTypeName: typeNames.get(type) ?? model.title,
        resource: model.name,
        billNo: bill[dm.doc.numberField],
        billDate: bill[dm.doc.dateField ?? 'billDate'],
        billStatus: state,
        billStatusName: stateName(services, dm, state),
        totalQty: bill.totalQty,
        totalAmt: bill.totalAmt,
        level: level.get(String(bill.id)) ?? 0,
        current: String(bill.id) === id,
      });
    }
  }
  return out.sort((a, b) => Number(a.level) - Number(b.level) || String(a.billNo).localeCompare(String(b.billNo)));
}
