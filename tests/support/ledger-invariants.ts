/**
 * Invariants of the stock and party ledgers that must hold after any sequence of postings,
 * refusals and reversals, checked in the database by aggregate queries that answer only the rows
 * breaking one (so the check stays cheap however long the ledgers grow):
 *   - every stock balance equals Σ of its ledger rows (库存对账's check lists nothing);
 *   - every party balance equals Σ of its party ledger rows;
 *   - every open item has 0 ≤ applied ≤ |amount|, and applied = Σ of its settlement rows;
 *   - a partner's balance = its open debits less its unapplied credits (reversed items aside);
 *   - the general ledger: every bill's voucher of each entry sums to zero (so the balance sheet
 *     balances), 库存商品 equals Σ stock balance values, 在途物资 the value called out and not yet
 *     called in, and 应收/应付 per partner that partner's balance.
 * Decimals compare exactly on both databases (SQLite keeps them as scaled integers, PostgreSQL as
 * numeric); figures in the messages are as stored.
 */
import { sql } from 'kysely';
import type { Services } from '../../src/server/services.ts';
import { balanceSheet } from '../../src/server/finance/statements.ts';
import { formatDate } from '../../src/shared/dates.ts';

const TENANT = '000000';

export async function ledgerViolations(services: Services): Promise<string[]> {
  const { store } = services;
  const db = store.db;
  const problems: string[] = [];
  const rows = async (query: ReturnType<typeof sql>) => (await query.execute(db)).rows as Record<string, unknown>[];

  for (const r of await store.find(services.m('inventory-balance'), TENANT, { where: { balanced: 2 } })) {
    problems.push(`stock ${r.depotId}/${r.commInfoId}: balance ${r.qty} worth ${r.value}, Σ ledger ${r.ledgerQty} worth ${r.ledgerValue}`);
  }

  // Party balance against Σ ledger, and against open debits less unapplied credits.
  const parties = await rows(sql`
    select k.kind, k.party_id, coalesce(b.amount, 0) as balance, coalesce(l.total, 0) as ledger, coalesce(o.open, 0) as open
    from (select kind, party_id from erp_party_ledger where tenant_id = ${TENANT}
          union select kind, party_id from erp_party_balance where tenant_id = ${TENANT}
          union select kind, party_id from erp_open_item where tenant_id = ${TENANT}) k
    left join erp_party_balance b on b.tenant_id = ${TENANT} and b.kind = k.kind and b.party_id = k.party_id
    left join (select kind, party_id, sum(amount) as total from erp_party_ledger where tenant_id = ${TENANT} group by kind, party_id) l
      on l.kind = k.kind and l.party_id = k.party_id
    left join (select kind, party_id, sum(case when amount < 0 then amount + applied else amount - applied end) as open
               from erp_open_item where tenant_id = ${TENANT} and reversed = 0 group by kind, party_id) o
      on o.kind = k.kind and o.party_id = k.party_id
    where coalesce(b.amount, 0) <> coalesce(l.total, 0) or coalesce(b.amount, 0) <> coalesce(o.open, 0)`);
  for (const p of parties) problems.push(`party ${p.kind} ${p.party_id}: balance ${p.balance}, Σ ledger ${p.ledger}, open debits less unapplied credits ${p.open}`);

  // Each open item's applied amount: within bounds and equal to its settlements (settle − unsettle, either side).
  const settled = (side: 'debit_id' | 'credit_id') =>
    sql`coalesce((select sum(case when s.entry = 'unsettle' then -s.amount else s.amount end) from erp_party_settlement s
                  where s.tenant_id = o.tenant_id and s.${sql.raw(side)} = o.bill_id), 0)`;
  const items = await rows(sql`
    select bill_no, kind, party_id, amount, applied, total from (
      select o.bill_no, o.kind, o.party_id, o.amount, o.applied, ${settled('debit_id')} + ${settled('credit_id')} as total
      from erp_open_item o where o.tenant_id = ${TENANT}) x
    where applied < 0 or applied > abs(amount) or applied <> total`);
  for (const i of items) problems.push(`open item ${i.bill_no} (${i.kind} ${i.party_id}, ${i.amount}): applied ${i.applied}, Σ settlements ${i.total}`);

  // General ledger: balanced vouchers, and its control accounts equal to the subledgers.
  const unbalanced = await rows(sql`select bill_no, entry, sum(amount) as total from erp_gl_entry where tenant_id = ${TENANT} group by bill_id, bill_no, entry having sum(amount) <> 0`);
  for (const v of unbalanced) problems.push(`voucher ${v.bill_no} ${v.entry}: debits less credits ${v.total}`);
  // A transfer's leaving and entering legs (and their mirrors) net to minus what is on the road.
  const control = await rows(sql`
    select
      (select coalesce(sum(amount), 0) from erp_gl_entry where tenant_id = ${TENANT} and account = '1405') as gl_stock,
      (select coalesce(sum(value), 0) from erp_stock_balance where tenant_id = ${TENANT}) as stock,
      (select coalesce(sum(amount), 0) from erp_gl_entry where tenant_id = ${TENANT} and account = '1402') as gl_transit,
      (select 0 - coalesce(sum(value), 0) from erp_stock_ledger
        where tenant_id = ${TENANT} and bill_type = '0833') as transit`);
  for (const c of control) {
    if (String(c.gl_stock) !== String(c.stock)) problems.push(`库存商品 ${c.gl_stock} ≠ Σ stock balance values ${c.stock}`);
    if (String(c.gl_transit) !== String(c.transit)) problems.push(`在途物资 ${c.gl_transit} ≠ value in transit ${c.transit}`);
  }
  const partners = await rows(sql`
    select b.kind, b.party_id, b.amount as balance, coalesce(g.total, 0) as gl from erp_party_balance b
    left join (select party_kind, party_id, sum(amount) as total from erp_gl_entry where tenant_id = ${TENANT} and account in ('1122', '2202') group by party_kind, party_id) g
      on g.party_kind = b.kind and g.party_id = b.party_id
    where b.tenant_id = ${TENANT} and b.amount <> case when b.kind = 'AP' then 0 - coalesce(g.total, 0) else coalesce(g.total, 0) end`);
  for (const p of partners) problems.push(`party ${p.kind} ${p.party_id}: balance ${p.balance}, general ledger ${p.gl} (debit-signed)`);

  // The balance sheet as 资产负债表 shows it: total assets = total liabilities and equity.
  const sheet = new Map((await balanceSheet(services, TENANT, formatDate())).map((r) => [r.id, r.endAmt]));
  if (sheet.get('assets') !== sheet.get('liabilitiesAndEquity')) problems.push(`balance sheet: assets ${sheet.get('assets')} ≠ liabilities and equity ${sheet.get('liabilitiesAndEquity')}`);
  return problems;
}
