/**
 * Three finance calls of spec 001 §7 (and spec 000's billannex), on SQLite and PostgreSQL:
 * - 业务历史 (businessHistory list, getTypeList): a bill's actions, newest first, with the bill's
 *   number and type, the Chinese action and state names and the user; filters narrow; another
 *   tenant sees nothing;
 * - 单据核销明细 (billsettlement detail): a sales-out of 36.16 part-paid by two receipts, one
 *   flushed: what settled it, by how much, net of the reversal, and what stays open; the money
 *   side too; an unposted bill has none;
 * - 单据附件 (billannex): attachments uploaded through the shared upload checks, a disallowed type
 *   or size refused in Chinese with nothing stored, at most six per bill, a bill's list replaced by
 *   saveBillAnnex, paged by bill type, and an invoice's view including its source bill's files.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { approvedBill, BASES, lines, makeWorld, type World } from '../support/bills.ts';
import { multipart, pngBytes } from '../support/files.ts';
import { formatDate } from '../../src/shared/dates.ts';

const HISTORY = '/blade-finance/businessHistory';
const SETTLEMENT = '/blade-finance/billsettlement';
const ANNEX = '/blade-base/billannex';
const RECEIPT = '/blade-finance/receipt';

interface HistoryRow {
  billId: string;
  billNo: string;
  billType: string;
  billTypeName: string;
  action: string;
  actionName: string;
  fromStatus: string;
  fromStatusName: string;
  toStatus: string;
  toStatusName: string;
  userName: string;
  remark: string | null;
  actionTime: string;
}

describe.each(databases())('finance views ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let other: Api;
  let w: World;
  let cash: string;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    other = await signedIn(server.url, '100001');
    w = await makeWorld(admin, { goods: 1, customers: 3 });
    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '100', purchasePrice: '5.00' }]) }, { post: true });
    const methods = expectOk(await admin.get('/blade-base/settlement/retail'));
    cash = String(methods.find((m: { settlementName: string }) => m.settlementName === '现金').id);
  });
  afterAll(async () => server?.close());

  /** A posted sales-out of 4 × 9.04 = 36.16. */
  const sale = (customer: string) =>
    approvedBill(admin, BASES.salesOut, { customerId: customer, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '4', taxPrice: '9.04' }]) }, { post: true });
  const receipt = (customer: string, amount: string, settle: [string, string][]) => ({
    bartererId: customer,
    settlementId: cash,
    precpAmt: amount,
    bodyList: settle.map(([billId, settleAmt]) => ({ sourceBillId: billId, settleAmt })),
  });

  test('业务历史: a sales-out submitted, approved and posted shows three actions newest first, with number, type, Chinese names and user', async () => {
    const out = await sale(w.customers[0]);
    const page = expectOk(await admin.get(`${HISTORY}/list`, { billNo: out.billNo, current: 1, size: 20 }));
    expect(page.total).toBe(3);
    const rows = page.records as HistoryRow[];
    expect(rows.map((r) => [r.actionName, r.fromStatusName, r.toStatusName])).toEqual([
      ['记账', '已审核', '已记账'],
      ['审核通过', '待审核', '已审核'],
      ['提交', '新建', '待审核'],
    ]);
    for (const r of rows) {
      expect(r).toMatchObject({ billId: out.id, billNo: out.billNo, billType: '0803', billTypeName: '销售出库单', userName: '管理员' });
      expect(r.actionTime.slice(0, 10)).toBe(formatDate());
    }
    expect(rows[1].remark, 'the approval remark is kept').toBe('同意');

    // Filters: type and user, action name, an empty date range, another bill type.
    const mine = expectOk(await admin.get(`${HISTORY}/list`, { billType: '0803', userName: '管理员', actionName: '记账', current: 1, size: 100 })).records as HistoryRow[];
    expect(mine.some((r) => r.billId === out.id && r.action === 'accounting')).toBe(true);
    expect(mine.every((r) => r.billType === '0803' && r.actionName === '记账')).toBe(true);
    const today = formatDate();
    expect(expectOk(await admin.get(`${HISTORY}/list`, { billNo: out.billNo, actionTime_datege: today, actionTime_datele: today, current: 1, size: 20 })).total).toBe(3);
    expect(expectOk(await admin.get(`${HISTORY}/list`, { billNo: out.billNo, startDate: '2000-01-01', endDate: '2000-01-31', current: 1, size: 20 })).total).toBe(0);
    expect(expectOk(await admin.get(`${HISTORY}/list`, { billNo: out.billNo, billType: '0802', current: 1, size: 20 })).total).toBe(0);

    // The flush is recorded too, on top.
    expectOk(await admin.post(`${BASES.salesOut}/flush`, { id: out.id, version: out.version }));
    const after = expectOk(await admin.get(`${HISTORY}/list`, { billId: out.id, current: 1, size: 20 })).records as HistoryRow[];
    expect(after.map((r) => r.actionName)).toEqual(['冲红', '记账', '审核通过', '提交']);
    expect(after[0]).toMatchObject({ fromStatus: '1306', toStatus: '1308', toStatusName: '已冲红' });

    // getTypeList: the types that appear, with their Chinese names.
    const types = expectOk(await admin.get(`${HISTORY}/getTypeList`)) as { value: string; label: string }[];
    expect(types).toContainEqual(expect.objectContaining({ value: '0803', label: '销售出库单' }));
    expect(types.length).toBeGreaterThanOrEqual(2); // the purchase-in of the setup as well
    expect(new Set(types.map((t) => t.value)).size).toBe(types.length);

    // Another tenant sees none of it.
    expect(expectOk(await other.get(`${HISTORY}/list`, { current: 1, size: 20 })).total).toBe(0);
    expect(expectOk(await other.get(`${HISTORY}/getTypeList`))).toEqual([]);
  });

  test('单据核销明细: 36.16 owed, 20.00 and 10.00 received, the first flushed → settled 10.00, open 26.16, by the second receipt only', async () => {
    const c = w.customers[1];
    const out = await sale(c);
    expect(out.finalAmt).toBe('36.16');
    const fresh = expectOk(await admin.get(`${SETTLEMENT}/detail`, { id: out.id }));
    expect(fresh).toMatchObject({ billNo: out.billNo, billType: '0803', billTypeName: '销售出库单', kind: 'AR', kindName: '应收', side: 'debit', billAmt: '36.16', settledAmt: '0.00', openAmt: '36.16', settlements: [], records: [] });

    const r1 = await approvedBill(admin, RECEIPT, receipt(c, '20', [[out.id, '20']]), { post: true });
    const r2 = await approvedBill(admin, RECEIPT, receipt(c, '30', [[out.id, '10']]), { post: true });
    const both = expectOk(await admin.get(`${SETTLEMENT}/detail`, { id: out.id }));
    expect(both).toMatchObject({ billAmt: '36.16', settledAmt: '30.00', openAmt: '6.16', reversed: false });
    expect(both.settlements.map((s: { billNo: string; billTypeName: string; settleAmt: string }) => [s.billNo, s.settleAmt])).toEqual([
      [r1.billNo, '20.00'],
      [r2.billNo, '10.00'],
    ]);
    expect(both.bartererName).toBe(expectOk(await admin.get('/blade-base/customer/detail', { id: c })).bartererName);

    expectOk(await admin.post(`${RECEIPT}/flush`, { id: r1.id, version: r1.version }));
    const after = expectOk(await admin.get(`${SETTLEMENT}/detail`, { id: out.id }));
    expect(after).toMatchObject({ billAmt: '36.16', settledAmt: '10.00', openAmt: '26.16' });
    expect(after.settlements.map((s: { billNo: string; settleAmt: string }) => [s.billNo, s.settleAmt])).toEqual([[r2.billNo, '10.00']]);
    expect(after.records.map((r: { entry: string; entryName: string; otherBillNo: string; settleAmt: string; byBillNo: string }) => [r.entryName, r.otherBillNo, r.settleAmt, r.byBillNo])).toEqual([
      ['核销', r1.billNo, '20.00', r1.billNo],
      ['核销', r2.billNo, '10.00', r2.billNo],
      ['反核销', r1.billNo, '-20.00', r1.billNo],
    ]);

    // The money side: the second receipt of 30.00 applied 10.00 to the sale, 20.00 stays unapplied.
    const money = expectOk(await admin.get(`${SETTLEMENT}/detail`, { id: r2.id }));
    expect(money).toMatchObject({ side: 'credit', billAmt: '30.00', settledAmt: '10.00', openAmt: '20.00' });
    expect(money.settlements.map((s: { billNo: string; billType: string; settleAmt: string }) => [s.billNo, s.billType, s.settleAmt])).toEqual([[out.billNo, '0803', '10.00']]);
    // The flushed receipt: nothing settled, nothing open.
    expect(expectOk(await admin.get(`${SETTLEMENT}/detail`, { id: r1.id }))).toMatchObject({ reversed: true, settledAmt: '0.00', openAmt: '0.00', settlements: [] });

    // The view's page by bill: the same three rows.
    const listed = expectOk(await admin.get(`${SETTLEMENT}/list`, { billId: out.id, current: 1, size: 20 }));
    expect(listed.records.map((r: { settleAmt: string }) => r.settleAmt)).toEqual(['20.00', '10.00', '-20.00']);

    // A bill not posted has no settlement; another tenant cannot see this one; no id is refused.
    const draft = expectOk(await admin.post(`${BASES.salesOut}/submit`, { customerId: c, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '1', taxPrice: '9.04' }]) }));
    for (const [api, id] of [[admin, draft.id], [other, out.id]] as const) {
      const refused = await api.get(`${SETTLEMENT}/detail`, { id });
      expect(refused.body).toMatchObject({ success: false, msg: '单据尚未记账或不产生往来，没有核销信息' });
    }
    expect((await admin.get(`${SETTLEMENT}/detail`, {})).body).toMatchObject({ success: false, msg: '缺少参数 id' });
    expect(expectOk(await other.get(`${SETTLEMENT}/list`, { billId: out.id, current: 1, size: 20 })).total).toBe(0);
  });

  test('单据附件: uploads checked by type and size, at most six per bill, saveBillAnnex replaces the list, paged by type, an invoice shows its source bill files', async () => {
    const out = await sale(w.customers[2]);
    const attachCount = () => server.services.store.count(server.services.m('attach'), '000000');
    const put = (filename: string, content: Buffer, query: Record<string, unknown> = { billId: out.id, billType: '0803' }, api: Api = admin) => {
      const { body, contentType } = multipart('file', filename, content, 'application/octet-stream');
      return api.call('POST', `${ANNEX}/putOrderFile`, { body, headers: { 'content-type': contentType }, query });
    };
    const refused = async (reply: Awaited<ReturnType<typeof put>>, message: string) => {
      expect(reply.status, JSON.stringify(reply.body)).toBe(400);
      expect(reply.body).toMatchObject({ success: false, msg: message });
    };

    const first = expectOk(await put('发票扫描.png', pngBytes(3, 2)));
    expect(first).toMatchObject({ billId: out.id, billType: '0803', billNo: out.billNo, originalName: '发票扫描.png' });
    expect(typeof first.attachId).toBe('string');
    const listed = expectOk(await admin.get(`${ANNEX}/getOederFileList`, { billId: out.id }));
    expect(listed.map((a: { originalName: string; attachId: string; link: string }) => [a.originalName, a.attachId, a.link])).toEqual([['发票扫描.png', first.attachId, first.link]]);

    // Refused with the Chinese message, nothing stored: a type the server never accepts, a type
    // this resource does not accept (txt is fine for put-file), a file over 5M.
    const before = await attachCount();
    await refused(await put('setup.exe', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 1)])), '不支持的文件类型，仅支持：doc、pdf、jpg、xls、png、xlsx');
    await refused(await put('说明.txt', Buffer.from('费用说明')), '不支持的文件类型，仅支持：doc、pdf、jpg、xls、png、xlsx');
    await refused(await put('big.png', Buffer.concat([pngBytes(), Buffer.alloc(6 * 1024 * 1024, 7)])), '上传文件大小不能超过5M');
    await refused(await put('a.png', pngBytes(), { billId: 'nope', billType: '0803' }), '单据不存在或已被删除');
    expect(await attachCount(), 'no attachment written').toBe(before);
    // Another tenant cannot attach to this bill.
    await refused(await put('a.png', pngBytes(), { billId: out.id, billType: '0803' }, other), '单据不存在或已被删除');

    // Up to six per bill; the seventh is refused with the spec's message and nothing is stored.
    for (let i = 2; i <= 6; i++) expectOk(await put(`附件${i}.png`, pngBytes(i, 1)));
    const six = expectOk(await admin.get(`${ANNEX}/getOederFileList`, { billId: out.id }));
    expect(six.map((a: { originalName: string }) => a.originalName)).toEqual(['发票扫描.png', '附件2.png', '附件3.png', '附件4.png', '附件5.png', '附件6.png']);
    const full = await attachCount();
    await refused(await put('附件7.png', pngBytes()), '当前页面最多可上传六个附件！');
    expect(await attachCount()).toBe(full);

    // Upload without a bill, then save a bill's list: the new file first, then the first one.
    const loose = expectOk(await put('报销单.pdf', Buffer.from('%PDF-1.4\n%\xe2\xe3\n1 0 obj\n<<>>\nendobj\n', 'latin1'), {}));
    expect(loose.billId, 'not attached to anything yet').toBeUndefined();
    const saved = expectOk(await admin.post(`${ANNEX}/saveBillAnnex`, { billId: out.id, billType: '0803', annexList: [{ attachId: loose.attachId }, { attachId: first.attachId }] }));
    expect(saved.map((a: { originalName: string; billNo: string; sort: number }) => [a.originalName, a.billNo, a.sort])).toEqual([
      ['报销单.pdf', out.billNo, 1],
      ['发票扫描.png', out.billNo, 2],
    ]);
    // Seven, an unknown attachment, a repeat, a txt uploaded through put-file: all refused, the list unchanged.
    const seven = six.map((a: { attachId: string }) => ({ attachId: a.attachId })).concat([{ attachId: loose.attachId }]);
    for (const [annexList, message] of [
      [seven, '当前页面最多可上传六个附件！'],
      [[{ attachId: 'nope' }], '第1个附件不存在或已被删除，请重新上传'],
      [[{ attachId: first.attachId }, { attachId: first.attachId }], '第2个附件重复'],
    ] as const) {
      expect((await admin.post(`${ANNEX}/saveBillAnnex`, { billId: out.id, annexList })).body).toMatchObject({ success: false, msg: message });
    }
    const { body, contentType } = multipart('file', 'notes.txt', Buffer.from('plain text'), 'text/plain');
    const txt = expectOk(await admin.call('POST', '/blade-resource/oss/endpoint/put-file', { body, headers: { 'content-type': contentType } }));
    expect((await admin.post(`${ANNEX}/saveBillAnnex`, { billId: out.id, annexList: [{ attachId: txt.attachId }] })).body).toMatchObject({
      success: false,
      msg: '第1个附件：不支持的文件类型，仅支持：doc、pdf、jpg、xls、png、xlsx',
    });
    expect(expectOk(await admin.get(`${ANNEX}/getOederFileList`, { billId: out.id })).length).toBe(2);

    // The page by bill type; another tenant sees none.
    const page = expectOk(await admin.get(`${ANNEX}/saveBillAnnexPage`, { billType: '0803', billNo: out.billNo, current: 1, size: 20 }));
    expect(page.total).toBe(2);
    expect(expectOk(await other.get(`${ANNEX}/saveBillAnnexPage`, { billType: '0803', current: 1, size: 20 })).total).toBe(0);
    expect(expectOk(await other.get(`${ANNEX}/getOederFileList`, { billId: out.id }))).toEqual([]);

    // A sales invoice made from the sales-out: its own file first, then the sales-out's.
    const pulled = expectOk(await admin.get('/blade-sales/salesinvoicehead/pullById', { id: out.id }));
    const invoice = expectOk(await admin.post('/blade-sales/salesinvoicehead/submit', pulled));
    expectOk(await put('发票.jpg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]), { billId: invoice.id, billType: '0806' }));
    const view = expectOk(await admin.get(`${ANNEX}/annexViewlist`, { invoiceId: invoice.id }));
    expect(view.map((a: { billNo: string; originalName: string }) => [a.billNo, a.originalName])).toEqual([
      [invoice.billNo, '发票.jpg'],
      [out.billNo, '报销单.pdf'],
      [out.billNo, '发票扫描.png'],
    ]);
  });
});
