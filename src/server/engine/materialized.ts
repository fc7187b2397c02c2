/**
 * Materialized views (table.view.materialize): a view whose rows are kept in a table of its own
 * name, refreshed bill by bill inside the transaction that saves or moves the bill, with monthly
 * rollups of its measures kept in the same transaction. Reports then read a table with indexes
 * (no join, no union over the bill tables) and, for whole months, a rollup a hundred times smaller.
 *
 * - The SELECT lives on as the view `<table>_live`; a refresh deletes the bill's rows and inserts
 *   what the live view now shows for it, so the table equals the live view after every commit
 *   (tests/support/materialized-check.ts proves it at the end of every API suite).
 * - A rollup `<table>__<name>` holds, per tenant, month and key columns (null kept as ''), the
 *   measures' aggregates. Each measure adds up across bills (sums; distinct-bill counts, since a bill
 *   lies in one month and one group of head columns), so a refresh subtracts the bill's old
 *   aggregates and adds its new ones.
 * - When the SELECT, the columns, the measures or the rollups change, start-up rebuilds the table
 *   and its rollups from the live view.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Database, Db } from '../db/connect.ts';
import type { Registry } from './registry.ts';
import type { Model } from './model.ts';
import { BASE_FIELDS } from './model.ts';
import type { TableDef } from '../../shared/resource.ts';
import { addDays, addMonths } from '../../shared/dates.ts';

type MaterializeDef = NonNullable<NonNullable<TableDef['view']>['materialize']>;

export interface Materialized {
  model: Model;
  def: MaterializeDef;
  /** the table's columns, base columns first, in the live view's terms */
  columns: string[];
  /** the tables whose bills refresh it */
  tables: Set<string>;
  live: string;
  rollups: { name: string; keys: string[] }[];
  measures: Record<string, { sql: string; kind: 'count' | 'decimal' }>;
}

const known = new WeakMap<Registry, Materialized[]>();

export function materializedViews(registry: Registry): Materialized[] {
  let found = known.get(registry);
  if (!found) {
    found = [...registry.models.values()]
      .filter((m) => m.def.view?.materialize)
      .map((model) => ({
        model,
        def: model.def.view!.materialize!,
        columns: [...BASE_FIELDS, ...model.fields.values()].map((f) => f.column),
        tables: new Set(model.def.view!.tables),
        live: `${model.table}_live`,
        rollups: model.def.view!.materialize!.rollups ?? [],
        measures: model.def.view!.materialize!.measures ?? {},
      }));
    for (const m of found) {
      if (m.rollups.length && (!m.measures.line_count || !m.def.date)) throw new Error(`${m.model.table}: materialize needs date and measures.line_count (count(*)) for its rollups`);
    }
    known.set(registry, found);
  }
  return found;
}

export function materializedOf(registry: Registry, table: string): Materialized | undefined {
  return materializedViews(registry).find((m) => m.model.table === table);
}

export const rollupTable = (m: Materialized, name: string) => `${m.model.table}__${name}`;

function rollupOf(m: Materialized, name: string) {
  const r = m.rollups.find((x) => x.name === name);
  if (!r) throw new Error(`${m.model.table} has no rollup ${name}`);
  return r;
}

const ref = (column: string) => sql.ref(column);
const keyValue = (column: string) => sql`coalesce(${ref(column)}, '')`;
const monthOf = (m: Materialized) => sql`substr(${ref(m.def.date!)}, 1, 7)`;

/** The bill's aggregates added to (sign 1) or taken from (−1) each rollup. */
async function applyRollups(db: Db, m: Materialized, tenantId: string, billId: string, sign: 1 | -1) {
  for (const rollup of m.rollups) {
    const table = rollupTable(m, rollup.name);
    const keys = rollup.keys;
    const measures = Object.entries(m.measures);
    const groups = [monthOf(m), ...keys.map(keyValue)];
    await sql`insert into ${ref(table)} (${sql.join(['tenant_id', 'month', ...keys, ...measures.map(([name]) => name)].map(ref))})
      select tenant_id, ${sql.join(groups)}, ${sql.join(measures.map(([, x]) => (sign === 1 ? sql.raw(x.sql) : sql`0 - ${sql.raw(x.sql)}`)))}
      from ${ref(m.model.table)} where tenant_id = ${tenantId} and ${ref(m.def.bill)} = ${billId}
      group by tenant_id, ${sql.join(groups)} order by ${sql.join(groups)}
      on conflict (tenant_id, ${sql.join([...keys.map(ref), sql`month`])}) do update set
      ${sql.join(measures.map(([name]) => sql`${ref(name)} = ${sql.ref(`${table}.${name}`)} + excluded.${ref(name)}`))}`.execute(db);
  }
}

