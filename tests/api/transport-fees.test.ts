/**
 * 运输费用单 (/blade-finance/transporthead) on SQLite and PostgreSQL, with figures computed by hand:
 * a carrier's statement of 3 waybills (12.00 + 8.50 + 8.50 = 29.00, the last two the same waybill,
 * the first the courier number of a posted sales-out) imported from an xlsx built here; rematch
 * finds 1 matched and 2 unmatched; repeatExport gives the two duplicate rows; a bad amount on
 * row 3 refuses the whole file naming 第3行; posting raises the carrier's payable by 29.00 and
 * 销售费用 by 29.00 with a balanced voucher; flush restores both; 10,000 lines import quickly.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api, type Reply } from '../support/client.ts';
import { multipart } from '../support/files.ts';
import { uniqueToken } from '../support/resources.ts';
import { approvedBill, BASES, lines, makeWorld, partyBalance, type World } from '../support/bills.ts';
import { formatDate } from '../../src/shared/dates.ts';

const HEAD = '/blade-finance/transporthead';
const BODY = '/blade-finance/transportbody';
const PROFIT = '/blade-finance/profitstatement/list';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const TITLES = ['运单号', '发货日期', '目的地', '件数', '重量', '运费', '备注'];

type Cell = string | number | null;

async function workbook(rows: Cell[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('运费对账单');
  sheet.addRow(TITLES);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** Data rows of an answered xlsx (row 1 is the titles), each as text cells. */
async function sheetRows(content: Buffer): Promise<string[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(content as unknown as ArrayBuffer);
  const out: string[][] = [];
  book.worksheets[0].eachRow((row) => out.push((row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v)))));
  return out;
}

function expectRefused(reply: Reply, msg: string) {
  expect(reply.body.success, JSON.stringify(reply.body)).toBe(false);
  expect(reply.body.msg).toBe(msg);
}

