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
 * Ours are measured in the same run, each amis load followed by one of ours (our bench pages built
 * into a temporary folder, as `npm run bench -- client` builds them), so a machine that speeds up or
 * slows down during the run moves both sides alike and the ratio holds.
 *
 * A third page types into the same 200 fields as plain HTML (native inputs, selects and date
 * inputs in two columns, no script of its own): what the browser itself spends on a keystroke into
 * such a form, with nothing of a renderer's on top (not a hard lower bound: layout containment, as
 * our text box has, can do better). Its loads follow ours in each run.
 *
 * `npx tsx tests/bench/amis-compare.ts [--runs 5]`. The first run installs amis@6.13.0 into
 * <tmpdir>/erp-bench-amis (npm, ~20 s; amis is not a dependency of the product).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { assetsRequestedBefore, openColdPage, typeAndTime, waitForPaintOf } from './client/probe.ts';
import { buildBenchPages, gzipKiB, percentile, serveDir } from './client/static.ts';
import { OUR_FIRST_FIELD, OUR_FIRST_ROW, typeIntoOurField150 } from './client/ourPages.ts';
import { CRUD_COLUMNS, FORM_FIELDS, kindOf } from './client/pagesResource.ts';

const AMIS_VERSION = '6.13.0';
const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const KEYS = 20;
const KEY_GAP_MS = 100;

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