/**
 * Brings the materialized views up to date for one bill (inside the caller's transaction): those
 * reading the bill's table or a table the transaction wrote (a ledger the posting added the bill's
 * rows to) get the bill's rows as the live view shows them now, the rollups moved by the difference.
 */
export async function refreshBill(db: Db, registry: Registry, tenantId: string, tables: Iterable<string>, billId: string): Promise<void> {
  const touched = new Set(tables);
  for (const m of materializedViews(registry)) {
    if (![...m.tables].some((t) => touched.has(t))) continue;
    const columns = sql.join(m.columns.map(ref));
    const bill = sql`tenant_id = ${tenantId} and ${ref(m.def.bill)} = ${billId}`;
    // Most transitions of a bill find no rows to take away (a draft, a first posting), and most
    // views none to add: one look (one index probe) spares the rollups' statements either way.
    const had = (await sql`select 1 as one from ${ref(m.model.table)} where ${bill} limit 1`.execute(db)).rows.length > 0;
    if (had) {
      await applyRollups(db, m, tenantId, billId, -1);
      await sql`delete from ${ref(m.model.table)} where ${bill}`.execute(db);
    }
    const inserted = await sql`insert into ${ref(m.model.table)} (${columns}) select ${columns} from ${ref(m.live)} where ${bill}`.execute(db);
    if (Number(inserted.numAffectedRows ?? 0) > 0) await applyRollups(db, m, tenantId, billId, 1);
  }
}

/** Every tenant's rows and rollups again from the live view (after a change of definition, or data written in bulk). */
/** The tables a view's SELECT reads (after `from` or `join`). */
export function tablesRead(select: string): string[] {
  return [...new Set([...select.matchAll(/\b(?:from|join)\s+([a-z_][a-z0-9_]*)\b/gi)].map((match) => match[1].toLowerCase()))];
}

export async function rebuildMaterialized(database: Database, m: Materialized): Promise<void> {
  const columns = sql.join(m.columns.map(ref));
  if (database.kind === 'postgres') {
    // Bills written straight into the tables (a restore, the bench's seeding) have no statistics
    // yet: the planner then takes a year of lines for a few rows and joins them pairwise (a
    // rebuild of the per-bill table ran for minutes instead of seconds).
    const named = tablesRead(m.model.def.view!.select);
    const tables = await sql<{ relname: string }>`select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'p') and c.relname in (${sql.join(named)})`.execute(database.db);
    if (tables.rows.length) await sql`analyze ${sql.join(tables.rows.map((row) => ref(row.relname)))}`.execute(database.db);
  }
  await database.db.transaction().execute(async (trx) => {
    await sql`delete from ${ref(m.model.table)}`.execute(trx);
    await sql`insert into ${ref(m.model.table)} (${columns}) select ${columns} from ${ref(m.live)}`.execute(trx);
    for (const rollup of m.rollups) {
      const table = rollupTable(m, rollup.name);
      const measures = Object.entries(m.measures);
      const groups = [monthOf(m), ...rollup.keys.map(keyValue)];
      await sql`delete from ${ref(table)}`.execute(trx);
      await sql`insert into ${ref(table)} (${sql.join(['tenant_id', 'month', ...rollup.keys, ...measures.map(([name]) => name)].map(ref))})
        select tenant_id, ${sql.join(groups)}, ${sql.join(measures.map(([, x]) => sql.raw(x.sql)))}
        from ${ref(m.model.table)} group by tenant_id, ${sql.join(groups)}`.execute(trx);
    }
  });
  // The rebuilt table's own statistics (its old ones describe the rows it held before): the
  // planner's estimates for the reports' scans and joins over it.
  if (database.kind === 'postgres') {
    const built = [m.model.table, ...m.rollups.map((rollup) => rollupTable(m, rollup.name))];
    await sql`analyze ${sql.join(built.map(ref))}`.execute(database.db);
  }
}

