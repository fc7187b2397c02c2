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
  try {
    await dropPlainViews(database, registry);
    for (const model of [...registry.models.values(), ...Object.values(registry.internal)]) await syncTable(database, model);
    for (const model of registry.models.values()) await syncView(database, model);
    await syncMaterialized(database, registry, (msg) => log('info', msg));
    const services = new Services(config, database, registry, new JwtSigner(loadSecret(config.dataDir, config.jwtSecret)), log);
    registerSystemHandlers(services);
    await seed(services);
    for (const model of registry.models.values()) await services.store.recount(model);
    await optimize(database, { mergeAbove: 1 });
    // Exports that were running when the server stopped cannot go on: they are marked failed.
    await recoverExportJobs(services);
    // The usual log records service events (start-up here; tenant creation and imports elsewhere).
    await services.store.insert(services.m('log-usual'), { tenantId: '000000', userId: '0' }, {
      serviceId: 'erp-console', logLevel: 'INFO', logId: 'startup', logData: `服务启动（${database.kind}）`,
      method: 'START', requestUri: '', createBy: 'system',
    }).catch((error: unknown) => log('warn', 'usual log write failed', { error: String(error) }));
    // Keep planner statistics current as tables grow (contains-search plans depend on them).
    const timer = setInterval(() => optimize(database).catch(() => undefined), 10 * 60_000);
    timer.unref();
    const app = await createHttpApp(services, { logger: config.logRequests });
    return {
      app,
      services,
      async close() {
        clearInterval(timer);
        await app.close();
        await stopExportJobs(services);
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
