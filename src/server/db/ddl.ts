import { sql } from 'kysely';
import type { Database } from './connect.ts';
import type { FieldModel, Model } from '../engine/model.ts';
import { BASE_FIELDS, STORAGE_SCALE, toDb } from '../engine/model.ts';
import { toColumn } from '../../shared/resource.ts';

/** A column type as both databases spell it. Saved per table so a later start can tell what changed. */
function columnType(field: FieldModel, kind: Database['kind']): string {
  switch (field.kind) {
    case 'integer':
      return kind === 'postgres' ? 'bigint' : 'integer';
    case 'boolean':
      return kind === 'postgres' ? 'smallint' : 'integer';
    case 'decimal':
      // SQLite: a 64-bit integer scaled by 10^scale (exact SUM); PostgreSQL: numeric.
      return kind === 'postgres' ? `numeric(28,${field.scale ?? STORAGE_SCALE})` : 'integer';
    case 'string':
      return kind === 'postgres' ? `varchar(${field.maxLength ?? 255})` : 'text';
    default:
      return 'text';
  }
}

/** Kind-neutral signature stored in erp_schema_state, so a type change is seen on either database. */
function signature(field: FieldModel): string {
  return field.kind === 'decimal' ? `decimal(${field.scale})` : field.kind === 'string' ? 'string' : field.kind;
}

function defaultClause(field: FieldModel): string {
  if (field.name === 'status' || field.name === 'version') return ' default 1';
  if (field.name === 'isDeleted') return ' default 0';
  return '';
}

export class SchemaChangeRefused extends Error {}

async function ensureStateTable(database: Database) {
  await sql`create table if not exists erp_schema_state (table_name varchar(64) primary key, columns text not null)`.execute(
    database.db,
  );
  await sql`create table if not exists erp_row_count (tenant_id varchar(12) not null, table_name varchar(64) not null, n bigint not null, primary key (tenant_id, table_name))`.execute(
    database.db,
  );
}

async function readState(database: Database, table: string): Promise<Record<string, string> | undefined> {
  const result = await sql<{ columns: string }>`select columns from erp_schema_state where table_name = ${table}`.execute(
    database.db,
  );
  return result.rows[0] ? JSON.parse(result.rows[0].columns) : undefined;
}

async function writeState(database: Database, table: string, columns: Record<string, string>) {
  const text = JSON.stringify(columns);
  await sql`delete from erp_schema_state where table_name = ${table}`.execute(database.db);
  await sql`insert into erp_schema_state (table_name, columns) values (${table}, ${text})`.execute(database.db);
}

function allFields(model: Model): FieldModel[] {
  return [...BASE_FIELDS, ...model.fields.values()];
}

/**
 * Creates the table, or adds the columns a schema gained since the last start (additive migration).
 * A column that disappeared or changed type is refused: data would be lost or misread.
 */
/**
 * A view (table.view) is dropped and created again at every start, after the tables it reads:
 * it holds no data, so nothing is lost, and a changed SELECT takes effect at once.
 */
export async function syncView(database: Database, model: Model): Promise<void> {
  const view = model.def.view;
  if (!view) return;
  const select = database.kind === 'postgres' && view.postgres ? view.postgres : view.select;
  // A materialized view keeps its rows in the table of its name; the SELECT is its live view.
  const name = view.materialize ? `${model.table}_live` : model.table;
  await sql`drop view if exists ${sql.ref(name)}`.execute(database.db);
  await sql`create view ${sql.ref(name)} as ${sql.raw(select)}`.execute(database.db);
}

export async function syncTable(database: Database, model: Model): Promise<'created' | 'altered' | 'unchanged'> {
  if (model.def.view && !model.def.view.materialize) return 'unchanged';
  await ensureStateTable(database);
  const fields = allFields(model);
  const wanted: Record<string, string> = {};
  for (const f of fields) wanted[f.column] = signature(f);
  const state = await readState(database, model.table);
  const q = (name: string) => sql.ref(name);
  let outcome: 'created' | 'altered' | 'unchanged' = 'unchanged';

  if (!state) {
    const columns = fields.map((f) => {
      const notNull = f.name === 'id' || f.name === 'tenantId' ? ' not null' : '';
      return sql.raw(`"${f.column}" ${columnType(f, database.kind)}${notNull}${defaultClause(f)}`);
    });
    await sql`create table if not exists ${q(model.table)} (${sql.join(columns)}, primary key (tenant_id, id))`.execute(
      database.db,
    );
    outcome = 'created';
  } else {
    const problems: string[] = [];
    for (const [column, sig] of Object.entries(state)) {
      if (!(column in wanted)) {
        problems.push(
          `表 ${model.table} 的列 ${column} 已从 schema 中删除。删除字段会丢失数据：请把字段加回 schema（可加 "x-readonly": true 保留旧数据），或先备份后手工执行 alter table ${model.table} drop column ${column} 并删除 erp_schema_state 中该表的记录。`,
        );
      } else if (wanted[column] !== sig) {
        problems.push(
          `表 ${model.table} 的列 ${column} 类型由 ${sig} 改为 ${wanted[column]}，属于破坏性变更。请改用新字段名并迁移数据，或恢复原类型。`,
        );
      }
    }
    if (problems.length) throw new SchemaChangeRefused(problems.join('\n'));
    for (const f of fields) {
      if (f.column in state) continue;
      await sql`alter table ${q(model.table)} add column ${sql.raw(`"${f.column}" ${columnType(f, database.kind)}${defaultClause(f)}`)}`.execute(
        database.db,
      );
      // A bill gaining kinds (document.variants): the bills it already has are of the default kind.
      const kindDefault = model.resource?.document?.variants?.field === f.name ? f.schema.default : undefined;
      if (kindDefault !== undefined) {
        await sql`update ${q(model.table)} set ${q(f.column)} = ${toDb(f, kindDefault, database.kind)} where ${q(f.column)} is null`.execute(database.db);
      }
      outcome = 'altered';
    }
  }
  await syncIndexes(database, model);
  if (outcome !== 'unchanged' || JSON.stringify(state) !== JSON.stringify(wanted)) await writeState(database, model.table, wanted);
  return outcome;
}

