import { beforeAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { screenshot } from './support/browser.ts';
import { signedInSession } from './support/session.ts';
import { settle } from './support/shell.ts';

/**
 * The list grid (renderer/list/DataGrid.tsx, issue 17's lighter grid for plain lists): sorting on
 * the server from the header, select-all, resizing, moving and hiding columns (kept per user across
 * a reload, forgotten by 恢复默认), sticky index/selection/actions columns, and rows drawn only
 * where they can be seen while every row of the page can be scrolled to.
 */
describe('list grid', () => {
  const session = signedInSession();
  let page: Page;
  let api: Api;
  const KEYS = Array.from({ length: 60 }, (_, i) => `grid.k${String(i).padStart(2, '0')}`);

  // After the session's own set-up (server started, admin signed in): 60 parameters to list.
  beforeAll(async () => {
    page = session.browser.page;
    api = await signedIn(session.server.url);
    for (const [i, key] of KEYS.entries()) {
      expectOk(await api.post('/blade-system/param/submit', { paramName: `表格参数${i}`, paramKey: key, paramValue: `值${i}`.repeat(i % 7 === 0 ? 40 : 1) }));
    }
  });

  const grid = () => page.getByTestId('list-param').getByTestId('data-grid');
  const header = (title: string) => grid().locator('.erp-grid-header-cell', { hasText: title });
  const titles = async () => (await grid().locator('.erp-grid-header-cell .erp-grid-header-text').allInnerTexts()).map((t) => t.trim());
  const widthOf = async (cell: Locator) => (await cell.boundingBox())!.width;

  async function openList() {
    await page.goto(`${session.server.url}/system/param`);
    await grid().locator('.erp-grid-row[row-index="0"]').waitFor();
    await settle(page);
  }

  test('a header click sorts on the server: ascending, descending, then the default order', async () => {
    await openList();
    const calls: string[] = [];
    const record = (request: { url(): string }) => request.url().includes('/blade-system/param/list') && calls.push(request.url());
    page.on('request', record);
    const keyCells = () => grid().locator('.erp-grid-row:not(.erp-grid-row-pinned) [col-id="paramKey"]').allInnerTexts();
    // The server's own first page in key order: what the grid must show once sorted.
    const ascending = expectOk<{ records: { paramKey: string }[] }>(await api.get('/blade-system/param/list', { current: 1, size: 10, ascs: 'param_key' })).records.map((r) => r.paramKey);
    expect(ascending.join()).toBe([...ascending].sort().join());

    await header('参数键名').click();
    await expect.poll(() => calls.some((url) => new URL(url).searchParams.get('ascs') === 'param_key')).toBe(true);
    await expect.poll(async () => (await keyCells()).join()).toBe(ascending.join());
    expect(await header('参数键名').getAttribute('aria-sort')).toBe('ascending');

    await header('参数键名').click();
    await expect.poll(() => calls.some((url) => new URL(url).searchParams.get('descs') === 'param_key')).toBe(true);
    const descending = expectOk<{ records: { paramKey: string }[] }>(await api.get('/blade-system/param/list', { current: 1, size: 10, descs: 'param_key' })).records.map((r) => r.paramKey);
    await expect.poll(async () => (await keyCells()).join()).toBe(descending.join());
    expect(await header('参数键名').getAttribute('aria-sort')).toBe('descending');

    calls.length = 0;
    await header('参数键名').click();
    await expect.poll(() => calls.length).toBeGreaterThan(0);
    const last = new URL(calls.at(-1)!).searchParams;
    expect([last.get('ascs'), last.get('descs')]).toEqual([null, null]);
    expect(await header('参数键名').getAttribute('aria-sort')).toBeNull();

    // From the keyboard: a sortable header takes the focus and Enter sorts by it.
    await header('参数名称').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => header('参数名称').getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(() => calls.some((url) => new URL(url).searchParams.get('ascs') === 'param_name')).toBe(true);
    page.off('request', record);
  });

  test('select-all checks the page; one row unchecked leaves the box half-checked', async () => {
    await openList();
    const all = grid().locator('.erp-grid-header .erp-grid-checkbox');
    const rows = grid().locator('.erp-grid-row:not(.erp-grid-row-pinned) .erp-grid-checkbox');
    await all.check();
    expect(await rows.evaluateAll((boxes) => boxes.every((box) => (box as HTMLInputElement).checked))).toBe(true);
    await rows.first().uncheck();
    expect(await all.evaluate((box) => [(box as HTMLInputElement).checked, (box as HTMLInputElement).indeterminate])).toEqual([false, true]);
    expect(await grid().locator('.erp-grid-row-selected').count()).toBe((await rows.count()) - 1);
    await all.check();
    await all.uncheck();
    expect(await grid().locator('.erp-grid-row-selected').count()).toBe(0);
  });

  test('a column resized, moved and hidden stays so after a reload; 恢复默认 restores the schema', async () => {
    await openList();
    expect(await titles()).toEqual(['序号', '参数名称', '参数键名', '参数键值', '操作']);
    const name = header('参数名称');
    const before = await widthOf(name);

    // Resize by the header's right edge.
    const box = (await name.boundingBox())!;
    await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width + 40, box.y + box.height / 2, { steps: 4 });
    await page.mouse.move(box.x + box.width + 78, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    expect(Math.round(await widthOf(name))).toBe(Math.round(before + 80));
    // Cells follow their header.
    expect(Math.round(await widthOf(grid().locator('.erp-grid-row[row-index="0"] [col-id="paramName"]')))).toBe(Math.round(before + 80));
    // The edge's drag did not sort.
    expect(await name.getAttribute('aria-sort')).toBeNull();

    // Move 参数键值 before 参数名称 by dragging its header.
    await header('参数键值').dragTo(name, { targetPosition: { x: 10, y: 10 } });
    expect(await titles()).toEqual(['序号', '参数键值', '参数名称', '参数键名', '操作']);

    // Hide 参数键名 in 列设置.
    await page.getByTestId('column-settings-button').click();
    const settings = page.getByTestId('column-settings');
    await settings.getByRole('checkbox', { name: '参数键名' }).uncheck();
    expect(await titles()).toEqual(['序号', '参数键值', '参数名称', '操作']);
    await page.keyboard.press('Escape');

    await openList();
    expect(await titles()).toEqual(['序号', '参数键值', '参数名称', '操作']);
    expect(Math.round(await widthOf(header('参数名称')))).toBe(Math.round(before + 80));
    await screenshot(page, 'list-grid-arranged');

    await page.getByTestId('column-settings-button').click();
    await expect.poll(() => settings.getByRole('checkbox', { name: '参数键名' }).isChecked()).toBe(false);
    await settings.getByRole('button', { name: '恢复默认' }).click();
    await expect.poll(() => titles()).toEqual(['序号', '参数名称', '参数键名', '参数键值', '操作']);
    expect(Math.round(await widthOf(header('参数名称')))).toBe(Math.round(before));
    await page.keyboard.press('Escape');
    await openList();
    expect(await titles()).toEqual(['序号', '参数名称', '参数键名', '参数键值', '操作']);
  });

  test("a double-click on a header's edge fits the column to the widest text drawn in it", async () => {
    await openList();
    const edge = (title: string) => header(title).locator('.erp-grid-resizer');
    // 参数键名 is declared 220 px wide; its keys (grid.k59 …) need far less.
    await edge('参数键名').dblclick();
    const keyWidth = await widthOf(header('参数键名'));
    expect(keyWidth).toBeLessThan(160);
    const keyCell = grid().locator('.erp-grid-row[row-index="0"] [col-id="paramKey"]');
    expect(await keyCell.evaluate((cell) => cell.scrollWidth <= cell.clientWidth)).toBe(true);
    // 参数键值 holds values of 40 repeats on some rows: it grows to show them whole.
    await edge('参数键值').dblclick();
    const widest = await grid()
      .locator('.erp-grid-row [col-id="paramValue"]')
      .evaluateAll((cells) => cells.every((cell) => cell.scrollWidth <= cell.clientWidth));
    expect(widest).toBe(true);
    expect(await widthOf(header('参数键值'))).toBeGreaterThan(600);
    await page.getByTestId('column-settings-button').click();
    await page.getByTestId('column-settings').getByRole('button', { name: '恢复默认' }).click();
    await page.keyboard.press('Escape');
  });

  test('the index, selection and actions columns stay in view when the grid scrolls sideways', async () => {
    await page.setViewportSize({ width: 760, height: 800 });
    try {
      await openList();
      const scroller = grid().locator('.erp-list-grid');
      const overflow = await scroller.evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(overflow).toBeGreaterThan(0);
      const frame = (await scroller.boundingBox())!;
      const row = grid().locator('.erp-grid-row[row-index="0"]');
      const actionsBefore = (await row.locator('[col-id="__actions"]').boundingBox())!;
      expect(actionsBefore.x + actionsBefore.width).toBeLessThanOrEqual(frame.x + frame.width + 1);
      await scroller.evaluate((el) => (el.scrollLeft = el.scrollWidth));
      await expect.poll(async () => (await row.locator('[col-id="__index"]').boundingBox())!.x).toBeLessThan(frame.x + 50);
      const actionsAfter = (await row.locator('[col-id="__actions"]').boundingBox())!;
      expect(Math.round(actionsAfter.x)).toBe(Math.round(actionsBefore.x));
      // What scrolled under the sticky columns is covered: the row's action buttons take the click.
      await row.locator('[data-testid=row-actions] button', { hasText: '查看' }).click();
      await page.locator('.ant-modal').waitFor();
      await screenshot(page, 'list-grid-narrow');
      await page.keyboard.press('Escape');
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  });

  test('a page of 100 rows draws the rows in view and the others as they are scrolled to', async () => {
    await openList();
    await page.locator('.ant-pagination-options .ant-select').click();
    await page.locator('.ant-select-item-option', { hasText: '100 条/页' }).click();
    const rows = grid().locator('.erp-grid-row:not(.erp-grid-row-pinned)');
    await expect.poll(() => grid().locator('.erp-grid-row[row-index="20"]').count()).toBe(1);
    const drawn = await rows.count();
    const total = Number(await grid().locator('.erp-list-grid').getAttribute('aria-rowcount')) - 1;
    expect(total).toBeGreaterThanOrEqual(60);
    expect(drawn).toBeLessThan(total);
    await grid().locator('.erp-list-grid').evaluate((el) => (el.scrollTop = el.scrollHeight));
    const lastRow = grid().locator(`.erp-grid-row[row-index="${total - 1}"]`);
    await lastRow.waitFor();
    const frame = (await grid().locator('.erp-list-grid').boundingBox())!;
    const last = (await lastRow.boundingBox())!;
    expect(last.y + last.height).toBeLessThanOrEqual(frame.y + frame.height + 1);
    expect(await lastRow.locator('[col-id="__index"]').innerText()).toBe(String(total));
  });
});
