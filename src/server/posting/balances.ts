/**
 * Stock balances under lock: the rows of the (warehouse, goods) pairs a bill moves are created if
 * missing and locked in a fixed order (warehouse, goods), so two postings never wait on each other
 * in opposite orders. One statement when every pair has a balance, three when some are new,
 * whatever the number of pairs.
 */
import { sql } from 'kysely';
import type { Services } from '../services.ts';
import type { Actor } from '../engine/store.ts';
import { Dec, type Decimal } from '../../shared/money/index.ts';

export interface Balance {
  depotId: string;
  commInfoId: string;
  qty: Decimal;
  value: Decimal;
  unitCost: Decimal;
  seq: number;
}

export const balanceKey = (depotId: string, commInfoId: string) => `${depotId}|${commInfoId}`;

export async function lockBalances(services: Services, actor: Actor, pairs: { depotId: string; commInfoId: string }[]): Promise<Map<string, Balance>> {
  const { store } = services;
  const model = services.internal.stockBalance;
  const unique = [...new Map(pairs.map((p) => [balanceKey(p.depotId, p.commInfoId), p])).values()].sort((a, b) =>
    a.depotId === b.depotId ? (a.commInfoId < b.commInfoId ? -1 : a.commInfoId > b.commInfoId ? 1 : 0) : a.depotId < b.depotId ? -1 : 1,
  );
  const out = new Map<string, Balance>();
  if (!unique.length) return out;
  const lockRead = async (wanted: typeof unique) => {
    let q = store.db
      .selectFrom(model.table)
      .selectAll()
      .where('tenant_id', '=', actor.tenantId)
      .where(sql<boolean>`(depot_id, comm_info_id) in (${sql.join(wanted.map((p) => sql`(${p.depotId}, ${p.commInfoId})`))})`)
      .orderBy('depot_id')
      .orderBy('comm_info_id');
    if (store.dialect === 'postgres') q = q.forUpdate();
    return q.execute();
  };
  // Most bills move goods that already have a balance: one locking read. Missing pairs are
  // created (a concurrent creator wins, nothing is overwritten), then the whole set is read again.
  let rows = await lockRead(unique);
  if (rows.length < unique.length) {
    const zero = { qty: '0', value: '0', unitCost: '0', seq: 0 };
    await store.upsertByKey(model, actor, unique.map((p) => ({ depotId: p.depotId, commInfoId: p.commInfoId, ...zero })), ['depotId', 'commInfoId'], { keepExisting: true });
    rows = await lockRead(unique);
  }
  for (const raw of rows) {
    const row = store.toRow(model, raw as Record<string, unknown>);
    const balance: Balance = {
      depotId: String(row.depotId),
      commInfoId: String(row.commInfoId),
      qty: new Dec(String(row.qty ?? '0')),
      value: new Dec(String(row.value ?? '0')),
      unitCost: new Dec(String(row.unitCost ?? '0')),
      seq: Number(row.seq ?? 0),
    };
    out.set(balanceKey(balance.depotId, balance.commInfoId), balance);
  }
  return out;
}

/** Writes the balances back with their new values: one statement. */
export async function saveBalances(services: Services, actor: Actor, balances: Iterable<Balance>): Promise<void> {
  const rows = [...balances].map((b) => ({
    depotId: b.depotId,
    commInfoId: b.commInfoId,
    qty: b.qty.toFixed(),
    value: b.value.toFixed(),
    unitCost: b.unitCost.toFixed(),
    seq: b.seq,
  }));
  await services.store.upsertByKey(services.internal.stockBalance, actor, rows, ['depotId', 'commInfoId']);
}
