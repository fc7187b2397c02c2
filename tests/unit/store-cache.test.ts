import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import { Store } from '../../src/server/engine/store.ts';
import { tempSqlite } from '../support/tempSqlite.ts';

/**
 * The store's short-lived read cache inside a transaction (src/server/engine/store.ts, `cached`):
 * a table the transaction has not written reads from the cache as outside it (posting a bill reads
 * dictionaries and settings it never writes); one it has written, or a view over one, reads the
 * database, so the transaction sees its own writes.
 */
describe('read cache inside a transaction', () => {
  const newDatabase = tempSqlite('erp-cache-');

  async function setUp() {
    const database = newDatabase();
    await sql`create table t_dict (tenant_id text, id text, value text, primary key (tenant_id, id))`.execute(database.db);
    await sql`create table t_other (tenant_id text, id text, primary key (tenant_id, id))`.execute(database.db);
    await sql`insert into t_dict values ('000000', '1', 'a')`.execute(database.db);
    const store = new Store(database);
    store.registerView('t_dict_view', ['t_dict']);
    let loads = 0;
    const read = (table: string) =>
      store.cached(table, 'values', 2000, async () => {
        loads++;
        return (await sql<{ value: string }>`select value from t_dict`.execute(store.db)).rows.map((row) => row.value).join(',');
      });
    return { store, read, loads: () => loads };
  }

  test('a table the transaction has not written is read from the cache', async () => {
    const { store, read, loads } = await setUp();
    expect(await read('t_dict')).toBe('a');
    expect(loads()).toBe(1);
    await store.transaction(async (trx) => {
      expect(await read('t_dict')).toBe('a');
      await sql`insert into t_other values ('000000', '9')`.execute(trx);
      // Writing another table changes nothing for this one.
      expect(await read('t_dict')).toBe('a');
    });
    expect(loads()).toBe(1);
  });

  test('a table the transaction has written, or a view over it, is read from the database', async () => {
    const { store, read, loads } = await setUp();
    await read('t_dict');
    await read('t_dict_view');
    expect(loads()).toBe(2);
    await store.transaction(async (trx) => {
      await sql`insert into t_dict values ('000000', '2', 'b')`.execute(trx);
      expect(await read('t_dict')).toBe('a,b');
      expect(await read('t_dict_view')).toBe('a,b');
      expect(store.peekCached('t_dict', 'values', 2000)).toBeUndefined();
    });
    expect(loads()).toBe(4);
    // Committed: the write cleared the cache for every reader.
    expect(await read('t_dict')).toBe('a,b');
    expect(loads()).toBe(5);
  });
});
