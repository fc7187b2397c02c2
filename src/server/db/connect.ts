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

/**
 * Kysely prepares every query anew; with a fixed set of query shapes, reusing the prepared
 * statement saves most of the per-call cost on SQLite. Statements run synchronously (all/run),
 * so sharing one between calls is safe.
 */
function cachePreparedStatements(sqlite: SqliteDatabase.Database, limit = 1000) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    let stmt = cache.get(source);
    if (!stmt) {
      stmt = prepare(source);
      if (cache.size >= limit) cache.delete(cache.keys().next().value as string);
      // DDL must not be cached: it changes what later statements see.
      if (stmt.reader || /^\s*(insert|update|delete)/i.test(source)) cache.set(source, stmt);
    }
    return stmt;
  }) as typeof sqlite.prepare;
}

/** Refreshes the SQLite planner's statistics (cheap: analysis_limit); PostgreSQL runs autovacuum/analyze itself. */
export async function optimize(database: Database): Promise<void> {
  if (database.kind !== 'sqlite') return;
  const { sql } = await import('kysely');
  await sql`pragma optimize = 0x10002`.execute(database.db);
}

export function openDatabase(opts: { dataDir: string; databaseUrl?: string }): Database {
  if (opts.databaseUrl && /^postgres(ql)?:\/\//.test(opts.databaseUrl)) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection that PostgreSQL ends (restart, admin terminate) must not crash the process:
    // the pool drops it and opens a new one on the next query.
    pool.on('error', (error) => console.error(`[${new Date().toISOString()}] WARN idle PostgreSQL connection lost: ${error.message}`));
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
  // ANALYZE reads a sample, so keeping planner statistics fresh stays cheap on big tables.
  sqlite.pragma('analysis_limit = 1000');
  cachePreparedStatements(sqlite);
  const db: Db = new Kysely({ dialect: new SqliteDialect({ database: sqlite }) });
  return { kind: 'sqlite', db, close: () => db.destroy() };
}
