/**
 * Materialized views and their monthly rollups (src/server/engine/materialized.ts) on SQLite and
 * PostgreSQL: after posting, returning and flushing sales the table equals its live view and each
 * rollup equals the table's own aggregates; a rollup read over any period (whole months, a month's
 * tail, a single day, open ends) equals the same aggregates taken straight from the table; a row
 * changed behind the engine's back is reported; a changed definition is rebuilt at start.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sql } from 'kysely';
import Database from 'better-sqlite3';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, approvedBill, lines, makeWorld, type World } from '../support/bills.ts';
import { materializedDrift, materializedOf, periodPlan, readRollup, rebuildMaterialized, tablesRead } from '../../src/server/engine/materialized.ts';
import { addDays, addMonths, formatDate } from '../../src/shared/dates.ts';

type Row = Record<string, unknown>;
const TABLE = 'erp_sales_analysis';
const TENANT = '000000';

test('periodPlan: whole months from the rollup; a partial month by its fewer days, added or taken off', () => {
  expect(periodPlan('2026-01-01', '2026-03-31')).toEqual({ months: { first: '2026-01', last: '2026-03' }, add: [], subtract: [] });
  expect(periodPlan(undefined, undefined)).toEqual({ months: { first: undefined, last: undefined }, add: [], subtract: [] });
  // A rolling year ending today (the 25th): 5 days added at the start, the 5 days after today taken off.
  expect(periodPlan('2025-11-26', '2026-11-25')).toEqual({ months: { first: '2025-12', last: '2026-11' }, add: [['2025-11-26', '2025-11-30']], subtract: [['2026-11-26', '2026-11-30']] });
  expect(periodPlan('2026-01-10', '2026-03-05')).toEqual({ months: { first: '2026-01', last: '2026-02' }, add: [['2026-03-01', '2026-03-05']], subtract: [['2026-01-01', '2026-01-09']] });
  // Inside one month: the days themselves, or the month without the days around them.
  expect(periodPlan('2026-02-10', '2026-02-12')).toEqual({ add: [['2026-02-10', '2026-02-12']], subtract: [] });
  expect(periodPlan('2024-02-03', '2024-02-27')).toEqual({ months: { first: '2024-02', last: '2024-02' }, add: [], subtract: [['2024-02-01', '2024-02-02'], ['2024-02-28', '2024-02-29']] });
  expect(periodPlan('2024-02-01', '2024-02-29')).toEqual({ months: { first: '2024-02', last: '2024-02' }, add: [], subtract: [] });
  // Two partial months, nothing whole between them.
  expect(periodPlan('2026-01-20', '2026-02-05')).toEqual({ add: [['2026-01-20', '2026-01-31'], ['2026-02-01', '2026-02-05']], subtract: [] });
  expect(periodPlan(undefined, '2026-05-20')).toEqual({ months: { first: undefined, last: '2026-05' }, add: [], subtract: [['2026-05-21', '2026-05-31']] });
  expect(periodPlan('2026-05-20', undefined)).toEqual({ months: { first: '2026-06', last: undefined }, add: [['2026-05-20', '2026-05-31']], subtract: [] });
});

test('tablesRead: the tables after from and join, once each, not a subquery or a function argument', () => {
  const select =
    "select h.id, extract(year from h.bill_date) as y from erp_sales_out_head h join (select head_id from erp_sales_out_body b) x on x.head_id = h.id left join erp_customer c on c.id = h.customer_id union all select id from erp_sales_out_head";
  // `h` (extract's argument) is named too: the rebuild asks the catalogue which names are tables.
  expect(tablesRead(select)).toEqual(['h', 'erp_sales_out_head', 'erp_sales_out_body', 'erp_customer']);
});

describe.each(databases())('materialized views ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  const today = formatDate();
  const twoMonthsAgo = `${addMonths(today.slice(0, 7), -2)}-15`;
  const lastMonthFirst = `${addMonths(today.slice(0, 7), -1)}-01`;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 3, customers: 2 });
    const [g1, g2, g3] = w.goods;
    await approvedBill(admin, BASES.purchaseIn, {
      supplierId: w.supplierId, depotId: w.depots[0],
      bodyList: lines(w, [{ goods: g1, qty: '50', purchasePrice: '2.00' }, { goods: g2, qty: '50', purchasePrice: '3.00' }, { goods: g3, qty: '50', purchasePrice: '1.00' }]),
    }, { post: true });
    const sale = (customerId: string, billDate: string, specs: { goods: string; qty: string; taxPrice: string }[]) =>
      approvedBill(admin, BASES.salesOut, { customerId, depotId: w.depots[0], billDate, bodyList: lines(w, specs) }, { post: true });
    const first = await sale(w.customers[0], twoMonthsAgo, [{ goods: g1, qty: '2', taxPrice: '11.30' }, { goods: g2, qty: '1', taxPrice: '3.39' }]);
    await sale(w.customers[1], lastMonthFirst, [{ goods: g1, qty: '1', taxPrice: '11.30' }, { goods: g3, qty: '4', taxPrice: '2.26' }]);
    await sale(w.customers[0], addDays(lastMonthFirst, 20), [{ goods: g2, qty: '3', taxPrice: '3.39' }]);
    await sale(w.customers[1], today, [{ goods: g3, qty: '5', taxPrice: '2.26' }, { goods: g1, qty: '1', taxPrice: '12.00' }]);
    const generated = expectOk<Row>(await admin.get(`${BASES.salesReturn}/generate`, { soNo: first.billNo }));
    const back = (generated.bodyList as Row[]).find((l) => l.commInfoId === g1)!;
    await approvedBill(admin, BASES.salesReturn, { ...generated, billDate: today, bodyList: [{ ...back, qty: '-1', salesAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined }] }, { post: true });
    const flushed = await sale(w.customers[0], today, [{ goods: g2, qty: '2', taxPrice: '3.39' }]);
    expectOk(await admin.post(`${BASES.salesOut}/flush`, { id: flushed.id, version: flushed.version }));
    // A draft never reaches the table.
    expectOk(await admin.post(`${BASES.salesOut}/submit`, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: g1, qty: '7', taxPrice: '11.30' }]) }));
  });
  afterAll(async () => server?.close());

  const db = () => server.services.store.db;
  const m = () => materializedOf(server.services.registry, TABLE)!;

  test('the table equals its live view and every rollup the table’s aggregates; flushed and draft bills are not in it', async () => {
    expect(await materializedDrift(db(), server.services.registry)).toEqual([]);
    const rows = (await sql<Row>`select bill_id, is_return from ${sql.table(TABLE)} where tenant_id = ${TENANT}`.execute(db())).rows;
    expect(new Set(rows.map((r) => r.bill_id)).size).toBe(5);
    expect(rows.length).toBe(8);
    const emptied = (await sql<Row>`select count(*) as n from ${sql.table(`${TABLE}__head`)} where line_count = 0`.execute(db())).rows[0];
    // The flushed sale was customer 1's only sales-out this month: its row stays, emptied to zero
    // (materializedDrift checks every measure of such a row is zero; reads leave it out).
    expect(Number(emptied.n)).toBe(1);
  });

  test('a rollup read over any period equals the table’s own aggregates', async () => {
    const measures = Object.entries(m().measures);
    const direct = async (from: string | undefined, to: string | undefined, group: string | undefined) => {
      const c = [sql`tenant_id = ${TENANT}`];
      if (from) c.push(sql`bill_date >= ${from}`);
      if (to) c.push(sql`bill_date < ${addDays(to, 1)}`);
      const k = group === 'month' ? sql`substr(bill_date, 1, 7)` : group ? sql`coalesce(${sql.ref(group)}, '')` : sql`''`;
      const result = await sql<Row>`select ${k} as k, ${sql.join(measures.map(([name, x]) => sql`${sql.raw(x.sql)} as ${sql.ref(name)}`))}
        from ${sql.table(TABLE)} where ${sql.join(c, sql` and `)}${group ? sql` group by ${k}` : sql``}`.execute(db());
      return result.rows.filter((r) => Number(r.line_count) > 0);
    };
    const norm = (rows: Row[]) => rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, String(Number(v ?? 0) === 0 && k !== 'k' ? 0 : v)]))).sort((a, b) => String(a.k).localeCompare(String(b.k)));
    const periods: [string | undefined, string | undefined][] = [
      [undefined, undefined], [twoMonthsAgo, today], [lastMonthFirst, today], [addDays(twoMonthsAgo, 1), addDays(lastMonthFirst, 20)],
      [today, today], [undefined, addDays(lastMonthFirst, -1)], [lastMonthFirst, undefined], [`${twoMonthsAgo.slice(0, 7)}-01`, addDays(lastMonthFirst, -1)],
    ];
    for (const [from, to] of periods) {
      for (const [rollup, group] of [['month', undefined], ['month', 'month'], ['head', undefined], ['head', 'month'], ['head', 'customer_id'], ['staff', 'staff_id'], ['goods', 'comm_info_id'], ['depot', 'depot_id']] as const) {
        const read = await readRollup(server.services.registry, TABLE, rollup, { tenantId: TENANT, from, to, filter: {}, group }).execute(db());
        expect(norm(read.rows), `${rollup}/${group ?? 'total'} ${from}…${to}`).toEqual(norm(await direct(from, to, group)));
      }
    }
    // A filter on a key: one customer's months.
    const mine = await readRollup(server.services.registry, TABLE, 'head', { tenantId: TENANT, filter: { customer_id: w.customers[0] }, group: 'month' }).execute(db());
    expect(mine.rows.map((r) => r.k).sort()).toEqual([twoMonthsAgo.slice(0, 7), lastMonthFirst.slice(0, 7), ...(today.slice(0, 7) === twoMonthsAgo.slice(0, 7) ? [] : [today.slice(0, 7)])].filter((x, i, a) => a.indexOf(x) === i).sort());
  });

  test('a row changed behind the engine’s back is reported, and a rebuild mends it', async () => {
    await sql`update ${sql.table(TABLE)} set total_amt = total_amt + 1 where id = (select min(id) from ${sql.table(TABLE)} where tenant_id = ${TENANT})`.execute(db());
    await sql`update ${sql.table(`${TABLE}__goods`)} set sales_amt = sales_amt + 1 where tenant_id = ${TENANT}`.execute(db());
    const drift = await materializedDrift(db(), server.services.registry);
    expect(drift.some((p) => p.startsWith(`${TABLE}: 1 rows not in the live view, 1 live rows missing (row `) && p.includes('total_amt'))).toBe(true);
    expect(drift.some((p) => p.startsWith(`${TABLE}__goods: `))).toBe(true);
    await rebuildMaterialized(server.services.store.database, m());
    expect(await materializedDrift(db(), server.services.registry)).toEqual([]);
  });
});

describe('a changed definition is rebuilt at start (sqlite)', () => {
  test('rollups emptied and the definition state gone: the next start builds them again', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-materialized-'));
    let server = await startTestServer({ dataDir });
    try {
      const admin = await signedIn(server.url);
      const w = await makeWorld(admin, { goods: 1, customers: 1 });
      await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '5', purchasePrice: '2.00' }]) }, { post: true });
      await approvedBill(admin, BASES.salesOut, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '2', taxPrice: '5.00' }]) }, { post: true });
      const count = async (s: TestServer, table: string) => Number((await sql<Row>`select count(*) as n from ${sql.table(table)}`.execute(s.services.store.db)).rows[0].n);
      expect(await count(server, `${TABLE}__head`)).toBe(1);
      await server.close();
      // As an older version of the schema would have left it: no rows, no rollup, no state.
      const file = new Database(path.join(dataDir, 'erp.sqlite'));
      file.exec(`delete from ${TABLE}; delete from ${TABLE}__head; delete from erp_schema_state where table_name = '${TABLE}#materialized'`);
      file.close();
      server = await startTestServer({ dataDir });
      expect(await count(server, TABLE)).toBe(1);
      expect(await count(server, `${TABLE}__head`)).toBe(1);
      expect(await materializedDrift(server.services.store.db, server.services.registry)).toEqual([]);
    } finally {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
