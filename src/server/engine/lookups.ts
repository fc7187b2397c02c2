import { sql, type SelectQueryBuilder } from 'kysely';
import type { Services } from '../services.ts';
import type { Model } from './model.ts';
import type { Row } from './store.ts';
import type { FieldSchema } from '../../shared/resource.ts';

/** Display names of small reference rows are kept two seconds (cleared by any write to their table). */
const TTL_MS = 2000;
/** Above this many keys in one batch, the reads go one per table (parameter limits, plan sizes). */
const UNION_MAX_KEYS = 2000;

type LookupDef = NonNullable<NonNullable<Model['resource']>['lookups']>[number];

/** One read of a reference table: the rows whose `match` column is among `keys`, the `takes` columns wanted. */
interface Read {
  target: Model;
  match: string;
  keys: Set<string>;
  takes: Set<string>;
  /** key → take → value, once read */
  found?: Map<string, Row>;
}

const blank = (v: unknown) => v === null || v === undefined || v === '';

function keysOf(lookup: LookupDef, value: unknown): string[] {
  if (blank(value)) return [];
  const parts = lookup.multi ? String(value).split(',') : [String(value)];
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** Text columns can travel in one UNION ALL as text; other kinds keep their own read and conversion. */
function textOnly(read: Read): boolean {
  const kinds = [read.match, ...read.takes].map((n) => read.target.filterable.get(n)?.kind);
  return kinds.every((k) => k === 'string' || k === 'text');
}

function cacheKey(tenantId: string, read: Read): string {
  return `${tenantId}|${read.match}|${[...read.takes].sort().join(',')}|${[...read.keys].sort().join(',')}`;
}

function index(read: Read, rows: Row[]): Map<string, Row> {
  return new Map(rows.map((r) => [String(r[read.match]), r]));
}

/**
 * The reads not in the cache, in as few statements as it takes: text-only reads share one
 * UNION ALL (a bill's warehouse, user, goods and unit names in one round trip), others one each.
 */
async function runReads(services: Services, tenantId: string, reads: Read[]): Promise<void> {
  const { store } = services;
  const pending = reads.filter((read) => {
    const hit = store.peekCached<Row[]>(read.target.table, cacheKey(tenantId, read), TTL_MS);
    if (hit) read.found = index(read, hit);
    return !hit;
  });
  const keyCount = pending.reduce((n, r) => n + r.keys.size * r.takes.size, 0);
  const together = pending.length > 1 && keyCount <= UNION_MAX_KEYS ? pending.filter(textOnly) : [];
  const alone = pending.filter((r) => !together.includes(r));
  if (together.length > 1) {
    let union: SelectQueryBuilder<any, any, any> | undefined;
    together.forEach((read, i) => {
      const matchColumn = read.target.filterable.get(read.match)!.column;
      for (const take of read.takes) {
        const takeColumn = read.target.filterable.get(take)!.column;
        const branch = store
          .base(read.target, tenantId)
          .select([sql<number>`${sql.lit(i)}`.as('q'), sql<string>`${sql.lit(take)}`.as('t'), sql<string>`${sql.ref(matchColumn)}`.as('k'), sql<string>`${sql.ref(takeColumn)}`.as('v')])
          .where(matchColumn, 'in', [...read.keys]);
        union = union ? union.unionAll(branch) : branch;
      }
    });
    const rows = (await union!.execute()) as { q: number | string; t: string; k: string; v: string | null }[];
    const byRead = together.map(() => new Map<string, Row>());
    for (const r of rows) {
      const i = Number(r.q);
      const key = String(r.k);
      const row = byRead[i].get(key) ?? { [together[i].match]: key };
      row[r.t] = r.v;
      byRead[i].set(key, row);
    }
    together.forEach((read, i) => {
      read.found = byRead[i];
      store.putCached(read.target.table, cacheKey(tenantId, read), [...byRead[i].values()]);
    });
  } else {
    alone.push(...together);
  }
  await Promise.all(
    alone.map(async (read) => {
      const rows = await store.find(read.target, tenantId, { where: { [read.match]: [...read.keys].sort() } });
      read.found = index(read, rows);
      store.putCached(read.target.table, cacheKey(tenantId, read), rows);
    }),
  );
}

/**
 * Fills display fields (deptName beside deptId…) of several models' rows at once: one read per
 * reference table and key column, shared by every lookup that needs it, and the uncached text
 * reads of all of them in a single statement.
 */
export async function fillLookupsMany(services: Services, tenantId: string, groups: [Model, Row[]][]): Promise<void> {
  const reads = new Map<string, Read>();
  const uses: { lookup: LookupDef; rows: Row[]; read?: Read }[] = [];
  const dictUses: { model: Model; lookup: LookupDef; rows: Row[] }[] = [];
  for (const [model, rows] of groups) {
    if (!rows.length) continue;
    for (const lookup of model.resource?.lookups ?? []) {
      if (lookup.dictValue) {
        dictUses.push({ model, lookup, rows });
        continue;
      }
      const target = services.registry.models.get(lookup.resource ?? '');
      if (!target) continue;
      const match = lookup.match ?? 'id';
      const keys = rows.flatMap((row) => keysOf(lookup, row[lookup.from]));
      if (!keys.length) {
        uses.push({ lookup, rows });
        continue;
      }
      const id = `${target.table}|${match}`;
      let read = reads.get(id);
      if (!read) reads.set(id, (read = { target, match, keys: new Set(), takes: new Set() }));
      for (const k of keys) read.keys.add(k);
      read.takes.add(lookup.take ?? '');
      uses.push({ lookup, rows, read });
    }
  }
  if (reads.size) await runReads(services, tenantId, [...reads.values()]);
  for (const { lookup, rows, read } of uses) {
    for (const row of rows) {
      row[lookup.field] = read
        ? keysOf(lookup, row[lookup.from])
            .map((k) => read.found!.get(k)?.[lookup.take!])
            .filter((v) => v !== undefined && v !== null)
            .join(',')
        : '';
    }
  }
  for (const use of dictUses) await fillDictValues(services, tenantId, use.model, use.lookup, use.rows);
}

/**
 * A dictionary key's value beside it (deptCategory 1 → deptCategoryName 公司), as BladeX answers
 * its …Name companions: the from field's dictionary (x-dict, or the tenant's x-dictBiz), live items
 * as the tenant keeps them, read once per dictionary and kept two seconds.
 */
async function fillDictValues(services: Services, tenantId: string, model: Model, lookup: LookupDef, rows: Row[]): Promise<void> {
  const prop = model.resource?.entity.properties[lookup.from];
  if (!prop || !rows.length) return;
  const values = await dictionaryValues(services, tenantId, prop);
  if (!values) return;
  for (const row of rows) {
    row[lookup.field] = keysOf(lookup, row[lookup.from])
      .map((k) => values.get(k))
      .filter((v) => v !== undefined)
      .join(',');
  }
}

/** The live items (key → value) of a field's dictionary (x-dict, or the tenant's x-dictBiz), kept two seconds. */
export async function dictionaryValues(services: Services, tenantId: string, prop: FieldSchema): Promise<Map<string, string> | undefined> {
  const code = prop['x-dict'] ?? prop['x-dictBiz'];
  if (!code) return undefined;
  const dictModel = services.m(prop['x-dict'] ? 'dict' : 'dict-biz');
  return services.store.cached(dictModel.table, `values|${tenantId}|${code}`, TTL_MS, async () => {
    const items = await services.store.find(dictModel, tenantId, { where: { code } });
    return new Map(items.filter((i) => String(i.parentId) !== '0').map((i) => [String(i.dictKey), String(i.dictValue ?? '')]));
  });
}

/** Fills the display fields of one model's rows. */
export async function fillLookups(services: Services, model: Model, tenantId: string, rows: Row[]): Promise<Row[]> {
  await fillLookupsMany(services, tenantId, [[model, rows]]);
  return rows;
}
