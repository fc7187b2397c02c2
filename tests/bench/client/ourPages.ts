/** Our bench pages as a driver sees them (tests/bench/client/pages.tsx): selectors and typing. */
import type { Page } from 'playwright-core';
import { typeAndTime } from './probe.ts';

export const OUR_FIRST_FIELD = '[data-field-index="1"]';
export const OUR_FIRST_ROW = '.erp-grid-row[row-index="0"]';

/** Types `keys` keys `gapMs` apart into field #150 and times each (see probe.ts). */
export async function typeIntoOurField150(page: Page, keys: number, gapMs: number): Promise<{ keys: number[]; keyPaints: number[] }> {
  // A field not yet mounted shows a focusable placeholder: clicking it mounts and focuses the editor.
  await page.click('[data-field-index="150"] .erp-control');
  await page.waitForSelector('[data-field-index="150"] input:focus', { timeout: 10_000 });
  await page.waitForTimeout(300);
  return typeAndTime(page, keys, gapMs);
}
