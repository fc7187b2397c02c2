/**
 * The document calls of a bill's endpoints (ops document, documentHistory, documentPull,
 * documentPullCheck, documentGenerate, documentPostings): parameters from the request, then the
 * engine. An `Idempotency-Key` header makes a retried action answer what the first one answered.
 */
import type { Ctx } from '../../http/context.ts';
import { mustCaller, param } from '../../http/context.ts';
import type { EndpointDef } from '../../../shared/resource.ts';
import type { Model } from '../model.ts';
import type { Row } from '../store.ts';
import { badRequest } from '../../errors.ts';
import { documentOf, transitionOf } from '../../../shared/document.ts';
import { documentModel, loadBill, tenantPlaces } from './context.ts';
import { applyAction, billHistory, saveBill, type ActionParams } from './transitions.ts';
import { generateFromNumber, groupBySource, openSourceLines, pullFromSource, sourceModel } from './sources.ts';
import { withIdempotency } from './idempotency.ts';
import { relationChain } from './relations.ts';
import type { Services } from '../../services.ts';

function body(ctx: Ctx): Row {
  const b = ctx.body;
  if (b && typeof b === 'object' && !Array.isArray(b)) return { ...(b as Row) };
  return {};
}

function actionParams(ctx: Ctx): ActionParams {
  // GET calls carry id, version, remark as query parameters; POST calls as a JSON or form body.
  return { ...ctx.params, ...body(ctx) } as ActionParams;
}

function requireId(ctx: Ctx): string {
  const id = param(ctx, 'id');
  if (!id) throw badRequest('缺少参数 id');
  return id;
}

/** The permission a document endpoint needs: the transition's own. */
export function documentPerm(model: Model, endpoint: EndpointDef): string | undefined {
  if (endpoint.op !== 'document') return undefined;
  const doc = documentOf(model.resource);
  return doc ? transitionOf(doc, String(endpoint.params?.action ?? ''))?.perm : undefined;
}

export async function runDocumentOp(ctx: Ctx, model: Model, endpoint: EndpointDef): Promise<unknown> {
  const { services } = ctx;
  const actor = mustCaller(ctx);
  const dm = documentModel(services, model);
  switch (endpoint.op) {
    case 'document': {
      const action = String(endpoint.params?.action ?? '');
      const t = transitionOf(dm.doc, action);
      if (!t) throw badRequest(`${model.title}没有操作 ${action}`);
      const key = ctx.req.headers['idempotency-key'];
      const run = () => (t.save ? saveBill(services, actor, dm, action, body(ctx)) : applyAction(services, actor, dm, action, actionParams(ctx)));
      return withIdempotency(services, actor, typeof key === 'string' ? key : undefined, `${endpoint.method} ${model.resource!.api.base}/${endpoint.path}`, run);
    }
    case 'documentHistory':
      return billHistory(services, actor, dm, requireId(ctx));
    case 'documentPull':
      return pullFromSource(services, actor, dm, requireId(ctx), await tenantPlaces(services, actor.tenantId));
    case 'documentPullCheck': {
      // The same checks as a pull, answering true instead of the draft.
      await pullFromSource(services, actor, dm, requireId(ctx), await tenantPlaces(services, actor.tenantId));
      return true;
    }
    case 'documentGenerate': {
      const name = dm.doc.source?.numberParam ?? 'billNo';
      const number = param(ctx, name);
      if (!number) throw badRequest(`缺少参数 ${name}`);
      sourceModel(services, dm);
      return generateFromNumber(services, actor, dm, number, await tenantPlaces(services, actor.tenantId));
    }
    case 'documentPostings': {
      const id = requireId(ctx);
      await loadBill(services, actor, dm, id);
      const stock = await services.store.find(services.internal.stockLedger, actor.tenantId, { where: { billId: id }, orderBy: [{ column: 'create_time', dir: 'asc' }, { column: 'id', dir: 'asc' }] });
      const party = await services.store.find(services.internal.partyLedger, actor.tenantId, { where: { billId: id }, orderBy: [{ column: 'create_time', dir: 'asc' }, { column: 'id', dir: 'asc' }] });
      await fillNames(ctx, stock);
      return { stock, party };
    }
    case 'documentOpenLines': {
      const lines = await openSourceLines(services, actor, dm, { ...ctx.params, ...body(ctx) });
      return endpoint.params?.grouped ? groupBySource(lines) : lines;
    }
    case 'documentGrouped': {
      const bill = await loadBill(services, actor, dm, requireId(ctx));
      return { ...bill, groups: groupBySource((bill[dm.doc.lines ?? 'lines'] as Row[]) ?? []) };
    }
    default:
      throw badRequest(`不支持的单据操作 ${endpoint.op}`);
  }
}

/** Goods and warehouse names beside the ids of ledger rows (one read each). */
async function fillNames(ctx: Ctx, rows: Row[]) {
  const { services } = ctx;
  const tenantId = mustCaller(ctx).tenantId;
  const goods = new Map((await services.store.find(services.m('goods'), tenantId, { where: { id: [...new Set(rows.map((r) => String(r.commInfoId)))] } })).map((g) => [String(g.id), g]));
  const depots = new Map((await services.store.find(services.m('depot'), tenantId, { where: { id: [...new Set(rows.map((r) => String(r.depotId)))] } })).map((d) => [String(d.id), d]));
  for (const r of rows) {
    r.commInfoName = goods.get(String(r.commInfoId))?.commInfoName ?? '';
    r.depotName = depots.get(String(r.depotId))?.depotName ?? '';
  }
}

/** billrelation/sale and /purchase (id, billType): the chain of bills around one bill. */
export function registerRelationHandlers(services: Services) {
  services.register('billRelation.chain', async (ctx) => {
    const id = requireId(ctx);
    const billType = param(ctx, 'billType');
    if (!billType) throw badRequest('缺少参数 billType');
    return relationChain(services, mustCaller(ctx), id, billType);
  });
}
