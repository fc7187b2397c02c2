/**
 * The client bench's pages built in amis 6.13 (issue 17 sets its goals against amis), measured on
 * this machine with the same probe and method as `npm run bench -- client`: a cold Chromium profile
 * per load, navigation → the first row (or field) painted, 20 keys typed 100 ms apart into field
 * #150 (keydown → next frame), the JS+CSS requested before the paint (gzip level 9), files served
 * uncompressed from localhost as ours are. Same content: `crud200` / `crud10k` (20 text columns
 * 列1…列20 plus the row number, a 5-field search form, every row on one page, the rows made inside
 * the page), `form200` (the 200 fields of `pagesResource.ts`: 120 text, 30 number, 30 select of 5,
 * 20 date, 字段1…字段200, every 4th required, two columns).
 *
 * `npx tsx tests/bench/amis-compare.ts [--runs 5]`. The first run installs amis@6.13.0 into
 * <tmpdir>/erp-bench-amis (npm, ~20 s; amis is not a dependency of the product). Prints amis's
 * figures beside ours from `.bench/client.json` (the last `npm run bench -- client`).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { assetsRequestedBefore, openColdPage, typeAndTime, waitForPaintOf } from './client/probe.ts';
import { gzipKiB, percentile, serveDir } from './client/static.ts';
import { CRUD_COLUMNS, FORM_FIELDS, kindOf } from './client/pagesResource.ts';

const AMIS_VERSION = '6.13.0';
const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const KEYS = 20;
const KEY_GAP_MS = 100;
const ROOT = path.resolve(import.meta.dirname, '../..');

function installAmis(): string {
  const dir = path.join(os.tmpdir(), 'erp-bench-amis');
  const sdk = path.join(dir, 'node_modules/amis/sdk');
  if (!fs.existsSync(path.join(sdk, 'sdk.js'))) {
    fs.mkdirSync(dir, { recursive: true });
    console.log(`installing amis@${AMIS_VERSION} into ${dir}…`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', dir, `amis@${AMIS_VERSION}`], { stdio: 'inherit' });
  }
  return sdk;
}

/** The page script: the schema of `?page=…`, rows made in the page as our bench page makes them. */
const PAGE_SCRIPT = `
const page = new URLSearchParams(location.search).get('page') || 'crud200';
const columns = ${CRUD_COLUMNS};
const col = (n) => 'c' + String(n).padStart(2, '0');
function crud(count) {
  const rows = [];
  for (let i = 0; i < count; i += 1) {
    const row = { id: String(i + 1) };
    for (let n = 1; n <= columns; n += 1) row[col(n)] = '行' + (i + 1) + '列' + n;
    rows.push(row);
  }
  return {
    type: 'page', data: { rows },
    body: {
      type: 'crud', source: '\${rows}', perPage: count, syncLocation: false,
      filter: { title: '', body: Array.from({ length: 5 }, (_, i) => ({ type: 'input-text', name: col(i + 1), label: '列' + (i + 1) })) },
      columns: [{ name: 'id', label: '序号' }, ...Array.from({ length: columns }, (_, i) => ({ name: col(i + 1), label: '列' + (i + 1), width: 120 }))],
    },
  };
}
const KINDS = ${JSON.stringify(Array.from({ length: FORM_FIELDS }, (_, i) => kindOf(i + 1)))};
function form() {
  const body = KINDS.map((kind, i) => {
    const n = i + 1;
    const field = { name: 'f' + String(n).padStart(3, '0'), label: '字段' + n, required: n % 4 === 0 };
    if (kind === 'number') return { ...field, type: 'input-number' };
    if (kind === 'select') return { ...field, type: 'select', options: ['选项1', '选项2', '选项3', '选项4', '选项5'] };
    if (kind === 'date') return { ...field, type: 'input-date' };
    return { ...field, type: 'input-text', maxLength: 64 };
  });
  return { type: 'page', body: { type: 'form', title: '表单基准', columnCount: 2, body } };
}
const schema = page === 'form200' ? form() : crud(page === 'crud10k' ? 10000 : 200);
amisRequire('amis/embed').embed('#root', schema, {}, { locale: 'zh-CN' });
`;

const PAGE_HTML = `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>amis bench</title>
<link rel="stylesheet" href="sdk/sdk.css"><link rel="stylesheet" href="sdk/helper.css"><link rel="stylesheet" href="sdk/iconfont.css">
<style>html, body, #root { margin: 0; height: 100%; }</style></head>
<body><div id="root"></div><script src="sdk/sdk.js"></script><script src="page.js"></script></body></html>`;

