/**
 * List API on 1,000,000 rows (issue 4 figure): page 1 of 20 with `total`, with and without a
 * name filter, beside a raw prepared-statement query of the same page without `total`, served over
 * HTTP by a bare fastify route in the same process, so both pay the same HTTP cost. The load comes
 * from a worker thread (its own event loop on the other core), so it does not slow the servers.
 * The filtered figure is given twice: one name repeated (a user paging or refreshing a search) and
 * a new name every request (10,000 distinct names in turn; no cache can help).
 * Usage: tsx tests/bench/list-million.ts [resource=customer] [nameField=bartererName] [rows=1000000]
 * BENCH_KEEP=1 keeps the data directory; BENCH_DATA=<dir> reuses a kept one instead of inserting.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import SqliteDatabase from 'better-sqlite3';
import { createServer } from '../../src/server/app.ts';
import { configFromEnv } from '../../src/server/config.ts';
import { loadInWorker, show } from './load.ts';
import { signedIn, BASIC } from '../support/client.ts';

const [resourceName = 'customer', nameField = 'bartererName', rowsText = '1000000'] = process.argv.slice(2);
const ROWS = Number(rowsText);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

type Server = Awaited<ReturnType<typeof createServer>>;

async function insertRows(server: Server, model: ReturnType<Server['services']['m']>) {
  const required = model.resource!.entity.required ?? [];
  const t0 = performance.now();
  const actor = { tenantId: '000000', userId: '0' };
  const batch = 20_000;
  for (let start = 0; start < ROWS; start += batch) {
    const rows: Record<string, unknown>[] = [];
    for (let i = start; i < Math.min(ROWS, start + batch); i++) {
      const row: Record<string, unknown> = { [nameField]: `客户${String(i).padStart(7, '0')}号商贸有限公司` };
      for (const f of required) if (row[f] === undefined) row[f] = f.endsWith('Id') ? '1' : `v${i}`;
      rows.push(row);
    }
    await server.services.store.transaction((db) => server.services.store.insertMany(model, actor, rows, db));
  }
  console.log(`inserted ${ROWS.toLocaleString()} ${resourceName} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

async function main() {
  const reuse = process.env.BENCH_DATA;
  const dataDir = reuse ?? fs.mkdtempSync(path.join(os.tmpdir(), 'erp-bench-1m-'));
  const config = { ...configFromEnv(), demo: false, dataDir, databaseUrl: undefined, port: 0 };
  let server = await createServer(config, { quiet: true });
  const model = server.services.m(resourceName);
  if (!reuse) await insertRows(server, model);
  await server.close();
  server = await createServer(config, { quiet: true });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const addr = server.app.server.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  const api = await signedIn(base);
  const listPath = model.resource!.api.endpoints.find((e) => e.op === 'page')!.path;
  const listUrl = `${base}/api${model.resource!.api.base}/${listPath}`;
  const headers = { authorization: BASIC, 'blade-auth': `bearer ${api.token}` };

  // The raw reference: one prepared statement, page 1 of 20, no total, same HTTP stack.
  const raw = new SqliteDatabase(path.join(dataDir, 'erp.sqlite'), { readonly: true });
  raw.pragma('mmap_size = 2147418112'); // as the server's own connection
  const stmt = raw.prepare(`select * from ${model.table} where tenant_id = ? and is_deleted = 0 order by create_time desc, id desc limit 20`);
  const rawApp = Fastify();
  rawApp.get('/raw', async () => ({ code: 200, data: { records: stmt.all('000000') } }));
  await rawApp.listen({ host: '127.0.0.1', port: 0 });
  const rawAddr = rawApp.server.address();
  const rawUrl = `http://127.0.0.1:${typeof rawAddr === 'object' && rawAddr ? rawAddr.port : 0}/raw`;

  const opts = { concurrency: 8, seconds: SECONDS, expect: '"code":200' };
  const filterUrl = (text: string) => `${listUrl}?current=1&size=20&${nameField}=${encodeURIComponent(text)}`;
  // Four digits and 号 match 100 of the million names: every answer is a full page of 20 rows, like the raw one.
  // All 10,000 of them in a scrambled order: a cycle takes longer than the run, so no search repeats
  // and the two-second result cache never answers.
  const distinct = Array.from({ length: 10_000 }, (_, i) => `${String((i * 7919 + 1234) % 10_000).padStart(4, '0')}号`);
  const rawResult = await loadInWorker([rawUrl], opts);
  show('raw prepared statement page (no total)', rawResult);
  const page = await loadInWorker([`${listUrl}?current=1&size=20`], { ...opts, headers });
  show('API page 1 of 20 with total', page);
  const filtered = await loadInWorker([filterUrl('2345号')], { ...opts, headers });
  show(`API page 1 of 20 with total, ${nameField} contains one name, repeated`, filtered);
  const varied = await loadInWorker(distinct.map(filterUrl), { ...opts, headers });
  show(`API page 1 of 20 with total, ${nameField} contains a new name every request`, varied);
  const ratio = (r: { rps: number }) => (r.rps / rawResult.rps).toFixed(2);
  console.log(`ratio to raw: page ${ratio(page)}, filtered (repeated) ${ratio(filtered)}, filtered (distinct) ${ratio(varied)}`);
  await rawApp.close();
  raw.close();
  await server.close();
  if (process.env.BENCH_KEEP === '1' || reuse) console.log(`kept ${dataDir}`);
  else fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
