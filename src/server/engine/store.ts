import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'kysely';
import type { Database, Db } from '../db/connect.ts';
import { nextId } from '../db/ids.ts';
import type { Model } from './model.ts';
import { rowFromDb, rowsFromArrays, toDb } from './model.ts';
import { conditionSql, type Condition } from './query.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { badRequest, conflict, notFound } from '../errors.ts';

export const PLATFORM_TENANT = '000000';

/** Bound values per statement: below SQLite's 32,766 and PostgreSQL's 65,535. */
export const MAX_PARAMS = 30_000;

/** Filtered list searches: matches kept per search, how long, and how many ids in all (≈ 40 MB). */
const SEARCH_CAP = 20_000;
const SEARCH_TTL_MS = 2000;
const SEARCH_MEMORY_IDS = 1_000_000;
const SEARCH_ENTRIES = 5000;

function conditionKey(conditions: Condition[] | undefined): string {
  return (conditions ?? []).map((c) => (c.any ? `(${conditionKey(c.any)})` : `${c.field.name}${c.op}=${String(c.value)}`)).join('&');
}

/** Who is acting: stamped on rows and used to scope every query. */
export interface Actor {
  tenantId: string;
  userId: string;
  deptId?: string;
}

export type Row = Record<string, unknown>;

/**
 * Tenant-scoped data access shared by the generic ops and the hand-written handlers.
 * Every read and write takes the tenant; there is no call that reaches another tenant's rows.
 */
export class Store {
  /** The open transaction of the current async call chain, so nested calls join it. */
  private current = new AsyncLocalStorage<Db>();

  /** Short-lived read cache per table (lookups, session checks); any write to the table clears it. */
  private readCache = new Map<string, Map<string, { at: number; value: unknown }>>();

  /** Ordered ids matching a filtered list query, so the next page, a refresh or another user's same search skips the search. */
  private searches = new Map<string, { table: string; at: number; ids: string[] }>();
  private searchedIds = 0;

  /** Transactions open anywhere: while any is, SQLite reads wait their turn through Kysely. */
  private openTransactions = 0;

  /** Tables written inside each open transaction: their caches are cleared again once it commits. */
  private pendingWrites = new WeakMap<Db, Set<string>>();

  constructor(public database: Database) {
    database.onWrite((table) => this.noteWrite(table));
  }

  /** Set on PostgreSQL with several nodes: tells the others which tables a committed write changed. */
  publish?: (tables: Iterable<string>) => void;

  private noteWrite(table: string): void {
    this.invalidate(table);
    const open = this.current.getStore();
    if (!open) {
      this.publish?.([table]);
      return;
    }
    let tables = this.pendingWrites.get(open);
    if (!tables) this.pendingWrites.set(open, (tables = new Set()));
    tables.add(table);
  }

  /**
   * A read that may be served from memory for `ttlMs`. Writes through this store clear the table's
   * entries at once; another API node's writes are seen after at most `ttlMs`.
   */
  async cached<T>(table: string, key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
    // A transaction that has written the table reads the database: the cache holds what others see.
    // A table it has not written reads the same inside it as outside (posting a bill reads
    // dictionaries, settings and rules it never writes: each a query per call before).
    if (this.writtenInThisTransaction(table)) return load();
    let entries = this.readCache.get(table);
    const hit = entries?.get(key);
    if (hit && Date.now() - hit.at < ttlMs) return hit.value as T;
    const value = await load();
    if (!entries) this.readCache.set(table, (entries = new Map()));
    if (entries.size > 5000) entries.clear();
    entries.set(key, { at: Date.now(), value });
    return value;
  }

  /** A cached value still fresh, without loading it (not for a table the open transaction wrote, like `cached`). */
  peekCached<T>(table: string, key: string, ttlMs: number): T | undefined {
    if (this.writtenInThisTransaction(table)) return undefined;
    const hit = this.readCache.get(table)?.get(key);
    return hit && Date.now() - hit.at < ttlMs ? (hit.value as T) : undefined;
  }

  /** Keeps a value read outside `cached` (a batched read) for later `cached`/`peekCached` calls. */
  putCached(table: string, key: string, value: unknown): void {
    if (this.current.getStore()) return;
    let entries = this.readCache.get(table);
    if (!entries) this.readCache.set(table, (entries = new Map()));
    if (entries.size > 5000) entries.clear();
    entries.set(key, { at: Date.now(), value });
  }

