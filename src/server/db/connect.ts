import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type CompiledQuery, type KyselyPlugin, type OperationNode, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';

export type DbKind = 'sqlite' | 'postgres';

/** Rows are schema-driven, so the query builder is untyped; models convert values at the edges. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Db = Kysely<any>;

export interface Database {
  kind: DbKind;
  db: Db;
  close(): Promise<void>;
  /** Called with the table name of every insert, update or delete, however it was written. */
  onWrite(listener: (table: string) => void): void;
  /**
   * Called with the operation tree of every query Kysely compiles, reads included (its `kind`:
   * SelectQueryNode, InsertQueryNode, RawNode…), e.g. to count statements. Answers an unsubscribe.
   * Transaction control (begin, commit) does not pass through here.
   */
  onQuery(listener: (node: RootOperationNode) => void): () => void;
  /**
   * SQLite only: runs a SELECT synchronously and returns rows as arrays (no object per row, no
   * async hop). Only safe when no transaction is open: the caller (the store) checks.
   */
  readArrays?(query: CompiledQuery): { columns: string[]; rows: unknown[][] };
}

const RAW_WRITE = /^\s*(?:insert\s+(?:or\s+\w+\s+)?into|update|delete\s+from)\s+"?(\w+)"?/i;

function tableName(node: OperationNode | undefined): string | undefined {
  if (!node) return undefined;
  const n = node as unknown as { kind: string; table?: { identifier?: { name?: string } }; node?: OperationNode };
  if (n.kind === 'TableNode') return n.table?.identifier?.name;
  if (n.kind === 'AliasNode') return tableName(n.node);
  return undefined;
}

/** The name an sql.table(…) or sql.ref(…) parameter of raw SQL stands for. */
function identifierOf(node: OperationNode | undefined): string | undefined {
  const n = node as unknown as { kind?: string; sqlFragments?: readonly string[]; parameters?: readonly OperationNode[]; column?: { column?: { name?: string } } } | undefined;
  if (!n) return undefined;
  if (n.kind === 'RawNode' && n.parameters?.length === 1 && (n.sqlFragments ?? []).every((f) => f === '')) return identifierOf(n.parameters[0]);
  if (n.kind === 'ReferenceNode') return n.column?.column?.name;
  return tableName(node);
}

/** The table a query writes, from its operation tree (builders) or its text (raw `sql`). */
export function writtenTable(node: RootOperationNode): string | undefined {
  const n = node as unknown as { kind: string; into?: OperationNode; table?: OperationNode; from?: { froms?: OperationNode[] }; sqlFragments?: readonly string[] };
  if (n.kind === 'InsertQueryNode') return tableName(n.into);
  if (n.kind === 'UpdateQueryNode') return tableName(n.table);
  if (n.kind === 'DeleteQueryNode') return tableName(n.from?.froms?.[0]);
  if (n.kind === 'RawNode') {
    // A table given as sql.table(…) is a parameter node between the fragments: spelled out by name.
    const parameters = (n as unknown as { parameters?: readonly OperationNode[] }).parameters ?? [];
    const fragments = n.sqlFragments ?? [];
    const text = fragments.map((f, i) => f + (i < parameters.length ? (identifierOf(parameters[i]) ?? '?') : '')).join('');
    return RAW_WRITE.exec(text)?.[1];
  }
  return undefined;
}

/**
 * Tells listeners of every write, so read caches are cleared even by hand-written handlers that
 * update tables directly rather than through the store.
 */
class WriteWatcher implements KyselyPlugin {
  readonly listeners = new Set<(table: string) => void>();
  readonly queryListeners = new Set<(node: RootOperationNode) => void>();
  onQuery(listener: (node: RootOperationNode) => void): () => void {
    this.queryListeners.add(listener);
    return () => this.queryListeners.delete(listener);
  }
  /** A statement sent to the database (Kysely's log, and SQLite's array reads): once per statement, subqueries included in it. */
  executed(query: CompiledQuery): void {
    for (const listener of this.queryListeners) listener(query.query);
  }
  // Runs each time Kysely turns a builder into a query, subqueries and union branches included:
  // right for noticing writes, not for counting statements (see `executed`).
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.listeners.size) {
      const table = writtenTable(args.node);
      if (table) for (const listener of this.listeners) listener(table);
    }
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
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
export async function optimize(database: Database, opts: { mergeAbove?: number } = {}): Promise<void> {
  if (database.kind !== 'sqlite') return;
  const { sql } = await import('kysely');
  await sql`pragma optimize = 0x10002`.execute(database.db);
  await priorStatistics(database);
  await mergeSearchIndexes(database, opts.mergeAbove ?? 8);
}

/** Rows a prior claims for a table: SQLite's own assumption for a table it knows nothing of. */
const PRIOR_ROWS = 1_000_000;

