import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn } from '../support/client.ts';
import { launchBrowser, type Browser } from './support/browser.ts';
import { activeTabLabel, openFromSidebar, seededLeaves, seededMenus, signIn, tabLabels } from './support/shell.ts';

// Acceptance 2 (sidebar and menu search) and 7 (unknown path, framed and external menus).
describe('menus, search and routes', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    await signIn(browser.page, server.url);
  });

  // Every test starts from the home page, so one failure does not leave a popup over the next.
  beforeEach(async () => {
    await browser.page.goto(`${server.url}/wel/home/index`);
    await browser.page.getByTestId('sidebar').waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the sidebar shows every seeded module', async () => {
    const sidebar = browser.page.getByTestId('sidebar');
    const titles = await sidebar
      .locator('.ant-menu-root > .ant-menu-submenu > .ant-menu-submenu-title')
      .allInnerTexts();
    expect(titles.map((t) => t.trim())).toEqual(seededMenus().map((m) => m.name));
    // Each module's icon is the antd icon its BladeX icon-font class names (iconfont icon-shopping-cart → ShoppingCartOutlined).
    const modules = sidebar.locator('.ant-menu-root > .ant-menu-submenu > .ant-menu-submenu-title');
    for (const [i, menu] of seededMenus().entries()) {
      const icon = String(menu.source ?? '').replace(/^iconfont icon-/, '');
      expect(await modules.nth(i).locator(`.anticon-${icon}`).count(), `${menu.name}: ${menu.source}`).toBe(1);
    }
  });

  test('search "xs" finds the 销售 leaves by pinyin initials; a Chinese prefix works too; Esc closes', async () => {
    const { page } = browser;
    const input = page.getByTestId('menu-search-sidebar');
    await input.fill('xs');
    const results = page.locator('.ant-select-dropdown:visible [data-testid=menu-search-result]');
    const shownCodes = () => results.evaluateAll((els) => els.map((el) => el.getAttribute('data-menu-code')));
    const expected = seededLeaves()
      .filter((m) => m.name.startsWith('销售'))
      .map((m) => m.code);
    expect(expected.length).toBeGreaterThan(3);
    await expect.poll(shownCodes).toEqual(expect.arrayContaining(expected));
    // Only prefix matches: 零售单 (retail) contains 售 but does not start with xs.
    expect(await shownCodes()).not.toContain('retail');

    await input.fill('采购订');
    await expect.poll(shownCodes).toEqual(['purchaseOrder', 'purchaseOrderInquiry']);

    await input.press('Escape');
    await expect.poll(() => results.count()).toBe(0);
    await expect(input.inputValue()).resolves.toBe('');

    // Picking a result navigates to it.
    await input.fill('销售订单');
    await page.locator('.ant-select-dropdown:visible [data-menu-code=salesOrder]').click();
    await page.waitForURL(/\/sale\/salesBusiness\/salesOrder$/);
  });

  test('a menu page renders the clear placeholder naming the menu and path; the title follows the tab', async () => {
    const { page } = browser;
    // Every seeded leaf has its page: an administrator's own leaf (菜单管理) pointing at a path no
    // page serves is what shows the placeholder.
    const api = await signedIn(server.url);
    const [marketing] = expectOk<Record<string, unknown>[]>(await api.get('/blade-system/menu/list', { code: 'marketing' }));
    expectOk(await api.post('/blade-system/menu/submit', { parentId: marketing.id, code: 'customPending', name: '定制报表', alias: 'menu', path: '/marketing/customPending', source: 'iconfont icon-file', category: 1, action: 1, sort: 99 }));
    await page.goto(`${server.url}/wel/home/index`);
    const sidebar = page.getByTestId('sidebar');
    const group = sidebar.locator('.ant-menu-submenu:has(> .ant-menu-submenu-title [data-menu-code="marketing"])');
    if (!(await group.evaluate((el) => el.classList.contains('ant-menu-submenu-open')))) await sidebar.locator('.ant-menu-submenu-title [data-menu-code="marketing"]').click();
    const leaf = sidebar.locator('.ant-menu-item [data-menu-code="customPending"]');
    await leaf.scrollIntoViewIfNeeded();
    await leaf.click();
    await page.waitForURL(/\/marketing\/customPending$/);
    const placeholder = page.locator('[data-testid=page-placeholder]:visible');
    await expect(placeholder.innerText()).resolves.toContain('页面尚未构建');
    await expect(placeholder.innerText()).resolves.toContain('/marketing/customPending');
    await expect(placeholder.innerText()).resolves.toContain('定制报表');
    expect(await activeTabLabel(page)).toBe('定制报表');
    await expect.poll(() => page.title()).toContain('定制报表');
  });

  test('the History tag opens the history path', async () => {
    const { page } = browser;
    const retail = page.getByTestId('sidebar').locator('.ant-menu-submenu:has([data-menu-code=salesBusiness])');
    await openFromSidebar(page, 'retail');
    await retail.locator('[data-menu-code=retail] [data-testid=menu-history-tag]').click();
    await page.waitForURL(/\/sale\/salesBusiness\/retailHistory$/);
    expect(await activeTabLabel(page)).toContain('零售单');
  });

  test('an unknown path goes to /404', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/no/such/page`);
    await page.waitForURL(/\/404$/);
    await page.getByText('抱歉，您访问的页面不存在').waitFor();
  });

  test('a menu whose path contains html opens in the embedded-frame route', async () => {
    const { page } = browser;
    await openFromSidebar(page, 'iframeDemo');
    await page.waitForURL(/\/myiframe\/iframeDemo\?src=/);
    const frame = page.frameLocator('[data-testid=iframe-page] iframe');
    await frame.getByText('内嵌页面示例').first().waitFor();
    expect(await activeTabLabel(page)).toBe('内嵌页面示例');
  });

  test('an external menu with isOpen 2 opens a new window', async () => {
    const { page, context } = browser;
    // The machine has no internet: answer the external site locally.
    await context.route('https://spring.io/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<p>external</p>' }),
    );
    const popup = context.waitForEvent('page');
    await openFromSidebar(page, 'bladeDoc');
    const opened = await popup;
    await opened.waitForLoadState();
    expect(opened.url()).toMatch(/^https:\/\/spring\.io\//);
    await opened.close();
    // The shell itself stays where it was: no tab for an external window.
    expect(new URL(page.url()).pathname).toBe('/wel/home/index');
    expect(await tabLabels(page)).not.toContain('开发文档');
  });

  test('the screen-size class follows the width (debounced) and narrow screens collapse the sidebar', async () => {
    const { page } = browser;
    const layout = page.locator('[data-screen]').first();
    const sider = page.locator('.ant-layout-sider');
    expect(await layout.getAttribute('data-screen')).toBe('3');
    await page.setViewportSize({ width: 900, height: 800 });
    await expect.poll(() => layout.getAttribute('data-screen')).toBe('1');
    await expect.poll(() => sider.evaluate((el) => el.classList.contains('ant-layout-sider-collapsed'))).toBe(true);
    await page.setViewportSize({ width: 1000, height: 800 });
    await expect.poll(() => layout.getAttribute('data-screen')).toBe('2');
    await page.setViewportSize({ width: 700, height: 800 });
    await expect.poll(() => layout.getAttribute('data-screen')).toBe('0');
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect.poll(() => layout.getAttribute('data-screen')).toBe('3');
    await expect.poll(() => sider.evaluate((el) => el.classList.contains('ant-layout-sider-collapsed'))).toBe(false);
  });

  test('English switches every shell string and menu name', async () => {
    const { page } = browser;
    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByTestId('sidebar').getByText('Sales', { exact: true }).waitFor();
    await expect(page.getByTestId('menu-search-sidebar').getAttribute('placeholder')).resolves.toBe('Search menus');
    // The seeded top menus carry English names too.
    await expect.poll(() => page.getByTestId('top-menu').innerText()).toMatch(/Business[\s\S]*System/);
    expect(await page.getByTestId('top-menu').innerText()).not.toMatch(/业务中心|系统中心/);
    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: '简体中文' }).click();
    await page.getByTestId('sidebar').getByText('销售管理', { exact: true }).waitFor();
  });
});