/** The first data row (amis puts a filler row before it). */
const ROW = '.cxd-Table-table > tbody > tr[data-index="0"]';

interface Spec {
  name: string;
  page: string;
  first: string;
  type?: boolean;
}

const SPECS: Spec[] = [
  { name: 'form200', page: 'form200', first: 'input[name="f001"]', type: true },
  { name: 'crud200', page: 'crud200', first: ROW },
  { name: 'crud10k', page: 'crud10k', first: ROW },
];


async function typeIntoField150(page: Page) {
  await page.click('input[name="f150"]');
  await page.waitForTimeout(300);
  const typed = await typeAndTime(page, KEYS, KEY_GAP_MS);
  // The keys went into field #150 (not somewhere the form ignores).
  const value = await page.inputValue('input[name="f150"]');
  if (value.length !== KEYS) throw new Error(`field #150 holds ${JSON.stringify(value)} after ${KEYS} keys`);
  return typed;
}

async function measure(url: string, dir: string, spec: Spec) {
  const paints: number[] = [];
  const keys: number[] = [];
  const keyPaints: number[] = [];
  let shipped = 0;
  for (let run = 0; run < RUNS; run += 1) {
    const { page, close } = await openColdPage();
    try {
      await page.goto(`${url}/index.html?page=${spec.page}`);
      const painted = await waitForPaintOf(page, spec.first);
      paints.push(painted);
      if (spec.first === ROW) {
        const text = await page.locator(ROW).innerText();
        if (!text.includes('行1列1')) throw new Error(`the first row painted is not row 1: ${text.slice(0, 80)}`);
      }
      shipped = gzipKiB(dir, await assetsRequestedBefore(page, painted));
      if (spec.type) {
        const typed = await typeIntoField150(page);
        keys.push(...typed.keys);
        keyPaints.push(...typed.keyPaints);
      }
    } finally {
      await close();
    }
  }
  const p = (values: number[], q: number) => (values.length ? percentile(values, q) : undefined);
  return { name: spec.name, shipped, paint: percentile(paints, 50), keyP50: p(keys, 50), keyP95: p(keys, 95), keyPaintP50: p(keyPaints, 50), keyPaintP95: p(keyPaints, 95) };
}

interface OurPage {
  page: string;
  shippedKiB: number;
  firstPaintMs: number[];
  keyP50?: number;
  keyP95?: number;
  keyPaintP50?: number;
  keyPaintP95?: number;
}

async function main() {
  const sdk = installAmis();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-amis-pages-'));
  fs.symlinkSync(sdk, path.join(dir, 'sdk'));
  fs.writeFileSync(path.join(dir, 'index.html'), PAGE_HTML);
  fs.writeFileSync(path.join(dir, 'page.js'), PAGE_SCRIPT);
  const server = await serveDir(fs.realpathSync(dir));
  const ours = (() => {
    const file = path.join(ROOT, '.bench/client.json');
    return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { date: string; pages: OurPage[] }) : undefined;
  })();
  const fmt = (n: number | undefined) => (n === undefined ? '–' : n.toFixed(n < 100 ? 1 : 0));
  try {
    console.log(`amis ${AMIS_VERSION} bench pages (headless chromium, ${RUNS} cold loads each; medians; ms from navigation; keys: ${KEYS} into field #150, ${KEY_GAP_MS} ms apart)`);
    console.log(`ours: .bench/client.json${ours ? ` of ${ours.date}` : ' (none: run npm run bench -- client first)'}\n`);
    console.log('page       amis JS+CSS   amis paint   ours paint   ours/amis   key→frame p50/p95: amis | ours     key→painted p50/p95: amis | ours');
    for (const spec of SPECS) {
      const amis = await measure(server.url, fs.realpathSync(dir), spec);
      const our = ours?.pages.find((p) => p.page === spec.name);
      const ourPaint = our ? percentile(our.firstPaintMs, 50) : undefined;
      console.log(
        `${spec.name.padEnd(10)} ${`${fmt(amis.shipped)} KiB`.padStart(11)} ${`${fmt(amis.paint)} ms`.padStart(12)} ${`${fmt(ourPaint)} ms`.padStart(12)} ${(ourPaint ? (ourPaint / amis.paint).toFixed(2) : '–').padStart(11)}   ${fmt(amis.keyP50)} / ${fmt(amis.keyP95)} | ${fmt(our?.keyP50)} / ${fmt(our?.keyP95)} ms     ${fmt(amis.keyPaintP50)} / ${fmt(amis.keyPaintP95)} | ${fmt(our?.keyPaintP50)} / ${fmt(our?.keyPaintP95)} ms`,
      );
    }
  } finally {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
