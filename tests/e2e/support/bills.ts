/**
 * Driving the bill page: its editor, the line grid's cells and summary row (LineGrid: rows drawn only
 * where they can be seen; the summary is the sticky bottom row), head pickers and actions.
 */
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { openFresh, seededLeaves, settle } from './shell.ts';
import { dialogsAtRest } from './dialogs.ts';
import { screenshot, type Browser } from './browser.ts';

/** `current` answers the page under test (set in a suite's beforeAll). */
export function billPage(current: () => Page) {
  const cell = (bill: Locator, row: number, col: string) => bill.locator(`[data-testid="line-grid"] .erp-grid-row[row-index="${row}"] .erp-grid-cell[col-id="${col}"]`);
  return {
    editor: (resource: string) => current().getByTestId(`document-${resource}`),
    cell,
    summary: (bill: Locator, col: string) => bill.locator(`[data-testid="line-grid"] .erp-grid-row-pinned .erp-grid-cell[col-id="${col}"]`),
    rowCount: (bill: Locator) => bill.locator('[data-testid="line-grid"] .erp-grid-row:not(.erp-grid-row-pinned)').count(),
    status: (bill: Locator) => bill.getByTestId('bill-status'),

    /**
     * Picks the row showing `text` in the picker a head field opens, once the picker has stopped
     * moving (a double-click on a dialog still zooming in can pick nothing), and waits until it closed.
     */
    async pickHead(bill: Locator, fieldName: string, text: string) {
      const page = current();
      await bill.locator(`[data-field="${fieldName}"] .ant-select`).click();
      const picker = page.locator('.ant-modal-wrap:visible .ant-modal').filter({ has: page.locator('.ant-table-row', { hasText: text }) }).last();
      const row = picker.locator('.ant-table-row', { hasText: text }).first();
      await row.waitFor();
      await dialogsAtRest(page);
      await row.dblclick();
      await expect.poll(() => bill.locator(`[data-field="${fieldName}"]`).innerText()).toContain(text);
      await expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
    },

    /**
     * 从源单生成 from the open-source list: double-clicks the row showing `text` once the dialog has
     * stopped zooming in (under CI load a double-click on a moving row can land beside it and pick
     * nothing), and waits until the dialog has closed.
     */
    async fromSourceList(bill: Locator, text: string) {
      const page = current();
      await bill.getByTestId('doc-from-source').click();
      const row = page.getByTestId('source-list').locator('.ant-table-row', { hasText: text });
      await row.waitFor();
      await dialogsAtRest(page);
      await row.dblclick();
      await expect.poll(() => page.locator('.ant-modal-wrap:visible').count(), { message: 'the source list closes once a bill is picked' }).toBe(0);
    },

    /** 从源单生成 by the source bill's number (returns and exchanges); waits until the dialog closed. */
    async fromSourceNumber(bill: Locator, number: string) {
      const page = current();
      await bill.getByTestId('doc-from-source').click();
      const input = page.getByTestId('source-number');
      await input.waitFor();
      await dialogsAtRest(page);
      await input.fill(number);
      await input.press('Enter');
      await expect.poll(() => page.locator('.ant-modal-wrap:visible').count(), { message: 'the source dialog closes once the bill is found' }).toBe(0);
    },

    /** Chooses an option of a head field's select. */
    async choose(bill: Locator, fieldName: string, text: string) {
      await bill.locator(`[data-field="${fieldName}"] .ant-select`).click();
      await current().locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).click();
      await expect.poll(() => bill.locator(`[data-field="${fieldName}"]`).innerText()).toContain(text);
    },

    /** Adds goods through the goods picker (several at once). */
    async addGoods(bill: Locator, goodsNames: string[]) {
      const page = current();
      await bill.getByRole('button', { name: '添加商品' }).click();
      const picker = page.locator('.ant-modal-wrap:visible .ant-modal').filter({ has: page.locator('.ant-table-row', { hasText: goodsNames[0] }) }).last();
      for (const name of goodsNames) await picker.locator('.ant-table-row', { hasText: name }).first().locator('.ant-checkbox-input').check();
      await picker.getByRole('button', { name: /确\s*定/ }).click();
    },

    /** Types into a grid cell and presses Enter (which moves on to the next editable cell). */
    async typeCell(bill: Locator, row: number, col: string, text: string) {
      await cell(bill, row, col).click();
      const input = bill.locator('.erp-line-editing input').first();
      await input.waitFor();
      await input.fill(text);
      await input.press('Enter');
    },

    /** Clicks an action of the bar; with a remark, fills the prompt and confirms it. */
    async act(bill: Locator, action: string, remark?: string) {
      const page = current();
      await bill.getByTestId(`doc-action-${action}`).click();
      if (remark !== undefined) {
        // Let the prompt finish zooming in first: under CI load a click on a button still moving
        // can land beside it, and the prompt then stays open with the action never sent.
        const prompt = page.locator('.ant-modal-wrap:visible .ant-modal', { has: page.getByTestId('action-remark') });
        await prompt.waitFor();
        await dialogsAtRest(page);
        await page.getByTestId('action-remark').fill(remark);
        await prompt.getByRole('button', { name: /确\s*定|OK/ }).click();
        await expect.poll(() => prompt.count(), { message: 'the remark prompt closes once confirmed' }).toBe(0);
      }
      await settle(page);
    },
  };
}

