import type { Locator, Page } from 'playwright-core';

/** The open dialog whose title is `title` (a form and its picker can be open at once). */
export const modal = (page: Page, title: string | RegExp) =>
  page.locator('.ant-modal-wrap:visible .ant-modal', { has: page.locator('.ant-modal-title', { hasText: title }) });

/** A button of the dialog's footer (保存, 取消, 确定 …). */
export const footerButton = (dialog: Locator, name: RegExp) => dialog.locator('.ant-modal-footer').getByRole('button', { name });

export const okButton = (dialog: Locator) => footerButton(dialog, /确\s*定/);

/** A form field's row, by its schema name. */
export const field = (dialog: Locator, name: string) => dialog.locator(`[data-field="${name}"]`);

/** The message under a form field (absent while the field passes). */
export const fieldError = (dialog: Locator, name: string) => field(dialog, name).locator('.erp-field-error');