const FORMAT = 2;

async function isView(database: Database, name: string): Promise<boolean> {
  const found =
    database.kind === 'postgres'
      ? await sql`select 1 from information_schema.views where table_schema = current_schema() and table_name = ${name}`.execute(database.db)
      : await sql`select 1 from sqlite_master where type = 'view' and name = ${name}`.execute(database.db);
  return found.rows.length > 0;
}

/** Before the tables are synchronised: a materialized view that was a plain view before gives its name up. */
export async function dropPlainViews(database: Database, registry: Registry): Promise<void> {
  for (const m of materializedViews(registry)) {
    if (await isView(database, m.model.table)) await sql`drop view ${ref(m.model.table)}`.execute(database.db);
  }
}

/**
 * After the tables and views are synchronised: indexes, rollup tables, and a rebuild of every
 * materialized view whose definition changed since the last start (or that is new).
 */
export async function syncMaterialized(database: Database, registry: Registry, log: (msg: string) => void): Promise<void> {
  const pg = database.kind === 'postgres';
  for (const m of materializedViews(registry)) {
    const t = m.model.table;
    await sql.raw(`create index if not exists ix_${t}_bill on ${t} (tenant_id, ${m.def.bill})`).execute(database.db);
    if (m.def.date) await sql.raw(`create index if not exists ix_${t}_date on ${t} (tenant_id, ${m.def.date})`).execute(database.db);
    const view = m.model.def.view!;
    // FORMAT counts changes of how rollups are stored (key order, SQLite's clustered rollup tables).
    const wanted = JSON.stringify({ format: FORMAT, select: pg && view.postgres ? view.postgres : view.select, columns: m.columns, def: m.def });
    const key = `${t}#materialized`;
    const state = await sql<{ columns: string }>`select columns from erp_schema_state where table_name = ${key}`.execute(database.db);
    const before = state.rows[0]?.columns;
    if (before === wanted) continue;
    // The old rollups go (their keys or measures may differ); the new ones are built from scratch.
    const old = before ? ((JSON.parse(before) as { def: MaterializeDef }).def.rollups ?? []) : [];
    for (const r of [...old, ...m.rollups]) await sql`drop table if exists ${ref(rollupTable(m, r.name))}`.execute(database.db);
    for (const r of m.rollups) {
      const keys = r.keys.map((k) => `${k} varchar(64) not null default ''`);
      const measures = Object.entries(m.measures).map(([name, x]) => `${name} ${x.kind === 'count' ? (pg ? 'bigint' : 'integer') : pg ? 'numeric(32,6)' : 'integer'} not null default 0`);
      await sql.raw(`create table ${rollupTable(m, r.name)} (tenant_id varchar(12) not null, month varchar(7) not null, ${[...keys, ...measures].join(', ')}, primary key (tenant_id${r.keys.map((k) => `, ${k}`).join('')}, month))${pg ? '' : ' without rowid'}`).execute(database.db);
    }
    const started = Date.now();
    await rebuildMaterialized(database, m);
    await sql`delete from erp_schema_state where table_name = ${key}`.execute(database.db);
    await sql`insert into erp_schema_state (table_name, columns) values (${key}, ${wanted})`.execute(database.db);
    log(`materialized ${t} rebuilt in ${Date.now() - started} ms`);
  }
}

/** A condition on a rollup key: one value or any of several ('' = none: null in the view). */
export type KeyFilter = Record<string, string | string[]>;

export interface RollupRead {
  tenantId: string;
  from?: string;
  to?: string;
  filter: KeyFilter;
  /** a key of the rollup, 'month', or none: one total row */
  group?: string;
}

const lastDay = (month: string) => addDays(`${addMonths(month, 1)}-01`, -1);
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** A day range, both ends inclusive. */
export type Days = [from: string, to: string];

/**
 * How a period is read: whole months from a rollup, and the days of a partly covered month either
 * added from the table (the days inside) or, when fewer, taken off the whole month again (the days
 * outside): a period ending today subtracts the month's remaining, still empty, days.
 */
export interface PeriodPlan {
  /** month bounds (yyyy-MM, inclusive; undefined = open); none: no month from the rollup */
  months?: { first?: string; last?: string };
  add: Days[];
  subtract: Days[];
}

