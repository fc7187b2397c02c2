import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { launchBrowser, type Browser } from './support/browser.ts';
import { seededLeaves, settle, signIn } from './support/shell.ts';
import { expectOk, signedIn } from '../support/client.ts';
import { BASES, lines, makeWorld } from '../support/bills.ts';
import { field, fieldError, modal } from './support/dialogs.ts';

/**
 * What a route loads (issue 17): the sign-in page carries no grid, layout, form engine or antd (at
 * most 150 KiB gzip); a list page paints its first rows without the form engine or the full icon
 * set, with its first page requested once (prefetched with the route and taken by the page); 新增
 * still opens the form, whose fields are checked by the validator module the server serves.
 * Chunks are named through the build's manifest (dist/client/.vite/manifest.json).
 */
interface ManifestChunk {
  file: string;
  imports?: string[];
}

const clientDir = path.resolve(import.meta.dirname, '../../dist/client');
const manifestFile = path.join(clientDir, '.vite/manifest.json');

function chunkFile(key: string): string {
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build manifest`);
  return `/${chunk.file}`;
}

/** The file of a chunk the build groups by name (vite.config.ts `codeSplitting.groups`). */
function groupFile(name: string): string {
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const key = Object.keys(manifest).find((candidate) => candidate.startsWith(`_${name}-`) && candidate.endsWith('.js'));
  if (!key) throw new Error(`no ${name} chunk in the build manifest`);
  return `/${manifest[key]!.file}`;
}

/** The build's stylesheets holding a rule of `selector` (antd's prebuilt component sheets). */
function sheetsWith(selector: string): string[] {
  const assets = path.join(clientDir, 'assets');
  return fs
    .readdirSync(assets)
    .filter((name) => name.endsWith('.css') && fs.readFileSync(path.join(assets, name), 'utf8').includes(`${selector}{`))
    .map((name) => `/assets/${name}`);
}

/** The build's scripts whose code holds `text`. */
function scriptsWith(text: string): string[] {
  const assets = path.join(clientDir, 'assets');
  return fs
    .readdirSync(assets)
    .filter((name) => name.endsWith('.js') && fs.readFileSync(path.join(assets, name), 'utf8').includes(text))
    .map((name) => `/assets/${name}`);
}

/** Paths of the scripts and styles the page requests until `stop()`, and the API calls. */
function recordRequests(page: Page) {
  const assets: string[] = [];
  const calls: string[] = [];
  const onRequest = (request: { url(): string }) => {
    const url = new URL(request.url());
    if (/\.(js|css)$/.test(url.pathname)) assets.push(url.pathname);
    else if (url.pathname.startsWith('/api/')) calls.push(`${url.pathname}${url.search}`);
  };
  page.on('request', onRequest);
  return { assets, calls, stop: () => page.off('request', onRequest) };
}

/** Records, on the page's clock, when each selector first matches (window.__seenAt). */
function watchFor(selectors: string[]): string {
  return `performance.setResourceTimingBufferSize(2000);
    window.__seenAt = {};
    new MutationObserver((_, observer) => {
      for (const selector of ${JSON.stringify(selectors)}) {
        if (window.__seenAt[selector] === undefined && document.querySelector(selector)) window.__seenAt[selector] = performance.now();
      }
      if (Object.keys(window.__seenAt).length === ${selectors.length}) observer.disconnect();
    }).observe(document, { childList: true, subtree: true });`;
}

/** Paths of the files the page started to fetch before `selector` first appeared. */
async function requestedBefore(page: Page, selector: string): Promise<string[]> {
  return (await page.evaluate(`performance.getEntriesByType('resource')
    .filter((entry) => entry.startTime < window.__seenAt[${JSON.stringify(selector)}])
    .map((entry) => new URL(entry.name).pathname)`)) as string[];
}

/** Holds back the requests for `file` until the returned release is called. */
async function holdFile(page: Page, file: string): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**${file}`, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** A sales-out draft of one line of `qty` goods, as its detail call answers it. */
async function salesOutDraft(serverUrl: string, qty: string): Promise<{ id: string; billNo: string }> {
  const api = await signedIn(serverUrl);
  const w = await makeWorld(api, { goods: 1 });
  const draft = expectOk<{ id: string }>(
    await api.post(`${BASES.salesOut}/draft`, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty, taxPrice: '1.13', taxRate: '13' }]) }),
  );
  return expectOk<{ id: string; billNo: string }>(await api.get(`${BASES.salesOut}/detail`, { id: draft.id }));
}