/**
 * A bill page suite's flows: open a menu page's bill (no placeholder), carry a bill through
 * 提交 → 审核通过 → 记账 (or other steps), find it on the history list, and end a step with a
 * screenshot and a clean page (no page error, no console error).
 */
export function billFlows(o: { page: () => Page; url: () => string; browser: () => Browser; consoleErrors: string[] }) {
  const bills = billPage(o.page);
  const leaf = (code: string) => seededLeaves().find((m) => m.code === code)!;
  const { act, status } = bills;
  /** Waits for the bill's status; when it never comes, the failure names what the page showed instead. */
  async function shows(bill: Locator, shown: string) {
    try {
      await expect.poll(() => status(bill).innerText()).toBe(shown);
    } catch (error) {
      const onScreen = await o.page().locator('.ant-message-notice, .ant-notification-notice, .ant-modal-wrap:visible .ant-modal').allInnerTexts();
      throw new Error(`${(error as Error).message}\nstatus ${await status(bill).innerText()}; on screen: ${onScreen.join(' | ') || 'nothing'}`, { cause: error });
    }
  }
  return {
    shows,
    ...bills,
    leaf,
    /** Opens a bill page from its route and waits until its calls are done (its defaults filled). */
    async open(code: string, resource: string): Promise<Locator> {
      // Inside the route's page: pages of earlier tabs (perhaps of the same resource) stay mounted, hidden.
      const shown = await openFresh(o.page(), o.url(), leaf(code).path);
      const bill = shown.getByTestId(`document-${resource}`);
      await bill.waitFor();
      await settle(o.page());
      expect(await o.page().getByText('页面尚未构建').count()).toBe(0);
      return bill;
    },
    /** 提交 → 审核通过 → (记账 or the given steps), checking the status after each; answers the bill number. */
    async carry(bill: Locator, steps: [action: string, status: string][] = [['accounting', '已记账']]) {
      await act(bill, 'submit');
      await shows(bill, '待审核');
      await act(bill, 'pass', '');
      await shows(bill, '已审核');
      for (const [action, shown] of steps) {
        await act(bill, action);
        await shows(bill, shown);
      }
      return bill.getByTestId('bill-no').innerText();
    },
    /** The history list of the page shows the bill with its status; answers the list. */
    async listed(code: string, resource: string, billNo: string, shown = '已记账'): Promise<Locator> {
      const list = (await openFresh(o.page(), o.url(), leaf(code).historyPath!)).getByTestId(`list-${resource}`);
      const row = list.locator('.erp-grid-row', { hasText: billNo }).first();
      await row.waitFor();
      await expect.poll(() => row.innerText()).toContain(shown);
      await settle(o.page());
      return list;
    },
    async done(shot: string) {
      await dialogsAtRest(o.page());
      await screenshot(o.page(), shot);
      expect(await o.page().getByText('页面尚未构建').count()).toBe(0);
      expect(o.browser().pageErrors).toEqual([]);
      expect(o.consoleErrors).toEqual([]);
    },
  };
}
