import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Where the run's screenshots go (named in the README). */
export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../../screenshots');

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Messages of uncaught page errors, for tests that assert a clean console. */
  pageErrors: string[];
  close(): Promise<void>;
}

/** A fresh Chromium profile (no cookies, no storage) with a desktop-sized window. */
export async function launchBrowser(options: { width?: number; height?: number } = {}): Promise<Browser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: options.width ?? 1440, height: options.height ?? 900 },
    locale: 'zh-CN',
    // The app honours reduced motion (antd's motion off): no dialog is ever caught mid-zoom by a click.
    reducedMotion: 'reduce',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return {
    context,
    page,
    pageErrors,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}
