/**
 * What the real app ships per route (issue 17), on the production build in `dist/client` served by
 * the API server: the JS and CSS a cold browser starts to fetch before
 *  - the login page accepts input, and
 *  - the customer list (客户资料, signed in, cache cleared) has painted its first row,
 * in gzip bytes (level 9) with the file list, and the time from navigation to that first row. Used
 * by `npm run bench -- client` (tests/bench/client-bench.ts); alone, on dist/client:
 * `npx tsx tests/bench/client-routes.ts` (SHOW_FILES=n lists the n largest files).
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchBrowser } from '../e2e/support/browser.ts';
import { startTestServer } from '../support/server.ts';
import { assetsRequestedBefore, installPaintProbe, waitForPaintOf } from './client/probe.ts';


export interface RouteLoad {
  /** gzip bytes of the JS and CSS files loaded. */
  gzipBytes: number;
  files: { name: string; gzip: number }[];
  /** navigation start → the awaited element painted. */
  paintMs: number;
}

export interface RouteFigures {
  login: RouteLoad;
  customerList: RouteLoad;
}

function gzipSizeOf(clientDir: string, urlPath: string): number {
  const file = path.join(clientDir, urlPath);
  return fs.existsSync(file) ? gzipSync(fs.readFileSync(file), { level: 9 }).length : 0;
}

function sizes(clientDir: string, paths: string[]): RouteLoad['files'] {
  return [...new Set(paths)].map((name) => ({ name, gzip: gzipSizeOf(clientDir, name) })).sort((x, y) => y.gzip - x.gzip);
}

const sum = (files: RouteLoad['files']) => files.reduce((total, file) => total + file.gzip, 0);

/** `clientDir`: a production build of the client (dist/client by default). */
export async function measureRoutes(clientDir = path.resolve(import.meta.dirname, '../../dist/client')): Promise<RouteFigures> {
  // The demo company: its customer list has rows to paint.
  const server = await startTestServer({ demo: true, clientDir });
  const browser = await launchBrowser();
  try {
    const { page, context } = browser;
    await installPaintProbe(context);
    await page.goto(`${server.url}/login`);
    const loginPaint = await waitForPaintOf(page, 'input[placeholder="用户名"]');
    await page.getByPlaceholder('用户名').fill('admin');
    const loginFiles = sizes(clientDir, await assetsRequestedBefore(page, loginPaint));

    await page.getByPlaceholder('密码').fill('admin');
    await page.getByRole('button', { name: '登录' }).click();
    await page.waitForSelector('[data-testid=sidebar] .ant-menu', { timeout: 30_000 });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await page.goto(`${server.url}/base/customer`);
    const listPaint = await waitForPaintOf(page, '.erp-grid-row[row-index="0"]');
    // What was needed for the first row (the form engine then loads in idle time, not counted).
    const listFiles = sizes(clientDir, await assetsRequestedBefore(page, listPaint));
    return {
      login: { gzipBytes: sum(loginFiles), files: loginFiles, paintMs: loginPaint },
      customerList: { gzipBytes: sum(listFiles), files: listFiles, paintMs: listPaint },
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureRoutes();
  for (const [name, load] of Object.entries(figures)) {
    console.log(`${name}: ${(load.gzipBytes / 1024).toFixed(0)} KiB gzip in ${load.files.length} files, painted at ${load.paintMs.toFixed(0)} ms`);
    for (const file of load.files.slice(0, Number(process.env.SHOW_FILES ?? 15))) console.log(`  ${(file.gzip / 1024).toFixed(1).padStart(7)} KiB ${file.name}`);
  }
}
