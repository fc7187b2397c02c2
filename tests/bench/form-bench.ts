/**
 * Form benchmark (figures only, never asserted): builds the client in production mode with the
 * bench page of tests/bench/client/ as its entry, serves it on loopback and opens a
 * 200-field form in headless Debian chromium. Prints time to first render and keystroke
 * input-to-next-paint p50/p95, for our form and for the stock @rjsf/antd theme. The page is timed
 * from outside, with selectors only: the probe of tests/bench/client/probe.ts is injected into it.
 *
 *   npx tsx tests/bench/form-bench.ts        (or import { runFormBench } from npm run bench)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBenchPages, percentile, serveDir } from './client/static.ts';
import { installPaintProbe, typeAndTime, waitForPaintOf } from './client/probe.ts';
import { BENCH_FIELD_COUNT, fieldName } from './client/benchResource.ts';
import { chromium, type JSHandle, type Page } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const KEYSTROKES = 60;
const KEY_GAP_MS = 40;
const COMMITS = 5;
const RUNS = 5;

/** The page as the driver sees it (tests/bench/client/bench.tsx): selectors only. */
const OPEN_BUTTON = '[data-bench="open"]';
const OPEN_READY = '[data-bench="open"][data-bench-ready]';
const LAST_FIELD = fieldName(BENCH_FIELD_COUNT - 1);
/** The last of the 200 field boxes: ours `.erp-field` (its editor may still be a placeholder), stock the input. */
const lastFieldOf = (variant: string) => (variant === 'stock' ? `#root_${LAST_FIELD}` : `.erp-field[data-field="${LAST_FIELD}"]`);
const TYPED_FIELD = '#root_f002';

export interface FormBenchFigures {
  variant: string;
  firstRenderMs: number[];
  keyP50: number;
  keyP95: number;
  paintP50: number;
  paintP95: number;
  commitP50: number;
}

interface RunFigures {
  firstRender: number;
  keys: number[];
  keyPaints: number[];
  commits: number[];
}

async function buildBench(outDir: string): Promise<void> {
  await buildBenchPages(outDir, ['bench.html']);
}

/**
 * Tab (blur: the field commits to the form) → the next frame. The driver's own one-shot listener,
 * installed before the key is pressed; the handle holds the promise of its figure.
 */
async function timeTab(page: Page): Promise<number> {
  const pending = (await page.evaluateHandle(`(() => {
    const stop = new AbortController();
    const done = new Promise((resolve) => {
      document.addEventListener('keydown', (event) => {
        if (event.key !== 'Tab') return;
        stop.abort();
        const began = event.timeStamp;
        requestAnimationFrame(() => resolve(performance.now() - began));
      }, { capture: true, signal: stop.signal });
    });
    return { done };
  })()`)) as JSHandle<{ done: Promise<number> }>;
  try {
    await page.keyboard.press('Tab');
    return await pending.evaluate((holder) => holder.done);
  } finally {
    await pending.dispose();
  }
}

async function measure(page: Page, url: string, variant: string): Promise<RunFigures> {
  await page.goto(`${url}/bench.html?variant=${variant}`);
  await page.waitForSelector(OPEN_READY, { timeout: 60_000 });
  await page.waitForTimeout(300);
  const button = await page.locator(OPEN_BUTTON).boundingBox();
  if (!button) throw new Error(`${OPEN_BUTTON} has no box`);
  // The clock starts on the page just before the click (a mouse press and release away).
  const start = (await page.evaluate('performance.now()')) as number;
  await page.mouse.click(button.x + button.width / 2, button.y + button.height / 2);
  const painted = await waitForPaintOf(page, lastFieldOf(variant));
  const firstRender = painted - start;
  // Typing starts once the dialog has settled (open animation, editors mounted ahead of scrolling).
  await page.waitForTimeout(1000);
  await page.click(TYPED_FIELD);
  await page.waitForSelector(`${TYPED_FIELD}:focus`, { timeout: 10_000 });
  await page.waitForTimeout(100);
  const typed = await typeAndTime(page, KEYSTROKES, KEY_GAP_MS);
  // The keys went into the field (not somewhere the form ignores).
  const value = await page.inputValue(TYPED_FIELD);
  if (value.length !== KEYSTROKES) throw new Error(`${TYPED_FIELD} holds ${JSON.stringify(value)} after ${KEYSTROKES} keys`);
  const commits: number[] = [];
  if (variant !== 'stock') {
    // Commit (blur): the one moment our form re-renders as a whole.
    for (let i = 0; i < COMMITS; i += 1) {
      await page.click(`#root_${fieldName(10 * i + 9)}`);
      await page.keyboard.press('x');
      commits.push(await timeTab(page));
      await page.waitForTimeout(100);
    }
  }
  return { firstRender, keys: typed.keys, keyPaints: typed.keyPaints, commits };
}

