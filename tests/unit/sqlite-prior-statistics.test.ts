import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import { optimize, type Database } from '../../src/server/db/connect.ts';
import { tempSqlite } from '../support/tempSqlite.ts';

/**
 * SQLite's planner on a new database (src/server/db/connect.ts, priorStatistics): an empty table
 * has no statistics, and without them SQLite took `tenant_id = ?` as selective and read a bill's
 * history through the create-time index (the whole tenant) instead of the bill-id index.
 */
describe('planner statistics for tables that were empty when analysed', () => {
  const newDatabase = tempSqlite('erp-prior-');

  async function open(): Promise<Database> {
    const database = newDatabase();
    // The shape of every table here: tenant first, an id, indexes ending in id, one by create time.
    await sql`create table t_action (id text not null, tenant_id text not null, bill_id text, create_time text, primary key (tenant_id, id))`.execute(database.db);
    await sql`create index ix_t_action_bill_id_id on t_action (tenant_id, bill_id, id)`.execute(database.db);
    await sql`create index ix_t_action_create_time_id on t_action (tenant_id, create_time, id)`.execute(database.db);
    // A seeded table, as the server has (dictionaries): ANALYZE has something to analyse.
    await sql`create table t_seeded (id text primary key, tenant_id text, code text)`.execute(database.db);
    await sql`create index ix_t_seeded_code_id on t_seeded (tenant_id, code, id)`.execute(database.db);
    await sql`insert into t_seeded values ('1', '000000', 'a'), ('2', '000000', 'b')`.execute(database.db);
    return database;
  }

  const plan = async (db: Database) =>
    (await sql<{ detail: string }>`explain query plan select * from t_action where tenant_id = '000000' and bill_id = 'b1' order by create_time desc, id desc`.execute(db.db)).rows
      .map((row) => row.detail)
      .join('\n');
  const stats = async (db: Database) =>
    (await sql<{ idx: string; stat: string }>`select idx, stat from sqlite_stat1 where tbl = 't_action' order by idx`.execute(db.db)).rows;

  test("a bill's rows are read through the bill index from the start, and the prior survives optimize while the table is empty", async () => {
    const db = await open();
    await optimize(db);
    expect(await plan(db)).toMatch(/USING INDEX ix_t_action_bill_id_id \(tenant_id=\? AND bill_id=\?\)/);
    const prior = await stats(db);
    // One tenant may hold all rows, a bill narrows them to one; the primary key's index is left
    // unanalysed, so that optimize analyses the table once it has rows.
    expect(prior).toEqual([
      { idx: 'ix_t_action_bill_id_id', stat: '1000000 1000000 1 1' },
      { idx: 'ix_t_action_create_time_id', stat: '1000000 1000000 1 1' },
    ]);
    // A bulk update by id (UPDATE … FROM VALUES) still loops over the values and probes the key.
    const update = (await sql<{ detail: string }>`explain query plan update t_action set bill_id = v.column2 from (values ('r1', 'x'), ('r2', 'y')) as v
      where t_action.tenant_id = '000000' and t_action.id = v.column1`.execute(db.db)).rows.map((row) => row.detail);
    expect(update[0]).toMatch(/SCAN 2-ROW VALUES CLAUSE/);
    expect(update[1]).toMatch(/SEARCH t_action USING (COVERING )?INDEX sqlite_autoindex_t_action_1 \(tenant_id=\? AND id=\?\)/);
    // The maintenance task runs optimize every ten minutes: an empty table keeps its prior.
    await optimize(db);
    expect(await stats(db)).toEqual(prior);
  });

  test('real statistics replace the prior once the table has grown', async () => {
    const db = await open();
    await optimize(db);
    const rows = Array.from({ length: 400 }, (_, i) => sql`(${`r${i}`}, '000000', ${`b${i % 100}`}, ${`2026-11-${String(1 + (i % 28)).padStart(2, '0')}`})`);
    await sql`insert into t_action values ${sql.join(rows)}`.execute(db.db);
    await optimize(db);
    const analysed = await stats(db);
    // ANALYZE's own figures: 400 rows, 4 per bill.
    expect(analysed.find((row) => row.idx === 'ix_t_action_bill_id_id')?.stat).toBe('400 400 4 1');
    expect(await plan(db)).toMatch(/USING INDEX ix_t_action_bill_id_id/);
  });
});
