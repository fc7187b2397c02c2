import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';

export type DbKind = 'sqlite' | 'postgres';

/** Rows are schema-driven, so the query builder is untyped; models convert values at the edges. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Db = Kysely<any>;

export interface Database {
  kind: DbKind;
  db: Db;
  close(): Promise<void>;
}

export function openDatabase(opts: { dataDir: string; databaseUrl?: string }): Database {
  if (opts.databaseUrl && /^postgres(ql)?:\/\//.test(opts.databaseUrl)) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    const db: Db = new Kysely({ dialect: new PostgresDialect({ pool }) });
    return { kind: 'postgres', db, close: () => db.destroy() };
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const file = path.join(opts.dataDir, 'erp.sqlite');
  const sqlite = new SqliteDatabase(file);
  // WAL: readers never block the writer, and a committed transaction survives a killed process.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  // 64-bit integers come back as BigInt so scaled decimals and counts are never rounded.
  sqlite.defaultSafeIntegers(true);
  const db: Db = new Kysely({ dialect: new SqliteDialect({ database: sqlite }) });
  return { kind: 'sqlite', db, close: () => db.destroy() };
}
