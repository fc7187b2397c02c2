import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { pngBytes } from '../support/files.ts';
import { BodyFactory, loadResources, pathOf as apiPathOf } from '../support/resources.ts';
import { dialogsAtRest, modal, footerButton, field, fieldError } from './support/dialogs.ts';
import { launchBrowser, screenshot, type Browser } from './support/browser.ts';
import { expectMessage, seededLeaves, settle, signIn } from './support/shell.ts';

/**
 * Issue 4, acceptance 4: the customer dialog (tabs, required fields, contact phone rules with the
 * server's uniqueness check, attachments with the 4-file warning) and the supplier-category tree
 * picker (its four messages and double-click), in the browser against the real server.
 */

const pathOf = (code: string) => {
  const menu = seededLeaves().find((m) => m.code === code);
  if (!menu) throw new Error(`menu ${code} is not seeded`);
  return menu.path;
};

/** A small but real PDF. */
function pdfBytes(text: string): Buffer {
  const stream = `BT /F1 12 Tf 20 50 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** The lines cell holding the editor with id `<lines>.<row>.<field>`. */
const cell = (dialog: Locator, path: string) => dialog.locator('td', { has: dialog.page().locator(`[id="${path}"]`) });

const cellInput = (dialog: Locator, path: string) => dialog.locator(`input[id="${path}"]`);

/** Types into a cell editor and leaves it (the blur check runs). */
async function typeCell(dialog: Locator, path: string, text: string) {
  const input = cellInput(dialog, path);
  await input.fill(text);
  await input.blur();
}

async function openList(page: Page, base: string, path: string, resource: string) {
  await page.goto(`${base}${path}`);
  await page.getByTestId(`list-${resource}`).getByTestId('data-grid').locator('.erp-list-grid').waitFor();
  await settle(page);
}

/** Opens the list at `path` and its 新增 dialog titled `title`. */
async function openAddDialog(page: Page, base: string, path: string, resource: string, title: string): Promise<Locator> {
  await openList(page, base, path, resource);
  await page.getByTestId('list-toolbar').getByRole('button', { name: /新\s*增/ }).click();
  const dialog = modal(page, title);
  await dialog.waitFor();
  return dialog;
}

/** Picks the node titled `title` in an open tree picker by double-click. */
async function doubleClickNode(picker: Locator, title: string) {
  await dialogsAtRest(picker.page());
  await picker.locator('.ant-tree-node-content-wrapper', { hasText: title }).dblclick();
}

describe('master-data dialogs', () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;

  beforeAll(async () => {
    server = await startTestServer();
    api = await signedIn(server.url);
    browser = await launchBrowser();
    await signIn(browser.page, server.url);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('customer dialog: tabs, required fields, contact phones, server uniqueness, attachments; view reads it back', async () => {
    const { page, pageErrors } = browser;
    // Another customer already uses 13900000001 for a contact.
    const nature = expectOk(await api.get('/blade-base/customernature/tree', { parentId: 0 }))[0];
    const level = expectOk(await api.get('/blade-base/commcustomerlevel/list', { current: 1, size: 10 })).records[0];
    expectOk(
      await api.post('/blade-base/customer/submit', {
        bartererName: '已有联系人客户',
        natureId: nature.id,
        levelId: level.id,
        customerContactsVOs: [{ contacts: '张三', phone: '13900000001' }],
      }),
      'customer submit',
    );

    const path = pathOf('customer');
    expect(path).toBe('/base/customer');
    const dialog = await openAddDialog(page, server.url, path, 'customer', '新增客户');

    // The four tabs, in order.
    expect(await dialog.locator('.ant-tabs-tab').allInnerTexts()).toEqual(['基本信息', '联系人', '附件', '其他信息']);

    // Saving nothing: the three required messages on the basic tab.
    const save = footerButton(dialog, /保\s*存/);
    await save.click();
    await expect.poll(() => fieldError(dialog, 'bartererName').innerText()).toBe('请输入客户名称');
    await expect.poll(() => fieldError(dialog, 'natureId').innerText()).toBe('请选择所属分类');
    await expect.poll(() => fieldError(dialog, 'levelId').innerText()).toBe('请选择客户级别');

    // The basic fields: a name, a category from the 客户分类选择 tree, a level from its table picker.
    const name = field(dialog, 'bartererName').locator('input');
    await name.fill('浏览器测试客户');
    await name.blur();
    await expect.poll(() => fieldError(dialog, 'bartererName').count()).toBe(0);
    await field(dialog, 'natureId').locator('.ant-select').click();
    const naturePicker = modal(page, '客户分类选择');
    await naturePicker.waitFor();
    await doubleClickNode(naturePicker, nature.title);
    await expect.poll(() => naturePicker.count()).toBe(0);
    await expect.poll(() => field(dialog, 'natureId').innerText()).toContain(nature.title);
    await expect.poll(() => fieldError(dialog, 'natureId').count()).toBe(0);
    await field(dialog, 'levelId').locator('.ant-select').click();
    const levelPicker = modal(page, '客户级别');
    await dialogsAtRest(page);
    await levelPicker.locator('.ant-table-row', { hasText: level.levelName }).dblclick();
    await expect.poll(() => levelPicker.count()).toBe(0);
    await expect.poll(() => field(dialog, 'levelId').innerText()).toContain(level.levelName);
    await expect.poll(() => fieldError(dialog, 'levelId').count()).toBe(0);

    // Contacts: an empty row refuses the save and names the missing phone.
    await dialog.locator('.ant-tabs-tab', { hasText: '联系人' }).click();
    await dialog.getByRole('button', { name: /添\s*加/ }).click();
    await save.click();
    await expect.poll(() => cell(dialog, 'customerContactsVOs.0.phone').locator('.erp-cell-error').innerText()).toBe(
      '请输入手机号码',
    );
    await typeCell(dialog, 'customerContactsVOs.0.contacts', '王五');
    // Spec §5, contact phone: any malformed number, long or short, gets 请输入正确的手机号码.
    await typeCell(dialog, 'customerContactsVOs.0.phone', '23800000001');
    await expect.poll(() => cell(dialog, 'customerContactsVOs.0.phone').locator('.erp-cell-error').innerText()).toBe(
      '请输入正确的手机号码',
    );
    await typeCell(dialog, 'customerContactsVOs.0.phone', '1380000');
    await expect.poll(() => cell(dialog, 'customerContactsVOs.0.phone').locator('.erp-cell-error').innerText()).toBe(
      '请输入正确的手机号码',
    );
    await typeCell(dialog, 'customerContactsVOs.0.phone', '13800000001');
    await expect.poll(() => cell(dialog, 'customerContactsVOs.0.phone').locator('.erp-cell-error').count()).toBe(0);
    // The same number in a second row.
    await dialog.getByRole('button', { name: /添\s*加/ }).click();
    await typeCell(dialog, 'customerContactsVOs.1.contacts', '赵六');
    await typeCell(dialog, 'customerContactsVOs.1.phone', '13800000001');
    await expect.poll(() => cell(dialog, 'customerContactsVOs.1.phone').locator('.erp-cell-error').innerText()).toBe(
      '手机号码与第1条重复',
    );
    await dialogsAtRest(page);
    await screenshot(page, 'customer-dialog');

    // A number another customer's contact uses: on blur the server check (chechPhone) names it on
    // the cell; a save anyway is refused by the server with the same message.
    await typeCell(dialog, 'customerContactsVOs.1.phone', '13900000001');
    await expect.poll(() => cell(dialog, 'customerContactsVOs.1.phone').locator('.erp-cell-error').innerText()).toBe('手机号码已存在');
    await screenshot(page, 'customer-dialog-phone-taken');
    await save.click();
    await expectMessage(page, '手机号码已存在');
    await expect(dialog.isVisible()).resolves.toBe(true);
    await typeCell(dialog, 'customerContactsVOs.1.phone', '13800000002');

    // Attachments: an .exe is refused; png/pdf files upload until the fifth brings the warning.
    await dialog.locator('.ant-tabs-tab', { hasText: '附件' }).click();
    const uploads = field(dialog, 'fileInfoVoForms');
    const fileInput = uploads.locator('input[type=file]');
    const doneItems = uploads.locator('.ant-upload-list-item:not(.ant-upload-list-item-uploading)');
    await fileInput.setInputFiles({ name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ fake') });
    await expectMessage(page, '只能上传');
    expect(await uploads.locator('.ant-upload-list-item').count()).toBe(0);
    const files = [
      { name: '营业执照.png', mimeType: 'image/png', buffer: pngBytes(4, 4) },
      { name: '合同.pdf', mimeType: 'application/pdf', buffer: pdfBytes('contract') },
      { name: '门头照片.png', mimeType: 'image/png', buffer: pngBytes(3, 2) },
      { name: '开户许可.pdf', mimeType: 'application/pdf', buffer: pdfBytes('bank') },
    ];
    for (const [index, file] of files.entries()) {
      await fileInput.setInputFiles(file);
      await expect.poll(() => doneItems.count(), { timeout: 15_000 }).toBe(index + 1);
    }
    await fileInput.setInputFiles({ name: '第五个.png', mimeType: 'image/png', buffer: pngBytes(2, 2) });
    await expectMessage(page, '当前页面最多可上传4个附件！');
    // (Finished uploads' progress rows fade out: wait for the list to be just the four files.)
    await expect.poll(() => uploads.locator('.ant-upload-list-item').count(), { timeout: 5_000 }).toBe(4);
    await dialogsAtRest(page);
    await screenshot(page, 'customer-dialog-attachments');

    // A complete, valid customer saves.
    await save.click();
    await expectMessage(page, '新增成功');
    await expect.poll(() => dialog.count()).toBe(0);

    // Reopened in view: contacts and attachments are there.
    const saved = expectOk(
      await api.get('/blade-base/customer/list', { bartererName: '浏览器测试客户', current: 1, size: 10 }),
    ).records;
    expect(saved).toHaveLength(1);
    const grid = page.getByTestId('list-customer').getByTestId('data-grid');
    await grid.locator(`.erp-grid-row[row-id="${saved[0].id}"] [data-testid=row-actions] button`, { hasText: '查看' }).click();
    const view = modal(page, '查看客户');
    await view.waitFor();
    await expect.poll(() => field(view, 'bartererName').innerText()).toContain('浏览器测试客户');
    await view.locator('.ant-tabs-tab', { hasText: '联系人' }).click();
    const contacts = field(view, 'customerContactsVOs');
    await expect.poll(() => contacts.locator('.ant-table-row').count(), { timeout: 15_000 }).toBe(2);
    const contactText = await contacts.innerText();
    for (const text of ['王五', '13800000001', '赵六', '13800000002']) expect(contactText).toContain(text);
    await view.locator('.ant-tabs-tab', { hasText: '附件' }).click();
    const attached = field(view, 'fileInfoVoForms');
    // View mode lists the files as links.
    await expect.poll(() => attached.locator('a').count()).toBe(4);
    const attachedText = await attached.innerText();
    for (const file of files) expect(attachedText).toContain(file.name);
    await footerButton(view, /关\s*闭/).click();
    expect(pageErrors).toEqual([]);
  });

  test('a top-level tree row: the parent picker shows its placeholder, not the root value 0; a picked parent shows its name', async () => {
    const { page, pageErrors } = browser;
    await page.goto(`${server.url}/base/depotClassify`);
    await page.getByTestId('tree-depot-category').locator('.ant-table').waitFor();
    await settle(page);
    await page.getByRole('button', { name: /新\s*增/ }).first().click();
    const dialog = modal(page, '新增仓库分类');
    await dialog.waitFor();
    const parent = field(dialog, 'parentId');
    await expect.poll(() => parent.locator('.ant-select-placeholder').innerText()).toBe('不选则为顶级分类');
    expect(await parent.locator('.ant-select-selection-item').count()).toBe(0);
    await parent.locator('.ant-select').click();
    const picker = page.locator('.ant-modal').filter({ has: page.getByTestId('tree-picker') });
    await picker.getByTestId('tree-picker').locator('.ant-tree-node-content-wrapper', { hasText: '默认分类' }).dblclick();
    await expect.poll(() => parent.innerText()).toContain('默认分类');
    expect(pageErrors).toEqual([]);
  });

  test('tax-rate picker: 请选择税率，无税请选0 with nothing chosen; 暂无数据 clears the choice; double-click fills the rate', async () => {
    const { page, pageErrors } = browser;
    const dialog = await openAddDialog(page, server.url, '/base/customer', 'customer', '新增客户');
    await field(dialog, 'taxRateId').locator('.ant-select').click();
    const picker = modal(page, /^税率$/);
    await picker.waitFor();
    const rows = picker.locator('.ant-table-tbody tr.ant-table-row');
    await rows.filter({ hasText: '增值税13%' }).waitFor();
    const ok = footerButton(picker, /确\s*定/);

    await ok.click();
    await expectMessage(page, '请选择税率，无税请选0');
    // A choice, then a search that finds nothing: the table says 暂无数据 and the choice is gone.
    await rows.filter({ hasText: '增值税13%' }).click();
    await picker.locator('input').first().fill('没有这个税率');
    await picker.getByRole('button', { name: /搜\s*索/ }).click();
    await picker.getByText('暂无数据').first().waitFor();
    await ok.click();
    await expectMessage(page, '请选择税率，无税请选0');
    // Back to every rate; a double-click picks one and the read-only rate follows it.
    await picker.getByRole('button', { name: /清\s*空/ }).click();
    await rows.filter({ hasText: '增值税13%' }).dblclick();
    await expect.poll(() => picker.count()).toBe(0);
    await expect.poll(() => field(dialog, 'taxRateId').innerText()).toContain('增值税13%');
    await expect.poll(() => field(dialog, 'taxRate').innerText()).toContain('13');
    await footerButton(dialog, /取\s*消/).click();
    expect(pageErrors).toEqual([]);
  });

  test('the search bar: a name typed and Enter filters the list; 重置 empties the fields and lists every row again', async () => {
    const { page, pageErrors } = browser;
    await openList(page, server.url, '/base/customer', 'customer');
    const list = page.getByTestId('list-customer');
    // The names in the rows (the pinned 合计 row's cell is empty).
    const names = async () => (await list.locator('.erp-grid-row [col-id="bartererName"]').allInnerTexts()).filter(Boolean);
    await expect.poll(names).toEqual(expect.arrayContaining(['已有联系人客户', '浏览器测试客户']));
    // The pinned 合计 row sums the money column (its summing code loads only with lists that have one).
    // 应收余额 is off to the right: the grid draws the columns in view only.
    await list.locator('.erp-list-grid').evaluate((viewport) => (viewport.scrollLeft = viewport.scrollWidth));
    const total = list.locator('.erp-grid-row-pinned [col-id="collectBalance"]');
    await expect.poll(() => total.innerText()).toMatch(/^-?[\d,]+\.\d{2}$/);
    const search = page.getByTestId('list-search');
    // Each label names its input (a click on 客户名称 focuses it; screen readers read it).
    const name = search.getByLabel('客户名称');
    await name.fill('浏览器');
    await name.press('Enter');
    await expect.poll(names).toEqual(['浏览器测试客户']);
    await search.getByRole('button', { name: /重\s*置/ }).click();
    await expect.poll(() => name.inputValue()).toBe('');
    await expect.poll(names).toEqual(expect.arrayContaining(['已有联系人客户', '浏览器测试客户']));
    expect(pageErrors).toEqual([]);
  });

  test('a text field: its typing never reaches React (the keys do); 清除 shows only over text, empties the field and checks it (请输入参数名称), keeping the caret; Enter commits', async () => {
    const { page, pageErrors } = browser;
    const dialog = await openAddDialog(page, server.url, '/system/param', 'param', '新增参数');
    const box = field(dialog, 'paramName');
    const input = box.locator('input');
    const clear = box.getByRole('button', { name: '清除' });
    await input.click();
    expect(await clear.isVisible()).toBe(false);
    // The placeholder shows while the field is empty, and only then (its attribute goes with the first
    // character: Chrome restyles an input's placeholder on every keystroke while it has one).
    const placeholder = () => input.getAttribute('placeholder');
    expect(await placeholder()).toBe('请输入参数名称');
    // What gets past the window while typing (React listens at its root and at the dialog's portal
    // container): the keys, but none of the typing events (quietTyping.ts).
    await page.evaluate(() => {
      const seen: Record<string, number> = {};
      for (const type of ['keydown', 'keypress', 'textInput', 'beforeinput', 'input']) document.addEventListener(type, () => (seen[type] = (seen[type] ?? 0) + 1), true);
      (window as unknown as { typingSeen: Record<string, number> }).typingSeen = seen;
    });
    await page.keyboard.type('先输入的名称 ab');
    await expect.poll(() => clear.isVisible()).toBe(true);
    expect(await placeholder()).toBeNull();
    // (Playwright inserts the Chinese text as an IME would, without keys; the space and letters are keys.)
    expect(await page.evaluate(() => (window as unknown as { typingSeen: Record<string, number> }).typingSeen)).toEqual({ keydown: 3 });
    // The toasts (loaded at the first key) have a box of their own: a portal into <body> would have
    // React listen there too, and dispatch every event of the page once more.
    await expect.poll(() => page.locator('body > .erp-toast-root').count()).toBe(1);
    const cdp = await page.context().newCDPSession(page);
    const { result: body } = await cdp.send('Runtime.evaluate', { expression: 'document.body' });
    const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: body.objectId! });
    expect(listeners.map((listener) => listener.type).filter((type) => ['keydown', 'input', 'click', 'pointermove'].includes(type))).toEqual([]);
    await cdp.detach();
    await clear.click();
    await expect.poll(() => input.inputValue()).toBe('');
    expect(await placeholder()).toBe('请输入参数名称');
    await expect.poll(() => fieldError(dialog, 'paramName').innerText()).toBe('请输入参数名称');
    expect(await clear.isVisible()).toBe(false);
    expect(await input.evaluate((element) => element === document.activeElement)).toBe(true);
    // The field is a form of its own (Chrome's autofill then reads one field a keystroke, not the
    // dialog's every field), and Enter's implicit submission of it goes nowhere.
    expect(await input.evaluate((element) => [...((element as HTMLInputElement).form?.elements ?? [])].filter((owned) => owned.tagName === 'INPUT').length)).toBe(1);
    const url = page.url();
    await page.keyboard.type('回车提交的名称');
    await page.keyboard.press('Enter');
    await expect.poll(() => fieldError(dialog, 'paramName').count()).toBe(0);
    expect(await input.inputValue()).toBe('回车提交的名称');
    await page.waitForTimeout(300);
    expect(page.url()).toBe(url);
    expect(await dialog.count()).toBe(1);
    await footerButton(dialog, /取\s*消/).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  test("a dictionary item's 显示颜色: antd's colour picker opens from the field (a click while it loads is not lost) and the colour picked fills it", async () => {
    // The picker and its preset panel come in a chunk of their own, apart from the frame's
    // libraries (vite.config.ts frame-lib, generators/antdIsBright.ts): it must still load and work.
    const { page, pageErrors } = browser;
    await page.goto(`${server.url}/system/dictbiz`);
    await page.locator('.erp-grid-row[row-index="0"]').first().waitFor();
    await settle(page);
    await page.locator('.erp-grid-row[row-index="0"] .erp-grid-cell').nth(2).first().click();
    const adds = page.getByRole('button', { name: /新\s*增/ });
    await expect.poll(() => adds.count()).toBe(2);
    await adds.last().click();
    const dialog = modal(page, '新增业务字典');
    await dialog.waitFor();
    const colour = dialog.getByLabel('显示颜色');
    await colour.click();
    const panel = page.locator('.ant-color-picker-inner');
    await panel.waitFor();
    await panel.locator('.ant-color-picker-saturation').click({ position: { x: 120, y: 40 } });
    await expect.poll(() => colour.inputValue()).toMatch(/^#[0-9a-f]{6}$/);
    await page.keyboard.press('Escape');
    await footerButton(dialog, /取\s*消/).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  test('a picker clicked before its schema has arrived opens once it does (the click is not lost)', async () => {
    const { page, pageErrors } = browser;
    // Hold the tax-rate schema back, as a slow link or a busy machine would.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held = '**/api/erp-meta/resource?name=tax-rate*';
    await page.route(held, async (route) => {
      await released;
      await route.continue();
    });
    try {
      const dialog = await openAddDialog(page, server.url, '/base/customer', 'customer', '新增客户');
      await field(dialog, 'taxRateId').locator('.ant-select').click();
      // Waiting is shown on the field itself.
      await field(dialog, 'taxRateId').locator('.anticon-loading').waitFor();
      await expect(modal(page, /^税率$/).count()).resolves.toBe(0);
      release();
      const picker = modal(page, /^税率$/);
      await picker.waitFor();
      await picker.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: '增值税13%' }).waitFor();
      await footerButton(picker, /取\s*消/).click();
      await expect.poll(() => picker.count()).toBe(0);
      await footerButton(dialog, /取\s*消/).click();
    } finally {
      release();
      // Waits for the held request to go on before the handler goes away.
      await page.unrouteAll({ behavior: 'wait' });
    }
    expect(pageErrors).toEqual([]);
  });

  test('staff attachments warn at six (当前页面最多可上传六个附件！); a brand logo must be 116*116', async () => {
    const { page, pageErrors } = browser;
    const dialog = await openAddDialog(page, server.url, '/base/staff', 'staff', '新增职员');
    await dialog.locator('.ant-tabs-tab', { hasText: '附件' }).click();
    const uploads = field(dialog, 'fileInfoVoForms');
    const fileInput = uploads.locator('input[type=file]');
    const doneItems = uploads.locator('.ant-upload-list-item:not(.ant-upload-list-item-uploading)');
    for (let i = 1; i <= 6; i++) {
      await fileInput.setInputFiles({ name: `证件${i}.pdf`, mimeType: 'application/pdf', buffer: pdfBytes(`staff ${i}`) });
      await expect.poll(() => doneItems.count(), { timeout: 15_000 }).toBe(i);
    }
    await fileInput.setInputFiles({ name: '第七个.pdf', mimeType: 'application/pdf', buffer: pdfBytes('seven') });
    await expectMessage(page, '当前页面最多可上传六个附件！');
    await expect.poll(() => uploads.locator('.ant-upload-list-item').count(), { timeout: 5_000 }).toBe(6);
    await footerButton(dialog, /取\s*消/).click();
    await expect.poll(() => dialog.count()).toBe(0);

    const brand = await openAddDialog(page, server.url, '/base/brand', 'brand', '新增品牌');
    const logo = field(brand, 'logoUrl');
    await logo.locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: pngBytes(4, 4) });
    await expectMessage(page, '图片尺寸只能是116*116px!请重新选择!');
    expect(await logo.locator('img').count()).toBe(0);
    await logo.locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: pngBytes(116, 116) });
    await expect.poll(() => logo.locator('img').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await footerButton(brand, /取\s*消/).click();
    expect(pageErrors).toEqual([]);
  });

  test('goods picker in search-engine mode: one request 1.5 s after the typing stops, and it filters', async () => {
    const { page, pageErrors } = browser;
    const goods = loadResources().find((r) => r.resource === 'goods')!;
    const bodies = new BodyFactory(api);
    for (const name of ['无线键盘K1', '无线鼠标M2']) {
      expectOk(await api.post(apiPathOf(goods, 'submit'), { ...(await bodies.validBody(goods)), commInfoName: name }), 'goods submit');
    }
    const dialog = await openAddDialog(page, server.url, '/base/barcode', 'barcode', '新增条码');
    await field(dialog, 'commInfoId').locator('.ant-select').click();
    const picker = modal(page, /^商品$/);
    const rows = picker.locator('.ant-table-tbody tr.ant-table-row');
    await rows.filter({ hasText: '无线鼠标M2' }).waitFor();
    await expect.poll(() => rows.filter({ hasText: '无线键盘K1' }).count()).toBe(1);

    const searches: { at: number; url: string }[] = [];
    const onRequest = (request: { url(): string }) => {
      if (request.url().includes('keyword=')) searches.push({ at: Date.now(), url: decodeURIComponent(request.url()) });
    };
    page.on('request', onRequest);
    const keyword = picker.locator('input').first();
    await keyword.click();
    await keyword.pressSequentially('鼠', { delay: 150 });
    await page.waitForTimeout(150);
    // The clock starts before the last key is sent: the page's 1.5 s wait starts on that key, later
    // (read after the key, it lost the key's round trip, ~125 ms once on a busy machine).
    const typed = Date.now();
    await keyword.pressSequentially('标');
    await page.waitForTimeout(1000);
    expect(searches, 'no search while the typing pause is under 1.5 s').toEqual([]);
    await expect.poll(() => searches.length, { timeout: 5_000 }).toBe(1);
    expect(searches[0].at - typed).toBeGreaterThanOrEqual(1400);
    expect(searches[0].url).toContain('keyword=鼠标');
    await expect.poll(() => rows.filter({ hasText: '无线键盘K1' }).count()).toBe(0);
    await expect.poll(() => rows.filter({ hasText: '无线鼠标M2' }).count()).toBe(1);
    page.off('request', onRequest);
    expect(searches.length, 'one request for the whole word').toBe(1);
    await rows.filter({ hasText: '无线鼠标M2' }).dblclick();
    await expect.poll(() => field(dialog, 'commInfoId').innerText()).toContain('无线鼠标M2');
    await footerButton(dialog, /取\s*消/).click();
    expect(pageErrors).toEqual([]);
  });

  test('customer name lookup fills the company details; the area cascader saves the district code and the joined names', async () => {
    const { page, pageErrors } = browser;
    const supplier = loadResources().find((r) => r.resource === 'supplier')!;
    const bodies = new BodyFactory(api);
    expectOk(
      await api.post(apiPathOf(supplier, 'submit'), {
        ...(await bodies.validBody(supplier)),
        bartererName: '深圳华强电子有限公司',
        contactPerson: '张经理',
        telephone: '0755-83000000',
        taxNo: '91440300MA5FXXXX1X',
        address: '华强北路1号',
      }),
      'supplier submit',
    );
    const nature = expectOk(await api.get('/blade-base/customernature/tree', { parentId: 0 }))[0];
    const level = expectOk(await api.get('/blade-base/commcustomerlevel/list', { current: 1, size: 10 })).records[0];

    const dialog = await openAddDialog(page, server.url, '/base/customer', 'customer', '新增客户');
    // Typing part of a known company's name offers it; picking it fills its details.
    await field(dialog, 'bartererName').locator('input').pressSequentially('华强', { delay: 50 });
    const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '深圳华强电子有限公司' });
    await option.waitFor();
    await option.click();
    await expect.poll(() => field(dialog, 'contactPerson').locator('input').inputValue()).toBe('张经理');
    await expect.poll(() => field(dialog, 'telephone').locator('input').inputValue()).toBe('0755-83000000');
    await expect.poll(() => field(dialog, 'address').locator('input').inputValue()).toBe('华强北路1号');
    expect(await field(dialog, 'bartererName').innerText()).toContain('深圳华强电子有限公司');

    // The region cascader loads each level on demand; the value is the district's code.
    await field(dialog, 'areaCode').locator('.ant-select').click();
    const menus = page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu');
    for (const [depth, name] of ['广东省', '深圳市', '南山区'].entries()) {
      const item = menus.nth(depth).locator('.ant-cascader-menu-item', { hasText: name }).first();
      await item.waitFor();
      await item.click();
    }
    await expect.poll(() => field(dialog, 'areaCode').innerText()).toMatch(/广东省\s*\/\s*深圳市\s*\/\s*南山区/);

    await field(dialog, 'natureId').locator('.ant-select').click();
    const naturePicker = modal(page, '客户分类选择');
    await doubleClickNode(naturePicker, nature.title);
    await field(dialog, 'levelId').locator('.ant-select').click();
    const levelPicker = modal(page, '客户级别');
    await dialogsAtRest(page);
    await levelPicker.locator('.ant-table-row', { hasText: level.levelName }).dblclick();
    await expect.poll(() => levelPicker.count()).toBe(0);
    await footerButton(dialog, /保\s*存/).click();
    await expectMessage(page, '新增成功');
    const saved = expectOk<{ records: Record<string, unknown>[] }>(
      await api.get('/blade-base/customer/list', { bartererName: '深圳华强电子有限公司' }),
    ).records;
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ contactPerson: '张经理', taxNo: '91440300MA5FXXXX1X', areaCode: '440305', areaName: '广东省深圳市南山区' });
    expect(pageErrors).toEqual([]);
  });

  test('导入: the template is the title row; a bad file shows its row number in the dialog and writes nothing; a good one imports', async () => {
    const { page, pageErrors } = browser;
    const customer = loadResources().find((r) => r.resource === 'customer')!;
    const title = (field: string) => customer.entity.properties[field].title as string;
    const nature = expectOk(await api.get('/blade-base/customernature/tree', { parentId: 0 }))[0];
    const level = expectOk(await api.get('/blade-base/commcustomerlevel/list', { current: 1, size: 10 })).records[0];
    await openList(page, server.url, '/base/customer', 'customer');
    await page.getByTestId('list-toolbar').getByRole('button', { name: /导\s*入/ }).click();
    const dialog = modal(page, /导入 · 客户/);
    await dialog.waitFor();

    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: /下载导入模板/ }).click();
    const template = await download;
    expect(template.suggestedFilename()).toBe('客户资料导入模板.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(fs.readFileSync(await template.path()) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.rowCount).toBe(1);
    const titles = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
    for (const field of ['bartererName', 'natureName', 'levelName']) expect(titles).toContain(title(field));

    const file = async (rows: Record<string, string>[]) => {
      const book = new ExcelJS.Workbook();
      const out = book.addWorksheet('客户');
      out.addRow(titles);
      for (const row of rows) out.addRow(titles.map((t) => row[t] ?? null));
      return Buffer.from(await book.xlsx.writeBuffer());
    };
    const row = (name: string) => ({ [title('bartererName')]: name, [title('natureName')]: nature.title, [title('levelName')]: level.levelName });
    const input = dialog.locator('input[type=file]');
    await input.setInputFiles({ name: '客户.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: await file([row('导入客户甲'), row('')]) });
    await expect.poll(() => dialog.locator('.ant-alert-error').innerText()).toContain('第3行');
    await dialogsAtRest(page);
    await screenshot(page, 'customer-import-dialog');
    expect(expectOk(await api.get('/blade-base/customer/list', { bartererName: '导入客户甲' })).total).toBe(0);
    await input.setInputFiles({ name: '客户.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: await file([row('导入客户甲'), row('导入客户乙')]) });
    await expectMessage(page, '导入成功');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(expectOk(await api.get('/blade-base/customer/list', { bartererName: '导入客户' })).total).toBe(2);
    expect(pageErrors).toEqual([]);
  });

  test('supplier-category picker: 不可选择全部, 请选择供应商分类, 请选择末级节点！, double-click confirms', async () => {
    const { page, pageErrors } = browser;
    // A category with a child (not choosable) beside the seeded leaf.
    const parent = expectOk(await api.post('/blade-base/suppliernature/submit', { natureName: '华东供应商', parentId: '0' }));
    expectOk(await api.post('/blade-base/suppliernature/submit', { natureName: '上海供应商', parentId: parent.id }));

    const path = pathOf('supplier');
    expect(path).toBe('/base/supplier');
    const dialog = await openAddDialog(page, server.url, path, 'supplier', '新增供应商');
    await field(dialog, 'natureId').locator('.ant-select').click();
    const picker = modal(page, '供应商分类选择');
    await picker.waitFor();
    const tree = picker.getByTestId('tree-picker');
    await tree.locator('.ant-tree-node-content-wrapper', { hasText: '华东供应商' }).waitFor();
    const ok = footerButton(picker, /确\s*定/);

    // Nothing chosen.
    await ok.click();
    await expectMessage(page, '请选择供应商分类');
    // The root.
    await tree.locator('.ant-tree-node-content-wrapper', { hasText: '全部' }).click();
    await ok.click();
    await expectMessage(page, '不可选择全部');
    // A node with children.
    await tree.locator('.ant-tree-node-content-wrapper', { hasText: '华东供应商' }).click();
    await ok.click();
    await expectMessage(page, '请选择末级节点！');
    await expect(picker.isVisible()).resolves.toBe(true);

    // Open the branch; double-click on its leaf confirms and fills the field.
    await tree.locator('.ant-tree-treenode', { hasText: '华东供应商' }).locator('.ant-tree-switcher').click();
    const leaf = tree.locator('.ant-tree-node-content-wrapper', { hasText: '上海供应商' });
    await leaf.waitFor();
    await dialogsAtRest(page);
    await screenshot(page, 'supplier-category-picker');
    await leaf.dblclick();
    await expect.poll(() => picker.count()).toBe(0);
    await expect.poll(() => field(dialog, 'natureId').innerText()).toContain('上海供应商');
    await expect.poll(() => fieldError(dialog, 'natureId').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