  invalidate(table: string): void {
    for (const view of this.viewsOf.get(table) ?? []) this.invalidate(view);
    this.readCache.delete(table);
    if (!this.searches.size) return;
    for (const [key, entry] of this.searches) {
      if (entry.table !== table) continue;
      this.searches.delete(key);
      this.searchedIds -= entry.ids.length;
    }
  }

  /** Whether the open transaction (if any) has written the table, or a table a view of that name reads. */
  private writtenInThisTransaction(table: string): boolean {
    const open = this.current.getStore();
    const written = open && this.pendingWrites.get(open);
    if (!written?.size) return false;
    if (written.has(table)) return true;
    const reads = (source: string, seen = new Set<string>()): boolean =>
      (this.viewsOf.get(source) ?? []).some((view) => view === table || (!seen.has(view) && (seen.add(view), reads(view, seen))));
    return [...written].some((source) => reads(source));
  }

  /** Tables written so far in the open transaction (empty outside one). */
  writtenInTransaction(): ReadonlySet<string> {
    const open = this.current.getStore();
    return (open && this.pendingWrites.get(open)) || new Set();
  }

  get db(): Db {
    return this.current.getStore() ?? this.database.db;
  }

  get dialect() {
    return this.database.kind;
  }

  /** The tenant whose rows a model reads: platform tables live in tenant 000000. */
  tenantOf(model: Model, tenantId: string): string {
    return model.platform ? PLATFORM_TENANT : tenantId;
  }

  base(model: Model, tenantId: string, db: Db = this.db) {
    let q = db.selectFrom(model.table).where('tenant_id', '=', this.tenantOf(model, tenantId));
    if (model.softDelete) q = q.where('is_deleted', '=', 0);
    return q;
  }

  toRow(model: Model, raw: Row): Row {
    return rowFromDb(model, raw, this.dialect);
  }

  async find(
    model: Model,
    tenantId: string,
    opts: { where?: Row; conditions?: Condition[]; orderBy?: { column: string; dir: 'asc' | 'desc' }[]; limit?: number; offset?: number } = {},
    db: Db = this.db,
  ): Promise<Row[]> {
    let q = this.base(model, tenantId, db).selectAll();
    q = this.applyWhere(model, q, opts.where, opts.conditions);
    for (const o of opts.orderBy ?? []) q = q.orderBy(o.column, o.dir);
    if (opts.limit !== undefined) q = q.limit(opts.limit);
    if (opts.offset) q = q.offset(opts.offset);
    // SQLite outside any transaction: one synchronous read of arrays straight into rows.
    const readArrays = this.database.readArrays;
    if (readArrays && db === this.database.db && !this.openTransactions) {
      const compiled = q.compile();
      const { columns, rows } = readArrays(compiled);
      return rowsFromArrays(model, columns, rows);
    }
    const rows = await q.execute();
    return rows.map((r) => this.toRow(model, r as Row));
  }

  /**
   * Live rows per tenant and table, kept in erp_row_count by every insert and delete in the same
   * transaction, so an unfiltered page total is one key lookup instead of counting a million rows.
   */
  private counted(model: Model): boolean {
    return Boolean(model.resource) && !model.def.view;
  }

  /** Views by the tables they read: a write to one clears what is cached of them. */
  private viewsOf = new Map<string, string[]>();

  registerView(view: string, tables: string[]): void {
    for (const t of tables) this.viewsOf.set(t, [...(this.viewsOf.get(t) ?? []), view]);
  }

  async adjustCount(model: Model, tenantId: string, delta: number, db: Db = this.db): Promise<void> {
    if (!delta || !this.counted(model)) return;
    const tenant = this.tenantOf(model, tenantId);
    await sql`insert into erp_row_count (tenant_id, table_name, n) values (${tenant}, ${model.table}, ${delta})
      on conflict (tenant_id, table_name) do update set n = erp_row_count.n + ${delta}`.execute(db);
  }

