import path from 'node:path';

/** Everything the server reads from the environment, in one place (documented in README). */
export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  jwtSecret?: string;
  /** Upload size limit in bytes (5M default, as the spec says). */
  uploadLimit: number;
  /** Where the built client lives; served as static files when present. */
  clientDir: string;
  /** Log each request (off in tests). */
  logRequests: boolean;
  /** Fill a fresh database's tenant 000000 with the demo company (ERP_DEMO=0: start empty; off in tests). */
  demo?: boolean;
  /** Run 系统任务 on their intervals (off in tests, which run them when they mean to). */
  scheduler?: boolean;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const root = process.cwd();
  return {
    host: env.HOST || '127.0.0.1',
    port: env.PORT ? Number(env.PORT) : 8080,
    dataDir: path.resolve(root, env.ERP_DATA_DIR || 'data'),
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: env.ERP_JWT_SECRET || undefined,
    uploadLimit: env.ERP_UPLOAD_LIMIT ? Number(env.ERP_UPLOAD_LIMIT) : 5 * 1024 * 1024,
    clientDir: path.resolve(root, env.ERP_CLIENT_DIR || 'dist/client'),
    logRequests: env.ERP_LOG_REQUESTS === '1',
    demo: env.ERP_DEMO !== '0',
    scheduler: true,
  };
}
