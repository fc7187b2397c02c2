/**
 * List API on 1,000,000 rows (issue 4 figure): page 1 of 20 with `total`, with and without a
 * name filter, beside a raw prepared-statement query of the same page without `total`, served over
 * HTTP by a bare fastify route in the same process, so both pay the same HTTP cost.
 * Usage: tsx tests/bench/list-million.ts [resource=customer] [nameField=bartererName] [rows=1000000]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import SqliteDatabase from 'better-sqlite3';
import { createServer } from '../../src/server/app.ts';
import { configFromEnv } from '../../src/server/config.ts';
import { load, show } from './load.ts';
import { signedIn, BASIC } from '../support/client.ts';

const [resourceName = 'customer', nameField = 'bartererName', rowsText = '1000000'] = process.argv.slice(2);
const ROWS = Number(rowsText);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-bench-1m-'));
  const config = { ...configFromEnv(), dataDir, databaseUrl: undefined, port: 0 };
  let server = await createServer(config, { quiet: true });
  const model = server.services.m(resourceName);
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
  await server.close();
  server = await createServer(config, { quiet: true });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const addr = server.app.server.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  const api = await signedIn(base);
  const listPath = model.resource!.api.endpoints.find((e) => e.op === 'page')!.path;
  const listUrl = `${base}/api${model.resource!.api.base}/${listPath}`;
  const headers = { authorization: BASIC, 'blade-auth': `bearer ${api.token}` };
  const ok = (_r: Response, body: string) => body.includes('"code":200');

  // The raw reference: one prepared statement, page 1 of 20, no total, same HTTP stack.
  const raw = new SqliteDatabase(path.join(dataDir, 'erp.sqlite'), { readonly: true });
  const stmt = raw.prepare(`select * from ${model.table} where tenant_id = ? and is_deleted = 0 order by create_time desc, id desc limit 20`);
  const rawApp = Fastify();
  rawApp.get('/raw', async () => ({ code: 200, data: { records: stmt.all('000000') } }));
  await rawApp.listen({ host: '127.0.0.1', port: 0 });
  const rawAddr = rawApp.server.address();
  const rawUrl = `http://127.0.0.1:${typeof rawAddr === 'object' && rawAddr ? rawAddr.port : 0}/raw`;

  const opts = { concurrency: 8, seconds: SECONDS };
  const rawResult = await load(() => fetch(rawUrl), { ...opts, check: ok });
  show('raw prepared statement page (no total)', rawResult);
  const page = await load(() => fetch(`${listUrl}?current=1&size=20`, { headers }), { ...opts, check: ok });
  show('API page 1 of 20 with total', page);
  const filtered = await load(() => fetch(`${listUrl}?current=1&size=20&${nameField}=${encodeURIComponent('0012345号')}`, { headers }), { ...opts, check: ok });
  show(`API page 1 of 20 with total, ${nameField} contains filter`, filtered);
  console.log(`ratio to raw: page ${(page.rps / rawResult.rps).toFixed(2)}, filtered ${(filtered.rps / rawResult.rps).toFixed(2)}`);
  await rawApp.close();
  raw.close();
  await server.close();
  if (process.env.BENCH_KEEP === '1') console.log(`kept ${dataDir}`);
  else fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
