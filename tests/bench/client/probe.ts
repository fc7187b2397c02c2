/**
 * The bench driver's own probe, injected into any page before its scripts run (so it can time a
 * page of another renderer too: it needs selectors only, never the page's globals):
 *  - when an element matching a selector first exists, then is painted (the frame after it, then
 *    that frame's paint: requestAnimationFrame + a message posted from it);
 *  - for keys typed, keydown → the next frame, and keydown → after that frame's paint.
 * The scripts are plain text: the bench runs under tsx, whose transform would add helpers to
 * functions handed to the page that the page does not have.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const PROBE = `(() => {
  performance.setResourceTimingBufferSize(5000);
  const state = { keys: [], keyPaints: [], recording: false };
  Object.defineProperty(window, '__paintProbe', { value: state, enumerable: false });
  function afterPaint(callback) {
    const channel = new MessageChannel();
    channel.port1.onmessage = callback;
    channel.port2.postMessage(null);
  }
  state.afterPaint = afterPaint;
  document.addEventListener('keydown', (event) => {
    if (!state.recording) return;
    const began = event.timeStamp;
    requestAnimationFrame(() => {
      state.keys.push(performance.now() - began);
      afterPaint(() => state.keyPaints.push(performance.now() - began));
    });
  }, true);
})();`;

export async function installPaintProbe(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: PROBE });
}

/** ms from navigation start until the first element matching `selector` was painted. */
export async function waitForPaintOf(page: Page, selector: string, timeoutMs = 60_000): Promise<number> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const selector = ${JSON.stringify(selector)};
    function painted() {
      requestAnimationFrame(() => window.__paintProbe.afterPaint(() => resolve(performance.now())));
    }
    if (document.querySelector(selector)) return painted();
    const timer = setTimeout(() => reject(new Error(selector + ' did not appear')), ${timeoutMs});
    const watcher = new MutationObserver(() => {
      if (!document.querySelector(selector)) return;
      watcher.disconnect();
      clearTimeout(timer);
      painted();
    });
    watcher.observe(document, { childList: true, subtree: true, attributes: true });
  })`) as Promise<number>;
}

/** Types `count` keys into the focused field, `gapMs` apart; each key's latencies in ms. */
export async function typeAndTime(page: Page, count: number, gapMs: number): Promise<{ keys: number[]; keyPaints: number[] }> {
  await page.evaluate(`(() => {
    const probe = window.__paintProbe;
    probe.keys.length = 0;
    probe.keyPaints.length = 0;
    probe.recording = true;
  })()`);
  for (let key = 0; key < count; key += 1) {
    await page.keyboard.type(String(key % 10));
    await page.waitForTimeout(gapMs);
  }
  await page.waitForTimeout(100);
  return page.evaluate(`(() => {
    const probe = window.__paintProbe;
    probe.recording = false;
    return { keys: [...probe.keys], keyPaints: [...probe.keyPaints] };
  })()`) as Promise<{ keys: number[]; keyPaints: number[] }>;
}

/** Paths of the JS and CSS files the page started to fetch before `beforeMs` (page clock). */
export async function assetsRequestedBefore(page: Page, beforeMs: number): Promise<string[]> {
  return page.evaluate(`performance.getEntriesByType('resource')
    .filter((entry) => entry.startTime < ${beforeMs})
    .map((entry) => new URL(entry.name).pathname)
    .filter((path) => /\\.(js|css)$/.test(path))`) as Promise<string[]>;
}

/** A page in a fresh Chromium profile (a cold cache) with the probe installed, desktop-sized. */
export async function openColdPage(): Promise<{ page: Page; close(): Promise<void> }> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-client-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1440, height: 900 },
    locale: 'zh-CN',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  await installPaintProbe(context);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    page,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
