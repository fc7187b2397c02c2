import type { FastifyInstance } from 'fastify';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerConfig } from './config.ts';
import { openDatabase, optimize } from './db/connect.ts';
import { syncTable, syncView } from './db/ddl.ts';
import { seed } from './db/seed.ts';
import { dropPlainViews, syncMaterialized } from './engine/materialized.ts';
import { loadRegistry } from './engine/registry.ts';
import { JwtSigner, loadSecret } from './auth/jwt.ts';
import { Services } from './services.ts';
import { registerSystemHandlers } from './system/index.ts';
import { createHttpApp } from './http/app.ts';
import { recoverExportJobs, stopExportJobs } from './files/export-jobs.ts';
import { joinCluster, underStartupLock, type Cluster } from './db/cluster.ts';
import { seedDemoCompany } from './db/demo.ts';
import { startScheduler } from './system/tasks.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Server {
  app: FastifyInstance;
  services: Services;
  close(): Promise<void>;
}

/** Opens the database, brings tables up to the schemas, seeds, and builds the HTTP app. */
export async function createServer(config: ServerConfig, opts: { schemasDir?: string; quiet?: boolean } = {}): Promise<Server> {
  const registry = loadRegistry(opts.schemasDir ?? path.join(REPO_ROOT, 'schemas'));
  const database = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const log = (level: 'info' | 'warn' | 'error', msg: string, extra?: Record<string, unknown>) => {
    if (opts.quiet && level === 'info') return;
    const line = `[${new Date().toISOString()}] ${level.toUpperCase()} ${msg}${extra ? ` ${JSON.stringify(extra)}` : ''}`;
    (level === 'error' ? console.error : console.log)(line);
  };
  let cluster: Cluster | undefined;
  let services: Services | undefined;
  // Another node's committed writes: drop what this node cached from those tables.
  const invalidateFromPeer = (tables: string[]) => {
    if (!services) return;
    for (const table of tables) services.store.invalidate(table);
    services.perms.invalidateAll();
  };
  try {
    // Nodes on one PostgreSQL database: one id number each, and each other's writes seen at once.
    const shared = database.kind === 'postgres' && config.databaseUrl ? config.databaseUrl : undefined;
    if (shared) cluster = await joinCluster(shared, invalidateFromPeer, (msg) => log('warn', msg));
    let fresh = false;
    const start = async () => {
      await dropPlainViews(database, registry);
      for (const model of [...registry.models.values(), ...Object.values(registry.internal)]) await syncTable(database, model);
      for (const model of registry.models.values()) await syncView(database, model);
      await syncMaterialized(database, registry, (msg) => log('info', msg));
      services = new Services(config, database, registry, new JwtSigner(loadSecret(config.dataDir, config.jwtSecret)), log);
      registerSystemHandlers(services);
      fresh = await seed(services);
      for (const model of registry.models.values()) await services.store.recount(model);
      await optimize(database, { mergeAbove: 1 });
      return services;
    };
    // Nodes started together take turns creating tables and seeding.
    const ready = shared ? await underStartupLock(shared, start) : await start();
    services = ready;
    if (cluster) ready.store.publish = (tables) => cluster!.publish(tables);
    // Exports that were running when the server stopped cannot go on: they are marked failed.
    await recoverExportJobs(ready);
    // The usual log records service events (start-up here; tenant creation and imports elsewhere).
    await ready.store.insert(ready.m('log-usual'), { tenantId: '000000', userId: '0' }, {
      serviceId: 'erp-console', logLevel: 'INFO', logId: 'startup', logData: `服务启动（${database.kind}）`,
      method: 'START', requestUri: '', createBy: 'system',
    }).catch((error: unknown) => log('warn', 'usual log write failed', { error: String(error) }));
    // 系统任务: planner statistics as tables grow (contains-search plans depend on them), expired
    // sessions and codes, old exports — each on its interval, claimed by one node.
    const stopScheduler = config.scheduler ? startScheduler(ready) : () => undefined;
    const app = await createHttpApp(ready, { logger: config.logRequests });
    // A new installation shows a living company (README → Demo company); a failure leaves it empty.
    if (fresh && config.demo) await seedDemoCompany(app, (msg) => log('info', msg)).catch((error: unknown) => log('warn', `demo company not created: ${String(error)}`));
    return {
      app,
      services: ready,
      async close() {
        stopScheduler();
        await app.close();
        await stopExportJobs(ready);
        await cluster?.close();
        await database.close();
      },
    };
  } catch (error) {
    await cluster?.close();
    await database.close();
    throw error;
  }
}