  /** Recounts every tenant's live rows of a table (at start, so counters never drift for long). */
  async recount(model: Model): Promise<void> {
    if (!this.counted(model)) return;
    await this.transaction(async (db) => {
      let q = db.selectFrom(model.table).select(['tenant_id', (eb) => eb.fn.countAll().as('n')]).groupBy('tenant_id');
      if (model.softDelete) q = q.where('is_deleted', '=', 0);
      const rows = (await q.execute()) as { tenant_id: string; n: unknown }[];
      await sql`delete from erp_row_count where table_name = ${model.table}`.execute(db);
      for (const r of rows) {
        await sql`insert into erp_row_count (tenant_id, table_name, n) values (${r.tenant_id}, ${model.table}, ${Number(r.n)})`.execute(db);
      }
    });
  }

  /**
   * One page and its total. Unfiltered: the row counter. Filtered: the ordered ids of every match
   * (up to SEARCH_CAP) are read once and kept for two seconds, cleared by any write to the table,
   * so paging, refreshing or a second user's same search costs a primary-key fetch of 20 rows.
   * More matches than the cap: a count and an index-ordered page, as two plain queries.
   */
  async page(
    model: Model,
    tenantId: string,
    opts: { where?: Row; conditions?: Condition[]; orderBy: { column: string; dir: 'asc' | 'desc' }[]; limit: number; offset: number },
  ): Promise<{ rows: Row[]; total: number }> {
    const filtered = Boolean(opts.conditions?.length || Object.keys(opts.where ?? {}).length);
    if (!filtered || !this.counted(model)) {
      const [total, rows] = await Promise.all([this.count(model, tenantId, opts), this.find(model, tenantId, opts)]);
      return { rows, total };
    }
    const ids = await this.matchingIds(model, tenantId, opts);
    if (!ids) {
      const [total, rows] = await Promise.all([this.count(model, tenantId, opts), this.find(model, tenantId, opts)]);
      return { rows, total };
    }
    const slice = ids.slice(opts.offset, opts.offset + opts.limit);
    if (!slice.length) return { rows: [], total: ids.length };
    const found = await this.find(model, tenantId, { where: { id: slice } });
    const byId = new Map(found.map((r) => [String(r.id), r]));
    // A row removed since the ids were read is simply left out of this page.
    const rows = slice.map((id) => byId.get(id)).filter((r): r is Row => r !== undefined);
    return { rows, total: ids.length };
  }

  /** Ids of every row matching a filter, in list order; undefined when there are more than SEARCH_CAP. */
  private async matchingIds(
    model: Model,
    tenantId: string,
    opts: { where?: Row; conditions?: Condition[]; orderBy: { column: string; dir: 'asc' | 'desc' }[] },
  ): Promise<string[] | undefined> {
    const key = `${model.table}|${tenantId}|${JSON.stringify(opts.where ?? {})}|${conditionKey(opts.conditions)}|${opts.orderBy.map((o) => `${o.column} ${o.dir}`).join(',')}`;
    const inTransaction = Boolean(this.current.getStore());
    const hit = inTransaction ? undefined : this.searches.get(key);
    if (hit && Date.now() - hit.at < SEARCH_TTL_MS) return hit.ids;
    let q = this.base(model, tenantId).select('id');
    q = this.applyWhere(model, q, opts.where, opts.conditions);
    for (const o of opts.orderBy) q = q.orderBy(o.column, o.dir);
    q = q.limit(SEARCH_CAP + 1);
    const readArrays = this.database.readArrays;
    let ids: string[];
    if (readArrays && !inTransaction && !this.openTransactions) {
      // As in find: one synchronous read, no row objects for ids that are only kept.
      const compiled = q.compile();
      ids = readArrays(compiled).rows.map((r) => String(r[0]));
    } else {
      ids = ((await q.execute()) as { id: unknown }[]).map((r) => String(r.id));
    }
    if (ids.length > SEARCH_CAP) return undefined;
    if (inTransaction) return ids;
    if (hit) this.dropSearch(key);
    this.searches.set(key, { table: model.table, at: Date.now(), ids });
    this.searchedIds += ids.length;
    // Bounded memory: the oldest searches go first.
    for (const oldest of this.searches.keys()) {
      if (this.searchedIds <= SEARCH_MEMORY_IDS && this.searches.size <= SEARCH_ENTRIES) break;
      this.dropSearch(oldest);
    }
    return ids;
  }

  private dropSearch(key: string): void {
    const entry = this.searches.get(key);
    if (!entry) return;
    this.searches.delete(key);
    this.searchedIds -= entry.ids.length;
  }

