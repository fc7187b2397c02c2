/**
 * Form benchmark (figures only, never asserted): builds the client in production mode with the
 * bench page of tests/bench/client/ as its entry, serves it on loopback and opens a
 * 200-field form in headless Debian chromium. Prints time to first render and keystroke
 * input-to-next-paint p50/p95, for our form and for the stock @rjsf/antd theme.
 *
 *   npx tsx tests/bench/form-bench.ts        (or import { runFormBench } from npm run bench)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBenchPages, percentile, serveDir } from './client/static.ts';
import { chromium, type Page } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const KEYSTROKES = 60;
const RUNS = 5;

interface BenchState {
  warm: boolean;
  firstRender?: number;
  latencies: number[];
  paintLatencies: number[];
  commitLatencies: number[];
}

export interface FormBenchFigures {
  variant: string;
  firstRenderMs: number[];
  keyP50: number;
  keyP95: number;
  paintP50: number;
  paintP95: number;
  commitP50: number;
}

async function buildBench(outDir: string): Promise<void> {
  await buildBenchPages(outDir, ['bench.html']);
}

async function typeInto(page: Page, selector: string, keys: number): Promise<void> {
  await page.click(selector);
  await page.waitForTimeout(100);
  await page.evaluate(() => ((window as unknown as { __bench: { recording: boolean } }).__bench.recording = true));
  for (let i = 0; i < keys; i += 1) {
    await page.keyboard.press(String.fromCharCode(97 + (i % 26)));
    // One key per frame or two, as a fast typist.
    await page.waitForTimeout(40);
  }
  await page.evaluate(() => ((window as unknown as { __bench: { recording: boolean } }).__bench.recording = false));
}

async function measure(page: Page, url: string, variant: string): Promise<{ firstRender: number; state: BenchState }> {
  await page.goto(`${url}/bench.html?variant=${variant}`);
  await page.waitForFunction(() => (window as unknown as { __bench: BenchState }).__bench.warm, null, { timeout: 60_000 });
  await page.waitForTimeout(300);
  await page.evaluate(() => (window as unknown as { __openBench(): void }).__openBench());
  await page.waitForFunction(() => (window as unknown as { __bench: BenchState }).__bench.firstRender !== undefined, null, { timeout: 60_000 });
  // Typing starts once the dialog has settled (open animation, editors mounted ahead of scrolling).
  await page.waitForTimeout(1000);
  const textInput = variant === 'stock' ? '#root_f002' : '#root_f002';
  await typeInto(page, textInput, KEYSTROKES);
  if (variant !== 'stock') {
    // Commit (blur): the one moment our form re-renders as a whole.
    for (let i = 0; i < 5; i += 1) {
      await page.click(`#root_f0${String(10 * i + 10).padStart(2, '0')}`);
      await page.keyboard.press('x');
      await page.keyboard.press('Tab');
      await page.waitForTimeout(100);
    }
  }
  await page.waitForTimeout(200);
  const state = await page.evaluate(() => (window as unknown as { __bench: BenchState }).__bench);
  return { firstRender: state.firstRender ?? Number.NaN, state };
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
      const firstRenderMs: number[] = [];
      const keys: number[] = [];
      const paints: number[] = [];
      const commits: number[] = [];
      try {
        for (let run = 0; run < RUNS; run += 1) {
          const page = await context.newPage();
          const { firstRender, state } = await measure(page, server.url, variant);
          firstRenderMs.push(firstRender);
          if (process.env.FORM_BENCH_DEBUG) console.log(variant, state.latencies.map((v) => v.toFixed(0)).join(' '));
          keys.push(...state.latencies);
          paints.push(...state.paintLatencies);
          commits.push(...state.commitLatencies);
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
