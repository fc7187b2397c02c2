import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createServer, REPO_ROOT } from '../../src/server/app.ts';
import { materializedDrift } from '../../src/server/engine/materialized.ts';
import type { ServerConfig } from '../../src/server/config.ts';
import type { Services } from '../../src/server/services.ts';

export interface TestServer {
  url: string;
  dataDir: string;
  databaseUrl?: string;
  /** The in-process server's parts, for what HTTP cannot show (a captcha's text, row counts). */
  services: Services;
  close(): Promise<void>;
}

/** A fresh PostgreSQL database per server, so suites never see each other's rows (benches use it too). */
export async function freshPostgres(baseUrl: string, prefix = 'erp_t'): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      // The server's pool has been ended, but its sockets may still be closing: give them a moment
      // before forcing, so no backend is killed under a live client.
      for (let i = 0; i < 40; i++) {
        const { rows } = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * Starts the real server in this process on a free port, on SQLite in a temp folder, or on a
 * fresh PostgreSQL database when `databaseUrl` (or env DATABASE_URL with opts.postgres) is given.
 * Serves the production client build from dist/client when present (or from `clientDir`, a
 * build made elsewhere, e.g. a bench's own build that must not touch dist/client).
 */
export async function startTestServer(
  opts: { dataDir?: string; env?: Record<string, string>; databaseUrl?: string; schemasDir?: string; clientDir?: string } = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'erp-test-'));
  const pgBase = opts.databaseUrl ?? opts.env?.DATABASE_URL;
  const pgDb = pgBase ? await freshPostgres(pgBase) : undefined;
  const config: ServerConfig = {
    host: '127.0.0.1',
    port: 0,
    dataDir,
    databaseUrl: pgDb?.url,
    jwtSecret: opts.env?.ERP_JWT_SECRET,
    uploadLimit: opts.env?.ERP_UPLOAD_LIMIT ? Number(opts.env.ERP_UPLOAD_LIMIT) : 5 * 1024 * 1024,
    clientDir: opts.clientDir ?? path.join(REPO_ROOT, 'dist/client'),
    logRequests: false,
  };
  const server = await createServer(config, { schemasDir: opts.schemasDir, quiet: true });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const address = server.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    databaseUrl: pgDb?.url,
    services: server.services,
    async close() {
      // Whatever the suite did, the reports' materialized views must still equal their live views.
      const drift = await materializedDrift(server.services.store.db, server.services.registry);
      await server.close();
      await pgDb?.drop();
      // A temp folder this helper made is removed with the server; a given dataDir is the caller's.
      if (!opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      if (drift.length) throw new Error(`materialized views drifted from their live views:\n${drift.join('\n')}`);
    },
  };
}

/** The databases a suite runs on: SQLite always, PostgreSQL too when DATABASE_URL is set. */
export function databases(): { name: string; databaseUrl?: string }[] {
  const list: { name: string; databaseUrl?: string }[] = [{ name: 'sqlite' }];
  if (process.env.DATABASE_URL) list.push({ name: 'postgres', databaseUrl: process.env.DATABASE_URL });
  return list;
}