describe('what each route loads', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    await signIn(browser.page, server.url);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the sign-in page loads no grid, no layout, no form engine and no antd: at most 150 KiB gzip', async () => {
    const fresh = await launchBrowser();
    try {
      const box = 'input[placeholder="用户名"]';
      await fresh.context.addInitScript({ content: watchFor([box]) });
      await fresh.page.goto(`${server.url}/login`);
      await fresh.page.getByPlaceholder('用户名').fill('admin');
      // What the page needed to work (it fetches the layout later, while the user types).
      const before = await requestedBefore(fresh.page, box);
      expect(before.filter((asset) => asset.endsWith('.js')).length).toBeGreaterThan(0);
      for (const key of ['app/layout/MainLayout.tsx', 'renderer/form/FormDialog.tsx', 'renderer/list/ListPage.tsx']) {
        expect(before, key).not.toContain(chunkFile(key));
      }
      // The icons of the frame and the list come grouped (shell-icons), less the sign-in page's own.
      expect(before).not.toContain(groupFile('shell-icons'));
      // No antd at all (issue 17): its theme frame, and its message module (loaded on a first toast).
      for (const key of ['app/AntdFrame.tsx', '../../node_modules/antd/es/message/index.js']) {
        expect(before, key).not.toContain(chunkFile(key));
      }
      const shipped = before
        .filter((asset) => /\.(js|css)$/.test(asset))
        .reduce((total, asset) => total + gzipSync(fs.readFileSync(path.join(clientDir, asset)), { level: 9 }).length, 0);
      expect(shipped / 1024, before.join('\n')).toBeLessThanOrEqual(150);
    } finally {
      await fresh.close();
    }
  });

  test('a list paints its rows without the form engine, asking for its first page once', async () => {
    const { page, context } = browser;
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    // When the first row appears, on the page's clock, and which files were requested before it.
    const firstRow = '.erp-grid-row[row-index="0"]';
    await context.addInitScript({ content: watchFor([firstRow]) });
    const requests = recordRequests(page);
    const formDialog = chunkFile('renderer/form/FormDialog.tsx');
    const formEngineFetched = page.waitForRequest((request) => new URL(request.url()).pathname === formDialog, { timeout: 15_000 });
    await page.goto(`${server.url}/system/param`);
    await page.locator('.erp-grid-row[row-index="0"]').first().waitFor();
    // The form engine is fetched in idle time after the rows: wait for it, then look back.
    await formEngineFetched;
    requests.stop();
    const before = await requestedBefore(page, firstRow);
    expect(requests.calls.filter((call) => call.startsWith('/api/blade-system/param/list')), requests.calls.join('\n')).toHaveLength(1);
    expect(before).toContain(chunkFile('renderer/list/ListPage.tsx'));
    expect(before).toContain(groupFile('shell-icons'));
    // antd's prebuilt styles of what only dialogs draw come with the dialogs' code, not the list.
    const dialogSheets = ['.ant-input-number', '.ant-radio-wrapper', '.ant-modal-wrap'].flatMap(sheetsWith);
    expect(dialogSheets.length).toBeGreaterThan(0);
    for (const sheet of dialogSheets) expect(before).not.toContain(sheet);
    expect(before).not.toContain(formDialog);
    // Nor the code that only forms and the colour picker run, though the frame's libraries import
    // their packages (vite.config.ts frame-lib, generators/barrelImports.ts, antdIsBright.ts):
    // rc-form's validator (its messages) and the colour picker's preset panel.
    for (const text of ['%s is required', '-color-bright`']) {
      const holders = scriptsWith(text);
      expect(holders.length, text).toBeGreaterThan(0);
      for (const script of holders) expect(before, text).not.toContain(script);
    }
    expect(before).not.toContain(chunkFile('../../node_modules/@ant-design/icons/es/index.js'));
    // No ag-grid anywhere in the build: lists and the bill's line grid draw their own grids.
    expect(scriptsWith('ag-root-wrapper')).toEqual([]);
    // The frame's and the list's antd styles came with the build (virtual:antd-styles.css):
    // antd's engine made none of them in the page (it makes only CSS variables of the theme).
    const madeInPage = await page.evaluate(`[...document.querySelectorAll('style')]
      .map((style) => style.textContent ?? '')
      .filter((text) => text.startsWith(':where(.css-'))
      .map((text) => text.slice(0, 60))`);
    expect(madeInPage).toEqual([]);
    // The form engine loads when a dialog opens (or earlier, in idle time): 新增 opens the form.
    await page.getByRole('button', { name: '新增' }).click();
    await expect(page.locator('.ant-modal .erp-field').first().waitFor()).resolves.toBeUndefined();
    // Its fields are checked by the entity's compiled validator, the module the server generates
    // from its schema (issue 16 §6), fetched with the form engine.
    const loaded = (await page.evaluate(`performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname)`)) as string[];
    expect(loaded).toContain('/validators/param.js');
    // With the form engine came the prebuilt styles of its inputs and of the dialog itself.
    for (const sheet of ['.ant-input-number', '.ant-modal-wrap'].flatMap(sheetsWith)) expect(loaded).toContain(sheet);
    await page.keyboard.press('Escape');
  });

  test('a page load asks for the session and the list\'s first page without waiting for the layout\'s code, each once', async () => {
    const { page, context } = browser;
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    // The layout's code is held back: what the page asks for meanwhile went out at start-up
    // (session/bootPrefetch.ts), not from the components, which wait for it.
    const releaseLayout = await holdFile(page, chunkFile('app/layout/MainLayout.tsx'));
    const requests = recordRequests(page);
    const asked = (pathname: string) => page.waitForRequest((request) => new URL(request.url()).pathname === pathname, { timeout: 15_000 });
    try {
      const session = ['/api/blade-system/user/info', '/api/blade-system/menu/routes', '/api/blade-system/menu/buttons'].map(asked);
      const rows = asked('/api/blade-system/param/list');
      await page.goto(`${server.url}/system/param`, { waitUntil: 'commit' });
      await Promise.all([...session, rows]);
    } finally {
      releaseLayout();
    }
    await page.locator('.erp-grid-row[row-index="0"]').first().waitFor();
    await page.unrouteAll({ behavior: 'wait' });
    requests.stop();
    // The layout's own start-up shares the calls under way instead of making them again.
    for (const call of ['/api/blade-system/user/info', '/api/blade-system/menu/buttons', '/api/blade-system/param/list']) {
      expect(requests.calls.filter((made) => made.split('?')[0] === call), requests.calls.join('\n')).toHaveLength(1);
    }
  });

  test('a field is checked on blur by the validator the server serves', async () => {
    const { page } = browser;
    // 门店管理's phone has only a schema pattern (no helper rule): only the compiled validator
    // knows it, and speaks the schema's own message.
    await page.goto(`${server.url}/mall/shop`);
    await page.getByRole('button', { name: '新增' }).click();
    const dialog = modal(page, /新增/);
    const phone = field(dialog, 'phone').locator('input');
    await phone.fill('abc');
    await phone.blur();
    await expect.poll(() => fieldError(dialog, 'phone').innerText()).toBe('联系电话只能包含数字、空格和 + - ( )，至少5位');
    await phone.fill('0571-8888 6666');
    await phone.blur();
    await expect.poll(() => fieldError(dialog, 'phone').count()).toBe(0);
    await page.keyboard.press('Escape');
  });

  test("a bill's 查看 reads the bill while the editor's code loads, once", async () => {
    const bill = await salesOutDraft(server.url, '2');
    expect(bill.billNo).toBeTruthy();
    const { page } = browser;
    const history = seededLeaves().find((leaf) => leaf.code === 'salesOut')!.historyPath!;
    // The editor's code is held back from the start (the list would otherwise load it in idle
    // time): the bill's read must go out while it loads.
    const releaseDrawer = await holdFile(page, chunkFile('renderer/document/DocumentDrawer.tsx'));
    await page.goto(`${server.url}${history}`);
    const view = page.locator(`.erp-grid-row[row-id="${bill.id}"] [data-testid=row-actions] button`, { hasText: '查看' });
    await view.waitFor();
    await settle(page);
    const requests = recordRequests(page);
    try {
      const detail = page.waitForRequest((request) => new URL(request.url()).pathname === `/api${BASES.salesOut}/detail`, { timeout: 15_000 });
      await view.click();
      await detail;
    } finally {
      releaseDrawer();
    }
    await expect.poll(() => page.getByTestId('bill-no').innerText(), { timeout: 15_000 }).toBe(bill.billNo);
    await page.unrouteAll({ behavior: 'wait' });
    requests.stop();
    expect(requests.calls.filter((call) => call.startsWith(`/api${BASES.salesOut}/detail?`)), requests.calls.join('\n')).toHaveLength(1);
    await page.keyboard.press('Escape');
  });
  test("a bill list loads the bill editor's code and schemas in idle time: 查看 then fetches none", async () => {
    const bill = await salesOutDraft(server.url, '3');
    const { page, context } = browser;
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
    const drawer = 'renderer/document/DocumentDrawer.tsx';
    // The drawer's chunk and those it imports (the editor with its line grid among them).
    const editorCode = [drawer, ...(manifest[drawer]!.imports ?? [])].map((key) => `/${manifest[key]!.file}`);
    const requests = recordRequests(page);
    const prefetched = page.waitForRequest((request) => new URL(request.url()).pathname === editorCode[0], { timeout: 15_000 });
    const history = seededLeaves().find((leaf) => leaf.code === 'salesOut')!.historyPath!;
    await page.goto(`${server.url}${history}`);
    const view = page.locator(`.erp-grid-row[row-id="${bill.id}"] [data-testid=row-actions] button`, { hasText: '查看' });
    await view.waitFor();
    // Nothing clicked yet: the list asks for the editor's code once its rows are on screen.
    await prefetched;
    await settle(page);
    requests.stop();
    for (const file of editorCode) expect(requests.assets, file).toContain(file);
    const schemasBefore = requests.calls.filter((call) => call.startsWith('/api/erp-meta/resource?')).map((call) => new URLSearchParams(call.split('?')[1]).get('name'));
    expect(schemasBefore).toEqual(expect.arrayContaining(['sales-out-body', 'goods']));

    const opening = recordRequests(page);
    await view.click();
    await expect.poll(() => page.getByTestId('bill-no').innerText(), { timeout: 15_000 }).toBe(bill.billNo);
    const qty = page.locator('[data-testid="document-sales-out"] [data-testid="line-grid"] .erp-grid-row[row-index="0"] .erp-grid-cell[col-id="qty"]').first();
    await expect.poll(() => qty.innerText(), { timeout: 15_000 }).toBe('3.00');
    opening.stop();
    // The open fetched the bill, and none of the editor's code nor the schemas its grid reads.
    for (const file of editorCode) expect(opening.assets, file).not.toContain(file);
    expect(opening.calls.filter((call) => /[?&]name=(sales-out-body|goods)(&|$)/.test(call)), opening.calls.join('\n')).toEqual([]);
    expect(opening.calls.filter((call) => call.startsWith(`/api${BASES.salesOut}/detail?`))).toHaveLength(1);
    await page.keyboard.press('Escape');
  });
});
