/**
 * Progress written back to source bills (document.source.progress): when an inbound posts or is
 * flushed, each order line it took from holds the quantity received by posted inbounds, and the
 * order head says nothing / partly / fully received — closing the order (a state no pull accepts)
 * when every line is done, reopening it when a flush undoes that. Four statements whatever the
 * line count, inside the posting's transaction.
 */
import { sql } from 'kysely';
import type { Services } from '../../services.ts';
import type { Actor, Row } from '../store.ts';
import { Dec, fixed, type Decimal, type Places } from '../../../shared/money/index.ts';
import { formatDateTime } from '../../../shared/dates.ts';
import type { DocumentModel } from './context.ts';
import { sourceModel, takingKinds } from './sources.ts';

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** States a bill of `dm` counts as done in: where its posting leads. */
export function postedStates(dm: DocumentModel): string[] {
  return [...new Set(dm.doc.transitions.filter((t) => t.effect === 'post').map((t) => t.to))];
}

/** Σ quantity of posted lines of `dm` per source line. */
export async function postedBySource(services: Services, actor: Actor, dm: DocumentModel, sourceLineIds: string[]): Promise<Map<string, Decimal>> {
  const { store } = services;
  const body = dm.lineModel!;
  const parent = body.filterable.get(dm.lines!.parentField)!.column;
  const status = dm.model.filterable.get(dm.doc.statusField)!.column;
  const rows = (await store.db
    .selectFrom(`${body.table} as b`)
    .innerJoin(`${dm.model.table} as h`, (join) => join.onRef('h.tenant_id', '=', 'b.tenant_id').onRef('h.id', '=', `b.${parent}`))
    .select(['b.source_body_id as sid', sql<string>`sum(b.qty)`.as('total')])
    .where('b.tenant_id', '=', actor.tenantId)
    .where('b.is_deleted', '=', 0)
    .where('h.is_deleted', '=', 0)
    .where(`h.${status}`, 'in', postedStates(dm))
    .where('b.source_body_id', 'in', sourceLineIds)
    .groupBy('b.source_body_id')
    .execute()) as { sid: string; total: unknown }[];
  const qty = body.fields.get('qty')!;
  return new Map(rows.map((r) => [String(r.sid), new Dec(String(store.toRow(body, { [qty.column]: r.total }).qty ?? '0')).abs()]));
}

export async function updateSourceProgress(services: Services, actor: Actor, dm: DocumentModel, lines: Row[], places: Places): Promise<void> {
  const progress = dm.doc.source?.progress;
  if (!progress || !dm.lineModel || !dm.lines) return;
  const ids = [...new Set(lines.map((l) => l.sourceBodyId).filter((v) => !blank(v)).map(String))];
  if (!ids.length) return;
  const { store } = services;
  const source = sourceModel(services, dm);
  const sourceLines = source.lineModel!;
  // Kinds sharing the source lines (sales and mall invoices) write one figure: Σ of all their posted lines.
  const done = new Map<string, Decimal>();
  for (const kind of takingKinds(services, dm)) {
    for (const [id, qty] of await postedBySource(services, actor, kind, ids)) done.set(id, (done.get(id) ?? new Dec(0)).plus(qty));
  }
  await store.updateMany(sourceLines, actor, ids.map((id) => ({ id, [progress.lineField]: fixed(done.get(id) ?? new Dec(0), places.quantity) })));

  // Every line of the heads concerned: how many are open, how many started.
  const parent = sourceLines.filterable.get(source.lines!.parentField)!.column;
  const doneColumn = sourceLines.filterable.get(progress.lineField)!.column;
  const heads = (await store.db
    .selectFrom(`${sourceLines.table} as b`)
    .select([
      `b.${parent} as hid`,
      sql<number>`sum(case when abs(coalesce(${sql.ref(`b.${doneColumn}`)}, 0)) < abs(b.qty) then 1 else 0 end)`.as('open'),
      sql<number>`sum(case when coalesce(${sql.ref(`b.${doneColumn}`)}, 0) <> 0 then 1 else 0 end)`.as('started'),
    ])
    .where('b.tenant_id', '=', actor.tenantId)
    .where('b.is_deleted', '=', 0)
    .where(
      sql<boolean>`${sql.ref(`b.${parent}`)} in (select ${sql.ref(parent)} from ${sql.table(sourceLines.table)} where tenant_id = ${actor.tenantId} and id in (${sql.join(ids)}))`,
    )
    .groupBy(`b.${parent}`)
    .execute()) as { hid: string; open: unknown; started: unknown }[];
  const [none, partly, complete] = progress.states;
  const status = source.doc.statusField;
  const updates: Row[] = heads.map((h) => {
    const state = Number(h.open) === 0 ? complete : Number(h.started) > 0 ? partly : none;
    return { id: String(h.hid), [progress.headField]: state };
  });
  await store.updateMany(source.model, actor, updates);
  if (!progress.closeState || !progress.openState) return;
  // Close complete heads that are open, reopen closed ones that no longer are: one guarded statement each way.
  const completeIds = updates.filter((u) => u[progress.headField] === complete).map((u) => String(u.id));
  const openIds = updates.filter((u) => u[progress.headField] !== complete).map((u) => String(u.id));
  const statusColumn = source.model.filterable.get(status)!.column;
  const move = async (idsToMove: string[], from: string, to: string) => {
    if (!idsToMove.length) return;
    await store.db
      .updateTable(source.model.table)
      .set({ [statusColumn]: to, update_user: actor.userId, update_time: formatDateTime(), version: sql`version + 1` })
      .where('tenant_id', '=', actor.tenantId)
      .where('id', 'in', idsToMove)
      .where(statusColumn, '=', from)
      .execute();
  };
  await move(completeIds, progress.openState, progress.closeState);
  await move(openIds, progress.closeState, progress.openState);
}
