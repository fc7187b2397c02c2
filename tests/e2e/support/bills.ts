/**
 * Driving the bill page: its editor, the line grid's cells and summary row (ag-grid 36: a row holds
 * its pinned and scrolling cells; the summary is the pinned bottom row), head pickers and actions.
 */
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { settle } from './shell.ts';

/** `current` answers the page under test (set in a suite's beforeAll). */
export function billPage(current: () => Page) {
  const cell = (bill: Locator, row: number, col: string) => bill.locator(`.ag-row[row-index="${row}"]:not(.ag-row-pinned) .ag-cell[col-id="${col}"]`);
  return {
    editor: (resource: string) => current().getByTestId(`document-${resource}`),
    cell,
    summary: (bill: Locator, col: string) => bill.locator(`.ag-row-pinned .ag-cell[col-id="${col}"]`),
    rowCount: (bill: Locator) => bill.locator('.ag-row:not(.ag-row-pinned)').count(),
    status: (bill: Locator) => bill.getByTestId('bill-status'),

    /** Picks the row showing `text` in the picker a head field opens. */
    async pickHead(bill: Locator, fieldName: string, text: string) {
      const page = current();
      await bill.locator(`[data-field="${fieldName}"] .ant-select`).click();
      const picker = page.locator('.ant-modal-wrap:visible .ant-modal').filter({ has: page.locator('.ant-table-row', { hasText: text }) }).last();
      await picker.locator('.ant-table-row', { hasText: text }).first().dblclick();
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
      const input = bill.locator('.ag-cell-inline-editing input, .ag-popup-editor input').first();
      await input.waitFor();
      await input.fill(text);
      await input.press('Enter');
    },

    /** Clicks an action of the bar; with a remark, fills the prompt and confirms it. */
    async act(bill: Locator, action: string, remark?: string) {
      const page = current();
      await bill.getByTestId(`doc-action-${action}`).click();
      if (remark !== undefined) {
        await page.getByTestId('action-remark').fill(remark);
        await page.locator('.ant-modal-wrap:visible .ant-modal', { has: page.getByTestId('action-remark') }).getByRole('button', { name: /确\s*定|OK/ }).click();
      }
      await settle(page);
    },
  };
}
