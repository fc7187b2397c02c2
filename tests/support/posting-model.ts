/**
 * The posting property (document engine, acceptance 11), shared by
 * tests/property/documents.property.test.ts and tests/bench/documents-property.ts.
 *
 * A run is 1–8 random steps on one world (3 goods, 2 warehouses, 2 customers, 1 supplier), each a
 * bill written, approved and posted in-process (or a flush): purchase-in, sales-out, a sales return
 * of part or all of a sales-out line posted in this run, or the flush of a bill posted in this run.
 * A small model (stock quantity per warehouse and goods, quantity returned per sold line, state of
 * each bill) predicts whether the engine must accept or refuse each action, and the engine must
 * agree; a refused action must have written nothing. After the steps:
 *  - every stock balance of the world equals Σ of its stock-ledger rows (quantity and value), and
 *    its quantity is the model's; every AR/AP balance equals Σ of its party-ledger rows;
 *  - every bill of the run has exactly its post entry (and its reverse entry once flushed) in the
 *    posting markers, the party ledger and the stock ledger (one row per line and entry), the
 *    party amount being the bill's final amount, a reverse row the mirror of its post row;
 *  - no ledger row written before (or during) the run has changed: every row of the stock ledger,
 *    the party ledger and the posting markers is kept in a snapshot table (by id, every column)
 *    and compared after the run, and the only new rows are the run's.
 * Then every still-posted bill of the run is flushed in reverse posting order, and every balance of
 * the world must be exactly what it was before the run (normally all zero).
 *
 * Flushing in reverse posting order cannot always succeed once a run has flushed a bill out of
 * order (purchase 1, sale 1, return it, flush the purchase: the return, last posted, cannot be
 * flushed first, as that would take the stock to −1). The model predicts that refusal too; such
 * flushes are retried after the others and counted (`deferredFinalFlushes`). With `strictReverse`
 * the first such refusal fails the run instead.
 *
 * A failed run leaves its world in an unknown state: what it posted is flushed as far as possible
 * and the next run (fast-check's shrinking included) starts on a fresh world.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import type { Services } from '../../src/server/services.ts';
import type { Actor, Row } from '../../src/server/engine/store.ts';
import type { Model } from '../../src/server/engine/model.ts';
import { documentModel, type DocumentModel } from '../../src/server/engine/document/context.ts';
import { applyAction, saveBill } from '../../src/server/engine/document/transitions.ts';
import { ApiError } from '../../src/server/errors.ts';
import { Dec, fixed, type Decimal } from '../../src/shared/money/index.ts';
import { lines, type World } from './bills.ts';

const TENANT = '000000';

// ---------------------------------------------------------------------------------------------
// Steps and their arbitraries
// ---------------------------------------------------------------------------------------------

export type BillKind = 'purchase-in' | 'sales-out' | 'sales-return';

export type Step =
  /** goods / depot are indexes into the world's lists; price tax-exclusive, 2 places */
  | { kind: 'purchase-in'; goods: number; depot: number; qty: number; price: string }
  /**
   * from 'given': goods / depot / qty as they are (stock shortfalls are refused). from 'stocked': the
   * (goods·depots + depot)-th pair (modulo) the model holds stock of, and a quantity the stock covers,
   * 1 + (qty − 1) mod stock (as 'given' when nothing is in stock). Price tax-inclusive.
   */
  | { kind: 'sales-out'; from: 'given' | 'stocked'; goods: number; depot: number; customer: number; qty: number; price: string }
  /** sale: index into this run's posted sales-out lines (modulo); qty 'all' = the whole sold quantity */
  | { kind: 'sales-return'; sale: number; qty: number | 'all' }
  /** bill: index into this run's posted bills in posting order (modulo), flushed ones included */
  | { kind: 'flush'; bill: number };

const GOODS = 3;
const DEPOTS = 2;
const CUSTOMERS = 2;
const MAX_INDEX = 7;

