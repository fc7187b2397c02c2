/**
 * A bill's lines edited one at a time through the line resource's own calls (成本调整单明细
 * /fi-cost-body/costbody submit and remove: the spec's "costbody CRUD"). A line call never writes
 * a line row by itself: it re-saves the line's bill whole through the document engine (saveBill:
 * lines checked and recomputed, totals summed, one conditional update on the bill's version, the
 * action recorded), so it can do nothing a bill save could not. Only a bill in one of its editable
 * states other than new (草稿, 已驳回) takes line edits; any other state is refused naming it, and a
 * bill keeps at least one line (a money bill, document.settle, may keep none: its money then stays
 * unapplied credit). The save uses the bill's transition that saves into its present
 * state (草稿 stays 草稿), else its draft transition (an edited 已驳回 bill becomes a draft again).
 */
import type { Services } from '../../services.ts';
import type { Model } from '../model.ts';
import type { Actor, Row } from '../store.ts';
import { idList, mustCaller, param, type Caller } from '../../http/context.ts';
import { badRequest, notFound } from '../../errors.ts';
import { NEW_BILL } from '../../../shared/document.ts';
import { documentModel, stateName, type DocumentModel } from './context.ts';
import { saveBill } from './transitions.ts';

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** The bill resource whose document lines are stored in `lineModel`. */
function billOfLines(services: Services, lineModel: Model): DocumentModel {
  for (const model of services.registry.models.values()) {
    const doc = model.resource?.document;
    if (!doc?.lines) continue;
    const dm = documentModel(services, model);
    if (dm.lines?.resource === lineModel.name) return dm;
  }
  throw new Error(`${lineModel.name} is no bill's line resource`);
}

/** The bill a line belongs to, refused unless its state lets its lines be edited. */
async function editableBill(services: Services, actor: Actor, dm: DocumentModel, billId: string): Promise<Row> {
  const head = await services.store.get(dm.model, actor.tenantId, billId);
  if (!head) throw notFound('单据不存在或已被删除');
  const state = String(head[dm.doc.statusField] ?? '');
  const editable = (dm.doc.editable ?? []).filter((s) => s !== NEW_BILL);
  if (!editable.includes(state)) {
    const allowed = editable.map((s) => stateName(services, dm, s)).join('、');
    throw badRequest(`单据当前状态为「${stateName(services, dm, state)}」，不能修改明细；只有「${allowed}」的单据可以修改明细`, { status: state });
  }
  return head;
}

async function storedLines(services: Services, actor: Actor, dm: DocumentModel, billId: string): Promise<Row[]> {
  const lineModel = dm.lineModel!;
  const sort = lineModel.fields.get('sort');
  return services.store.find(lineModel, actor.tenantId, {
    where: { [dm.lines!.parentField]: billId },
    orderBy: [...(sort ? [{ column: sort.column, dir: 'asc' as const }] : []), { column: 'id', dir: 'asc' as const }],
  });
}

/** Saves the bill with `lines` through the transition that keeps it in its state, else its draft. */
async function resave(services: Services, actor: Caller, dm: DocumentModel, head: Row, lines: Row[]): Promise<Row> {
  const state = String(head[dm.doc.statusField] ?? '');
  const saves = dm.doc.transitions.filter((t) => t.save && !t.effect && t.from.includes(state));
  const t = saves.find((s) => s.to === state) ?? saves.find((s) => s.action === 'draft') ?? saves[0];
  if (!t) throw badRequest(`单据当前状态为「${stateName(services, dm, state)}」，不能修改明细`);
  if (t.perm) await services.perms.require(actor, t.perm);
  const { remark: _remark, ...rest } = head;
  void _remark;
  return saveBill(services, actor, dm, t.action, { ...rest, remark: head.remark, [dm.doc.lines!]: lines });
}

export function registerLineEditHandlers(services: Services) {
  /** submit: a line with headId (added) or with id (changed; its version, when sent, must be current). */
  services.register('document.lineSubmit', async (ctx, model: Model) => {
    const actor = mustCaller(ctx);
    const dm = billOfLines(services, model);
    const input = ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? { ...(ctx.body as Row) } : {};
    const parentField = dm.lines!.parentField;
    const id = blank(input.id) ? undefined : String(input.id);
    let billId = blank(input[parentField]) ? undefined : String(input[parentField]);
    if (id) {
      const line = await services.store.get(model, actor.tenantId, id);
      if (!line) throw notFound('明细不存在或已被删除');
      if (billId && billId !== String(line[parentField])) throw badRequest('明细不能移到另一张单据');
      billId = String(line[parentField]);
    }
    if (!billId) throw badRequest('请指定明细所属的单据（headId）');
    const head = await editableBill(services, actor, dm, billId);
    const lines = await storedLines(services, actor, dm, billId);
    const before = new Set(lines.map((l) => String(l.id)));
    if (id) {
      const at = lines.findIndex((l) => String(l.id) === id);
      lines[at] = { ...lines[at], ...input, id, [parentField]: billId };
    } else {
      const sorts = lines.map((l) => Number(l.sort)).filter((n) => Number.isFinite(n));
      lines.push({ ...input, [parentField]: billId, sort: blank(input.sort) ? (sorts.length ? Math.max(...sorts) : 0) + 1 : input.sort });
    }
    const saved = await resave(services, actor, dm, head, lines);
    const answer = ((saved[dm.doc.lines!] as Row[]) ?? []).find((l) => (id ? String(l.id) === id : !before.has(String(l.id))));
    return answer ?? null;
  });

  /** remove: ids of lines, each taken out of its bill (all or none). */
  services.register('document.lineRemove', async (ctx, model: Model) => {
    const actor = mustCaller(ctx);
    const dm = billOfLines(services, model);
    const ids = idList(param(ctx, 'ids'));
    if (!ids.length) throw badRequest('缺少参数 ids');
    const parentField = dm.lines!.parentField;
    const rows = await services.store.find(model, actor.tenantId, { where: { id: ids } });
    if (rows.length < new Set(ids).size) throw notFound('明细不存在或已被删除');
    const byBill = new Map<string, Set<string>>();
    for (const r of rows) {
      const bill = String(r[parentField]);
      byBill.set(bill, (byBill.get(bill) ?? new Set()).add(String(r.id)));
    }
    await services.store.transaction(async () => {
      for (const [billId, gone] of byBill) {
        const head = await editableBill(services, actor, dm, billId);
        const kept = (await storedLines(services, actor, dm, billId)).filter((l) => !gone.has(String(l.id)));
        // A money bill (document.settle) may settle nothing (all of it stays unapplied credit).
        if (!kept.length && !dm.doc.settle) throw badRequest('单据至少要保留一行明细；不需要这张单据时请作废');
        await resave(services, actor, dm, head, kept);
      }
    });
    return undefined;
  });
}
