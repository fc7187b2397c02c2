import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BodyFactory, loadResources, pathOf, SCHEMAS } from '../support/resources.ts';
import { dialogsAtRest, modal } from './support/dialogs.ts';
import { launchBrowser, type Browser } from './support/browser.ts';
import { seededLeaves, settle, signIn } from './support/shell.ts';

/**
 * Every schema action that asks for parameters, on a list page of its own: with one row made
 * through the API, the action's prompt opens, every field carries a title (no raw field names),
 * nothing errs in the page, and 取消 closes it. Actions shown only in some states (visibleIf) are
 * left to their own tests.
 */

interface ActionFile {
  key: string;
  label: string;
  confirm?: string;
  placement?: 'toolbar' | 'row' | 'both';
  prompt?: unknown[];
  visibleIf?: unknown;
}

const resourceOf = (menu: object) => (menu as { resource?: string }).resource?.split('/').pop();
const pages = new Map(
  seededLeaves()
    .filter((m) => resourceOf(m))
    .map((m) => [resourceOf(m)!, m.path]),
);
const cases = loadResources().flatMap((r) => {
  const data = JSON.parse(fs.readFileSync(path.join(SCHEMAS, r.file), 'utf8')) as { actions?: ActionFile[]; page?: string };
  if (data.page && data.page !== 'list') return [];
  const pagePath = pages.get(r.resource);
  // Rows of resources without a submit come from other screens (领用, 任务): their own tests.
  if (!pagePath || !r.api.endpoints.some((e) => e.path === 'submit')) return [];
  return (data.actions ?? [])
    .filter((a) => a.prompt?.length && a.visibleIf === undefined)
    .map((a) => ({ name: `${r.resource} ${a.key} (${a.label})`, resource: r, action: a, pagePath }));
});

describe('every action prompt opens with titled fields', () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let bodies: BodyFactory;

  beforeAll(async () => {
    server = await startTestServer();
    api = await signedIn(server.url);
    bodies = new BodyFactory(api);
    browser = await launchBrowser();
    await signIn(browser.page, server.url);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the enumeration finds the prompts of the master-data and system lists', () => {
    const names = cases.map((c) => c.name);
    for (const expected of ['customer updateRange', 'goods shildCustomers', 'supplier updateClassify', 'user assignDepot']) {
      expect(names.some((n) => n.startsWith(expected)), expected).toBe(true);
    }
  });

  test.for(cases)('$name', async ({ resource, action, pagePath }) => {
    const { page, pageErrors } = browser;
    pageErrors.length = 0;
    const row = expectOk<{ id: string }>(await api.post(pathOf(resource, 'submit'), await bodies.validBody(resource)), `${resource.resource} submit`);
    await page.evaluate(() => {
      for (const store of [localStorage, sessionStorage]) store.removeItem('saber-tagList');
    });
    await page.goto(`${server.url}${pagePath}`);
    const grid = page.getByTestId(`list-${resource.resource}`).getByTestId('data-grid');
    await grid.locator(`.erp-grid-row[row-id="${row.id}"]`).first().waitFor();
    await settle(page);
    if (action.placement === 'row') {
      const actions = grid.locator(`.erp-grid-row[row-id="${row.id}"] [data-testid=row-actions]`).first();
      const inline = actions.getByRole('button', { name: action.label, exact: true });
      if (await inline.count()) await inline.click();
      else {
        await actions.getByText('更多').click();
        await page.locator('.ant-dropdown:visible').getByText(action.label, { exact: true }).click();
      }
    } else {
      await grid.locator(`.erp-grid-row[row-id="${row.id}"] .erp-grid-select input`).first().check();
      await page.getByTestId('list-toolbar').getByRole('button', { name: action.label, exact: true }).click();
    }
    if (action.confirm) {
      const confirm = page.locator('.ant-modal-confirm', { hasText: action.confirm });
      await confirm.getByRole('button', { name: /确\s*定/ }).click();
    }
    const prompt = modal(page, action.label);
    await prompt.waitFor();
    // The 更多 menu opens on hover and sits above dialogs: with the pointer still on it, it stays
    // open over the prompt. Move off it and let the prompt finish opening before using it.
    await page.mouse.move(1, 1);
    await expect.poll(() => page.locator('.ant-dropdown:visible').count()).toBe(0);
    await dialogsAtRest(page);
    const labels = (await prompt.locator('.erp-label').allInnerTexts()).map((text) => text.replace(/^\*\s*/, '').trim());
    expect(labels.length, 'the prompt shows its fields').toBe(action.prompt!.length);
    for (const text of labels) expect(text, `label ${text} is a title, not a field name`).not.toMatch(/^[a-z][A-Za-z0-9]*$/);
    await prompt.locator('.ant-modal-footer').getByRole('button', { name: /取\s*消/ }).click();
    await expect.poll(() => prompt.count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