export function periodPlan(from?: string, to?: string): PeriodPlan {
  const add: Days[] = [];
  const subtract: Days[] = [];
  if (from && to && from.slice(0, 7) === to.slice(0, 7)) {
    const month = from.slice(0, 7);
    const inside = daysBetween(from, to);
    const outside = daysBetween(`${month}-01`, lastDay(month)) - inside;
    if (outside === 0) return { months: { first: month, last: month }, add, subtract };
    if (inside <= outside) return { add: [[from, to]], subtract };
    if (from > `${month}-01`) subtract.push([`${month}-01`, addDays(from, -1)]);
    if (to < lastDay(month)) subtract.push([addDays(to, 1), lastDay(month)]);
    return { months: { first: month, last: month }, add, subtract };
  }
  let first: string | undefined;
  let last: string | undefined;
  if (from) {
    const month = from.slice(0, 7);
    const inside = daysBetween(from, lastDay(month));
    const outside = daysBetween(`${month}-01`, from) - 1;
    if (outside === 0) first = month;
    else if (inside <= outside) {
      add.push([from, lastDay(month)]);
      first = addMonths(month, 1);
    } else {
      subtract.push([`${month}-01`, addDays(from, -1)]);
      first = month;
    }
  }
  if (to) {
    const month = to.slice(0, 7);
    const inside = daysBetween(`${month}-01`, to);
    const outside = daysBetween(to, lastDay(month)) - 1;
    if (outside === 0) last = month;
    else if (inside < outside) {
      add.push([`${month}-01`, to]);
      last = addMonths(month, -1);
    } else {
      subtract.push([addDays(to, 1), lastDay(month)]);
      last = month;
    }
  }
  return { months: first && last && first > last ? undefined : { first, last }, add, subtract };
}

function keyConditions(filter: KeyFilter, column: (k: string) => RawBuilder<unknown>): RawBuilder<unknown>[] {
  return Object.entries(filter).map(([k, v]) =>
    Array.isArray(v) ? (v.length ? sql`${column(k)} in (${sql.join(v)})` : sql`1 = 0`) : sql`${column(k)} = ${v}`,
  );
}

/**
 * One row per group (`k`, the measures) over the period (periodPlan): whole months from the
 * rollup, days from the table, each part grouped on its own first (the rollup's key order lets
 * SQLite group its rows as it reads them), then summed. Groups whose lines all went are left out.
 */
export function readRollup(registry: Registry, table: string, rollupName: string, q: RollupRead): RawBuilder<Record<string, unknown>> {
  const m = materializedOf(registry, table);
  if (!m) throw new Error(`${table} is not materialized`);
  const rollup = rollupOf(m, rollupName);
  for (const k of [...Object.keys(q.filter), ...(q.group && q.group !== 'month' ? [q.group] : [])]) {
    if (!rollup.keys.includes(k)) throw new Error(`rollup ${rollupName} of ${table} has no key ${k}`);
  }
  const measures = Object.entries(m.measures);
  const plan = periodPlan(q.from, q.to);
  const parts: RawBuilder<unknown>[] = [];
  if (plan.months) {
    const c = [sql`tenant_id = ${q.tenantId}`, ...keyConditions(q.filter, ref)];
    if (plan.months.first) c.push(sql`month >= ${plan.months.first}`);
    if (plan.months.last) c.push(sql`month <= ${plan.months.last}`);
    const k = !q.group ? sql`''` : q.group === 'month' ? sql`month` : ref(q.group);
    parts.push(sql`select ${k} as k, ${sql.join(measures.map(([name]) => sql`sum(${ref(name)}) as ${ref(name)}`))}
      from ${ref(rollupTable(m, rollup.name))} where ${sql.join(c, sql` and `)}${q.group ? sql` group by ${k}` : sql``}`);
  }
  const date = ref(m.def.date!);
  const k = !q.group ? sql`''` : q.group === 'month' ? monthOf(m) : keyValue(q.group);
  const days = (ranges: Days[], sign: 1 | -1) => {
    if (!ranges.length) return;
    const within = sql.join(ranges.map(([a, b]) => sql`(${date} >= ${a} and ${date} < ${addDays(b, 1)})`), sql` or `);
    const c = [sql`tenant_id = ${q.tenantId}`, sql`(${within})`, ...keyConditions(q.filter, keyValue)];
    const value = (x: string) => (sign === 1 ? sql.raw(x) : sql`0 - ${sql.raw(x)}`);
    parts.push(sql`select ${k} as k, ${sql.join(measures.map(([name, x]) => sql`${value(x.sql)} as ${ref(name)}`))}
      from ${ref(table)} where ${sql.join(c, sql` and `)}${q.group ? sql` group by ${k}` : sql``}`);
  };
  // No month from the rollup and no day range: the whole (open) history sits in the table's days.
  if (!plan.months && !plan.add.length) plan.add.push([q.from ?? '0000-01-01', q.to ?? '9999-12-31']);
  days(plan.add, 1);
  days(plan.subtract, -1);
  return sql<Record<string, unknown>>`select k, ${sql.join(measures.map(([name]) => sql`sum(${ref(name)}) as ${ref(name)}`))}
    from (${sql.join(parts, sql` union all `)}) p group by k having sum(line_count) <> 0`;
}