describe.each(databases())('运输费用单 ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let carrierId: string;
  let sale: { id: string; billNo: string };
  const token = uniqueToken().slice(-6);
  const matchedNo = `SF${token}001`;
  const twinNo = `YT${token}002`;

  const send = (path: string, content: Buffer, query: Record<string, unknown> = {}, name = '运费对账单.xlsx', type = XLSX) => {
    const { body, contentType } = multipart('file', name, content, type);
    return admin.call('POST', `${HEAD}/${path}`, { body, headers: { 'content-type': contentType }, query });
  };
  const bodyCount = async () => expectOk(await admin.get(`${BODY}/list`, { current: 1, size: 1 })).total as number;
  const headCount = async () => expectOk(await admin.get(`${HEAD}/list`, { current: 1, size: 1 })).total as number;
  const profit = async () => {
    const rows = expectOk(await admin.get(PROFIT, { billDateStart: `${formatDate().slice(0, 7)}-01 00:00:00`, billDateEnd: `${formatDate()} 23:59:59` })).records as { id: string; periodAmt: string }[];
    return Object.fromEntries(rows.map((r) => [r.id, r.periodAmt]));
  };

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1, depots: 1, customers: 1 });
    const natures = expectOk(await admin.get('/blade-base/suppliernature/list', { current: 1, size: 1 }));
    const nature = (Array.isArray(natures) ? natures : natures.records)[0];
    carrierId = String(expectOk(await admin.post('/blade-base/supplier/submit', { bartererCode: `CY${token}`, bartererName: `顺丰速运${token}`, natureId: nature?.id ?? '0' })).id);
    // Stock in (10 @ 5.00), then one posted sales-out shipped under courier number matchedNo:
    // 1 @ 11.30 with 13% tax = 10.00 revenue, cost 5.00.
    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '10', purchasePrice: '5.00' }]) }, { post: true });
    sale = await approvedBill(
      admin,
      BASES.salesOut,
      { customerId: w.customers[0], depotId: w.depots[0], courierNo: matchedNo, bodyList: lines(w, [{ goods: w.goods[0], qty: '1', taxPrice: '11.30' }]) },
      { post: true },
    );
  });
  afterAll(async () => server?.close());

  let billId = '';

  test('readExcel saves 3 waybills as a draft of 29.00; rematch: 1 matched, 2 unmatched; repeatExport: the duplicate rows', async () => {
    const file = await workbook([
      [matchedNo, '2026-05-01', '上海', 1, 2.5, 12, '首票'],
      [twinNo, '2026-05-02', '杭州', 2, 3, 8.5, null],
      [twinNo, '2026-05-03', '杭州', 1, 1.2, '8.50', '重复计费'],
    ]);
    const imported = expectOk(await send('readExcel', file, { supplierId: carrierId, statementNo: `DZ${token}` }));
    expect(imported).toMatchObject({ billStatus: '1301', supplierId: carrierId, finalAmt: '29.00', total: 3, matched: 1, unmatched: 2, ambiguous: 0, repeated: 2 });
    billId = imported.id;

    const again = expectOk(await admin.post(`${HEAD}/rematch`, undefined, { id: billId }));
    expect(again).toMatchObject({ total: 3, matched: 1, unmatched: 2, ambiguous: 0, repeated: 2 });

    const bill = expectOk(await admin.get(`${HEAD}/detail`, { id: billId }));
    expect(bill).toMatchObject({ billType: '0860', finalAmt: '29.00', totalAmt: '29.00', statementNo: `DZ${token}`, periodStart: '2026-05-01', periodEnd: '2026-05-03', matchedCount: 1, unmatchedCount: 2, repeatCount: 2, applyStatus: 1 });
    expect(bill.billNo).toBeTruthy();
    const body = bill.bodyList as Record<string, unknown>[];
    expect(body.map((l) => [l.courierNo, l.freightAmt, l.matchStatus, l.repeatFlag])).toEqual([
      [matchedNo, '12.00', 2, 1],
      [twinNo, '8.50', 1, 2],
      [twinNo, '8.50', 1, 2],
    ]);
    expect(body[0]).toMatchObject({ matchBillId: sale.id, matchBillNo: sale.billNo, matchBillType: '0803', shipDate: '2026-05-01', destination: '上海', pieces: 1, weight: '2.50' });
    expect(String(body[0].matchPartnerName)).toContain('客户');
    expect(body[1].repeatInfo).toBe('与本单第3行重复');
    expect(body[2].repeatInfo).toBe('与本单第2行重复');
    expect(expectOk(await admin.get(`${BODY}/list`, { headId: billId, current: 1, size: 10 })).total).toBe(3);

    const exported = await admin.call('GET', `${HEAD}/repeatExport`, { query: { id: billId }, raw: true });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toContain('spreadsheetml');
    const rows = await sheetRows(exported.body as Buffer);
    expect(rows[0].slice(0, 7)).toEqual(['行号', '运单号', '发货日期', '目的地', '件数', '重量(kg)', '运费']);
    expect(rows.slice(1).map((r) => [r[0], r[1], r[6], r[7], r[9], r[10]])).toEqual([
      ['2', twinNo, '8.50', '未匹配', '是', '与本单第3行重复'],
      ['3', twinNo, '8.50', '未匹配', '是', '与本单第2行重复'],
    ]);
  });

  test('a bad row (运费 abc on row 3) refuses the whole file, naming 第3行; nothing is written', async () => {
    const [heads, bodies] = [await headCount(), await bodyCount()];
    const file = await workbook([
      [`ZT${token}1`, '2026-05-01', '北京', 1, 1, 5, null],
      [`ZT${token}2`, '2026-05-01', '北京', 1, 1, 'abc', null],
      [`ZT${token}3`, '2026-05-01', '北京', 1, 1, 6, null],
    ]);
    const refused = await send('readExcel', file, { supplierId: carrierId });
    expect(refused.status).toBe(400);
    expectRefused(refused, '第3行：运费「abc」不是有效数字');
    expect(refused.body.data.errors).toEqual(['第3行：运费「abc」不是有效数字']);
    // Missing waybill and a carrier code that names another supplier, each on its own row.
    const mixed = await send('readExcel', await workbook([['', '2026-13-01', null, -1, null, 0, null]]), { supplierId: carrierId });
    expectRefused(mixed, '第2行：请填写运单号，运费「0」必须大于0，发货日期「2026-13-01」不是有效日期（应为YYYY-MM-DD），件数「-1」应为不小于0的整数');
    const untitled = await send('readExcel', await (async () => {
      const book = new ExcelJS.Workbook();
      book.addWorksheet('x').addRow(['单号']);
      return Buffer.from(await book.xlsx.writeBuffer());
    })(), { supplierId: carrierId });
    expectRefused(untitled, '第1行应为列标题：运单号、运费（可选：发货日期、目的地、件数、重量、备注、承运商编码）');
    expectRefused(await send('readExcel', await workbook([[`ZT${token}9`, null, null, null, null, 1, null]])), '请选择承运商（参数 supplierId，或文件中的承运商编码列）');
    expect([await headCount(), await bodyCount()]).toEqual([heads, bodies]);
  });

  test('the carrier file attaches through the shared upload path; another tenant sees nothing', async () => {
    const original = await workbook([[matchedNo, null, null, null, null, 12, null]]);
    const put = expectOk(await send('putTransportheadFile', original, { id: billId }, '顺丰5月对账单.xlsx'));
    expect(put).toMatchObject({ billId, billType: '0860', originalName: '顺丰5月对账单.xlsx', extension: 'xlsx' });
    const bill = expectOk(await admin.get(`${HEAD}/detail`, { id: billId }));
    expect(bill).toMatchObject({ fileAttachId: put.attachId, fileName: '顺丰5月对账单.xlsx' });
    const annexes = expectOk(await admin.get('/blade-base/billannex/getOederFileList', { billId }));
    expect(annexes.map((a: { originalName: string }) => a.originalName)).toEqual(['顺丰5月对账单.xlsx']);
    // The shared checks apply: content that is not what its name says is refused.
    expectRefused(await send('putTransportheadFile', Buffer.from('not a pdf'), { id: billId }, 'x.pdf', 'application/pdf'), '文件内容与扩展名 .pdf 不符');

    const other = await signedIn(server.url, '100001');
    expect(expectOk(await other.get(`${HEAD}/detail`, { id: billId }))).toBeNull();
    expect(expectOk(await other.get(`${BODY}/list`, { headId: billId, current: 1, size: 10 })).total).toBe(0);
    expect((await other.post(`${HEAD}/rematch`, undefined, { id: billId })).body.msg).toBe('单据不存在或已被删除');
  });

  test('submit, pass, accounting: the carrier owes 29.00 more, 销售费用 29.00, pushap a balanced voucher; transportApply once; flush restores', async () => {
    const apBefore = await partyBalance(server, 'AP', carrierId);
    expect(apBefore).toBe('0.00');
    let bill = expectOk(await admin.get(`${HEAD}/detail`, { id: billId }));
    bill = expectOk(await admin.post(`${HEAD}/submit`, bill));
    expect(bill).toMatchObject({ billStatus: '1302', finalAmt: '29.00' });
    // Applying for payment needs a posted statement.
    expectRefused(await admin.post(`${HEAD}/transportApply`, { id: bill.id, version: bill.version }), '单据当前状态为「待审核」，不能申请付款；只有「已记账」的运输费用单可以申请付款');
    bill = expectOk(await admin.get(`${HEAD}/pass`, { id: bill.id, version: bill.version, remark: '同意' }));
    bill = expectOk(await admin.post(`${HEAD}/accounting`, { id: bill.id, version: bill.version }));
    expect(bill.billStatus).toBe('1306');
    expect(await partyBalance(server, 'AP', carrierId)).toBe('29.00');
    // Revenue 10.00 and cost 5.00 of the sale, 29.00 freight: operating profit -24.00.
    expect(await profit()).toMatchObject({ revenue: '10.00', cost: '5.00', selling: '29.00', admin: '0.00', operating: '-24.00' });

    const pushed = expectOk(await admin.get(`${HEAD}/pushap`, { id: billId })) as { debitAmt: string; creditAmt: string; entry: string; lines: { account: string; debit: string; credit: string; partyId?: string }[] }[];
    expect(pushed).toHaveLength(1);
    expect(pushed[0]).toMatchObject({ entry: 'post', debitAmt: '29.00', creditAmt: '29.00' });
    expect(pushed[0].lines.map((l) => [l.account, l.debit, l.credit]).sort()).toEqual([
      ['2202', '0', '29.00'],
      ['6601', '29.00', '0'],
    ]);
    expect(pushed[0].lines.find((l) => l.account === '2202')!.partyId).toBe(carrierId);

    const applied = expectOk(await admin.post(`${HEAD}/transportApply`, { id: bill.id, version: bill.version }));
    expect(applied).toMatchObject({ applyStatus: 2, billStatus: '1306' });
    expect(applied.applyTime).toBeTruthy();
    expectRefused(await admin.post(`${HEAD}/transportApply`, { id: applied.id, version: applied.version }), '该运输费用单已申请付款，不能重复申请');
    const history = expectOk(await admin.get(`${HEAD}/history`, { id: billId })) as { action: string }[];
    expect(history.map((h) => h.action)).toEqual(['draft', 'submit', 'pass', 'accounting', 'transportApply']);

    const flushed = expectOk(await admin.post(`${HEAD}/flush`, { id: applied.id, version: applied.version }));
    expect(flushed.billStatus).toBe('1308');
    expect(await partyBalance(server, 'AP', carrierId)).toBe('0.00');
    expect(await profit()).toMatchObject({ selling: '0.00', operating: '5.00' });
    expectRefused(await admin.post(`${HEAD}/rematch`, undefined, { id: billId }), '单据当前状态为「已冲红」，不能重新匹配');
  });

  test('10,000 waybills: import, rematch and repeat export each take a few seconds at most', async () => {
    const rows: Cell[][] = Array.from({ length: 10_000 }, (_, i) => [`JD${token}${String(i).padStart(6, '0')}`, '2026-05-01', '广州', 1, '1.5', i % 2 ? '3.25' : '4.75', null]);
    rows[9_999][0] = matchedNo;
    const file = await workbook(rows);
    let started = Date.now();
    const imported = expectOk(await send('readExcel', file, { supplierId: carrierId }));
    const importMs = Date.now() - started;
    // Odd lines 3.25, even lines 4.75, 5,000 of each: 16,250.00 + 23,750.00 = 40,000.00.
    expect(imported).toMatchObject({ total: 10_000, finalAmt: '40000.00', matched: 1, unmatched: 9_999 });
    // matchedNo was billed (and flushed) on the first statement: a flushed statement no longer counts.
    const last = expectOk(await admin.get(`${BODY}/list`, { headId: imported.id, courierNo: matchedNo, current: 1, size: 10 }));
    expect(last.records.map((l: Record<string, unknown>) => [l.matchStatus, l.repeatFlag, l.repeatInfo ?? null])).toEqual([[2, 1, null]]);
    expect(imported.repeated).toBe(0);
    started = Date.now();
    expect(expectOk(await admin.post(`${HEAD}/rematch`, undefined, { id: imported.id }))).toMatchObject({ matched: 1, unmatched: 9_999 });
    const rematchMs = Date.now() - started;
    started = Date.now();
    const exported = await admin.call('GET', `${HEAD}/repeatExport`, { query: { id: imported.id }, raw: true });
    const exportMs = Date.now() - started;
    expect((await sheetRows(exported.body as Buffer)).length).toBe(1 + 9_999);
    console.log(`transport 10,000 lines: import ${importMs} ms, rematch ${rematchMs} ms, repeatExport ${exportMs} ms`);
    expect(importMs).toBeLessThan(8_000);
    expect(rematchMs).toBeLessThan(8_000);
    expect(exportMs).toBeLessThan(8_000);
  }, 120_000);
});
