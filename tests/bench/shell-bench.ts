/**
 * Shell figures (issue 3), on the production build in headless chromium, printed only:
 *  - JS transferred (encoded, i.e. compressed as sent) before the login page is interactive
 *  - time to interactive of /login (navigation start → the username box accepts input)
 *  - time from clicking 登录 to the first menu rendered in the sidebar
 * Runs 5 cold loads (fresh browser profile each) and prints the median and the range.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { launchBrowser } from '../e2e/support/browser.ts';
import { startTestServer } from '../support/server.ts';

const root = path.resolve(import.meta.dirname, '../..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  if (!fs.existsSync(path.join(root, 'dist/client/index.html')) || process.env.BENCH_BUILD === '1') {
    spawnSync(path.join(root, 'node_modules/.bin/vite'), ['build'], { cwd: root, stdio: 'inherit' });
  }
  const server = await startTestServer();
  const jsBytes: number[] = [];
  const tti: number[] = [];
  const signIn: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const browser = await launchBrowser();
    const { page } = browser;
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    let js = 0;
    let interactive = false;
    const types = new Map<string, string>();
    cdp.on('Network.responseReceived', (e) => types.set(e.requestId, e.type));
    cdp.on('Network.loadingFinished', (e) => {
      if (!interactive && types.get(e.requestId) === 'Script') js += e.encodedDataLength;
    });
    const t0 = Date.now();
    await page.goto(`${server.url}/login`);
    const box = page.getByPlaceholder('用户名');
    await box.waitFor({ state: 'visible' });
    await box.fill('admin');
    interactive = true;
    const ready = await page.evaluate(() => performance.now());
    tti.push(ready);
    jsBytes.push(js);
    await page.getByPlaceholder('密码').fill('admin');
    const clickAt = Date.now();
    await page.getByRole('button', { name: '登录' }).click();
    await page.waitForSelector('[data-testid=sidebar] .ant-menu-item, [data-testid=sidebar] .ant-menu-submenu', { timeout: 30_000 });
    signIn.push(Date.now() - clickAt);
    void t0;
    await browser.close();
  }
  await server.close();
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
  console.log(`JS transferred before /login is interactive (compressed as sent): median ${kb(median(jsBytes))} (${kb(Math.min(...jsBytes))}–${kb(Math.max(...jsBytes))})`);
  console.log(`time to interactive of /login: median ${median(tti).toFixed(0)} ms (${Math.min(...tti).toFixed(0)}–${Math.max(...tti).toFixed(0)} ms)`);
  console.log(`click 登录 → first menu rendered: median ${median(signIn)} ms (${Math.min(...signIn)}–${Math.max(...signIn)} ms)`);
  console.log(`(${RUNS} cold loads, fresh browser profile each)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
