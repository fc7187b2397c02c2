import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { configFromEnv } from './config.ts';
import { createServer, REPO_ROOT } from './app.ts';
import { SchemaChangeRefused } from './db/ddl.ts';

/** `npm start`: build the client if there is no build, then serve it and /api from one process. */
async function main() {
  const started = Date.now();
  const config = configFromEnv();
  if (!fs.existsSync(path.join(config.clientDir, 'index.html')) && !process.env.ERP_SKIP_CLIENT_BUILD) {
    console.log('未找到前端构建产物，正在构建（vite build）…');
    const result = spawnSync(process.execPath, [path.join(REPO_ROOT, 'node_modules/vite/bin/vite.js'), 'build'], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
    });
    if (result.status !== 0) {
      console.error('前端构建失败；API 仍会启动。修复后重新运行 npm start。');
    }
  }
  let server;
  try {
    server = await createServer(config);
  } catch (error) {
    if (error instanceof SchemaChangeRefused) {
      console.error(`\n数据库结构变更被拒绝：\n${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  await server.app.listen({ host: config.host, port: config.port });
  const address = server.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const db = config.databaseUrl ? 'PostgreSQL' : `SQLite ${path.join(config.dataDir, 'erp.sqlite')}`;
  console.log(`\nERP 控制台已启动: http://${config.host}:${port}/`);
  console.log(`演示登录: 租户 000000, 账号 admin, 密码 admin   (数据库: ${db})`);
  console.log(`启动耗时 ${Date.now() - started} ms\n`);
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
