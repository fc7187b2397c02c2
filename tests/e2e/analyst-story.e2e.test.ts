import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn } from '../support/client.ts';
import { launchBrowser, screenshot, type Browser } from './support/browser.ts';
import { expectMessage, settle, signIn } from './support/shell.ts';
import { dialogsAtRest } from './support/dialogs.ts';

/**
 * Issue 4, acceptance 2 — the analyst's story: an optional field is added to a resource schema (in a
 * temporary copy of the schemas the server reads), the server restarts on the same data, and the new
 * column and form field work in the browser at once; the row written before the change survives.
 * No code is touched and the client is not rebuilt: the renderer reads the schema the server runs on.
 */
const REPO_SCHEMAS = path.resolve(import.meta.dirname, '../../schemas');

const WECHAT = { type: 'string', title: '微信号', 'x-titleEn': 'WeChat', maxLength: 64 };

interface ParamFile {
  entity: { properties: Record<string, unknown> };
  list: { columns: { field: string; width?: number }[] };
  form: { fields: (string | { field: string })[] };
}

/** The analyst's edit: the property, a list column after the key, and a form field after the value. */
function addWechatField(schemasDir: string) {
  const file = path.join(schemasDir, 'system/param.json');
  const schema = JSON.parse(fs.readFileSync(file, 'utf8')) as ParamFile;
  schema.entity.properties.wechat = WECHAT;
  const keyAt = schema.list.columns.findIndex((c) => c.field === 'paramKey');
  schema.list.columns.splice(keyAt + 1, 0, { field: 'wechat', width: 160 });
  const valueAt = schema.form.fields.findIndex((f) => (typeof f === 'string' ? f : f.field) === 'paramValue');
  schema.form.fields.splice(valueAt + 1, 0, 'wechat');
  fs.writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
}

const dialog = (page: Page) => page.locator('.ant-modal:visible');

describe('the analyst adds a field to a schema; no code is touched', () => {
  let schemasDir: string;
  let dataDir: string;
  let server: TestServer | undefined;
  let browser: Browser;
  let rowId: string;

  beforeAll(async () => {
    schemasDir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-e2e-schemas-'));
    fs.cpSync(REPO_SCHEMAS, schemasDir, { recursive: true });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-e2e-analyst-'));
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    fs.rmSync(schemasDir, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('a row written before the change survives the restart with the new field', async () => {
    // Before: the schemas as shipped. A parameter row is written.
    server = await startTestServer({ dataDir, schemasDir });
    let api = await signedIn(server.url);
    expectOk(
      await api.post('/blade-system/param/submit', {
        paramName: '分析师测试参数',
        paramKey: 'e2e.analyst',
        paramValue: 'before',
        remark: '加字段之前写入',
      }),
      'param submit',
    );
    const before = expectOk(await api.get('/blade-system/param/list', { paramKey: 'e2e.analyst', current: 1, size: 10 }));
    expect(before.records).toHaveLength(1);
    rowId = String(before.records[0].id);
    expect(before.records[0]).not.toHaveProperty('wechat');
    await server.close();
    server = undefined;

    // The analyst's edit, then a restart on the same data: the additive migration adds the column.
    addWechatField(schemasDir);
    server = await startTestServer({ dataDir, schemasDir });
    api = await signedIn(server.url);
    const after = expectOk(await api.get('/blade-system/param/detail', { id: rowId }));
    expect(after).toMatchObject({ id: rowId, paramKey: 'e2e.analyst', paramValue: 'before', remark: '加字段之前写入' });
    expect(after.wechat ?? '').toBe('');
  });

  test('the browser shows the new column and form field; a value saved in the dialog reads back after a reload', async () => {
    expect(server, 'the first test restarted the server').toBeDefined();
    const { page, pageErrors } = browser;
    const base = server!.url;
    await signIn(page, base);
    await page.goto(`${base}/system/param`);
    const list = page.getByTestId('list-param');
    const grid = list.getByTestId('data-grid');
    await grid.locator('.erp-list-grid').waitFor();
    await settle(page);

    // The new column, between the key and the value as the schema orders it.
    const header = grid.locator('.erp-grid-header-cell[col-id="wechat"]');
    await expect.poll(() => header.innerText(), { timeout: 15_000 }).toContain('微信号');
    const headers = await grid.locator('.erp-grid-header-cell[col-id] .erp-grid-header-text').allInnerTexts();
    expect(headers.indexOf('微信号')).toBe(headers.indexOf('参数键名') + 1);

    // The old row is listed, its new cell empty.
    const row = grid.locator(`.erp-grid-row[row-id="${rowId}"]`);
    await expect.poll(() => row.locator('[col-id="paramKey"]').innerText()).toBe('e2e.analyst');
    expect((await row.locator('[col-id="wechat"]').innerText()).trim()).toBe('');

    // Edit: the form has the field; type a value and save.
    await grid.locator(`.erp-grid-row[row-id="${rowId}"] [data-testid=row-actions] button`, { hasText: '编辑' }).click();
    const field = dialog(page).locator('[data-field="wechat"]');
    await expect.poll(() => field.locator('.erp-label').innerText(), { timeout: 15_000 }).toContain('微信号');
    // Optional: no required mark.
    expect(await field.locator('.erp-required').count()).toBe(0);
    await field.locator('input').fill('wx_analyst_2026');
    await dialog(page).getByRole('button', { name: /保\s*存/ }).click();
    await expectMessage(page, '修改成功');
    await expect.poll(() => dialog(page).count()).toBe(0);

    // Reload: the list reads it back from the server.
    await page.reload();
    await grid.locator('.erp-list-grid').waitFor();
    await settle(page);
    await expect
      .poll(() => grid.locator(`.erp-grid-row[row-id="${rowId}"] [col-id="wechat"]`).innerText(), {
        timeout: 15_000,
      })
      .toBe('wx_analyst_2026');
    await screenshot(page, 'analyst-story');

    // The view dialog shows it too.
    await grid.locator(`.erp-grid-row[row-id="${rowId}"] [data-testid=row-actions] button`, { hasText: '查看' }).click();
    const viewed = dialog(page).locator('[data-field="wechat"]');
    await expect.poll(() => viewed.innerText(), { timeout: 15_000 }).toContain('wx_analyst_2026');
    expect(await viewed.locator('.erp-label').innerText()).toContain('微信号');
    await dialogsAtRest(page);
    await screenshot(page, 'analyst-story-view');
    await dialog(page).locator('.ant-modal-footer').getByRole('button', { name: /关\s*闭/ }).click();

    // And the server has it.
    const api = await signedIn(base);
    expect(expectOk(await api.get('/blade-system/param/detail', { id: rowId })).wechat).toBe('wx_analyst_2026');
    expect(pageErrors).toEqual([]);
  });
});
