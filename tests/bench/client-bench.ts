/**
 * `npm run bench -- client` (issue 17): client speed, printed only, never asserted.
 *  - Bench pages (tests/bench/client/pages.tsx, production build in a temporary folder):
 *    `?page=form200` with its editors mounting as they come into view (the renderer's default)
 *    and with all 200 mounted (`&mount=all`), `?page=crud200`, `?page=crud10k`. Per page, from
 *    cold loads in fresh browser profiles: navigation → first field / field #200 / first row
 *    painted, JS+CSS shipped (gzip), and for the form keydown → next frame (and → after that
 *    frame's paint) for 20 keys 100 ms apart typed into field #150, median and p95.
 *  - The app itself (tests/bench/client-routes.ts, its own build served by the API server):
 *    JS+CSS before the sign-in page works and before the customer list paints its first row.
 * Figures go to `.bench/client.json`; the previous run's file, when present, is shown beside them.
 *
 *   npx tsx tests/bench/client-bench.ts [--runs 5]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { assetsRequestedBefore, openColdPage, waitForPaintOf } from './client/probe.ts';
import { OUR_FIRST_FIELD, OUR_FIRST_ROW, typeIntoOurField150 } from './client/ourPages.ts';
import { buildBenchPages, gzipKiB, percentile, serveDir } from './client/static.ts';
import { measureRoutes, type RouteFigures } from './client-routes.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const RESULTS = path.join(ROOT, '.bench/client.json');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
const KEYS = 20;
const KEY_GAP_MS = 100;

interface PageFigures {
  page: string;
  /** gzip KiB of the JS and CSS the page loaded. */
  shippedKiB: number;
  firstPaintMs: number[];
  lastPaintMs?: number[];
  keyP50?: number;
  keyP95?: number;
  keyPaintP50?: number;
  keyPaintP95?: number;
}

interface Results {
  date: string;
  runs: number;
  pages: PageFigures[];
  routes?: { loginKiB: number; customerListKiB: number; customerListPaintMs: number };
}

const PAGES = [
  { name: 'form200', query: 'page=form200', first: OUR_FIRST_FIELD, last: '[data-field-index="200"]' },
  { name: 'form200 (all mounted)', query: 'page=form200&mount=all', first: OUR_FIRST_FIELD, last: '[data-field-index="200"] input' },
  { name: 'crud200', query: 'page=crud200', first: OUR_FIRST_ROW },
  { name: 'crud10k', query: 'page=crud10k', first: OUR_FIRST_ROW },
];


async function measurePage(url: string, outDir: string, spec: (typeof PAGES)[number]): Promise<PageFigures> {
  const firstPaintMs: number[] = [];
  const lastPaintMs: number[] = [];
  const keys: number[] = [];
  const keyPaints: number[] = [];
  let shipped = 0;
  for (let run = 0; run < RUNS; run += 1) {
    const { page, close } = await openColdPage();
    try {
      await page.goto(`${url}/pages.html?${spec.query}`);
      const first = await waitForPaintOf(page, spec.first);
      firstPaintMs.push(first);
      const last = spec.last ? await waitForPaintOf(page, spec.last) : first;
      if (spec.last) lastPaintMs.push(last);
      // What the page needed to show itself (a list then loads the form engine in idle time).
      shipped = gzipKiB(outDir, new Set(await assetsRequestedBefore(page, last)));
      if (spec.name.startsWith('form200')) {
        const typed = await typeIntoOurField150(page, KEYS, KEY_GAP_MS);
        keys.push(...typed.keys);
        keyPaints.push(...typed.keyPaints);
      }
    } finally {
      await close();
    }
  }
  return {
    page: spec.name,
    shippedKiB: shipped,
    firstPaintMs,
    ...(lastPaintMs.length ? { lastPaintMs } : {}),
    ...(keys.length
      ? { keyP50: percentile(keys, 50), keyP95: percentile(keys, 95), keyPaintP50: percentile(keyPaints, 50), keyPaintP95: percentile(keyPaints, 95) }
      : {}),
  };
}

/** The app's own routes, on a build of its own (the API server serves it from a temporary folder). */
async function measureAppRoutes(): Promise<RouteFigures> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-client-bench-app-'));
  try {
    await build({ configFile: path.join(ROOT, 'vite.config.ts'), mode: 'production', logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    return await measureRoutes(outDir);
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

const fmt = (value: number | undefined, digits = 0) => (value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits));
const median = (values: number[] | undefined) => (values?.length ? percentile(values, 50) : undefined);

function show(results: Results, previous: Results | undefined): void {
  const before = (name: string) => previous?.pages.find((page) => page.page === name);
  console.log(`\nClient bench pages (production build, headless chromium, ${results.runs} cold loads each; ms from navigation; keys: ${KEYS} into field #150, ${KEY_GAP_MS} ms apart)`);
  console.log('page                    JS+CSS gzip   first paint   field #200    key→frame p50/p95   key→painted p50/p95');
  for (const page of results.pages) {
    const was = before(page.page);
    const line = [
      page.page.padEnd(22),
      `${fmt(page.shippedKiB)} KiB`.padStart(10),
      `${fmt(median(page.firstPaintMs))} ms`.padStart(13),
      `${fmt(median(page.lastPaintMs))} ms`.padStart(13),
      `${fmt(page.keyP50, 1)} / ${fmt(page.keyP95, 1)} ms`.padStart(20),
      `${fmt(page.keyPaintP50, 1)} / ${fmt(page.keyPaintP95, 1)} ms`.padStart(22),
    ].join(' ');
    console.log(line);
    if (was) {
      console.log(
        `  previous (${previous!.date})`.padEnd(23) +
          [`${fmt(was.shippedKiB)} KiB`.padStart(10), `${fmt(median(was.firstPaintMs))} ms`.padStart(13), `${fmt(median(was.lastPaintMs))} ms`.padStart(13), `${fmt(was.keyP50, 1)} / ${fmt(was.keyP95, 1)} ms`.padStart(20)].join(' '),
      );
    }
  }
  if (results.routes) {
    const { loginKiB, customerListKiB, customerListPaintMs } = results.routes;
    console.log(`\nThe app (cold cache): sign-in page ${fmt(loginKiB)} KiB JS+CSS gzip; customer list ${fmt(customerListKiB)} KiB, first row painted at ${fmt(customerListPaintMs)} ms`);
    if (previous?.routes) console.log(`  previous (${previous.date}): sign-in ${fmt(previous.routes.loginKiB)} KiB; customer list ${fmt(previous.routes.customerListKiB)} KiB, ${fmt(previous.routes.customerListPaintMs)} ms`);
  }
}

async function main(): Promise<void> {
  const previous = fs.existsSync(RESULTS) ? (JSON.parse(fs.readFileSync(RESULTS, 'utf8')) as Results) : undefined;
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-client-bench-pages-'));
  const results: Results = { date: new Date().toISOString(), runs: RUNS, pages: [] };
  try {
    await buildBenchPages(outDir, ['pages.html']);
    const server = await serveDir(outDir);
    try {
      for (const spec of PAGES) results.pages.push(await measurePage(server.url, outDir, spec));
    } finally {
      server.close();
    }
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
  if (process.env.CLIENT_BENCH_APP !== '0') {
    const routes = await measureAppRoutes();
    results.routes = { loginKiB: routes.login.gzipBytes / 1024, customerListKiB: routes.customerList.gzipBytes / 1024, customerListPaintMs: routes.customerList.paintMs };
  }
  show(results, previous);
  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  fs.writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
