/**
 * Posting benchmark (figures only, never asserted). The issue's targets: posting a 1,000-line
 * bill in ≤ 300 ms server time and ≤ 15 SQL statements.
 *
 * On an in-process test server (SQLite; PostgreSQL too when DATABASE_URL is set) with 10 goods
 * stocked by one purchase-in, each run submits and approves a 1,000-line sales-out (10 goods × 100
 * lines, qty 1) and posts it. Timed: the posting call in-process (applyAction 'accounting', server
 * time only), the same call over HTTP, and as extra figures the submit (saveBill) and the opening
 * (loadBill) of the bill. Statements are counted through Database.onQuery during the in-process
 * calls, with a breakdown by kind and table; BEGIN/COMMIT are not among them.
 *
 *   npx tsx tests/bench/posting-bench.ts        (or npm run bench -- posting)
 */
import type { RootOperationNode } from 'kysely';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, lines, makeWorld, type World } from '../support/bills.ts';
import { writtenTable } from '../../src/server/db/connect.ts';
import { documentModel, loadBill, type DocumentModel } from '../../src/server/engine/document/context.ts';
import { applyAction, saveBill } from '../../src/server/engine/document/transitions.ts';
import type { Actor, Row } from '../../src/server/engine/store.ts';
import type { Services } from '../../src/server/services.ts';

const RUNS = 7;
const LINES = 1000;
const GOODS = 10;

/** "select erp_stock_balance" from a query's operation tree (builders) or its text (raw `sql`). */
function statementOf(node: RootOperationNode): string {
  if (node.kind === 'RawNode') {
    // A table given as sql.table() is a parameter node, not text: name it in place.
    type Param = { kind: string; table?: { identifier: { name: string } }; parameters?: Param[] };
    const nameOf = (p: Param): string => (p.kind === 'TableNode' ? p.table!.identifier.name : p.kind === 'RawNode' && p.parameters?.length === 1 ? nameOf(p.parameters[0]) : '?');
    const names = (node.parameters as unknown as Param[]).map(nameOf);
    const text = node.sqlFragments.reduce((all, fragment, i) => all + fragment + (i < names.length ? names[i] : ''), '').trim();
    const match = /^(\w+)(?:.*?\b(?:into|from|update)\s+"?(\w+)"?)?/is.exec(text);
    const verb = match?.[1]?.toLowerCase() ?? 'raw';
    const table = verb === 'update' ? /^update\s+"?(\w+)"?/i.exec(text)?.[1] : match?.[2];
    return `${verb} ${table ?? '?'} (raw)`;
  }
  const verb = node.kind.replace(/QueryNode$/, '').toLowerCase();
  if (node.kind === 'SelectQueryNode') {
    const from = node.from?.froms[0] as { kind: string; table?: { identifier?: { name?: string } }; node?: { table?: { identifier?: { name?: string } } } } | undefined;
    return `${verb} ${from?.table?.identifier?.name ?? from?.node?.table?.identifier?.name ?? '?'}`;
  }
  return `${verb} ${writtenTable(node) ?? '?'}`;
}

// POSTING_BENCH_TRACE=1: also list each statement of the first timed posting, when it was compiled
// (ms from the call's start) and the engine code that ran it.
const TRACE = Boolean(process.env.POSTING_BENCH_TRACE);

/** The innermost calls in src/server outside the store and the database layer: who ran a statement. */
function caller(): string {
  const frames = (new Error().stack ?? '').split('\n').slice(1);
  const ours = frames
    .map((f) => /at (?:async )?(\S+) \(.*?src\/server\/(.*?):(\d+):\d+\)/.exec(f))
    .filter((m): m is RegExpExecArray => Boolean(m) && !/^(engine\/store|db\/connect)\.ts$/.test(m![2]));
  return ours.slice(0, 3).map((m) => `${m[1]} ${m[2]}:${m[3]}`).join(' ← ');
}

/** Runs fn, answering its time and the statements it ran, by kind and table (and in order, when tracing). */
async function measured<T>(services: Services, fn: () => Promise<T>): Promise<{ value: T; ms: number; statements: Map<string, number>; trace: string[] }> {
  const statements = new Map<string, number>();
  const trace: string[] = [];
  const t0 = performance.now();
  const stop = services.database.onQuery((node) => {
    const key = statementOf(node);
    // Transaction control is not a statement of the posting (PostgreSQL's never passes here).
    if (/^(begin|commit|rollback|savepoint|release) /.test(key)) return;
    statements.set(key, (statements.get(key) ?? 0) + 1);
    if (TRACE) trace.push(`at ${(performance.now() - t0).toFixed(1).padStart(6)} ms  ${key}  ← ${caller()}`);
  });
  try {
    const value = await fn();
    return { value, ms: performance.now() - t0, statements, trace };
  } finally {
    stop();
  }
}

const total = (statements: Map<string, number>) => [...statements.values()].reduce((a, b) => a + b, 0);

function summary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return `median ${median.toFixed(1)} ms (min ${sorted[0].toFixed(1)}, max ${sorted[sorted.length - 1].toFixed(1)}, ${times.length} runs)`;
}

function breakdown(statements: Map<string, number>, indent = '      '): string {
  const byVerb = new Map<string, [string, number][]>();
  for (const [key, n] of statements) {
    const verb = key.split(' ')[0];
    byVerb.set(verb, [...(byVerb.get(verb) ?? []), [key.slice(verb.length + 1), n]]);
  }
  return [...byVerb]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([verb, tables]) => `${indent}${verb} ${tables.reduce((a, [, n]) => a + n, 0)}: ${tables.map(([t, n]) => `${t} ×${n}`).join(', ')}`)
    .join('\n');
}