/**
 * Statistics for the indexes that have none: ANALYZE writes nothing for an empty table, and every
 * business table of a new database is empty when the server starts. Without statistics SQLite
 * assumes that `tenant_id = ?` alone narrows a table to about ten rows, so for
 * `where tenant_id = ? and bill_id = ? order by create_time desc` it walks the create-time index
 * over the whole tenant (to spare sorting "ten" rows) instead of probing the bill-id index: a bill's
 * action history read 0.25 ms at 668 rows, 0.016 ms with statistics, and grows with the table.
 * The prior says what holds for every table here: one tenant may hold all rows, and each further
 * indexed column narrows them to one. SQLite documents writing sqlite_stat1 as a way to steer its
 * planner ("Manual Control Of Query Plans Using SQLITE_STAT Tables").
 *
 * The primary key's index (sqlite_autoindex_…) is left without: `pragma optimize` analyses a
 * table with an unanalysed index as soon as it has a row, and leaves it alone while it is empty
 * (SQLite's pragma.c), so real statistics replace the prior at the first optimize after the table
 * fills (at start, after an import, and every ten minutes in the 数据库维护 task), and an empty
 * table costs no analysis. (A prior on every index would be re-analysed at each start, its claimed
 * size being far from none; a small claimed size, which optimize leaves alone, made the planner
 * loop over the "small" table outside a join: a 10,000-line import's UPDATE … FROM VALUES took 15 s.)
 */
async function priorStatistics(database: Database): Promise<void> {
  const { sql } = await import('kysely');
  const first = await sql<{ tbl: string }>`select tbl_name as tbl from sqlite_master where type = 'index' and tbl_name not like 'sqlite%' limit 1`.execute(database.db);
  if (!first.rows.length) return;
  // The statistics table exists once ANALYZE has run on any table (an empty one is enough).
  const hasStats = (await sql`select 1 from sqlite_master where name = 'sqlite_stat1'`.execute(database.db)).rows.length > 0;
  if (!hasStats) await sql`analyze ${sql.table(first.rows[0]!.tbl)}`.execute(database.db);
  // As text: a bound number would be written as 1000000.0, which the planner misreads.
  const rows = String(PRIOR_ROWS);
  const added = await sql`insert into sqlite_stat1 (tbl, idx, stat)
    select m.tbl_name, m.name, ${rows} || ' ' || (select group_concat(case when c.name = 'tenant_id' then ${rows} else '1' end, ' ' order by c.seqno) from pragma_index_info(m.name) c)
    from sqlite_master m
    where m.type = 'index' and m.tbl_name not like 'sqlite%' and m.name not like 'sqlite_autoindex_%'
      and not exists (select 1 from sqlite_stat1 s where s.idx = m.name)`.execute(database.db);
  // The planner reads sqlite_stat1 when it loads the schema: this reloads it.
  if (Number(added.numAffectedRows ?? 0) > 0) await sql`analyze sqlite_schema`.execute(database.db);
}

/**
 * Bulk writes leave a trigram index in many segments, and a search reads every one of them
 * (1,000,000 names: 9 segments 0.61 ms per search, merged 0.42 ms). Merges indexes holding more
 * than `above` segments; at start and after an import with 1, on the periodic run only when many.
 */
async function mergeSearchIndexes(database: Database, above: number): Promise<void> {
  const { sql } = await import('kysely');
  const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and sql like 'CREATE VIRTUAL TABLE%fts5%'`.execute(database.db);
  for (const { name } of tables.rows) {
    if (!/^\w+$/.test(name)) continue;
    const segments = await sql<{ n: unknown }>`select count(distinct segid) as n from ${sql.table(`${name}_idx`)}`.execute(database.db);
    if (Number(segments.rows[0]?.n ?? 0) > above) await sql.raw(`insert into ${name}(${name}) values ('optimize')`).execute(database.db);
  }
}

export function openDatabase(opts: { dataDir: string; databaseUrl?: string }): Database {
  if (opts.databaseUrl && /^postgres(ql)?:\/\//.test(opts.databaseUrl)) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection that PostgreSQL ends (restart, admin terminate) must not crash the process:
    // the pool drops it and opens a new one on the next query.
    pool.on('error', (error) => console.error(`[${new Date().toISOString()}] WARN idle PostgreSQL connection lost: ${error.message}`));
    const watcher = new WriteWatcher();
    const db: Db = new Kysely({ dialect: new PostgresDialect({ pool }), plugins: [watcher], log: (event) => watcher.executed(event.query) });
    return { kind: 'postgres', db, close: () => db.destroy(), onWrite: (l) => watcher.listeners.add(l), onQuery: (l) => watcher.onQuery(l) };
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
  // Reads through a memory map: a search touches ~100 rows scattered over the file, and each
  // through the page cache costs a system call (measured: 0.92 → 0.47 ms for a cold name search on
  // 1M customers). 2 GiB is SQLite's own ceiling; the OS, not the process, holds the pages.
  sqlite.pragma('mmap_size = 2147418112');
  const arrays = new Map<string, { stmt: SqliteDatabase.Statement; columns: string[] }>();
  const prepareRaw = sqlite.prepare.bind(sqlite);
  const watcher = new WriteWatcher();
  const readArrays = (query: CompiledQuery) => {
    const { sql: source, parameters } = query;
    watcher.executed(query);
    let entry = arrays.get(source);
    if (!entry) {
      const stmt = prepareRaw(source);
      stmt.raw(true);
      entry = { stmt, columns: stmt.columns().map((c) => c.name) };
      if (arrays.size >= 1000) arrays.delete(arrays.keys().next().value as string);
      arrays.set(source, entry);
    }
    return { columns: entry.columns, rows: entry.stmt.all(...parameters) as unknown[][] };
  };
  cachePreparedStatements(sqlite);
  const db: Db = new Kysely({ dialect: new SqliteDialect({ database: sqlite }), plugins: [watcher], log: (event) => watcher.executed(event.query) });
  return { kind: 'sqlite', db, close: () => db.destroy(), onWrite: (l) => watcher.listeners.add(l), onQuery: (l) => watcher.onQuery(l), readArrays };
}
