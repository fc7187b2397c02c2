/**
 * Issue 10, acceptance 12: a clerk writes bills in the browser — a purchase order with a merged
 * duplicate and a gift, approved, pulled into an inbound and posted; a sales order pulled into an
 * outbound, posted, and one line returned — and every figure on screen equals the API's.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { makeWorld, BASES, lines, stockOf, partyBalance, type World } from '../support/bills.ts';
import { formatAmount } from '../../src/shared/money/index.ts';
import { launchBrowser, screenshot, type Browser } from './support/browser.ts';
import { expectMessage, seededLeaves, signIn } from './support/shell.ts';
import { billPage } from './support/bills.ts';

const pathOf = (code: string) => seededLeaves().find((m) => m.code === code)!.path;

describe('bills in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let w: World;
  let page: Page;
  const names: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer();
    api = await signedIn(server.url);
    w = await makeWorld(api, { goods: 3, depots: 2, customers: 1 });
    names.supplier = expectOk(await api.get('/blade-base/supplier/detail', { id: w.supplierId })).bartererName;
    names.customer = expectOk(await api.get('/blade-base/customer/detail', { id: w.customers[0] })).bartererName;
    names.depot = expectOk(await api.get('/blade-system/depot/detail', { id: w.depots[0] })).depotName;
    names.depot2 = expectOk(await api.get('/blade-system/depot/detail', { id: w.depots[1] })).depotName;
    for (const [i, id] of w.goods.entries()) names[`goods${i}`] = expectOk(await api.get('/blade-base/comminfo/detail', { id })).commInfoName;
    browser = await launchBrowser();
    page = browser.page;
    await signIn(page, server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const { editor, cell, summary, rowCount, status, pickHead, addGoods, typeCell, act, fromSourceList, fromSourceNumber } = billPage(() => page);

  async function billOf(resource: keyof typeof BASES, bill: Locator) {
    const no = (await bill.getByTestId('bill-no').innerText()).trim();
    const list = expectOk(await api.get(`${BASES[resource]}/list`, { billNo: no }));
    return expectOk(await api.get(`${BASES[resource]}/detail`, { id: list.records[0].id }));
  }

  /** Every line figure and the summary row on screen equal the server's bill. */
  async function expectScreenMatches(bill: Locator, saved: Record<string, any>, amountField: string) {
    for (const [i, line] of (saved.bodyList as Record<string, string>[]).entries()) {
      for (const col of ['totalAmt', 'taxAmt', amountField]) expect(await cell(bill, i, col).innerText(), `line ${i + 1} ${col}`).toBe(formatAmount(line[col], 2));
    }
    for (const [col, head] of [['totalAmt', 'totalAmt'], ['taxAmt', 'taxAmt'], [amountField, amountField], ['qty', 'totalQty']]) {
      expect(await summary(bill, col).innerText(), `summary ${col}`).toBe(formatAmount(saved[head], 2));
    }
  }

  let orderNo = '';
  let outNo = '';

  test('purchase order: three lines (a duplicate merged, a gift), submitted and approved', async () => {
    await page.goto(`${server.url}${pathOf('purchaseOrder')}`);
    const bill = editor('purchase-order');
    await bill.waitFor();
    await pickHead(bill, 'supplierId', names.supplier);
    await pickHead(bill, 'depotId', names.depot);
    await addGoods(bill, [names.goods0, names.goods1, names.goods2]);
    await expect.poll(() => rowCount(bill)).toBe(3);
    // The same goods and unit again: the duplicate dialog merges the quantities.
    await addGoods(bill, [names.goods0]);
    const confirm = page.locator('.ant-modal-wrap:visible .ant-modal', { hasText: '商品重复' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: /确\s*定|OK/ }).click();
    await expect.poll(() => cell(bill, 0, 'qty').innerText()).toBe('2.00');
    await expect.poll(() => rowCount(bill)).toBe(3);
    await typeCell(bill, 0, 'purchasePrice', '5.00');
    await typeCell(bill, 1, 'qty', '3');
    await typeCell(bill, 1, 'purchasePrice', '3.33');
    await cell(bill, 2, 'isGift').click();
    const gift = bill.locator('.erp-line-editing input[type=checkbox]').first();
    if (await gift.count()) await gift.check();
    await page.keyboard.press('Enter');
    await expect.poll(() => cell(bill, 2, 'isGift').innerText()).toBe('是');
    await expect.poll(() => cell(bill, 0, 'totalAmt').innerText()).toBe('11.30');
    await screenshot(page, 'bill-purchase-order-lines');
    await act(bill, 'submit');
    await expect.poll(() => status(bill).innerText()).toBe('待审核');
    const saved = await billOf('purchaseOrder', bill);
    orderNo = saved.billNo;
    expect(saved.bodyList.map((l: { qty: string }) => l.qty)).toEqual(['2.00', '3.00', '1.00']);
    expect(saved.bodyList[2].isGift).toBe(2);
    await expectScreenMatches(bill, saved, 'purchaseAmt');
    await act(bill, 'pass', '同意采购');
    await expect.poll(() => status(bill).innerText()).toBe('已审核');
  });

  test("the line grid: goods pinned only when the columns cannot all be shown; a cell's editor in the grid's own form; Enter moves on", async () => {
    await page.goto(`${server.url}${pathOf('purchaseOrder')}`);
    const bill = editor('purchase-order');
    await bill.waitFor();
    await addGoods(bill, [names.goods0]);
    await expect.poll(() => rowCount(bill)).toBe(1);
    const goodsPinned = () => cell(bill, 0, 'commInfoId').evaluate((el) => el.classList.contains('erp-grid-pinned-left'));
    // 1,440 px: every column fits, nothing is pinned (each row's pinned cells would be a layer of their own).
    await expect.poll(goodsPinned).toBe(false);
    await page.setViewportSize({ width: 700, height: 900 });
    try {
      await expect.poll(goodsPinned).toBe(true);
      // The sidebar folds away (below 768 px) and the head's fields go two to a row, wide enough to use.
      await expect.poll(() => page.locator('.ant-layout-sider').evaluate((el) => el.getBoundingClientRect().width)).toBe(0);
      const controlWidth = (field: string) => bill.locator(`.erp-field[data-field="${field}"] .erp-control`).evaluate((el) => el.getBoundingClientRect().width);
      await expect.poll(() => controlWidth('supplierId')).toBeGreaterThan(160);
      expect(await controlWidth('billDate')).toBeGreaterThan(160);
      // Pinned, the goods column keeps a width a name can be read in (the others go down to 64 px).
      expect(await cell(bill, 0, 'commInfoId').evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThanOrEqual(150);
      await screenshot(page, 'bill-lines-700');
      // The columns scroll sideways here: Enter walks the row's editable cells, each brought into view.
      const editing = bill.locator('.erp-line-editing');
      const focusedColumn = async () => (await bill.locator('.erp-line-active').getAttribute('col-id')) ?? '';
      const inView = () =>
        editing.evaluate((el) => {
          // What shows at the cell's centre is the cell, not the pinned columns or the page beyond the grid.
          const box = el.getBoundingClientRect();
          const shown = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return Boolean(shown && el.contains(shown));
        });
      await cell(bill, 0, 'qty').click();
      const walked = ['qty'];
      for (;;) {
        await expect.poll(() => editing.getAttribute('col-id')).toBe(walked.at(-1));
        expect(await inView(), `${walked.at(-1)} in view`).toBe(true);
        await page.keyboard.press('Enter');
        const next = await focusedColumn();
        if (next === walked.at(-1) || walked.length > 30) break;
        walked.push(next);
      }
      expect(walked.length).toBeGreaterThan(3);
      expect(await cell(bill, 0, 'qty').evaluate((el) => el.closest('.erp-lines')!.scrollLeft)).toBeGreaterThan(0);
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
    await expect.poll(goodsPinned).toBe(false);
    // Chrome's autofill reads the editor's form on every key: it holds the editor alone.
    await cell(bill, 0, 'qty').click();
    const input = bill.locator('.erp-line-editing input').first();
    await input.waitFor();
    expect(await input.evaluate((el) => ((el as HTMLInputElement).form ? (el as HTMLInputElement).form!.elements.length : -1))).toBe(1);
    // Enter commits and opens the next editable cell's editor (after the frame showing the commit).
    await input.fill('4');
    await page.keyboard.press('Enter');
    const editing = bill.locator('.erp-line-editing');
    await expect.poll(() => editing.getAttribute('col-id')).toBe('purchasePrice');
    expect(await cell(bill, 0, 'qty').innerText()).toBe('4.00');
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.erp-line-editing')?.getAttribute('col-id') ?? '')).toBe('purchasePrice');
    await editing.locator('input').fill('7');
    await page.keyboard.press('Enter');
    await expect.poll(() => cell(bill, 0, 'purchasePrice').innerText()).toBe('7.00000');
    await expect.poll(() => summary(bill, 'qty').innerText()).toBe('4.00');
    await page.keyboard.press('Escape');
    // The grid follows the shell's theme and language without being made again (the lines stay).
    const gridBackground = () => bill.locator('.erp-lines').evaluate((el) => getComputedStyle(el).backgroundColor);
    const summaryLabel = () => bill.locator('.erp-grid-row-pinned [col-id="__index"]').innerText();
    const light = await gridBackground();
    expect(await summaryLabel()).toBe('合计');
    const pickTheme = async (name: string) => {
      await page.getByTestId('theme-switcher').click();
      await page.locator(`[data-theme-option="${name}"]`).click();
      await page.keyboard.press('Escape');
    };
    const pickLanguage = async (name: string) => {
      await page.getByTestId('language-switch').click();
      await page.getByRole('menuitem', { name }).click();
    };
    try {
      await pickTheme('dark');
      await expect.poll(gridBackground).not.toBe(light);
      await pickLanguage('English');
      await expect.poll(summaryLabel).toBe('Total');
      expect(await cell(bill, 0, 'qty').innerText()).toBe('4.00');
    } finally {
      await pickLanguage('简体中文');
      await pickTheme('default');
    }
    await expect.poll(gridBackground).toBe(light);
    await expect.poll(summaryLabel).toBe('合计');
  });

  test("a line column's width set by hand is kept for the clerk's next bill of that kind; the other columns share the rest", async () => {
    const openOrder = async () => {
      await page.goto(`${server.url}${pathOf('purchaseOrder')}`);
      const bill = editor('purchase-order');
      await bill.waitFor();
      return bill.getByTestId('line-grid');
    };
    let grid = await openOrder();
    const header = (col: string) => grid.locator(`.erp-grid-header [col-id="${col}"]`);
    const widthOf = (col: string) => header(col).evaluate((el) => Math.round(el.getBoundingClientRect().width));
    // The columns end at the grid's edge: nothing to scroll sideways.
    const filled = () =>
      grid.locator('.erp-lines').evaluate((box) => {
        const total = [...box.querySelectorAll('.erp-grid-header [role=columnheader]')].reduce((sum, el) => sum + el.getBoundingClientRect().width, 0);
        return Math.round(total) === box.clientWidth && box.scrollWidth === box.clientWidth;
      });
    expect(await filled()).toBe(true);
    const remark = await widthOf('remark');
    const qty = await widthOf('qty');
    // The line number is sized for its figures and has no edge to drag; no width is the clerk's yet.
    expect(await header('__index').locator('.erp-grid-resizer').count()).toBe(0);
    expect(await grid.getByTestId('line-reset-widths').count()).toBe(0);

    const box = (await header('remark').boundingBox())!;
    await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width + 40, box.y + box.height / 2, { steps: 4 });
    await page.mouse.move(box.x + box.width + 78, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => widthOf('remark')).toBe(remark + 80);
    // Kept in the browser for this user and bill kind.
    const savedKey = await page.evaluate(() => Object.keys(localStorage).find((k) => k.includes('listColumns-') && k.endsWith('-purchase-order-lines')) ?? '');
    expect(savedKey).not.toBe('');
    // The drag done, the other columns are fitted to what is left.
    await expect.poll(filled).toBe(true);
    expect(await widthOf('qty')).toBeLessThan(qty);
    const qtyAfter = await widthOf('qty');

    try {
      grid = await openOrder();
      await expect.poll(() => widthOf('remark')).toBe(remark + 80);
      expect(await widthOf('qty')).toBe(qtyAfter);
      expect(await filled()).toBe(true);
      await screenshot(page, 'bill-lines-width-kept');
      // A narrower window: the width set by hand stays, the others give up the room (down to
      // their floors; narrower still, the grid would scroll sideways).
      await page.setViewportSize({ width: 1320, height: 900 });
      await expect.poll(() => widthOf('qty')).toBeLessThan(qtyAfter);
      expect(await widthOf('remark')).toBe(remark + 80);
      await expect.poll(filled).toBe(true);
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
    // 恢复默认列宽 (beside #, only while a width is the clerk's) gives the schema's widths back, for good.
    const reset = grid.getByTestId('line-reset-widths');
    expect(await reset.getAttribute('aria-label')).toBe('恢复默认列宽');
    await reset.click();
    await expect.poll(() => widthOf('remark')).toBe(remark);
    expect(await widthOf('qty')).toBe(qty);
    expect(await reset.count()).toBe(0);
    grid = await openOrder();
    await expect.poll(() => widthOf('qty')).toBe(qty);
    expect(await widthOf('remark')).toBe(remark);

    // Storage holding something else (edited by hand, another version): entries that are not a
    // column and a width are passed over; the one that is still applies.
    expect(await page.evaluate((key) => localStorage.getItem(key), savedKey)).toBeNull();
    await page.evaluate((key) => {
      const content = [{ colId: 'remark', width: 'wide' }, null, 'qty', { colId: 'qty', width: -5 }, { colId: 'taxRate', width: 150 }];
      localStorage.setItem(key, JSON.stringify({ dataType: 'object', content, datetime: Date.now() }));
    }, savedKey);
    grid = await openOrder();
    await expect.poll(() => widthOf('taxRate')).toBe(150);
    expect(await filled()).toBe(true);
    await grid.getByTestId('line-reset-widths').click();
    await expect.poll(() => widthOf('remark')).toBe(remark);
  });

  test('the line grid by keyboard: a typed key edits, Tab moves on editing, Escape cancels, arrows move, Space marks a gift, Ctrl+Delete deletes', async () => {
    await page.goto(`${server.url}${pathOf('purchaseOrder')}`);
    const bill = editor('purchase-order');
    await bill.waitFor();
    await pickHead(bill, 'supplierId', names.supplier);
    await addGoods(bill, [names.goods0, names.goods1, names.goods2]);
    await expect.poll(() => rowCount(bill)).toBe(3);
    const editing = bill.locator('.erp-line-editing');
    const active = async () => {
      const cellBox = bill.locator('.erp-line-active');
      return `${await cellBox.locator('xpath=..').getAttribute('row-index')}:${await cellBox.getAttribute('col-id')}`;
    };
    // A click opens the editor; Escape closes it and keeps the value, the cell still active.
    await cell(bill, 0, 'qty').click();
    await editing.locator('input').waitFor();
    await editing.locator('input').fill('9');
    await page.keyboard.press('Escape');
    await expect.poll(() => editing.count()).toBe(0);
    expect(await cell(bill, 0, 'qty').innerText()).toBe('1.00');
    expect(await active()).toBe('0:qty');
    // The keyboard stays in the grid (its keys box), not on the page.
    expect(await bill.locator('[data-testid="line-grid"] .erp-line-keys').evaluate((box) => box === document.activeElement)).toBe(true);
    // A typed digit starts the edit with that digit; Tab commits and edits the next editable cell.
    await page.keyboard.press('5');
    expect(await editing.locator('input').inputValue()).toBe('5');
    await page.keyboard.press('Tab');
    await expect.poll(() => editing.getAttribute('col-id')).toBe('purchasePrice');
    expect(await cell(bill, 0, 'qty').innerText()).toBe('5.00');
    // The editor opened on the cell's value, selected: a key types over it.
    await page.keyboard.type('2');
    // Escape right after Enter, before the next cell's editor has opened (a frame later): it stays closed.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await expect.poll(() => cell(bill, 0, 'purchasePrice').innerText()).toBe('2.00000');
    await expect.poll(() => cell(bill, 0, 'totalAmt').innerText()).toBe('11.30');
    await expect.poll(() => summary(bill, 'qty').innerText()).toBe('7.00');
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 50)))));
    expect(await editing.count()).toBe(0);
    // Arrows, Home and End move the active cell without editing it.
    const at = (await active()).split(':')[1];
    await page.keyboard.press('ArrowDown');
    expect(await active()).toBe(`1:${at}`);
    await page.keyboard.press('Home');
    expect(await active()).toBe('1:__index');
    await page.keyboard.press('End');
    expect(await active()).toBe('1:remark');
    // Space on the gift cell marks the line a gift, and again unmarks it.
    await cell(bill, 1, 'isGift').click();
    await editing.locator('input[type=checkbox]').waitFor();
    await page.keyboard.press('Escape');
    expect(await active()).toBe('1:isGift');
    await page.keyboard.press(' ');
    await expect.poll(() => cell(bill, 1, 'isGift').innerText()).toBe('是');
    await page.keyboard.press(' ');
    await expect.poll(() => cell(bill, 1, 'isGift').innerText()).toBe('');
    // The unit cell offers the goods' units.
    await cell(bill, 1, 'unitId').click();
    await expect.poll(() => editing.locator('select option').count()).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    // Ctrl+Delete deletes the active line; the summary follows.
    await page.keyboard.press('Control+Delete');
    await expect.poll(() => rowCount(bill)).toBe(2);
    await expect.poll(() => summary(bill, 'qty').innerText()).toBe('6.00');
    expect(browser.pageErrors).toEqual([]);
  });

  test('a Chinese input method on a cell not being edited: its composition shows over the cell and its text opens the editor; full-width figures read as figures', async () => {
    await page.goto(`${server.url}${pathOf('purchaseOrder')}`);
    const bill = editor('purchase-order');
    await bill.waitFor();
    await pickHead(bill, 'supplierId', names.supplier);
    await addGoods(bill, [names.goods0]);
    await expect.poll(() => rowCount(bill)).toBe(1);
    const editing = bill.locator('.erp-line-editing');
    const keysBox = bill.locator('.erp-line-keys');
    await cell(bill, 0, 'remark').click();
    await editing.locator('input').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => editing.count()).toBe(0);
    // The system's IME works only in an element that takes text: the focus is on the keys box.
    expect(await keysBox.evaluate((box) => box === document.activeElement && (box as HTMLElement).isContentEditable)).toBe(true);
    const cdp = await page.context().newCDPSession(page);
    try {
      // Pinyin being composed shows over the active cell; no editor yet (it would end the composition).
      await cdp.send('Input.imeSetComposition', { text: 'beizhu', selectionStart: 6, selectionEnd: 6 });
      await expect.poll(() => keysBox.evaluate((box) => box.classList.contains('erp-line-composing') && box.textContent)).toBe('beizhu');
      const cellBox = await cell(bill, 0, 'remark').boundingBox();
      const composedBox = await keysBox.boundingBox();
      expect(Math.abs(composedBox!.y - cellBox!.y)).toBeLessThan(2);
      expect(Math.abs(composedBox!.x - cellBox!.x)).toBeLessThan(2);
      expect(await editing.count()).toBe(0);
      // Its committed text opens the cell's editor with it, the caret after it; typing goes on there.
      await cdp.send('Input.insertText', { text: '备注' });
      await expect.poll(() => editing.locator('input').inputValue()).toBe('备注');
      expect(await keysBox.evaluate((box) => box.classList.contains('erp-line-composing') || box.textContent !== '')).toBe(false);
      await page.keyboard.type('一');
      await page.keyboard.press('Enter');
      await expect.poll(() => cell(bill, 0, 'remark').innerText()).toBe('备注一');
      await page.keyboard.press('Escape');
      // Figures typed full-width (Chinese punctuation mode: the period key gives 。) read as figures.
      await cell(bill, 0, 'qty').click();
      await editing.locator('input').waitFor();
      await page.keyboard.press('Escape');
      await expect.poll(() => editing.count()).toBe(0);
      await cdp.send('Input.insertText', { text: '１２。５' });
      await expect.poll(() => editing.locator('input').inputValue()).toBe('１２。５');
      await page.keyboard.press('Escape');
      expect(await cell(bill, 0, 'qty').innerText()).toBe('1.00');
      await cdp.send('Input.insertText', { text: '１２。５' });
      await page.keyboard.press('Tab');
      await expect.poll(() => cell(bill, 0, 'qty').innerText()).toBe('12.50');
      await expect.poll(() => summary(bill, 'qty').innerText()).toBe('12.50');
      // A composition on a cell that takes no text (the line number) is dropped, nothing opens.
      await page.keyboard.press('Escape');
      await page.keyboard.press('Home');
      await cdp.send('Input.imeSetComposition', { text: 'a', selectionStart: 1, selectionEnd: 1 });
      expect(await keysBox.evaluate((box) => box.classList.contains('erp-line-composing'))).toBe(false);
      await cdp.send('Input.insertText', { text: '啊' });
      await expect.poll(() => keysBox.evaluate((box) => box.textContent)).toBe('');
      expect(await editing.count()).toBe(0);
    } finally {
      await cdp.detach();
    }
    expect(browser.pageErrors).toEqual([]);
  });

  test("a long bill's lines: page keys bring rows into view; a value typed in a row scrolled out of view is kept", async () => {
    const specs = Array.from({ length: 60 }, () => ({ goods: w.goods[0], qty: '1', taxPrice: '1.13', taxRate: '13' }));
    const draft = expectOk<{ id: string }>(await api.post(`${BASES.salesOut}/draft`, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, specs) }));
    const history = seededLeaves().find((leaf) => leaf.code === 'salesOut')!.historyPath!;
    await page.goto(`${server.url}${history}`);
    await page.locator(`.erp-grid-row[row-id="${draft.id}"] [data-testid=row-actions] button`, { hasText: '查看' }).click();
    const bill = editor('sales-out');
    await expect.poll(() => summary(bill, 'qty').innerText()).toBe('60.00');
    const grid = bill.locator('[role="grid"]');
    const activeRow = async () => Number(await bill.locator('.erp-line-active').locator('xpath=..').getAttribute('row-index'));
    // What shows at the cell's centre is the cell (not the header, the summary row or the page beyond).
    const inView = (row: number) =>
      cell(bill, row, 'qty').evaluate((el) => {
        const box = el.getBoundingClientRect();
        const shown = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return Boolean(shown && el.contains(shown));
      });
    await cell(bill, 0, 'qty').click();
    await page.keyboard.press('Escape');
    await page.keyboard.press('PageDown');
    const paged = await activeRow();
    expect(paged).toBeGreaterThan(5);
    expect(await inView(paged)).toBe(true);
    await page.keyboard.press('Control+End');
    expect(await activeRow()).toBe(59);
    expect(await inView(59)).toBe(true);
    // Typed into the last line, then the grid scrolled to the top (the wheel): the line keeps it.
    await cell(bill, 59, 'qty').click();
    await bill.locator('.erp-line-editing input').fill('7');
    await grid.evaluate((el) => el.scrollTo({ top: 0 }));
    await expect.poll(() => summary(bill, 'qty').innerText()).toBe('66.00');
    await expect.poll(() => bill.locator('.erp-line-editing').count()).toBe(0);
    await grid.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect.poll(() => cell(bill, 59, 'qty').innerText()).toBe('7.00');
    expect(browser.pageErrors).toEqual([]);
  });

  test('purchase inbound pulled from the order, submitted, approved and posted', async () => {
    await page.goto(`${server.url}${pathOf('purchaseIn')}`);
    const bill = editor('purchase-in');
    await bill.waitFor();
    await fromSourceList(bill, orderNo);
    await expect.poll(() => rowCount(bill)).toBe(3);
    await act(bill, 'submit');
    await expect.poll(() => status(bill).innerText()).toBe('待审核');
    await act(bill, 'pass', '');
    await expect.poll(() => status(bill).innerText()).toBe('已审核');
    await act(bill, 'accounting');
    await expect.poll(() => status(bill).innerText()).toBe('已记账');
    const saved = await billOf('purchaseIn', bill);
    await expectScreenMatches(bill, saved, 'purchaseAmt');
    expect(await stockOf(server, w.depots[0], w.goods[0])).toMatchObject({ qty: '2.00', value: '10.00' });
    expect(await stockOf(server, w.depots[0], w.goods[2])).toMatchObject({ qty: '1.00', value: '0.00' });
    await screenshot(page, 'bill-purchase-in-posted');
    await bill.getByRole('tab', { name: '记账分录' }).click();
    await bill.getByTestId('bill-postings').locator('.ant-table-row').first().waitFor();
    await screenshot(page, 'bill-purchase-in-ledger');
    expect(browser.pageErrors).toEqual([]);
  });

  test('sales order → outbound (posted) → a return of one unit, figures equal the API', async () => {
    await page.goto(`${server.url}${pathOf('salesOrder')}`);
    let bill = editor('sales-order');
    await bill.waitFor();
    await pickHead(bill, 'customerId', names.customer);
    await pickHead(bill, 'depotId', names.depot);
    await addGoods(bill, [names.goods0]);
    await typeCell(bill, 0, 'qty', '2');
    await typeCell(bill, 0, 'taxPrice', '9.04');
    await expect.poll(() => cell(bill, 0, 'salesPrice').innerText()).toBe('8.00000');
    await act(bill, 'submit');
    await act(bill, 'pass', '');
    const order = await billOf('salesOrder', bill);

    await page.goto(`${server.url}${pathOf('salesOut')}`);
    bill = editor('sales-out');
    await bill.waitFor();
    await fromSourceList(bill, order.billNo);
    await expect.poll(() => cell(bill, 0, 'qty').innerText()).toBe('2.00');
    await act(bill, 'submit');
    await act(bill, 'pass', '');
    await act(bill, 'accounting');
    await expect.poll(() => status(bill).innerText()).toBe('已记账');
    const out = await billOf('salesOut', bill);
    outNo = out.billNo;
    expect(out).toMatchObject({ totalAmt: '18.08', salesAmt: '16.00', taxAmt: '2.08', costAmt: '10.00' });
    await expectScreenMatches(bill, out, 'salesAmt');
    expect(await partyBalance(server, 'AR', w.customers[0])).toBe('18.08');

    await page.goto(`${server.url}${pathOf('salesReturn')}`);
    bill = editor('sales-return');
    await bill.waitFor();
    await fromSourceNumber(bill, outNo);
    await expect.poll(() => cell(bill, 0, 'qty').innerText()).toBe('-2.00');
    await typeCell(bill, 0, 'qty', '-1');
    await expect.poll(() => cell(bill, 0, 'totalAmt').innerText()).toBe('-9.04');
    await act(bill, 'submit');
    await act(bill, 'pass', '');
    await act(bill, 'accounting');
    await expect.poll(() => status(bill).innerText()).toBe('已记账');
    const ret = await billOf('salesReturn', bill);
    expect(ret).toMatchObject({ totalAmt: '-9.04', costAmt: '-5.00' });
    await expectScreenMatches(bill, ret, 'salesAmt');
    expect(await partyBalance(server, 'AR', w.customers[0])).toBe('9.04');
    expect(await stockOf(server, w.depots[0], w.goods[0])).toMatchObject({ qty: '1.00', value: '5.00' });
    await screenshot(page, 'bill-sales-return-posted');
    expect(browser.pageErrors).toEqual([]);
  });

  test('the warehouse change with goods entered asks first; an empty tax rate is named on its cell', async () => {
    await page.goto(`${server.url}${pathOf('salesOut')}`);
    const bill = editor('sales-out');
    await bill.waitFor();
    await pickHead(bill, 'customerId', names.customer);
    await pickHead(bill, 'depotId', names.depot);
    await addGoods(bill, [names.goods1]);
    await expect.poll(() => rowCount(bill)).toBe(1);
    // Cancel keeps the warehouse and the lines; OK clears the lines.
    const changeDepot = async (ok: boolean) => {
      await pickHead(bill, 'depotId', names.depot2).catch(() => undefined);
      const ask = page.locator('.ant-modal-wrap:visible .ant-modal', { hasText: '修改仓库后商品信息会清空，确认修改仓库吗？' });
      await ask.waitFor();
      await ask.getByRole('button', { name: ok ? /确\s*定|OK/ : /取\s*消|Cancel/ }).click();
    };
    await changeDepot(false);
    await expect.poll(() => bill.locator('[data-field="depotId"]').innerText()).toContain(names.depot);
    expect(await rowCount(bill)).toBe(1);
    await changeDepot(true);
    await expect.poll(() => rowCount(bill)).toBe(0);
    await expect.poll(() => bill.locator('[data-field="depotId"]').innerText()).toContain(names.depot2);
    // An empty tax rate is the cell's error, with the spec's message, and the save says it too.
    await addGoods(bill, [names.goods1]);
    await typeCell(bill, 0, 'taxRate', '');
    await expect.poll(() => cell(bill, 0, 'taxRate').getAttribute('class')).toContain('erp-line-cell-error');
    await bill.getByTestId('doc-action-submit').click();
    await expectMessage(page, '第1行：请选择税率，无税请选0');
    expect(browser.pageErrors).toEqual([]);
  });
});