/**
 * Where a materialized view or a rollup differs from what the live view gives now (none: they
 * agree): rows only in the table or only in the live view, and rollup rows unlike the table's
 * own aggregates. Used by the tests after every API suite, and cheap enough to run on a copy.
 */
const AUDIT = new Set(['update_user', 'update_time', 'version']);

export async function materializedDrift(db: Db, registry: Registry): Promise<string[]> {
  const problems: string[] = [];
  const count = async (query: RawBuilder<unknown>) => Number(((await sql<{ n: unknown }>`select count(*) as n from (${query}) d`.execute(db)).rows[0]?.n ?? 0));
  for (const m of materializedViews(registry)) {
    // Audit columns move whenever another bill touches a line (a return's progress on its source): not compared.
    const columns = sql.join(m.columns.filter((c) => !AUDIT.has(c)).map(ref));
    const table = sql`select ${columns} from ${ref(m.model.table)}`;
    const live = sql`select ${columns} from ${ref(m.live)}`;
    const extra = await count(sql`${table} except ${live}`);
    const missing = await count(sql`${live} except ${table}`);
    if (extra || missing) {
      // The first row that differs, as kept and as live, so the cause can be read off.
      const first = (await sql<{ id: string }>`select id from (${extra ? sql`${table} except ${live}` : sql`${live} except ${table}`}) d order by id limit 1`.execute(db)).rows[0]?.id;
      const kept = (await sql<Record<string, unknown>>`select * from ${ref(m.model.table)} where id = ${first}`.execute(db)).rows[0];
      const now = (await sql<Record<string, unknown>>`select * from ${ref(m.live)} where id = ${first}`.execute(db)).rows[0];
      const changed = Object.keys({ ...kept, ...now }).filter((c) => !AUDIT.has(c)).filter((c) => String(kept?.[c]) !== String(now?.[c])).map((c) => `${c}: ${String(kept?.[c])} → ${String(now?.[c])}`);
      problems.push(`${m.model.table}: ${extra} rows not in the live view, ${missing} live rows missing (row ${first}: ${changed.join(', ')})`);
    }
    for (const rollup of m.rollups) {
      const measures = Object.entries(m.measures);
      const groups = [monthOf(m), ...rollup.keys.map(keyValue)];
      const kept = sql`select ${sql.join(['tenant_id', 'month', ...rollup.keys, ...measures.map(([name]) => name)].map(ref))} from ${ref(rollupTable(m, rollup.name))} where line_count <> 0`;
      const wanted = sql`select tenant_id, ${sql.join(groups)}, ${sql.join(measures.map(([, x]) => sql.raw(x.sql)))} from ${ref(m.model.table)} group by tenant_id, ${sql.join(groups)}`;
      const wrong = (await count(sql`${kept} except ${wanted}`)) + (await count(sql`${wanted} except ${kept}`));
      const zeros = measures.filter(([name]) => name !== 'line_count').map(([name]) => sql`${ref(name)} <> 0`);
      const stray = await count(sql`select 1 from ${ref(rollupTable(m, rollup.name))} where line_count = 0 and (${sql.join(zeros, sql` or `)})`);
      if (wrong || stray) problems.push(`${rollupTable(m, rollup.name)}: ${wrong} rows unlike the table's aggregates, ${stray} emptied rows not zero`);
    }
  }
  return problems;
}
