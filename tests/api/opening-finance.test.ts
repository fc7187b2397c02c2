/**
 * 期初财务 (openingBarerter) on SQLite and PostgreSQL: an opening receivable (往来类型 客户) posts
 * AR and an opening payable (供应商) AP — posting.partyBy chooses by the head's type — each an
 * open bill later receipts and payments settle; the two pages list their own type; batchPass
 * answers each bill's outcome; the imports save one 待审核 bill per row, or nothing when a row is
 * bad (named by row number); another tenant sees and approves none of it.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { multipart } from '../support/files.ts';
import { approvedBill, makeWorld, partyBalance, type World } from '../support/bills.ts';

const OPENING = '/blade-finance/openingBarerter';
const RECEIPT = '/blade-finance/receipt';
const PAYMENT = '/blade-finance/payment';

type Row = Record<string, string>;

describe.each(databases())('期初财务 ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let cash: string;
  let supplierCode: string;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { customers: 3 });
    const methods = expectOk(await admin.get('/blade-base/settlement/retail'));
    cash = String(methods.find((m: { settlementName: string }) => m.settlementName === '现金').id);
    supplierCode = expectOk(await admin.get('/blade-base/supplier/detail', { id: w.supplierId })).bartererCode;
  });
  afterAll(async () => server?.close());

  const openOf = async (base: string, partner: string, billId: string) =>
    (expectOk(await admin.get(`${base}/billlist`, { bartererId: partner })) as Row[]).find((i) => i.billId === billId);
  const page = async (which: 'openingCustomerPage' | 'openingSupplierPage') => (expectOk(await admin.get(`${OPENING}/${which}`, { current: 1, size: 100 })).records as Row[]).map((r) => r.billNo);
  const customerOpening = (customerId: string, finalAmt: string, post = true) =>
    approvedBill(admin, OPENING, { bartererType: 1, customerId, finalAmt, originalDate: '2025-12-20', remark: '启用前未收货款' }, { post });
  const sheet = async (rows: unknown[][]) => {
    const book = new ExcelJS.Workbook();
    const s = book.addWorksheet('期初');
    s.addRow(['编码', '金额', '日期', '备注']);
    for (const r of rows) s.addRow(r);
    return Buffer.from(await book.xlsx.writeBuffer());
  };
  const upload = (which: 'exportCustomerInfo' | 'exportSupplierInfo', content: Buffer) => {
    const { body, contentType } = multipart('file', '期初.xlsx', content, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    return admin.call('POST', `${OPENING}/${which}`, { body, headers: { 'content-type': contentType } });
  };

  test('a customer opening of 100.00 posts AR and a supplier opening of 50.00 posts AP; each page lists its own; a receipt and a payment settle part', async () => {
    expect(expectOk(await admin.get(`${OPENING}/initAdd`))).toMatchObject({ billType: '0872' });
    const c = w.customers[0];
    const s = w.supplierId;
    const ar = await customerOpening(c, '100');
    expect(ar).toMatchObject({ billType: '0872', billStatus: '1306', bartererType: 1, customerId: c, finalAmt: '100.00', originalDate: '2025-12-20', customerName: expect.stringContaining('客户') });
    const ap = await approvedBill(admin, OPENING, { bartererType: 2, supplierId: s, finalAmt: '50' }, { post: true });
    expect(ap).toMatchObject({ bartererType: 2, supplierId: s, finalAmt: '50.00', supplierName: expect.stringContaining('供应商') });

    expect(await partyBalance(server, 'AR', c)).toBe('100.00');
    expect(await partyBalance(server, 'AP', s)).toBe('50.00');
    expect(await partyBalance(server, 'AR', s), 'a supplier opening is not a receivable').toBe('0.00');
    expect(await openOf(RECEIPT, c, ar.id)).toMatchObject({ billNo: ar.billNo, billType: '0872', billTypeName: '期初财务', billAmt: '100.00', openAmt: '100.00' });
    expect(await openOf(PAYMENT, s, ap.id)).toMatchObject({ billTypeName: '期初财务', openAmt: '50.00' });
    const postings = async (id: string) => expectOk(await admin.get(`${OPENING}/postings`, { id })).party.map((p: Row) => [p.kind, p.partyId, Number(p.amount).toFixed(2)]);
    expect(await postings(ar.id)).toEqual([['AR', c, '100.00']]);
    expect(await postings(ap.id)).toEqual([['AP', s, '50.00']]);

    const customers = await page('openingCustomerPage');
    const suppliers = await page('openingSupplierPage');
    expect(customers).toContain(ar.billNo);
    expect(customers).not.toContain(ap.billNo);
    expect(suppliers).toContain(ap.billNo);
    expect(suppliers).not.toContain(ar.billNo);

    await approvedBill(admin, RECEIPT, { bartererId: c, settlementId: cash, precpAmt: '30', bodyList: [{ sourceBillId: ar.id, settleAmt: '30' }] }, { post: true });
    await approvedBill(admin, PAYMENT, { bartererId: s, settlementId: cash, precpAmt: '20', bodyList: [{ sourceBillId: ap.id, settleAmt: '20' }] }, { post: true });
    expect((await openOf(RECEIPT, c, ar.id))?.openAmt).toBe('70.00');
    expect((await openOf(PAYMENT, s, ap.id))?.openAmt).toBe('30.00');
    expect(await partyBalance(server, 'AR', c)).toBe('70.00');
    expect(await partyBalance(server, 'AP', s)).toBe('30.00');

    // 冲红 the customer opening: its settlement is given back, the receipt's 30.00 is credit again.
    const now = expectOk(await admin.get(`${OPENING}/detail`, { id: ar.id }));
    expectOk(await admin.post(`${OPENING}/flush`, { id: now.id, version: now.version }));
    expect(await openOf(RECEIPT, c, ar.id)).toBeUndefined();
    expect(await partyBalance(server, 'AR', c)).toBe('-30.00');
  });

  test('the type decides the partner field: a customer opening without a customer, an unknown type and a zero amount are refused', async () => {
    const noCustomer = await admin.post(`${OPENING}/submit`, { bartererType: 1, supplierId: w.supplierId, finalAmt: '5' });
    expect(noCustomer.body).toMatchObject({ success: false, msg: '请选择客户', data: { fieldErrors: { customerId: '请选择客户' } } });
    expect((await admin.post(`${OPENING}/submit`, { bartererType: 2, finalAmt: '5' })).body.msg).toBe('请选择供应商');
    expect((await admin.post(`${OPENING}/submit`, { bartererType: 3, customerId: w.customers[1], finalAmt: '5' })).body.msg).toBe('往来类型只能是客户或供应商');
    expect((await admin.post(`${OPENING}/submit`, { bartererType: 1, customerId: w.customers[1], finalAmt: '0' })).body.msg).toBe('期初金额必须是不为0的数字');
    // A negative opening (the customer paid in advance) is a credit.
    const advance = await customerOpening(w.customers[1], '-12.34');
    expect(advance.finalAmt).toBe('-12.34');
    expect(await partyBalance(server, 'AR', w.customers[1])).toBe('-12.34');
    const credit = (expectOk(await admin.get(`${RECEIPT}/precplist`, { bartererId: w.customers[1] })) as Row[]).find((i) => i.billId === advance.id);
    expect(credit?.openAmt).toBe('12.34');
  });

  test('batchPass approves each bill and answers each outcome; a draft is refused by its state', async () => {
    const submitted = async (finalAmt: string) => expectOk(await admin.post(`${OPENING}/submit`, { bartererType: 1, customerId: w.customers[2], finalAmt }));
    const [a, b] = [await submitted('1'), await submitted('2')];
    const draft = expectOk(await admin.post(`${OPENING}/draft`, { bartererType: 1, customerId: w.customers[2], finalAmt: '3' }));
    const answer = expectOk(await admin.post(`${OPENING}/batchPass`, { ids: [a.id, draft.id, b.id] }));
    expect(answer).toMatchObject({ total: 3, passed: 2 });
    expect(answer.results).toEqual([
      { id: a.id, billNo: a.billNo, success: true, msg: '审核通过' },
      { id: draft.id, billNo: draft.billNo, success: false, msg: '单据当前状态为「草稿」，不能审核通过；只有「待审核」的单据可以审核通过' },
      { id: b.id, billNo: b.billNo, success: true, msg: '审核通过' },
    ]);
    for (const bill of [a, b, draft]) {
      expect(expectOk(await admin.get(`${OPENING}/detail`, { id: bill.id })).billStatus).toBe(bill === draft ? '1301' : '1304');
    }
  });

  test('imports: a bad row refuses the whole file naming each row; a good file saves one 待审核 bill per row', async () => {
    const known = expectOk(await admin.get('/blade-base/customer/detail', { id: w.customers[0] }));
    const code = `KHQC${Date.now() % 100000}`;
    const customer = expectOk(await admin.post('/blade-base/customer/submit', { bartererCode: code, bartererName: '期初导入客户', natureId: known.natureId, levelId: known.levelId }));
    const count = () => server.services.store.count(server.services.m('opening-barterer'), '000000');
    const before = await count();

    const bad = await upload('exportCustomerInfo', await sheet([[code, 88.8, '2025-12-01', '12月货款'], ['NO-SUCH', 5, null, null], [code, 0, null, null], [code, 5, '2025-13-45', null], [supplierCode, 5, null, null]]));
    expect(bad.status).toBe(400);
    const errors = ['第3行：客户编码「NO-SUCH」不存在', '第4行：金额不能为0', '第5行：日期「2025-13-45」格式应为 yyyy-MM-dd', `第6行：客户编码「${supplierCode}」不存在`];
    expect(bad.body.msg).toBe(`导入失败，未写入任何数据。${errors.join('；')}`);
    expect(bad.body.data.errors).toEqual(errors);
    expect(await count(), 'nothing written').toBe(before);

    const good = expectOk(await upload('exportCustomerInfo', await sheet([[code, 88.8, '2025-12-01', '12月货款'], [code, -8, '2025/11/3', null]])));
    expect(good).toMatchObject({ total: 2, count: 2 });
    expect(good.records.map((r: Row) => [r.row, r.billStatus, r.customerId, r.bartererName, r.finalAmt])).toEqual([
      [2, '1302', customer.id, '期初导入客户', '88.80'],
      [3, '1302', customer.id, '期初导入客户', '-8.00'],
    ]);
    expect(await count()).toBe(before + 2);
    const second = expectOk(await admin.get(`${OPENING}/detail`, { id: good.records[1].id }));
    expect(second).toMatchObject({ bartererType: 1, originalDate: '2025-11-03', finalAmt: '-8.00' });
    expect(await page('openingCustomerPage')).toEqual(expect.arrayContaining(good.records.map((r: Row) => r.billNo)));

    const payables = expectOk(await upload('exportSupplierInfo', await sheet([[supplierCode, '15.5', null, '期初应付']])));
    expect(payables.records[0]).toMatchObject({ billStatus: '1302', supplierId: w.supplierId, finalAmt: '15.50' });
    expect(await page('openingSupplierPage')).toContain(payables.records[0].billNo);

    // Approved together, then posted: the customer owes 80.80 net.
    const passed = expectOk(await admin.post(`${OPENING}/batchPass`, { ids: good.records.map((r: Row) => r.id).join(',') }));
    expect(passed).toMatchObject({ total: 2, passed: 2 });
    for (const r of good.records as Row[]) {
      const bill = expectOk(await admin.get(`${OPENING}/detail`, { id: r.id }));
      expectOk(await admin.post(`${OPENING}/accounting`, { id: bill.id, version: bill.version }));
    }
    expect(await partyBalance(server, 'AR', customer.id)).toBe('80.80');

    const untitled = await upload('exportCustomerInfo', await (async () => {
      const book = new ExcelJS.Workbook();
      book.addWorksheet('x').addRow(['名称', '数额']);
      return Buffer.from(await book.xlsx.writeBuffer());
    })());
    expect(untitled.body.msg).toBe('第1行应为列标题：编码、金额（可选：日期、备注）');
  });

  test('another tenant neither sees nor approves an opening bill', async () => {
    const bill = expectOk(await admin.post(`${OPENING}/submit`, { bartererType: 1, customerId: w.customers[2], finalAmt: '9' }));
    const other = await signedIn(server.url, '100001');
    expect(expectOk(await other.get(`${OPENING}/openingCustomerPage`, { current: 1, size: 100 })).records).toEqual([]);
    expect(expectOk(await other.get(`${OPENING}/detail`, { id: bill.id }))).toBeFalsy();
    const tried = expectOk(await other.post(`${OPENING}/batchPass`, { ids: bill.id }));
    expect(tried).toMatchObject({ passed: 0, results: [{ id: bill.id, success: false, msg: '单据不存在或已被删除' }] });
    expect(expectOk(await admin.get(`${OPENING}/detail`, { id: bill.id })).billStatus).toBe('1302');
  });
});