/** Submits and approves one 1,000-line sales-out in-process; answers it with the submit's and opening's figures. */
async function approvedSalesOut(services: Services, actor: Actor, dm: DocumentModel, w: World) {
  const body = {
    customerId: w.customers[0],
    depotId: w.depots[0],
    bodyList: lines(w, Array.from({ length: LINES }, (_, i) => ({ goods: w.goods[i % GOODS], qty: '1', taxPrice: '1.13' }))),
  };
  const submit = await measured(services, () => saveBill(services, actor, dm, 'submit', body));
  const open = await measured(services, () => loadBill(services, actor, dm, String(submit.value.id)));
  const passed = await applyAction(services, actor, dm, 'pass', { id: String(submit.value.id), version: submit.value.version, remark: '同意' });
  return { bill: passed, submit, open };
}

async function bench(name: string, databaseUrl?: string) {
  let server: TestServer | undefined;
  try {
    server = await startTestServer({ databaseUrl });
    const { services } = server;
    const api: Api = await signedIn(server.url);
    const w = await makeWorld(api, { goods: GOODS, depots: 1, customers: 1 });
    // Stock for every run's 100 units of each goods item, in-process and over HTTP, plus a warm-up.
    const stock = String((2 * RUNS + 1) * (LINES / GOODS));
    const purchase = expectOk(await api.post(`${BASES.purchaseIn}/submit`, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, w.goods.map((goods) => ({ goods, qty: stock, purchasePrice: '1.00' }))) }));
    const passed = expectOk(await api.get(`${BASES.purchaseIn}/pass`, { id: purchase.id, version: purchase.version, remark: '同意' }));
    expectOk(await api.post(`${BASES.purchaseIn}/accounting`, { id: passed.id, version: passed.version }));

    const admin = (await services.store.find(services.m('user'), '000000', { where: { account: 'admin' } }))[0] as Row;
    const actor: Actor = { tenantId: '000000', userId: String(admin.id) };
    const dm = documentModel(services, services.m('sales-out'));
    const post = (bill: Row) => applyAction(services, actor, dm, 'accounting', { id: String(bill.id), version: bill.version });

    // Warm-up: one bill through every timed call, not counted.
    const warm = await approvedSalesOut(services, actor, dm, w);
    const cold = await measured(services, () => post(warm.bill));

    const submitMs: number[] = [];
    const openMs: number[] = [];
    const postMs: number[] = [];
    const httpMs: number[] = [];
    const counts = { post: new Set<number>(), submit: new Set<number>(), open: new Set<number>() };
    let lastPost: Map<string, number> | undefined;
    let mostPost: Map<string, number> | undefined;
    let lastSubmit: Map<string, number> | undefined;
    let lastOpen: Map<string, number> | undefined;
    for (let run = 0; run < RUNS; run++) {
      const { bill, submit, open } = await approvedSalesOut(services, actor, dm, w);
      submitMs.push(submit.ms);
      openMs.push(open.ms);
      lastSubmit = submit.statements;
      lastOpen = open.statements;
      counts.submit.add(total(submit.statements));
      counts.open.add(total(open.statements));
      const posted = await measured(services, () => post(bill));
      if ((posted.value as Row).billStatus !== '1306') throw new Error(`not posted: ${JSON.stringify(posted.value).slice(0, 200)}`);
      postMs.push(posted.ms);
      counts.post.add(total(posted.statements));
      lastPost = posted.statements;
      if (!mostPost || total(posted.statements) > total(mostPost)) mostPost = posted.statements;
      if (TRACE && run === 0) console.log(`${name}: statements of one posting, in order:\n${posted.trace.map((t, i) => `  ${i + 1}. ${t}`).join('\n')}`);
    }
    for (let run = 0; run < RUNS; run++) {
      const { bill } = await approvedSalesOut(services, actor, dm, w);
      const t0 = performance.now();
      const reply = await api.post(`${BASES.salesOut}/accounting`, { id: bill.id, version: bill.version });
      httpMs.push(performance.now() - t0);
      expectOk(reply, 'accounting over HTTP');
    }

    console.log(`\n${name}: ${LINES.toLocaleString()}-line sales-out (${GOODS} goods × ${LINES / GOODS} lines, qty 1), ${RUNS} runs after one warm-up`);
    console.log(`  post in-process (applyAction accounting):  ${summary(postMs)}; the warm-up took ${cold.ms.toFixed(1)} ms`);
    console.log(`  post over HTTP (POST ${BASES.salesOut}/accounting):  ${summary(httpMs)}`);
    const n = (set: Set<number>) => [...set].sort((a, b) => a - b).join(' or ');
    console.log(`  statements per posting: ${n(counts.post)} (plus BEGIN and COMMIT); the last run's:`);
    console.log(breakdown(lastPost!));
    if (total(mostPost!) > total(lastPost!)) console.log(`  the run with the most statements:\n${breakdown(mostPost!)}`);
    console.log(`  submit in-process (saveBill submit):  ${summary(submitMs)}; ${n(counts.submit)} statements; the last run's:`);
    console.log(breakdown(lastSubmit!));
    // Outside a transaction the display names come from the store's 2-second cache when warm.
    console.log(`  open in-process (loadBill):  ${summary(openMs)}; ${n(counts.open)} statements (fewer when names are cached); the last run's:`);
    console.log(breakdown(lastOpen!));
  } catch (error) {
    console.log(`\n${name}: bench failed: ${error instanceof Error ? error.stack : String(error)}`);
  } finally {
    await server?.close();
  }
}

for (const { name, databaseUrl } of databases()) await bench(name, databaseUrl);