/** 0.01 – 99.99 as exact text with 2 places. */
const price2 = fc.integer({ min: 1, max: 9999 }).map((c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`);
const qty = fc.integer({ min: 1, max: 20 });

const purchaseArb: fc.Arbitrary<Step> = fc.record({ kind: fc.constant('purchase-in' as const), goods: fc.nat(GOODS - 1), depot: fc.nat(DEPOTS - 1), qty, price: price2 });

export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: purchaseArb },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('sales-out' as const),
      from: fc.oneof({ weight: 1, arbitrary: fc.constant('given' as const) }, { weight: 3, arbitrary: fc.constant('stocked' as const) }),
      goods: fc.nat(GOODS - 1),
      depot: fc.nat(DEPOTS - 1),
      customer: fc.nat(CUSTOMERS - 1),
      qty,
      price: price2,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('sales-return' as const), sale: fc.nat(MAX_INDEX), qty: fc.oneof(fc.constant('all' as const), qty) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('flush' as const), bill: fc.nat(MAX_INDEX) }) },
);

/**
 * One run: 1–8 steps. The world starts each run empty, so the first step is a purchase-in three
 * times in four (any step otherwise): without it most runs would only see refused sales.
 */
export const runArb: fc.Arbitrary<Step[]> = fc
  .tuple(fc.oneof({ weight: 3, arbitrary: purchaseArb }, { weight: 1, arbitrary: stepArb }), fc.array(stepArb, { maxLength: 7 }))
  .map(([first, rest]) => [first, ...rest]);

/** A failed invariant or a disagreement with the model. */
export class PropertyFailure extends Error {}

// ---------------------------------------------------------------------------------------------
// Ledger mirror: a snapshot of every ledger row written so far, to prove none changes, with Σ per balance
// ---------------------------------------------------------------------------------------------

interface MirrorTable {
  name: string;
  model: Model;
  /** the (line or bill, entry) key that must be unique */
  key: (r: Row) => string;
  /** ids of the rows in the snapshot */
  ids: Set<string>;
  keys: Set<string>;
  /** the snapshot table: a copy of every row seen, every column as stored */
  snapshot: string;
  /** SQL: snapshot rows s with an identical row l in the ledger (every column equal, nulls included) */
  same: string;
}

const pairKey = (depotId: unknown, commInfoId: unknown) => `${depotId}|${commInfoId}`;
const partyKey = (kind: unknown, partyId: unknown) => `${kind}|${partyId}`;
const dec = (v: unknown) => new Dec(v === null || v === undefined || v === '' ? '0' : String(v));

/**
 * Every row of the stock ledger, the party ledger and the posting markers seen so far, kept as a
 * copy in the database itself (a TEMP table on SQLite, a table of the test's own database on
 * PostgreSQL), so that "no row ever changes" is one join per ledger comparing every column of
 * every row, rather than reading every row back into the test after each run.
 */
export class LedgerMirror {
  stock = new Map<string, { qty: Decimal; value: Decimal }>();
  party = new Map<string, Decimal>();

  private constructor(
    private services: Services,
    public tables: MirrorTable[],
  ) {}

  static async create(services: Services): Promise<LedgerMirror> {
    const { stockLedger, partyLedger, billPosting } = services.internal;
    const { store } = services;
    const pg = store.dialect === 'postgres';
    const table = async (name: string, model: Model, key: (r: Row) => string): Promise<MirrorTable> => {
      const columns = pg
        ? (await sql<{ name: string }>`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${model.table} order by ordinal_position`.execute(store.db)).rows
        : (await sql<{ name: string }>`select name from pragma_table_info(${model.table})`.execute(store.db)).rows;
      if (!columns.length) throw new Error(`no columns for ${model.table}`);
      const snapshot = `prop_snapshot_${model.table}`;
      await sql.raw(`drop table if exists "${snapshot}"`).execute(store.db);
      await sql.raw(`create ${pg ? '' : 'temp '}table "${snapshot}" as select * from "${model.table}" where 1 = 0`).execute(store.db);
      await sql.raw(`create unique index "${snapshot}_id" on "${snapshot}" ("id")`).execute(store.db);
      const equal = columns.map((c) => `l."${c.name}" ${pg ? 'is not distinct from' : 'is'} s."${c.name}"`).join(' and ');
      const same = `from "${snapshot}" s join "${model.table}" l on l."id" = s."id" and ${equal}`;
      return { name, model, key, ids: new Set(), keys: new Set(), snapshot, same };
    };
    const mirror = new LedgerMirror(services, [
      await table('stock ledger', stockLedger, (r) => `${r.lineId}|${r.entry}`),
      await table('party ledger', partyLedger, (r) => `${r.billId}|${r.entry}`),
      await table('bill posting', billPosting, (r) => `${r.billId}|${r.entry}`),
    ]);
    await mirror.rebase();
    return mirror;
  }

  private async count(query: string): Promise<number> {
    const { rows } = await sql.raw<{ n: unknown }>(`select count(*) as n ${query}`).execute(this.services.store.db);
    return Number(rows[0].n);
  }

  private add(t: MirrorTable, row: Row, strict: boolean) {
    const key = t.key(row);
    if (strict && t.keys.has(key)) throw new PropertyFailure(`${t.name}: a second row for ${key} (at most one post and one reverse entry): ${JSON.stringify(row)}`);
    t.ids.add(String(row.id));
    t.keys.add(key);
    if (t.model === this.services.internal.stockLedger) {
      const k = pairKey(row.depotId, row.commInfoId);
      const s = this.stock.get(k) ?? { qty: new Dec(0), value: new Dec(0) };
      this.stock.set(k, { qty: s.qty.plus(dec(row.qty)), value: s.value.plus(dec(row.value)) });
    } else if (t.model === this.services.internal.partyLedger) {
      const k = partyKey(row.kind, row.partyId);
      this.party.set(k, (this.party.get(k) ?? new Dec(0)).plus(dec(row.amount)));
    }
  }

  /** Every snapshot row is still in the ledger, identical in every column; names the first ones that are not. */
  private async compare(t: MirrorTable): Promise<void> {
    const same = await this.count(t.same);
    if (same === t.ids.size) return;
    const { store } = this.services;
    const ids = new Set((await sql.raw<{ id: string }>(`select s."id" as id ${t.same}`).execute(store.db)).rows.map((r) => String(r.id)));
    const bad = [...t.ids].filter((id) => !ids.has(id)).slice(0, 3);
    const was = (await sql.raw<Row>(`select * from "${t.snapshot}" where "id" in (${bad.map((id) => `'${id}'`).join(', ')})`).execute(store.db)).rows;
    const now = await store.find(t.model, TENANT, { where: { id: bad } });
    const show = (rows: Row[]) => rows.map((r) => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).join('\n    ');
    throw new PropertyFailure(`${t.name}: ${t.ids.size - same} row(s) written earlier changed or are gone:\n  was (as stored)\n    ${show(was)}\n  now\n    ${show(now)}`);
  }

  /**
   * Takes the rows of the run's bills that are new into the snapshot (and the Σ per balance); a
   * second post or reverse entry of a line or bill fails. Answers the rows of the run's bills.
   */
  private async takeIn(t: MirrorTable, runBills: Set<string>): Promise<{ rows: Row[]; fresh: number }> {
    const rows = runBills.size ? await this.services.store.find(t.model, TENANT, { where: { billId: [...runBills] } }) : [];
    const fresh = rows.filter((r) => !t.ids.has(String(r.id)));
    for (const row of fresh) this.add(t, row, true);
    for (let i = 0; i < fresh.length; i += 500) {
      const ids = fresh.slice(i, i + 500).map((r) => `'${String(r.id).replace(/'/g, "''")}'`);
      await sql.raw(`insert into "${t.snapshot}" select * from "${t.model.table}" where "id" in (${ids.join(', ')})`).execute(this.services.store.db);
    }
    return { rows, fresh: fresh.length };
  }

  /** After the steps: the run's rows so far join the snapshot. */
  async verifyBills(runBills: Set<string>): Promise<Map<MirrorTable, Row[]>> {
    const out = new Map<MirrorTable, Row[]>();
    for (const t of this.tables) out.set(t, (await this.takeIn(t, runBills)).rows);
    return out;
  }

  /**
   * After the run: every row in the snapshot (all earlier runs, and this run's rows as they were
   * after its steps) is unchanged; the only rows the ledger has beyond it are the run's.
   */
  async verifyAll(runBills: Set<string>): Promise<Map<MirrorTable, Row[]>> {
    const out = new Map<MirrorTable, Row[]>();
    for (const t of this.tables) {
      await this.compare(t);
      const before = t.ids.size;
      const { rows, fresh } = await this.takeIn(t, runBills);
      const total = await this.count(`from "${t.model.table}" where "tenant_id" = '${TENANT}'`);
      if (total !== before + fresh) {
        const strays = (await sql.raw<Row>(`select * from "${t.model.table}" where "id" not in (select "id" from "${t.snapshot}") limit 3`).execute(this.services.store.db)).rows;
        throw new PropertyFailure(`${t.name}: ${total - before - fresh} row(s) of bills outside this run appeared: ${JSON.stringify(strays, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`);
      }
      out.set(t, rows);
    }
    return out;
  }

  /** Starts again from what the ledgers hold now (at the start, and after a failed run left them in an unknown state). */
  async rebase(): Promise<void> {
    const { store } = this.services;
    this.stock.clear();
    this.party.clear();
    for (const t of this.tables) {
      t.ids.clear();
      t.keys.clear();
      await sql.raw(`delete from "${t.snapshot}"`).execute(store.db);
      await sql.raw(`insert into "${t.snapshot}" select * from "${t.model.table}" where "tenant_id" = '${TENANT}'`).execute(store.db);
      for (const row of await store.find(t.model, TENANT, {})) this.add(t, row, false);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The harness: services, actor, world, mirror, statistics
// ---------------------------------------------------------------------------------------------

interface Tally {
  accepted: number;
  refused: number;
  skipped: number;
}

export interface PostingStats {
  runs: number;
  failedRuns: number;
  steps: Record<Step['kind'], Tally>;
  finalFlushes: number;
  /** final flushes refused (as predicted) in reverse order and done after the others */
  deferredFinalFlushes: number;
  runsWithDeferral: number;
  /** the shortest run that needed a deferral, for the record */
  shortestDeferral?: Step[];
  /**
   * Not an invariant, recorded for the reader: runs that left a stock balance after their steps with
   * quantity 0 but a value, or a positive quantity with a negative value (a purchase flushed after
   * part of it was sold at a blended average), and the shortest such run.
   */
  oddValues: number;
  shortestOddValue?: Step[];
  /** time spent in the steps, in the checks (ledger reads included) and in the final flushes */
  ms: { steps: number; checks: number; finalFlush: number };
}

export interface PostingHarness {
  services: Services;
  actor: Actor;
  world: World;
  /** makes a fresh world (through the API); used after a failed run, so a shrunk run starts clean */
  newWorld: () => Promise<World>;
  dms: Record<BillKind, DocumentModel>;
  mirror: LedgerMirror;
  poisoned: boolean;
  strictReverse: boolean;
  stats: PostingStats;
}

const tally = (): Tally => ({ accepted: 0, refused: 0, skipped: 0 });

export async function createHarness(services: Services, newWorld: () => Promise<World>, opts: { strictReverse?: boolean } = {}): Promise<PostingHarness> {
  const admin = (await services.store.find(services.m('user'), TENANT, { where: { account: 'admin' } }))[0];
  if (!admin) throw new Error('no admin user');
  const mirror = await LedgerMirror.create(services);
  return {
    services,
    actor: { tenantId: TENANT, userId: String(admin.id) },
    world: await newWorld(),
    newWorld,
    dms: {
      'purchase-in': documentModel(services, services.m('purchase-in')),
      'sales-out': documentModel(services, services.m('sales-out')),
      'sales-return': documentModel(services, services.m('sales-return')),
    },
    mirror,
    poisoned: false,
    strictReverse: opts.strictReverse ?? false,
    stats: {
      runs: 0,
      failedRuns: 0,
      steps: { 'purchase-in': tally(), 'sales-out': tally(), 'sales-return': tally(), flush: tally() },
      finalFlushes: 0,
      deferredFinalFlushes: 0,
      runsWithDeferral: 0,
      oddValues: 0,
      ms: { steps: 0, checks: 0, finalFlush: 0 },
    },
  };
}

export function formatStats(s: PostingStats): string {
  const t = (k: Step['kind']) => `${k} ${s.steps[k].accepted} ok / ${s.steps[k].refused} refused / ${s.steps[k].skipped} skipped`;
  return [
    `${s.runs} runs (${s.failedRuns} failed)`,
    `steps: ${(['purchase-in', 'sales-out', 'sales-return', 'flush'] as const).map(t).join('; ')}`,
    `final flushes ${s.finalFlushes}, of which ${s.deferredFinalFlushes} deferred (in ${s.runsWithDeferral} runs)` +
      (s.shortestDeferral ? `; shortest such run: ${JSON.stringify(s.shortestDeferral)}` : ''),
    `runs leaving a balance of quantity 0 with a value, or a positive quantity with a negative value: ${s.oddValues}` +
      (s.shortestOddValue ? `; shortest: ${JSON.stringify(s.shortestOddValue)}` : ''),
    `time: steps ${(s.ms.steps / 1000).toFixed(1)} s, checks ${(s.ms.checks / 1000).toFixed(1)} s, final flushes ${(s.ms.finalFlush / 1000).toFixed(1)} s`,
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// One run
// ---------------------------------------------------------------------------------------------

interface BillRec {
  /** 1-based posting order within the run */
  no: number;
  kind: BillKind;
  id: string;
  billNo: string;
  version: number;
  state: 'posted' | 'flushed';
  lineId: string;
  depotId: string;
  commInfoId: string;
  /** the stock movement its posting made (signed base quantity) */
  delta: Decimal;
  finalAmt: string;
  /** returns: the sold line and the quantity returned */
  source?: SaleRec;
  returnQty?: Decimal;
}

interface SaleRec {
  bill: BillRec;
  customerId: string;
  qty: Decimal;
  taxPrice: string;
  /** returned by posted, not flushed returns */
  returned: Decimal;
}

interface Run {
  steps: Step[];
  stock: Map<string, Decimal>;
  posted: BillRec[];
  sales: SaleRec[];
  /** every bill the run created, posted or not */
  bills: Set<string>;
  trace: string[];
}

const fail = (message: string): never => {
  throw new PropertyFailure(message);
};

async function countRows(h: PostingHarness, table: string): Promise<number> {
  const row = await h.services.store.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number((row as { n: unknown }).n);
}

/** Row counts of everything an action may write. */
async function writeCounts(h: PostingHarness, dm: DocumentModel): Promise<Record<string, number>> {
  const { stockLedger, partyLedger, billPosting, billAction, stockBalance, partyBalance } = h.services.internal;
  const out: Record<string, number> = {};
  for (const m of [stockLedger, partyLedger, billPosting, billAction, stockBalance, partyBalance, dm.model, dm.lineModel!]) out[m.table] = await countRows(h, m.table);
  return out;
}

/**
 * Runs an action the model says must be accepted (`why` undefined) or refused (`why` says why).
 * A refusal must be an ApiError and must have written nothing: no row in any ledger, marker,
 * history or bill table, and the bill (when given) keeps its state and version.
 */
async function attempt<T>(
  h: PostingHarness,
  run: Run,
  what: string,
  dm: DocumentModel,
  why: string | undefined,
  act: () => Promise<T>,
  bill?: { id: string; version: number },
): Promise<T | undefined> {
  if (why === undefined) {
    try {
      return await act();
    } catch (error) {
      if (error instanceof ApiError) fail(`${what}: refused with «${error.message}», but the model expects it to be accepted`);
      throw error;
    }
  }
  const before = await writeCounts(h, dm);
  const head = bill ? await h.services.store.get(dm.model, TENANT, bill.id) : undefined;
  try {
    await act();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const after = await writeCounts(h, dm);
    for (const [table, n] of Object.entries(before)) {
      if (after[table] !== n) fail(`${what}: refused («${error.message}») but ${table} went from ${n} to ${after[table]} rows`);
    }
    if (bill) {
      const now = await h.services.store.get(dm.model, TENANT, bill.id);
      if (JSON.stringify(now) !== JSON.stringify(head)) fail(`${what}: refused («${error.message}») but the bill changed: ${JSON.stringify(head)} → ${JSON.stringify(now)}`);
    }
    run.trace.push(`  ${what}: refused as expected (${why}) «${error.message}»`);
    return undefined;
  }
  return fail(`${what}: accepted, but the model expects a refusal (${why})`);
}

const stockOf = (run: Run, key: string) => run.stock.get(key) ?? new Dec(0);

/** Writes and approves a bill (both must succeed; only posting can be refused by stock). */
async function approved(h: PostingHarness, run: Run, kind: BillKind, head: Row, why?: string): Promise<Row | undefined> {
  const dm = h.dms[kind];
  const saved = await attempt(h, run, `${kind} submit`, dm, why, () => saveBill(h.services, h.actor, dm, 'submit', head));
  if (!saved) return undefined;
  run.bills.add(String(saved.id));
  return (await attempt(h, run, `${kind} pass`, dm, undefined, () => applyAction(h.services, h.actor, dm, 'pass', { id: String(saved.id), version: saved.version })))!;
}

/** Posts an approved bill as the model predicts; a refused bill is cancelled (so it takes no returnable quantity). */
async function post(h: PostingHarness, run: Run, kind: BillKind, bill: Row, delta: Decimal, why: string | undefined): Promise<BillRec | undefined> {
  const dm = h.dms[kind];
  const ref = { id: String(bill.id), version: Number(bill.version) };
  const posted = await attempt(h, run, `${kind} ${bill.billNo} accounting`, dm, why, () => applyAction(h.services, h.actor, dm, 'accounting', ref), ref);
  if (!posted) {
    await applyAction(h.services, h.actor, dm, 'cancel', { ...ref, remark: '记账被拒，作废' });
    h.stats.steps[kind].refused++;
    return undefined;
  }
  const line = (posted.bodyList as Row[])[0];
  const rec: BillRec = {
    no: run.posted.length + 1,
    kind,
    id: String(posted.id),
    billNo: String(posted.billNo),
    version: Number(posted.version),
    state: 'posted',
    lineId: String(line.id),
    depotId: String(posted.depotId),
    commInfoId: String(line.commInfoId),
    delta,
    finalAmt: String(posted.finalAmt),
  };
  if (posted.billStatus !== '1306') fail(`${kind} ${rec.billNo}: posted but its status is ${posted.billStatus}`);
  const key = pairKey(rec.depotId, rec.commInfoId);
  run.stock.set(key, stockOf(run, key).plus(delta));
  run.posted.push(rec);
  run.trace.push(`  posted as #${rec.no} ${rec.billNo} (stock ${key} now ${stockOf(run, key).toFixed()})`);
  h.stats.steps[kind].accepted++;
  return rec;
}

/** Why the model says flushing `rec` must be refused, or undefined. */
function flushRefusal(run: Run, rec: BillRec): string | undefined {
  if (rec.state === 'flushed') return 'already flushed';
  const reverse = rec.delta.neg();
  const have = stockOf(run, pairKey(rec.depotId, rec.commInfoId));
  if (reverse.lt(0) && have.plus(reverse).lt(0)) return `stock ${have.toFixed()} − ${reverse.neg().toFixed()} would be negative`;
  return undefined;
}

async function flush(h: PostingHarness, run: Run, rec: BillRec, why: string | undefined): Promise<boolean> {
  const dm = h.dms[rec.kind];
  const ref = { id: rec.id, version: rec.version };
  const done = await attempt(h, run, `flush #${rec.no} ${rec.kind} ${rec.billNo}`, dm, why, () => applyAction(h.services, h.actor, dm, 'flush', ref), ref);
  if (!done) return false;
  if (done.billStatus !== '1308') fail(`flush #${rec.no}: status is ${done.billStatus}, not 1308`);
  rec.state = 'flushed';
  rec.version = Number(done.version);
  const key = pairKey(rec.depotId, rec.commInfoId);
  run.stock.set(key, stockOf(run, key).minus(rec.delta));
  if (rec.source) rec.source.returned = rec.source.returned.minus(rec.returnQty!);
  run.trace.push(`  flushed #${rec.no} (stock ${key} now ${stockOf(run, key).toFixed()})`);
  return true;
}

async function runStep(h: PostingHarness, run: Run, step: Step): Promise<void> {
  const w = h.world;
  run.trace.push(JSON.stringify(step));
  switch (step.kind) {
    case 'purchase-in': {
      const goods = w.goods[step.goods % w.goods.length];
      const depotId = w.depots[step.depot % w.depots.length];
      const bill = (await approved(h, run, 'purchase-in', {
        supplierId: w.supplierId,
        depotId,
        bodyList: lines(w, [{ goods, qty: String(step.qty), purchasePrice: step.price }]),
      }))!;
      await post(h, run, 'purchase-in', bill, new Dec(step.qty), undefined);
      return;
    }
    case 'sales-out': {
      const pairs = w.depots.flatMap((d) => w.goods.map((g) => ({ depotId: d, goods: g })));
      const stocked = pairs.filter((p) => stockOf(run, pairKey(p.depotId, p.goods)).gt(0));
      const pick =
        step.from === 'stocked' && stocked.length
          ? stocked[(step.goods * w.depots.length + step.depot) % stocked.length]
          : { depotId: w.depots[step.depot % w.depots.length], goods: w.goods[step.goods % w.goods.length] };
      const have = stockOf(run, pairKey(pick.depotId, pick.goods));
      // A sale from stock sells what the stock covers: 1 + (qty − 1) mod stock.
      const q = step.from === 'stocked' && stocked.length ? new Dec(step.qty - 1).mod(have).plus(1) : new Dec(step.qty);
      if (!q.eq(step.qty)) run.trace.push(`  quantity ${q.toFixed()} (stock ${have.toFixed()})`);
      const customerId = w.customers[step.customer % w.customers.length];
      const bill = (await approved(h, run, 'sales-out', {
        customerId,
        depotId: pick.depotId,
        bodyList: lines(w, [{ goods: pick.goods, qty: q.toFixed(), taxPrice: step.price }]),
      }))!;
      const why = have.lt(q) ? `stock ${have.toFixed()} < ${q.toFixed()}` : undefined;
      const rec = await post(h, run, 'sales-out', bill, q.neg(), why);
      if (rec) {
        const line = (bill.bodyList as Row[])[0];
        run.sales.push({ bill: rec, customerId, qty: q, taxPrice: String(line.taxPrice), returned: new Dec(0) });
      }
      return;
    }
    case 'sales-return': {
      if (!run.sales.length) {
        h.stats.steps['sales-return'].skipped++;
        run.trace.push('  skipped: no sale posted in this run');
        return;
      }
      const sale = run.sales[step.sale % run.sales.length];
      const q = step.qty === 'all' ? sale.qty : new Dec(step.qty);
      const src = sale.bill;
      const submitWhy = sale.returned.plus(q).gt(sale.qty) ? `returning ${q.toFixed()} of ${sale.qty.toFixed()} sold, ${sale.returned.toFixed()} already returned` : undefined;
      const line = {
        ...lines(w, [{ goods: src.commInfoId, qty: q.neg().toFixed(), taxPrice: sale.taxPrice, sourceBodyId: src.lineId }])[0],
        sourceBillId: src.id,
        sourceBillNo: src.billNo,
      };
      const bill = await approved(
        h,
        run,
        'sales-return',
        { customerId: sale.customerId, depotId: src.depotId, sourceBillId: src.id, sourceBillNo: src.billNo, sourceBillType: '0803', bodyList: [line] },
        submitWhy,
      );
      if (!bill) {
        h.stats.steps['sales-return'].refused++;
        return;
      }
      const postWhy = src.state === 'flushed' ? `its sale #${src.no} is flushed` : undefined;
      const rec = await post(h, run, 'sales-return', bill, q, postWhy);
      if (rec) {
        rec.source = sale;
        rec.returnQty = q;
        sale.returned = sale.returned.plus(q);
      }
      return;
    }
    case 'flush': {
      if (!run.posted.length) {
        h.stats.steps.flush.skipped++;
        run.trace.push('  skipped: no bill posted in this run');
        return;
      }
      const rec = run.posted[step.bill % run.posted.length];
      const ok = await flush(h, run, rec, flushRefusal(run, rec));
      h.stats.steps.flush[ok ? 'accepted' : 'refused']++;
      return;
    }
  }
}

interface Balances {
  stock: Map<string, { qty: Decimal; value: Decimal }>;
  party: Map<string, Decimal>;
}

/** The world's stock balances (every warehouse × goods) and AR/AP balances; missing rows are zero. */
async function readBalances(h: PostingHarness): Promise<Balances> {
  const { store, internal } = h.services;
  const w = h.world;
  const stock = new Map<string, { qty: Decimal; value: Decimal }>();
  for (const d of w.depots) for (const g of w.goods) stock.set(pairKey(d, g), { qty: new Dec(0), value: new Dec(0) });
  for (const r of await store.find(internal.stockBalance, TENANT, { where: { depotId: w.depots, commInfoId: w.goods } })) {
    stock.set(pairKey(r.depotId, r.commInfoId), { qty: dec(r.qty), value: dec(r.value) });
  }
  const party = new Map<string, Decimal>();
  for (const c of w.customers) party.set(partyKey('AR', c), new Dec(0));
  party.set(partyKey('AP', w.supplierId), new Dec(0));
  for (const r of await store.find(internal.partyBalance, TENANT, { where: { partyId: [...w.customers, w.supplierId] } })) {
    if (party.has(partyKey(r.kind, r.partyId))) party.set(partyKey(r.kind, r.partyId), dec(r.amount));
  }
  return { stock, party };
}

/** Every balance of the world equals Σ of its ledger rows (as the mirror holds them); stock quantities are the model's. */
function checkSums(h: PostingHarness, run: Run, b: Balances, phase: string) {
  for (const [key, bal] of b.stock) {
    const sum = h.mirror.stock.get(key) ?? { qty: new Dec(0), value: new Dec(0) };
    if (!bal.qty.eq(sum.qty) || !bal.value.eq(sum.value)) {
      fail(`${phase}: stock balance ${key} is qty ${bal.qty.toFixed()} value ${bal.value.toFixed()}, Σ ledger is qty ${sum.qty.toFixed()} value ${sum.value.toFixed()}`);
    }
    if (!bal.qty.eq(stockOf(run, key))) fail(`${phase}: stock balance ${key} is qty ${bal.qty.toFixed()}, the model expects ${stockOf(run, key).toFixed()}`);
  }
  for (const [key, amount] of b.party) {
    const sum = h.mirror.party.get(key) ?? new Dec(0);
    if (!amount.eq(sum)) fail(`${phase}: party balance ${key} is ${amount.toFixed()}, Σ ledger is ${sum.toFixed()}`);
  }
}

/** Each bill of the run has exactly the entries its state calls for, with mirrored reversals. */
function checkBillRows(h: PostingHarness, run: Run, rows: Map<MirrorTable, Row[]>, phase: string) {
  const [stockT, partyT, postingT] = h.mirror.tables;
  const byBill = (t: MirrorTable) => {
    const m = new Map<string, Row[]>();
    for (const r of rows.get(t) ?? []) if (run.bills.has(String(r.billId))) m.set(String(r.billId), [...(m.get(String(r.billId)) ?? []), r]);
    return m;
  };
  const stock = byBill(stockT);
  const party = byBill(partyT);
  const posting = byBill(postingT);
  const recs = new Map(run.posted.map((r) => [r.id, r]));
  for (const id of run.bills) {
    const rec = recs.get(id);
    const want = rec ? (rec.state === 'flushed' ? ['post', 'reverse'] : ['post']) : [];
    const entries = (list: Row[] | undefined) => (list ?? []).map((r) => String(r.entry)).sort();
    const label = rec ? `#${rec.no} ${rec.kind} ${rec.billNo} (${rec.state})` : `unposted bill ${id}`;
    for (const [name, list] of [['bill posting', posting.get(id)], ['party ledger', party.get(id)], ['stock ledger', stock.get(id)]] as const) {
      const got = entries(list);
      if (JSON.stringify(got) !== JSON.stringify(want)) fail(`${phase}: ${label} has ${name} entries [${got.join(', ')}], expected [${want.join(', ')}]`);
    }
    if (!rec) continue;
    const sp = stock.get(id)!.find((r) => r.entry === 'post')!;
    if (String(sp.lineId) !== rec.lineId || String(sp.depotId) !== rec.depotId || String(sp.commInfoId) !== rec.commInfoId || !dec(sp.qty).eq(rec.delta)) {
      fail(`${phase}: ${label} stock post row ${JSON.stringify(sp)} does not move ${rec.delta.toFixed()} of ${rec.commInfoId} in ${rec.depotId} on line ${rec.lineId}`);
    }
    const pp = party.get(id)!.find((r) => r.entry === 'post')!;
    if (!dec(pp.amount).eq(rec.finalAmt)) fail(`${phase}: ${label} party post amount ${pp.amount} is not its final amount ${rec.finalAmt}`);
    const kind = rec.kind === 'purchase-in' ? 'AP' : 'AR';
    if (pp.kind !== kind) fail(`${phase}: ${label} party entry is ${pp.kind}, expected ${kind}`);
    if (rec.state === 'flushed') {
      const sr = stock.get(id)!.find((r) => r.entry === 'reverse')!;
      if (!dec(sr.qty).eq(dec(sp.qty).neg()) || !dec(sr.value).eq(dec(sp.value).neg()) || sr.lineId !== sp.lineId) {
        fail(`${phase}: ${label} stock reverse row ${JSON.stringify(sr)} is not the mirror of ${JSON.stringify(sp)}`);
      }
      const pr = party.get(id)!.find((r) => r.entry === 'reverse')!;
      if (!dec(pr.amount).eq(dec(pp.amount).neg())) fail(`${phase}: ${label} party reverse amount ${pr.amount} is not −${pp.amount}`);
    }
  }
}

/** Flushes every still-posted bill of the run, last posted first; refusals the model predicts are retried after the others. */
async function flushAll(h: PostingHarness, run: Run, steps: Step[]) {
  let pending = run.posted.filter((r) => r.state === 'posted').reverse();
  let deferredAny = false;
  run.trace.push('final flush, reverse posting order:');
  while (pending.length) {
    const deferred: BillRec[] = [];
    for (const rec of pending) {
      const why = flushRefusal(run, rec);
      if (why && h.strictReverse) fail(`final flush of #${rec.no} ${rec.kind} ${rec.billNo} in reverse posting order must be refused: ${why}`);
      if (await flush(h, run, rec, why)) h.stats.finalFlushes++;
      else {
        deferred.push(rec);
        h.stats.deferredFinalFlushes++;
        deferredAny = true;
      }
    }
    if (deferred.length === pending.length) fail(`final flush: none of ${deferred.map((r) => `#${r.no}`).join(', ')} can be flushed`);
    pending = deferred;
  }
  if (deferredAny) {
    h.stats.runsWithDeferral++;
    if (!h.stats.shortestDeferral || steps.length < h.stats.shortestDeferral.length) h.stats.shortestDeferral = steps;
  }
}

/** Flushes or cancels what a failed run left behind (best effort), so later runs start from a clean state. */
async function cleanUp(h: PostingHarness, run: Run) {
  const order = [...run.posted.filter((r) => r.kind === 'sales-out').reverse(), ...run.posted.filter((r) => r.kind !== 'sales-out').reverse()];
  for (const rec of order) {
    if (rec.state !== 'posted') continue;
    const dm = h.dms[rec.kind];
    try {
      const row = await h.services.store.get(dm.model, TENANT, rec.id);
      if (row?.billStatus === '1306') await applyAction(h.services, h.actor, dm, 'flush', { id: rec.id, version: row.version });
    } catch {
      // best effort
    }
  }
}

/** One run of the property: the steps, the checks, the flush of everything and the final checks. Throws on any failure. */
export async function runSteps(h: PostingHarness, steps: Step[]): Promise<void> {
  if (h.poisoned) {
    // A failed run may have left balances that no longer match their ledgers: start on a fresh world.
    h.world = await h.newWorld();
    await h.mirror.rebase();
    h.poisoned = false;
  }
  h.stats.runs++;
  const start = await readBalances(h);
  const run: Run = {
    steps,
    stock: new Map([...start.stock].map(([k, v]) => [k, v.qty])),
    posted: [],
    sales: [],
    bills: new Set(),
    trace: [],
  };
  const ms = h.stats.ms;
  let t = performance.now();
  const lap = (phase: keyof PostingStats['ms']) => {
    const now = performance.now();
    ms[phase] += now - t;
    t = now;
  };
  try {
    for (const step of steps) await runStep(h, run, step);
    lap('steps');
    checkBillRows(h, run, await h.mirror.verifyBills(run.bills), 'after the steps');
    const mid = await readBalances(h);
    checkSums(h, run, mid, 'after the steps');
    if ([...mid.stock.values()].some((b) => (b.qty.isZero() && !b.value.isZero()) || (b.qty.gt(0) && b.value.lt(0)))) {
      h.stats.oddValues++;
      if (!h.stats.shortestOddValue || steps.length < h.stats.shortestOddValue.length) h.stats.shortestOddValue = steps;
    }
    lap('checks');

    await flushAll(h, run, steps);
    lap('finalFlush');

    checkBillRows(h, run, await h.mirror.verifyAll(run.bills), 'after flushing everything');
    const end = await readBalances(h);
    checkSums(h, run, end, 'after flushing everything');
    for (const [key, bal] of end.stock) {
      const was = start.stock.get(key)!;
      if (!bal.qty.eq(was.qty) || !bal.value.eq(was.value)) {
        fail(`after flushing everything: stock balance ${key} is qty ${bal.qty.toFixed()} value ${bal.value.toFixed()}, before the run it was qty ${was.qty.toFixed()} value ${was.value.toFixed()}`);
      }
    }
    for (const [key, amount] of end.party) {
      const was = start.party.get(key)!;
      if (!amount.eq(was)) fail(`after flushing everything: party balance ${key} is ${fixed(amount, 2)}, before the run it was ${fixed(was, 2)}`);
    }
    lap('checks');
  } catch (error) {
    h.stats.failedRuns++;
    h.poisoned = true;
    await cleanUp(h, run);
    const trace = `\nrun trace:\n${run.trace.join('\n')}`;
    if (error instanceof Error) {
      error.message += trace;
      throw error;
    }
    throw new Error(String(error) + trace);
  }
}

/** The property: any run of steps keeps every invariant. */
export function postingProperty(h: PostingHarness): fc.IAsyncPropertyWithHooks<[Step[]]> {
  return fc.asyncProperty(runArb, (steps) => runSteps(h, steps));
}