/**
 * Three setups: ours and stock in a browser that paints at 60 Hz like a display (a key waits for
 * the next vsync, up to 16.7 ms, whatever the page does), and ours again with the frame-rate limit
 * off, so "next frame" comes as soon as the page's own work for the key is done.
 */
const SETUPS = [
  { variant: 'ours', unthrottled: false },
  { variant: 'stock', unthrottled: false },
  { variant: 'ours', unthrottled: true },
];

export async function runFormBench(): Promise<FormBenchFigures[]> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-form-bench-'));
  await buildBench(outDir);
  const server = await serveDir(outDir);
  const figures: FormBenchFigures[] = [];
  try {
    for (const { variant, unthrottled } of SETUPS) {
      const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-form-bench-profile-'));
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        viewport: { width: 1440, height: 900 },
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          ...(unthrottled ? ['--disable-frame-rate-limit', '--disable-gpu-vsync'] : []),
        ],
      });
      await installPaintProbe(context);
      const firstRenderMs: number[] = [];
      const keys: number[] = [];
      const paints: number[] = [];
      const commits: number[] = [];
      try {
        for (let run = 0; run < RUNS; run += 1) {
          const page = await context.newPage();
          const measured = await measure(page, server.url, variant);
          firstRenderMs.push(measured.firstRender);
          if (process.env.FORM_BENCH_DEBUG) console.log(variant, measured.keys.map((v) => v.toFixed(0)).join(' '));
          keys.push(...measured.keys);
          paints.push(...measured.keyPaints);
          commits.push(...measured.commits);
          await page.close();
        }
      } finally {
        await context.close();
        fs.rmSync(profile, { recursive: true, force: true });
      }
      figures.push({
        variant: unthrottled ? `${variant}-unthrottled` : variant,
        firstRenderMs,
        keyP50: percentile(keys, 50),
        keyP95: percentile(keys, 95),
        paintP50: percentile(paints, 50),
        paintP95: percentile(paints, 95),
        commitP50: percentile(commits, 50),
      });
    }
  } finally {
    server.close();
    fs.rmSync(outDir, { recursive: true, force: true });
  }
  return figures;
}

export function showFormBench(figures: FormBenchFigures[]): void {
  const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : 'n/a');
  console.log(`\n200-field form (production build, headless chromium, ${RUNS} runs, ${KEYSTROKES} keys per run; first render = dialog opened → 200 fields painted)`);
  for (const figure of figures) {
    const label = { ours: 'ours (FormDialog)', stock: 'stock @rjsf/antd', 'ours-unthrottled': 'ours, no 60 Hz cap' }[figure.variant] ?? figure.variant;
    const firsts = figure.firstRenderMs.map(ms).join(', ');
    console.log(`  ${label.padEnd(20)} first render median ${ms(percentile(figure.firstRenderMs, 50))} (runs: ${firsts})`);
    console.log(`  ${''.padEnd(20)} keystroke → next frame p50 ${ms(figure.keyP50)} p95 ${ms(figure.keyP95)}; → after paint p50 ${ms(figure.paintP50)} p95 ${ms(figure.paintP95)}` +
      (figure.variant.startsWith('ours') ? `; blur commit → next frame p50 ${ms(figure.commitP50)}` : ''));
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  runFormBench().then(showFormBench, (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
