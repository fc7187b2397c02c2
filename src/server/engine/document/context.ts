/** What every document operation needs: the bill's definition, its line model, places and names of states. */
import type { ClosedPeriod } from '../../posting/periods.ts';
import type { Services } from '../../services.ts';
import type { Model } from '../model.ts';
import type { Actor, Row } from '../store.ts';
import { documentFor, documentOf, transitionOf, type DocumentDef, type TransitionDef } from '../../../shared/document.ts';
import { fixed, placesFromConfig, type Places } from '../../../shared/money/index.ts';
import { badRequest, notFound } from '../../errors.ts';
import { lineFields, loadLines, type LineCollection } from '../lines.ts';
import { fillLookupsMany } from '../lookups.ts';
import type { Bill } from '../../posting/index.ts';

export interface DocumentModel {
  model: Model;
  doc: DocumentDef;
  lines?: LineCollection;
  lineModel?: Model;
}

export function documentModel(services: Services, model: Model): DocumentModel {
  const doc = documentOf(model.resource);
  if (!doc) throw new Error(`${model.name} has no document block`);
  const lines = doc.lines ? lineFields(model).find((l) => l.field === doc.lines) : undefined;
  if (doc.lines && !lines) throw new Error(`${model.name}: document.lines names ${doc.lines}, which is not an x-lines field`);
  return { model, doc, lines, lineModel: lines ? services.m(lines.resource) : undefined };
}

export function mustTransition(dm: DocumentModel, action: string): TransitionDef {
  const t = transitionOf(dm.doc, action);
  if (!t) throw badRequest(`${dm.model.title}没有操作 ${action}`);
  return t;
}

/** System config keys the document engine reads: places, fee allocation, over-receipt. */
const CONFIG_KEYS = ['UNIT_DECIMAL_PLACES', 'AMT_DECIMAL_PLACES', 'NUMBER_DECIMAL_PLACES', 'COST_ALLOCATION_MODEL', 'OVER_RECEIPT', 'PREPAYMENT_AUTO_USE'];

/** The tenant's document settings (system config), read through the store's short cache. */
export async function documentConfig(services: Services, tenantId: string): Promise<Record<string, string>> {
  const config = services.m('sysconfig');
  return services.store.cached(config.table, `document|${tenantId}`, 2000, async () => {
    const rows = await services.store.find(config, tenantId, { where: { configKey: CONFIG_KEYS } });
    return Object.fromEntries(rows.map((r) => [String(r.configKey), String(r.configValue ?? '')]));
  });
}

/** The tenant's configured places. */
export async function tenantPlaces(services: Services, tenantId: string): Promise<Places> {
  return placesFromConfig(await documentConfig(services, tenantId));
}

/** Display name of a state (bill_status 1306 → 已记账); `new` is a bill not yet saved. */
export function stateName(services: Services, dm: DocumentModel, state: string): string {
  if (state === 'new') return '新建';
  const dict = services.registry.dicts.find((d) => d.code === dm.doc.statusDict);
  return dict?.items.find((i) => i.key === state)?.value ?? state;
}

/** Prices, amounts and quantities as text at the tenant's places (8.00000, 36.16), as the screens show them. */
export function formatFigures(model: Model, rows: Row[], places: Places): void {
  const kinds: [string, number][] = [];
  for (const field of model.fields.values()) {
    const kind = field.schema['x-decimal'];
    if (kind === 'price' || kind === 'amount' || kind === 'quantity') kinds.push([field.name, places[kind]]);
  }
  for (const row of rows) {
    for (const [name, p] of kinds) {
      const value = row[name];
      if (value !== null && value !== undefined && value !== '') row[name] = fixed(String(value), p);
    }
  }
}

/** Head (with its display names) and lines of one bill, figures at the tenant's places. */
export async function loadBill(services: Services, actor: Actor, dm: DocumentModel, id: string, places?: Places): Promise<Row> {
  const head = await services.store.get(dm.model, actor.tenantId, id);
  if (!head) throw notFound('单据不存在或已被删除');
  const lines = await loadLines(services, actor.tenantId, dm.model, [head], { lookups: false });
  return presentBill(services, actor, dm, head, lines, places);
}

/**
 * A bill as the screens get it, from rows already in hand (read, or just written): display names
 * of head and lines in one batched read, figures at the tenant's places.
 */
export async function presentBill(services: Services, actor: Actor, dm: DocumentModel, head: Row, lines: [Model, Row[]][], places?: Places): Promise<Row> {
  await fillLookupsMany(services, actor.tenantId, [[dm.model, [head]], ...lines]);
  const p = places ?? (await tenantPlaces(services, actor.tenantId));
  formatFigures(dm.model, [head], p);
  if (dm.lineModel && dm.doc.lines) formatFigures(dm.lineModel, (head[dm.doc.lines] as Row[]) ?? [], p);
  return head;
}

export function asBill(dm: DocumentModel, head: Row, places: Places, config?: Record<string, string>, periods?: ClosedPeriod[]): Bill {
  // The bill's own kind and posting (document.variants, posting.partyIf) decide what it writes.
  return { model: dm.model, lineModel: dm.lineModel, doc: documentFor(dm.doc, head), head, lines: dm.doc.lines ? ((head[dm.doc.lines] as Row[]) ?? []) : [], places, config, periods };
}

/** A bill read by the generic detail call gets the same figures as the engine's reads. */
export async function formatBillFigures(services: Services, tenantId: string, model: Model, head: Row): Promise<void> {
  const dm = documentModel(services, model);
  const places = await tenantPlaces(services, tenantId);
  formatFigures(model, [head], places);
  if (dm.lineModel && dm.doc.lines) formatFigures(dm.lineModel, (head[dm.doc.lines] as Row[]) ?? [], places);
}
