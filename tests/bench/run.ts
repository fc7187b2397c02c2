/**
 * `npm run bench`: figures for the platform, printed, never asserted on time.
 *  - cold start of `npm start` with an existing build (spawn → first answer), on a fresh and a seeded data dir
 *  - sign-in (password grant) requests/s and p99
 *  - param/list page 1 requests/s and p99 with 100,000 parameter rows, with and without a name filter
 * The server runs as a separate process; load comes from this one, over loopback only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { load, show } from './load.ts';
import { BASIC, md5 } from '../support/client.ts';
import { createServer, REPO_ROOT } from '../../src/server/app.ts';
import { configFromEnv } from '../../src/server/config.ts';

const PORT = 18480;
const base = `http://127.0.0.1:${PORT}`;

async function startProcess(dataDir: string): Promise<{ child: ChildProcess; ms: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ERP_DATA_DIR: dataDir, PORT: String(PORT), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  for (;;) {
    try {
      const res = await fetch(`${base}/api/blade-sys-config/sysconfig/front`, { headers: { authorization: BASIC } });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error('server exited during start');
    await new Promise((r) => setTimeout(r, 20));
  }
  return { child, ms: performance.now() - t0 };
}

async function stop(child: ChildProcess) {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

async function token(): Promise<string> {
  const res = await fetch(`${base}/api/blade-auth/oauth/token?tenantId=000000&username=admin&password=${md5('admin')}&grant_type=password`, {
    method: 'POST',
    headers: { authorization: BASIC, 'tenant-id': '000000' },
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

async function seedParams(dataDir: string, rows: number) {
  const server = await createServer({ ...configFromEnv(), demo: false, dataDir, databaseUrl: undefined }, { quiet: true });
  const { services } = server;
  const model = services.m('param');
  const actor = { tenantId: '000000', userId: '0' };
  const batch: Record<string, unknown>[] = [];
  for (let i = 0; i < rows; i++) {
    batch.push({ paramName: `基准参数${i}`, paramKey: `bench.key.${i}`, paramValue: String(i), remark: i % 10 === 0 ? '整十' : '' });
  }
  await services.store.transaction((db) => services.store.insertMany(model, actor, batch, db));
  await server.close();
}

async function main() {
  if (!fs.existsSync(path.join(REPO_ROOT, 'dist/client/index.html'))) {
    console.log('no client build: run `npm run build` first so the cold-start figure is "with an existing build"');
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-bench-'));
  const first = await startProcess(dataDir);
  console.log(`cold start, empty data dir (creates tables, seeds 2 tenants): ${first.ms.toFixed(0)} ms`);
  await stop(first.child);
  const again = await startProcess(dataDir);
  console.log(`cold start, existing data dir: ${again.ms.toFixed(0)} ms`);

  const login = await load(
    () =>
      fetch(`${base}/api/blade-auth/oauth/token?tenantId=000000&username=admin&password=${md5('admin')}&grant_type=password`, {
        method: 'POST',
        headers: { authorization: BASIC, 'tenant-id': '000000' },
      }),
    { concurrency: 8, seconds: 10, check: (res) => res.status === 200 },
  );
  show('sign-in (password grant, scrypt)', login);
  await stop(again.child);

  await seedParams(dataDir, 100_000);
  const server = await startProcess(dataDir);
  const t = await token();
  const headers = { authorization: BASIC, 'blade-auth': `bearer ${t}` };
  const ok = (_res: Response, body: string) => body.includes('"code":200');
  show(
    'param/list page 1 of 100,000 rows (with total)',
    await load(() => fetch(`${base}/api/blade-system/param/list?current=1&size=10`, { headers }), { concurrency: 8, seconds: 10, check: ok }),
  );
  show(
    'param/list page 1, paramName contains filter',
    await load(() => fetch(`${base}/api/blade-system/param/list?current=1&size=10&paramName=${encodeURIComponent('参数999')}`, { headers }), {
      concurrency: 8,
      seconds: 10,
      check: ok,
    }),
  );
  await stop(server.child);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
