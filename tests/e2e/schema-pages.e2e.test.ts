import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ConsoleMessage } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { launchBrowser, type Browser } from './support/browser.ts';
import { gotoFresh, seededMenus, settle, signIn, type SeedMenu } from './support/shell.ts';

/**
 * Issue 4, acceptance 3 (browser part): every master-data and system menu path opens its schema
 * page — list grid, tree table, dictionary pair or card — with no console error and no placeholder.
 * The paths come from schemas/menus.json: every in-app leaf under the modules below (frames and
 * external links are the shell's business, not a schema page).
 */
const MODULE_PATHS = ['/base', '/system', '/authority', '/monitor', '/resource', '/hr', '/assets'];

function leavesOf(menu: SeedMenu): SeedMenu[] {
  return menu.children?.length ? menu.children.flatMap(leavesOf) : [menu];
}

const modules = seededMenus().filter((m) => MODULE_PATHS.some((p) => m.path === p || m.path.startsWith(`${p}/`)));
// 系统设置's list pages (its bill pages — opening stock and finance — open a bill form instead).
const SETTINGS_LISTS = ['menuConfig', 'systemParam', 'printSettings', 'approvalSettings', 'paymentConfig', 'companyInfo', 'operationLog', 'systemTask', 'accountingPeriod'];
const settings = seededMenus().filter((m) => m.path === '/settings').flatMap(leavesOf).filter((m) => SETTINGS_LISTS.includes(m.code));
const pages = [...modules.flatMap(leavesOf), ...settings]
  .filter((m) => !/^https?:/.test(m.path) && !/\.html?($|\?)/.test(m.path))
  .map((m) => ({ path: m.path, name: m.name, code: m.code, resource: (m as { resource?: string }).resource?.split('/').pop() }));

/** The container each page layout always renders (ListPage / TreePage / DictionaryPage / CardPage). */
const RENDERED = [
  '[data-testid^="list-"]:not([data-testid="list-toolbar"]):not([data-testid="list-search"]) [data-testid="data-grid"] .erp-list-grid',
  '[data-testid^="tree-"]:not([data-testid="tree-picker"]) .ant-table',
  '[data-testid^="dictionary-"] [data-testid="data-grid"] .erp-list-grid',
  '[data-testid^="card-"] .ant-card-body',
].join(', ');

/** The same containers, for the menu's own resource (a dictionary page names its layout instead). */
const renderedFor = (resource: string) =>
  [
    `[data-testid="list-${resource}"] [data-testid="data-grid"] .erp-list-grid`,
    `[data-testid="tree-${resource}"] .ant-table`,
    `[data-testid="card-${resource}"] .ant-card-body`,
    '[data-testid^="dictionary-"] [data-testid="data-grid"] .erp-list-grid',
  ].join(', ');

const PLACEHOLDER = '页面尚未构建';

describe('every master-data and system menu opens its schema page', () => {
  let server: TestServer;
  let browser: Browser;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    browser.page.on('console', (msg: ConsoleMessage) => {
      if (msg.type() === 'error') {
        const where = msg.location();
        consoleErrors.push(`${msg.text()}${where.url ? ` (${where.url}:${where.lineNumber})` : ''}`);
      }
    });
    await signIn(browser.page, server.url);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the enumeration covers the seven modules and both dictionary routes', () => {
    expect(modules.map((m) => m.path).sort()).toEqual(
      ['/assets', '/authority', '/base', '/hr', '/monitor/log', '/resource', '/system'].sort(),
    );
    const paths = pages.map((p) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['/dict-horizontal/index', '/dict-vertical/index', '/base/customer']));
    expect(paths.length).toBeGreaterThan(60);
    expect(settings).toHaveLength(SETTINGS_LISTS.length);
  });

  let visited = 0;
  test.for(pages)('$path ($name)', async ({ path, resource }) => {
    const { page, pageErrors } = browser;
    consoleErrors.length = 0;
    pageErrors.length = 0;
    // Most pages are opened inside the running app, as the router does for the back button
    // (a reload boots the whole client again: about 2 s of CPU a page on this machine, against
    // 0.5 s). Every twelfth is a reload, which also closes the tabs the earlier ones opened
    // (the app keeps at most 15) and proves a page opens from its address as well.
    // Pages of earlier tabs stay mounted, hidden: only what shows counts.
    const rendered = page.locator(RENDERED).filter({ visible: true }).first();
    if (visited++ % 12 === 0) await gotoFresh(page, `${server.url}${path}`);
    else {
      const previous = (await rendered.count()) ? await rendered.elementHandle() : null;
      await page.evaluate(`history.pushState(null, '', ${JSON.stringify(path)}); dispatchEvent(new PopStateEvent('popstate'))`);
      // The page before hides once this route's page takes its place.
      await previous?.waitForElementState('hidden', { timeout: 20_000 });
    }
    const placeholder = page.getByText(PLACEHOLDER).filter({ visible: true });
    await expect
      .poll(async () => ((await placeholder.count()) > 0 ? 'placeholder' : (await rendered.count()) > 0 ? 'page' : 'none'), {
        timeout: 20_000,
      })
      .not.toBe('none');
    expect(new URL(page.url()).pathname, `${path} redirected`).toBe(path);
    // The page's data calls have answered and nothing is still spinning.
    await settle(page);
    await expect
      .poll(() => page.locator('.erp-grid-loading:visible, .ant-spin-spinning:visible').count(), {
        timeout: 15_000,
      })
      .toBe(0);

    expect(await placeholder.count(), `${path} shows the placeholder ${PLACEHOLDER}`).toBe(0);
    await expect(rendered.isVisible(), `${path} shows no list grid, tree table or card`).resolves.toBe(true);
    if (resource) {
      const own = page.locator(renderedFor(resource)).filter({ visible: true }).first();
      await expect(own.isVisible(), `${path} does not render its resource ${resource}`).resolves.toBe(true);
    }
    const errors = [...consoleErrors, ...pageErrors.map((e) => `page error: ${e}`)];
    expect(errors, `${path}: console errors:\n  ${errors.join('\n  ')}`).toEqual([]);
  });
});
