import { expect } from 'vitest';
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

/**
 * Waits until the open dialogs' opening animations have finished: for a clean screenshot, and
 * before a double-click in a picker just opened: under CI load a dialog still zooming in can
 * move the row between the two clicks, and the double-click then picks nothing.
 */
export async function dialogsAtRest(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          document
            .getAnimations()
            .filter((a) => a.effect instanceof KeyframeEffect && a.effect.target instanceof Element)
            .filter((a) => ((a.effect as KeyframeEffect).target as Element).closest('.ant-modal-wrap, .ant-modal'))
            // Finite ones only: spinners and the like run forever.
            .filter((a) => a.playState === 'running' && a.effect!.getTiming().iterations !== Infinity)
            .map((a) => `${a.constructor.name}:${(a as CSSAnimation).animationName ?? (a as CSSTransition).transitionProperty}`),
      ),
      { timeout: 5_000 },
    )
    .toEqual([]);
}