/** form200 as plain HTML: the same fields, labels and columns, no framework. */
function plainFormHtml(): string {
  const fields = Array.from({ length: FORM_FIELDS }, (_, i) => {
    const n = i + 1;
    const name = `f${String(n).padStart(3, '0')}`;
    const required = n % 4 === 0 ? ' required' : '';
    const kind = kindOf(n);
    const control =
      kind === 'select'
        ? `<select id="${name}" name="${name}"${required}><option value=""></option>${[1, 2, 3, 4, 5].map((o) => `<option>选项${o}</option>`).join('')}</select>`
        : `<input id="${name}" name="${name}" type="${kind === 'number' ? 'number' : kind === 'date' ? 'date' : 'text'}"${kind === 'text' ? ' maxlength="64"' : ''}${required}>`;
    return `<div class="field"><label for="${name}">${required ? '<b>*</b>' : ''}字段${n}</label>${control}</div>`;
  });
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>plain form</title>
<style>
body { margin: 0; font: 14px sans-serif; }
form { width: 1000px; margin: 24px auto; display: grid; grid-template-columns: 1fr 1fr; gap: 0 24px; }
.field { display: flex; align-items: center; margin-bottom: 16px; }
label { width: 120px; text-align: right; padding-right: 8px; } b { color: #ff4d4f; font-weight: normal; }
input, select { flex: auto; height: 32px; box-sizing: border-box; padding: 4px 11px; border: 1px solid #d9d9d9; border-radius: 6px; }
</style></head>
<body><form>${fields.join('')}</form></body></html>`;
}

/** The first data row (amis puts a filler row before it). */
const ROW = '.cxd-Table-table > tbody > tr[data-index="0"]';

interface Spec {
  name: string;
  page: string;
  first: string;
  ourFirst: string;
  type?: boolean;
}

const SPECS: Spec[] = [
  { name: 'form200', page: 'form200', first: 'input[name="f001"]', ourFirst: OUR_FIRST_FIELD, type: true },
  { name: 'crud200', page: 'crud200', first: ROW, ourFirst: OUR_FIRST_ROW },
  { name: 'crud10k', page: 'crud10k', first: ROW, ourFirst: OUR_FIRST_ROW },
];

/** Types into field #150 of amis's page or the plain page (both name their inputs f001…f200). */
async function typeIntoNamedField150(page: Page) {
  await page.click('input[name="f150"]');
  await page.waitForTimeout(300);
  const typed = await typeAndTime(page, KEYS, KEY_GAP_MS);
  // The keys went into field #150 (not somewhere the form ignores).
  const value = await page.inputValue('input[name="f150"]');
  if (value.length !== KEYS) throw new Error(`field #150 holds ${JSON.stringify(value)} after ${KEYS} keys`);
  return typed;
}

interface Side {
  paints: number[];
  keys: number[];
  keyPaints: number[];
  shipped: number;
}

/** One cold load of a page: its paint, what it shipped, and its keys when `spec.type`. */
async function load(side: Side, url: string, dir: string, first: string, type: ((page: Page) => Promise<{ keys: number[]; keyPaints: number[] }>) | undefined, check?: (page: Page) => Promise<void>) {
  const { page, close } = await openColdPage();
  try {
    await page.goto(url);
    const painted = await waitForPaintOf(page, first);
    side.paints.push(painted);
    await check?.(page);
    side.shipped = gzipKiB(dir, await assetsRequestedBefore(page, painted));
    if (type) {
      const typed = await type(page);
      side.keys.push(...typed.keys);
      side.keyPaints.push(...typed.keyPaints);
    }
  } finally {
    await close();
  }
}

const firstRowIsRowOne = async (page: Page) => {
  const text = await page.locator(ROW).innerText();
  if (!text.includes('行1列1')) throw new Error(`the first row painted is not row 1: ${text.slice(0, 80)}`);
};

async function measure(amisUrl: string, amisDir: string, ourUrl: string, ourDir: string, spec: Spec) {
  const amis: Side = { paints: [], keys: [], keyPaints: [], shipped: 0 };
  const ours: Side = { paints: [], keys: [], keyPaints: [], shipped: 0 };
  const plain: Side = { paints: [], keys: [], keyPaints: [], shipped: 0 };
  for (let run = 0; run < RUNS; run += 1) {
    await load(amis, `${amisUrl}/index.html?page=${spec.page}`, amisDir, spec.first, spec.type ? typeIntoNamedField150 : undefined, spec.first === ROW ? firstRowIsRowOne : undefined);
    await load(ours, `${ourUrl}/pages.html?page=${spec.page}`, ourDir, spec.ourFirst, spec.type ? (page) => typeIntoOurField150(page, KEYS, KEY_GAP_MS) : undefined);
    if (spec.type) await load(plain, `${amisUrl}/plain.html`, amisDir, spec.first, typeIntoNamedField150);
  }
  const p = (values: number[], q: number) => (values.length ? percentile(values, q) : undefined);
  const figures = (side: Side) => ({ shipped: side.shipped, paint: percentile(side.paints, 50), keyP50: p(side.keys, 50), keyP95: p(side.keys, 95), keyPaintP50: p(side.keyPaints, 50), keyPaintP95: p(side.keyPaints, 95) });
  return { amis: figures(amis), ours: figures(ours), plain: spec.type ? figures(plain) : undefined };
}

async function main() {
  const sdk = installAmis();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-amis-pages-'));
  fs.symlinkSync(sdk, path.join(dir, 'sdk'));
  fs.writeFileSync(path.join(dir, 'index.html'), PAGE_HTML);
  fs.writeFileSync(path.join(dir, 'page.js'), PAGE_SCRIPT);
  fs.writeFileSync(path.join(dir, 'plain.html'), plainFormHtml());
  const ourDir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-amis-ours-'));
  await buildBenchPages(ourDir, ['pages.html']);
  const server = await serveDir(fs.realpathSync(dir));
  const ourServer = await serveDir(ourDir);
  const fmt = (n: number | undefined) => (n === undefined ? '–' : n.toFixed(n < 100 ? 1 : 0));
  const ratio = (a: number | undefined, b: number | undefined) => (a !== undefined && b ? (a / b).toFixed(2) : '–');
  try {
    console.log(`amis ${AMIS_VERSION} and our bench pages, loads alternating (headless chromium, ${RUNS} cold loads each; medians; ms from navigation; keys: ${KEYS} into field #150, ${KEY_GAP_MS} ms apart)\n`);
    console.log('page       JS+CSS amis | ours      paint amis | ours   ours/amis   key→frame p50/p95: amis | ours (ours/amis p95)   key→painted p50/p95: amis | ours');
    const floors: string[] = [];
    for (const spec of SPECS) {
      const { amis, ours, plain } = await measure(server.url, fs.realpathSync(dir), ourServer.url, ourDir, spec);
      console.log(
        `${spec.name.padEnd(10)} ${`${fmt(amis.shipped)} | ${fmt(ours.shipped)} KiB`.padStart(20)} ${`${fmt(amis.paint)} | ${fmt(ours.paint)} ms`.padStart(20)} ${ratio(ours.paint, amis.paint).padStart(11)}   ${fmt(amis.keyP50)} / ${fmt(amis.keyP95)} | ${fmt(ours.keyP50)} / ${fmt(ours.keyP95)} ms (${ratio(ours.keyP95, amis.keyP95)})     ${fmt(amis.keyPaintP50)} / ${fmt(amis.keyPaintP95)} | ${fmt(ours.keyPaintP50)} / ${fmt(ours.keyPaintP95)} ms`,
      );
      if (plain) {
        floors.push(
          `${spec.name} as plain HTML (no script; the browser's own cost of a key into these fields), key→frame p50 / p95: ${fmt(plain.keyP50)} / ${fmt(plain.keyP95)} ms — ours / plain p95 ${ratio(ours.keyP95, plain.keyP95)}, amis / plain p95 ${ratio(amis.keyP95, plain.keyP95)}; key→painted ${fmt(plain.keyPaintP50)} / ${fmt(plain.keyPaintP95)} ms`,
        );
      }
    }
    if (floors.length) console.log(`\n${floors.join('\n')}`);
  } finally {
    server.close();
    ourServer.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(ourDir, { recursive: true, force: true });
  }
}

await main();