function indexName(prefix: string, table: string, columns: string[]): string {
  const name = `${prefix}_${table}_${columns.join('_')}`;
  return name.length > 60 ? `${prefix}_${table.slice(0, 20)}_${hash(name)}` : name;
}

function hash(text: string): string {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) | 0;
  return (h >>> 0).toString(36);
}

function columnOf(model: Model, field: string): string {
  return model.filterable.get(field)?.column ?? toColumn(field);
}

async function syncIndexes(database: Database, model: Model) {
  const live = model.softDelete ? ' where is_deleted = 0' : '';
  for (const unique of model.def.unique ?? []) {
    const cols = unique.fields.map((f) => columnOf(model, f));
    const name = indexName('ux', model.table, cols);
    await sql
      .raw(`create unique index if not exists ${name} on ${model.table} (tenant_id, ${cols.join(', ')})${live}`)
      .execute(database.db);
  }
  const indexes = [...(model.def.indexes ?? [])];
  if (model.tree) indexes.push([model.tree.parentField]);
  indexes.push(['createTime']);
  for (const index of indexes) {
    const cols = index.map((f) => columnOf(model, f));
    const name = indexName('ix', model.table, [...cols, 'id']);
    // id last: pages sorted by (col, id) read straight from the index.
    await sql.raw(`create index if not exists ${name} on ${model.table} (tenant_id, ${[...cols, 'id'].join(', ')})`).execute(database.db);
  }
  if (database.kind === 'sqlite') await syncTrigramSqlite(database, model);
  if (database.kind === 'postgres' && model.def.search?.length) {
    // Contains-search (LIKE %x%) is served by trigram indexes on PostgreSQL.
    const ok = await ensureTrigram(database);
    if (ok) {
      for (const field of model.def.search) {
        const col = columnOf(model, field);
        const name = indexName('tg', model.table, [col]);
        await sql.raw(`create index if not exists ${name} on ${model.table} using gin (${col} gin_trgm_ops)`).execute(database.db);
      }
    }
  }
}

const trigram = new WeakMap<Database, boolean>();
async function ensureTrigram(database: Database): Promise<boolean> {
  const known = trigram.get(database);
  if (known !== undefined) return known;
  let ok = true;
  try {
    await sql`create extension if not exists pg_trgm`.execute(database.db);
  } catch {
    ok = false; // not allowed for this role: searches still work, only slower
  }
  trigram.set(database, ok);
  return ok;
}

/**
 * SQLite: an external-content FTS5 table with the trigram tokenizer over the `table.search`
 * columns, kept in step by triggers, so contains-searches of 3+ characters use an index.
 * Recreated (and rebuilt) when the list of search columns changes.
 */
async function syncTrigramSqlite(database: Database, model: Model) {
  const fields = model.platform ? [] : (model.def.search ?? []);
  const cols = fields.map((f) => columnOf(model, f));
  const fts = `${model.table}_fts`;
  const key = `${model.table}#fts`;
  const wanted = cols.join(',');
  const state = await sql<{ columns: string }>`select columns from erp_schema_state where table_name = ${key}`.execute(database.db);
  const current = state.rows[0]?.columns;
  if (current === wanted) return;
  for (const suffix of ['ai', 'ad', 'au']) await sql.raw(`drop trigger if exists ${model.table}_fts_${suffix}`).execute(database.db);
  await sql.raw(`drop table if exists ${fts}`).execute(database.db);
  if (cols.length) {
    const list = cols.join(', ');
    const news = cols.map((c) => `new.${c}`).join(', ');
    const olds = cols.map((c) => `old.${c}`).join(', ');
    await sql.raw(`create virtual table ${fts} using fts5(${list}, content='${model.table}', content_rowid='rowid', tokenize='trigram')`).execute(database.db);
    await sql.raw(`create trigger ${model.table}_fts_ai after insert on ${model.table} begin insert into ${fts}(rowid, ${list}) values (new.rowid, ${news}); end`).execute(database.db);
    await sql.raw(`create trigger ${model.table}_fts_ad after delete on ${model.table} begin insert into ${fts}(${fts}, rowid, ${list}) values ('delete', old.rowid, ${olds}); end`).execute(database.db);
    await sql.raw(`create trigger ${model.table}_fts_au after update of ${list} on ${model.table} begin insert into ${fts}(${fts}, rowid, ${list}) values ('delete', old.rowid, ${olds}); insert into ${fts}(rowid, ${list}) values (new.rowid, ${news}); end`).execute(database.db);
    await sql.raw(`insert into ${fts}(${fts}) values ('rebuild')`).execute(database.db);
  }
  await sql`delete from erp_schema_state where table_name = ${key}`.execute(database.db);
  await sql`insert into erp_schema_state (table_name, columns) values (${key}, ${wanted})`.execute(database.db);
}