  async count(model: Model, tenantId: string, opts: { where?: Row; conditions?: Condition[] } = {}): Promise<number> {
    if (this.counted(model) && !opts.conditions?.length && !Object.keys(opts.where ?? {}).length) {
      // Cleared by the counter's own update (every insert or delete writes erp_row_count).
      const tenant = this.tenantOf(model, tenantId);
      return this.cached('erp_row_count', `${tenant}|${model.table}`, 2000, async () => {
        const hit = await sql<{ n: unknown }>`select n from erp_row_count where tenant_id = ${tenant} and table_name = ${model.table}`.execute(this.db);
        return Number(hit.rows[0]?.n ?? 0);
      });
    }
    let q = this.base(model, tenantId).select((eb) => eb.fn.countAll().as('n'));
    q = this.applyWhere(model, q, opts.where, opts.conditions);
    const row = (await q.executeTakeFirst()) as { n: unknown } | undefined;
    return Number(row?.n ?? 0);
  }

  /** Σ of decimal fields over every matching row, exact in SQL on both databases; with the row count. */
  async sum(model: Model, tenantId: string, opts: { where?: Row; conditions?: Condition[]; fields: string[] }): Promise<{ totals: Row; count: number }> {
    const fields = opts.fields.map((name) => {
      const field = model.fields.get(name);
      if (!field || field.kind !== 'decimal') throw new Error(`${model.name}: ${name} is not a decimal field`);
      return field;
    });
    let q = this.base(model, tenantId).select((eb) => [eb.fn.countAll().as('n'), ...fields.map((f, i) => sql`coalesce(sum(${sql.ref(f.column)}), 0)`.as(`s${i}`))]);
    q = this.applyWhere(model, q, opts.where, opts.conditions);
    const row = ((await q.executeTakeFirst()) ?? {}) as Record<string, unknown>;
    const raw = Object.fromEntries(fields.map((f, i) => [f.column, row[`s${i}`]]));
    const totals = this.toRow(model, raw);
    return { totals: Object.fromEntries(fields.map((f) => [f.name, totals[f.name]])), count: Number(row.n ?? 0) };
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  applyWhere<Q extends { where: (...args: any[]) => any }>(model: Model, q: Q, where?: Row, conditions?: Condition[]): Q {
    for (const [name, value] of Object.entries(where ?? {})) {
      const field = model.filterable.get(name);
      if (!field) throw new Error(`${model.name}: unknown field ${name}`);
      if (Array.isArray(value)) {
        if (!value.length) q = q.where(sql`1 = 0`);
        else q = q.where(field.column, 'in', value.map((v) => toDb(field, v, this.dialect)));
      } else if (value === null) q = q.where(field.column, 'is', null);
      else q = q.where(field.column, '=', toDb(field, value, this.dialect));
    }
    for (const c of conditions ?? []) q = q.where((eb: Parameters<typeof conditionSql>[0]) => conditionSql(eb, c, this.dialect));
    return q;
  }

  async get(model: Model, tenantId: string, id: string, db: Db = this.db): Promise<Row | undefined> {
    const rows = await this.find(model, tenantId, { where: { id } }, db);
    return rows[0];
  }

  async mustGet(model: Model, tenantId: string, id: string, db: Db = this.db): Promise<Row> {
    const row = await this.get(model, tenantId, id, db);
    if (!row) throw notFound();
    return row;
  }

  /** Column values of an entity object (unknown and virtual keys dropped). */
  /** Values as a read would answer them (types and scale of each field), for answers built from rows in hand. */
  normalize(model: Model, data: Row): Row {
    const db: Row = {};
    for (const [name, value] of Object.entries(data)) {
      const field = model.filterable.get(name);
      if (field && value !== undefined) db[field.column] = toDb(field, value, this.dialect);
    }
    return { ...data, ...this.toRow(model, db) };
  }

  columns(model: Model, data: Row, opts: { includeReadonly?: boolean } = {}): Row {
    const out: Row = {};
    for (const [name, value] of Object.entries(data)) {
      const field = model.fields.get(name);
      if (!field || value === undefined) continue;
      if (field.readonly && !opts.includeReadonly) continue;
      out[field.column] = toDb(field, value, this.dialect);
    }
    return out;
  }

  async insert(model: Model, actor: Actor, data: Row, opts: { db?: Db; includeReadonly?: boolean } = {}): Promise<Row> {
    if (model.def.view) assertWritable(model);
    const now = formatDateTime();
    const id = typeof data.id === 'string' && data.id ? data.id : nextId();
    const values: Row = {
      id,
      tenant_id: this.tenantOf(model, actor.tenantId),
      ...this.columns(model, data, { includeReadonly: opts.includeReadonly }),
      create_user: actor.userId,
      create_dept: actor.deptId ?? null,
      create_time: now,
      update_user: actor.userId,
      update_time: now,
      status: data.status === undefined || data.status === null || data.status === '' ? 1 : Number(data.status),
      is_deleted: 0,
      version: 1,
    };
    this.invalidate(model.table);
    await this.transaction(async (db) => {
      await db.insertInto(model.table).values(values).execute();
      await this.adjustCount(model, actor.tenantId, 1, db);
    });
    return { ...data, id, version: 1 };
  }

  /** Bulk insert in chunks (seeds, imports): one statement per chunk instead of one per row. */
  async insertMany(model: Model, actor: Actor, rows: Row[], db: Db = this.db): Promise<void> {
    if (model.def.view) assertWritable(model);
    const now = formatDateTime();
    const values = rows.map((data) => ({
      id: typeof data.id === 'string' && data.id ? data.id : nextId(),
      tenant_id: this.tenantOf(model, actor.tenantId),
      ...this.columns(model, data, { includeReadonly: true }),
      create_user: actor.userId,
      create_dept: actor.deptId ?? null,
      create_time: now,
      update_user: actor.userId,
      update_time: now,
      status: data.status === undefined ? 1 : Number(data.status),
      is_deleted: 0,
      version: 1,
    }));
    // Every row of a chunk must list the same columns.
    const keys = [...new Set(values.flatMap((v) => Object.keys(v)))];
    const uniform = values.map((v) => Object.fromEntries(keys.map((k) => [k, (v as Row)[k] ?? null])));
    this.invalidate(model.table);
    const chunk = Math.max(1, Math.floor(MAX_PARAMS / keys.length));
    await this.transaction(async (trx) => {
      void db;
      if (this.dialect === 'postgres' && uniform.length > 1) {
        await sql`insert into ${sql.table(model.table)} (${sql.join(keys.map((k) => sql.ref(k)))}) select * from unnest(${this.columnArrays(model, keys, uniform)})`.execute(trx);
        await this.adjustCount(model, actor.tenantId, uniform.length, trx);
        return;
      }
      for (let i = 0; i < uniform.length; i += chunk) {
        await trx.insertInto(model.table).values(uniform.slice(i, i + chunk)).execute();
      }
      await this.adjustCount(model, actor.tenantId, uniform.length, trx);
    });
  }

  /**
   * Writes rows in bulk: rows whose id is in `stored` are updated in place (creation stamps kept,
   * version + 1), the others inserted with new ids (assigned on the row objects). One statement per
   * MAX_PARAMS values, whatever the number of rows.
   */
  async upsertMany(model: Model, actor: Actor, rows: Row[], stored: Map<string, Row>): Promise<void> {
    if (!rows.length) return;
    assertWritable(model);
    const now = formatDateTime();
    const tenant = this.tenantOf(model, actor.tenantId);
    let added = 0;
    const values = rows.map((data) => {
      const before = data.id ? stored.get(String(data.id)) : undefined;
      if (!before) {
        data.id = nextId();
        added++;
      }
      return {
        id: String(data.id),
        tenant_id: tenant,
        ...this.columns(model, data, { includeReadonly: true }),
        create_user: before ? (before.createUser ?? actor.userId) : actor.userId,
        create_dept: before ? (before.createDept ?? null) : (actor.deptId ?? null),
        create_time: before ? (before.createTime ?? now) : now,
        update_user: actor.userId,
        update_time: now,
        status: data.status === undefined || data.status === null || data.status === '' ? Number(before?.status ?? 1) : Number(data.status),
        is_deleted: 0,
        version: before ? Number(before.version ?? 0) + 1 : 1,
      } as Row;
    });
    const keys = [...new Set(values.flatMap((v) => Object.keys(v)))];
    const uniform = values.map((v) => Object.fromEntries(keys.map((k) => [k, v[k] ?? null])));
    const chunk = Math.max(1, Math.floor(MAX_PARAMS / keys.length));
    const updatable = keys.filter((k) => k !== 'id' && k !== 'tenant_id');
    this.invalidate(model.table);
    await this.transaction(async (trx) => {
      for (let i = 0; i < uniform.length; i += chunk) {
        await trx
          .insertInto(model.table)
          .values(uniform.slice(i, i + chunk))
          .onConflict((oc) => oc.columns(['tenant_id', 'id']).doUpdateSet(Object.fromEntries(updatable.map((k) => [k, sql.ref(`excluded.${k}`)]))))
          .execute();
      }
      await this.adjustCount(model, actor.tenantId, added, trx);
    });
  }

  /**
   * Upsert on a unique key (balances): a new key inserts the row, an existing one takes the given
   * values, or adds them for the `add` fields (amount = amount + new); with keepExisting an
   * existing key is left as it is (rows made on first use). One statement per chunk.
   */
  async upsertByKey(model: Model, actor: Actor, rows: Row[], key: string[], opts: { add?: string[]; keepExisting?: boolean } = {}): Promise<void> {
    if (!rows.length) return;
    const now = formatDateTime();
    const tenant = this.tenantOf(model, actor.tenantId);
    const values = rows.map((data) => ({
      id: nextId(),
      tenant_id: tenant,
      ...this.columns(model, data, { includeReadonly: true }),
      create_user: actor.userId,
      create_time: now,
      update_user: actor.userId,
      update_time: now,
      status: 1,
      is_deleted: 0,
      version: 1,
    })) as Row[];
    const keyColumns = key.map((f) => model.filterable.get(f)!.column);
    const added = new Set((opts.add ?? []).map((f) => model.filterable.get(f)!.column));
    const columns = Object.keys(values[0]);
    const set: Record<string, unknown> = {};
    for (const c of columns) {
      if (['id', 'tenant_id', 'create_user', 'create_time', 'status', 'is_deleted', 'version', ...keyColumns].includes(c)) continue;
      set[c] = added.has(c) ? sql`${sql.ref(`${model.table}.${c}`)} + ${sql.ref(`excluded.${c}`)}` : sql.ref(`excluded.${c}`);
    }
    set.version = sql`${sql.ref(`${model.table}.version`)} + 1`;
    const chunk = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
    this.invalidate(model.table);
    await this.transaction(async (trx) => {
      for (let i = 0; i < values.length; i += chunk) {
        await trx
          .insertInto(model.table)
          .values(values.slice(i, i + chunk))
          .onConflict((oc) => (opts.keepExisting ? oc.columns(['tenant_id', ...keyColumns]).doNothing() : oc.columns(['tenant_id', ...keyColumns]).doUpdateSet(set)))
          .execute();
      }
    });
  }

  /**
   * Different values for many rows by id in one statement (UPDATE … FROM VALUES, on both
   * databases): posting writes every line's cost this way, whatever the number of lines. No
   * version check: the caller holds the bill (its status update won the race).
   */
  async updateMany(model: Model, actor: Actor, rows: Row[], at = formatDateTime()): Promise<void> {
    if (!rows.length) return;
    assertWritable(model);
    const fields = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((n) => n !== 'id' && model.fields.has(n)).map((n) => model.fields.get(n)!);
    const chunk = Math.max(1, Math.floor(MAX_PARAMS / (1 + fields.length)));
    const tenant = this.tenantOf(model, actor.tenantId);
    const pg = this.dialect === 'postgres';
    this.invalidate(model.table);
    await this.transaction(async (trx) => {
      if (pg) {
        const columns = ['id', ...fields.map((f) => f.column)];
        const values = rows.map((r) => ({ id: String(r.id), ...Object.fromEntries(fields.map((f) => [f.column, toDb(f, r[f.name], this.dialect) ?? null])) }));
        const v = (c: string) => sql.ref(`v.${c}`);
        await sql`update ${sql.table(model.table)} set ${sql.join([...fields.map((f) => sql`${sql.ref(f.column)} = ${v(f.column)}`), sql`update_user = ${actor.userId}`, sql`update_time = ${at}`])}
          from unnest(${this.columnArrays(model, columns, values)}) as v(${sql.join(columns.map((c) => sql.ref(c)))})
          where ${sql.ref(`${model.table}.tenant_id`)} = ${tenant} and ${sql.ref(`${model.table}.id`)} = ${v('id')}`.execute(trx);
        return;
      }
      for (let i = 0; i < rows.length; i += chunk) {
        const part = rows.slice(i, i + chunk);
        const tuples = part.map((r) => sql`(${sql.join([String(r.id), ...fields.map((f) => toDb(f, r[f.name], this.dialect) ?? null)])})`);
        // PostgreSQL names the VALUES columns; SQLite calls them column1, column2 …
        const col = (k: number) => sql.raw(pg ? `v.c${k}` : `v.column${k + 1}`);
        const assignments = fields.map((f, k) => sql`${sql.ref(f.column)} = ${pg ? sql`cast(${col(k + 1)} as ${sql.raw(this.castType(f.kind))})` : col(k + 1)}`);
        const names = sql.raw(pg ? `v(${['c0', ...fields.map((_, k) => `c${k + 1}`)].join(', ')})` : 'v');
        await sql`update ${sql.table(model.table)} set ${sql.join([...assignments, sql`update_user = ${actor.userId}`, sql`update_time = ${at}`])}
          from (values ${sql.join(tuples)}) as ${names}
          where ${sql.ref(`${model.table}.tenant_id`)} = ${tenant} and ${sql.ref(`${model.table}.id`)} = ${col(0)}`.execute(trx);
      }
    });
  }

  /**
   * PostgreSQL: the rows' values as one typed array per column, for `unnest`: a bulk write of any
   * size is one statement with one parameter per column (not one per value, which PostgreSQL
   * parses and plans far more slowly for 1,000-line bills).
   */
  private columnArrays(model: Model, columns: string[], rows: Row[]) {
    const byColumn = new Map([...model.filterable.values()].map((f) => [f.column, f]));
    return sql.join(columns.map((c) => sql`cast(${rows.map((r) => r[c] ?? null)} as ${sql.raw(this.castType(byColumn.get(c)?.kind ?? 'string'))}[])`));
  }

  private castType(kind: string): string {
    if (kind === 'decimal') return this.dialect === 'postgres' ? 'numeric' : 'integer';
    if (kind === 'integer' || kind === 'boolean') return this.dialect === 'postgres' ? 'bigint' : 'integer';
    return this.dialect === 'postgres' ? 'text' : 'text';
  }

  /**
   * One conditional update on id, version and further conditions (a document's status among the
   * states an action allows). Answers whether a row changed; the caller explains a refusal.
   */
  async guardedUpdate(model: Model, actor: Actor, id: string, data: Row, guard: { version: number; where?: Row; raw?: Row; at?: string }): Promise<boolean> {
    assertWritable(model);
    this.invalidate(model.table);
    let q = this.db
      .updateTable(model.table)
      .set({ ...this.columns(model, data, { includeReadonly: true }), ...(guard.raw ?? {}), update_user: actor.userId, update_time: guard.at ?? formatDateTime(), version: sql`version + 1` })
      .where('tenant_id', '=', this.tenantOf(model, actor.tenantId))
      .where('id', '=', id)
      .where('version', '=', guard.version);
    if (model.softDelete) q = q.where('is_deleted', '=', 0);
    for (const [name, value] of Object.entries(guard.where ?? {})) {
      const field = model.filterable.get(name)!;
      q = Array.isArray(value)
        ? q.where(field.column, 'in', value.map((v) => toDb(field, v, this.dialect)))
        : q.where(field.column, '=', toDb(field, value, this.dialect));
    }
    const result = await q.executeTakeFirst();
    return Number(result.numUpdatedRows ?? 0) > 0;
  }

  /**
   * One conditional update. With a version, a stale one is refused and nothing is written
   * (optimistic lock); the row's version always moves on.
   */
  async update(
    model: Model,
    actor: Actor,
    id: string,
    data: Row,
    opts: { version?: number; db?: Db; includeReadonly?: boolean; raw?: Row } = {},
  ): Promise<number> {
    assertWritable(model);
    const db = opts.db ?? this.db;
    this.invalidate(model.table);
    const values: Row = {
      ...this.columns(model, data, { includeReadonly: opts.includeReadonly }),
      ...(opts.raw ?? {}),
      update_user: actor.userId,
      update_time: formatDateTime(),
      version: sql`version + 1`,
    };
    let q = db
      .updateTable(model.table)
      .set(values)
      .where('tenant_id', '=', this.tenantOf(model, actor.tenantId))
      .where('id', '=', id);
    if (model.softDelete) q = q.where('is_deleted', '=', 0);
    if (opts.version !== undefined) q = q.where('version', '=', opts.version);
    const result = await q.executeTakeFirst();
    const changed = Number(result.numUpdatedRows ?? 0);
    if (!changed) {
      const exists = await this.get(model, actor.tenantId, id, db);
      if (!exists) throw notFound();
      if (opts.version !== undefined) throw conflict('数据已被他人修改，请刷新后重试');
    }
    return changed;
  }

  async softRemove(model: Model, actor: Actor, ids: string[], db: Db = this.db): Promise<number> {
    if (!ids.length) throw badRequest('请选择至少一条数据');
    assertWritable(model);
    const tenant = this.tenantOf(model, actor.tenantId);
    void db;
    this.invalidate(model.table);
    return this.transaction(async (trx) => {
      let n: number;
      if (model.softDelete) {
        const result = await trx
          .updateTable(model.table)
          .set({ is_deleted: 1, update_user: actor.userId, update_time: formatDateTime(), version: sql`version + 1` })
          .where('is_deleted', '=', 0)
          .where('tenant_id', '=', tenant)
          .where('id', 'in', ids)
          .executeTakeFirst();
        n = Number(result.numUpdatedRows ?? 0);
      } else {
        const result = await trx.deleteFrom(model.table).where('tenant_id', '=', tenant).where('id', 'in', ids).executeTakeFirst();
        n = Number(result.numDeletedRows ?? 0);
      }
      await this.adjustCount(model, actor.tenantId, -n, trx);
      return n;
    });
  }

  /** Hard delete by conditions (link rows replaced wholesale), keeping the row counter right. */
  async deleteWhere(model: Model, actor: Actor, where: Row): Promise<number> {
    assertWritable(model);
    this.invalidate(model.table);
    return this.transaction(async (trx) => {
      let q = trx.deleteFrom(model.table).where('tenant_id', '=', this.tenantOf(model, actor.tenantId));
      for (const [name, value] of Object.entries(where)) {
        const field = model.filterable.get(name);
        if (!field) throw new Error(`${model.name}: unknown field ${name}`);
        q = q.where(field.column, '=', toDb(field, value, this.dialect));
      }
      const result = await q.executeTakeFirst();
      const n = Number(result.numDeletedRows ?? 0);
      if (model.softDelete) {
        // Only live rows were counted.
        await this.recountTenant(model, actor.tenantId, trx);
      } else await this.adjustCount(model, actor.tenantId, -n, trx);
      return n;
    });
  }

  private async recountTenant(model: Model, tenantId: string, db: Db) {
    if (!this.counted(model)) return;
    const n = await this.base(model, tenantId, db).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    const tenant = this.tenantOf(model, tenantId);
    await sql`delete from erp_row_count where tenant_id = ${tenant} and table_name = ${model.table}`.execute(db);
    await sql`insert into erp_row_count (tenant_id, table_name, n) values (${tenant}, ${model.table}, ${Number((n as { n: unknown }).n)})`.execute(db);
  }

  /** Runs fn in one transaction; every store call inside it (however deep) uses that transaction. */
  async transaction<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    const open = this.current.getStore();
    if (open) return fn(open);
    let written: Set<string> | undefined;
    this.openTransactions++;
    try {
      return await this.database.db.transaction().execute((trx) =>
        this.current.run(trx, async () => {
          try {
            return await fn(trx);
          } finally {
            written = this.pendingWrites.get(trx);
          }
        }),
      );
    } finally {
      this.openTransactions--;
      // A reader on another connection may have cached pre-commit rows meanwhile (PostgreSQL).
      for (const table of written ?? []) this.invalidate(table);
      if (written?.size) this.publish?.(written);
    }
  }
}

/** Insert-only tables (ledgers, logs) are never updated or deleted, whoever asks. */
function assertWritable(model: Model): void {
  if (model.def.view) throw badRequest(`${model.title}是查询视图，不能写入`);
  if (model.insertOnly) throw badRequest(`${model.title}只能新增，已写入的记录不能修改或删除`);
}
