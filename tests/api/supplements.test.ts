/**
 * 应收调整单 (arsupplement) and 应付调整单 (apsupplement) on SQLite and PostgreSQL: a posted
 * adjustment moves the partner's balance by its signed amount; a positive one is an open bill a
 * receipt (payment) settles, a negative one a credit used by the partner's next debit like a
 * return's; 冲红 gives everything back. Finance approvals are POST calls with a body; exportInfo
 * reads a sheet into unsaved bills, naming bad rows, and writes nothing; without the audit button
 * approving is 403.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { multipart } from '../support/files.ts';
import { approvedBill, makeWorld, partyBalance, type World } from '../support/bills.ts';
import { formatDate } from '../../src/shared/dates.ts';

const AR = '/blade-finance/arsupplement';
const AP = '/blade-finance/apsupplement';
const RECEIPT = '/blade-finance/receipt';
const PAYMENT = '/blade-finance/payment';

interface Item {
  billId: string;
  billNo: string;
  billType: string;
  billTypeName: string;
  billAmt: string;
  openAmt: string;
}

describe.each(databases())('应收/应付调整单 ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let cash: string;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { customers: 3 });
    const methods = expectOk(await admin.get('/blade-base/settlement/retail'));
    cash = String(methods.find((m: { settlementName: string }) => m.settlementName === '现金').id);
  });
  afterAll(async () => server?.close());

  const items = async (base: string, which: 'billlist' | 'precplist', partner: string): Promise<Item[]> => expectOk(await admin.get(`${base}/${which}`, { bartererId: partner }));
  const open = async (base: string, partner: string) => (await items(base, 'billlist', partner)).map((i) => [i.billNo, i.openAmt]);
  const credits = async (base: string, partner: string) => (await items(base, 'precplist', partner)).map((i) => [i.billNo, i.openAmt]);
  const adjust = (base: string, partner: string, finalAmt: string, reasonType = '3') =>
    approvedBill(admin, base, { bartererId: partner, reasonType, finalAmt, remark: `调整${finalAmt}` }, { post: true });
  const flush = async (base: string, bill: { id: string }) => {
    const now = expectOk(await admin.get(`${base}/detail`, { id: bill.id }));
    return expectOk(await admin.post(`${base}/flush`, { id: now.id, version: now.version }), `${base}/flush`);
  };

  test('应收调整单 +10.00 raises the customer by 10.00 and is open in billlist; a receipt settles it; −3.00 is a credit the next debit uses; flush restores', async () => {
    const c = w.customers[0];
    const init = expectOk(await admin.get(`${AR}/initAdd`));
    expect(init).toMatchObject({ billType: '0857', billDate: formatDate() });

    const up = await adjust(AR, c, '10');
    expect(up).toMatchObject({ billType: '0857', billStatus: '1306', finalAmt: '10.00', reasonType: '3', bartererName: expect.stringContaining('客户') });
    expect(await partyBalance(server, 'AR', c)).toBe('10.00');
    const listed = (await items(RECEIPT, 'billlist', c))[0];
    expect(listed).toMatchObject({ billId: up.id, billNo: up.billNo, billType: '0857', billTypeName: '应收调整单', billAmt: '10.00', openAmt: '10.00' });
    const postings = expectOk(await admin.get(`${AR}/postings`, { id: up.id }));
    expect(postings.party.map((p: { kind: string; entry: string; amount: string }) => [p.kind, p.entry, Number(p.amount).toFixed(2)])).toEqual([['AR', 'post', '10.00']]);

    // A receipt of 10.00 settles it in full.
    const receipt = await approvedBill(admin, RECEIPT, { bartererId: c, settlementId: cash, precpAmt: '10', bodyList: [{ sourceBillId: up.id, settleAmt: '10' }] }, { post: true });
    expect(receipt.bodyList[0]).toMatchObject({ sourceBillNo: up.billNo, sourceBillType: '0857', openAmt: '10.00', settleAmt: '10.00' });
    expect(await open(RECEIPT, c)).toEqual([]);
    expect(await partyBalance(server, 'AR', c)).toBe('0.00');

    // −3.00 lowers the balance and is a credit, not an open bill.
    const down = await adjust(AR, c, '-3', '1');
    expect(down.finalAmt).toBe('-3.00');
    expect(await partyBalance(server, 'AR', c)).toBe('-3.00');
    expect(await open(RECEIPT, c)).toEqual([]);
    expect(await credits(RECEIPT, c)).toEqual([[down.billNo, '3.00']]);

    // The next debit (+5.00) takes the credit as it would take a return's: 2.00 stays open.
    const more = await adjust(AR, c, '5');
    expect(await open(RECEIPT, c)).toEqual([[more.billNo, '2.00']]);
    expect(await credits(RECEIPT, c)).toEqual([]);
    expect(await partyBalance(server, 'AR', c)).toBe('2.00');

    // Flushing the −3.00 gives the 3.00 back to the +5.00 bill; flushing that restores 0.00.
    const flushed = await flush(AR, down);
    expect(flushed.billStatus).toBe('1308');
    expect(await open(RECEIPT, c)).toEqual([[more.billNo, '5.00']]);
    expect(await partyBalance(server, 'AR', c)).toBe('5.00');
    await flush(AR, more);
    expect(await open(RECEIPT, c)).toEqual([]);
    expect(await partyBalance(server, 'AR', c)).toBe('0.00');
    const reversed = expectOk(await admin.get(`${AR}/postings`, { id: down.id })).party.map((p: { entry: string; amount: string }) => [p.entry, Number(p.amount).toFixed(2)]);
    expect(reversed).toEqual([
      ['post', '-3.00'],
      ['reverse', '3.00'],
    ]);
  });

  test('应付调整单 through the POST calls: +10.00 owed to the supplier, paid by a payment; −3.00 lowers it; flush restores', async () => {
    const s = w.supplierId;
    const before = await partyBalance(server, 'AP', s);
    const post = async (finalAmt: string) => {
      let bill = expectOk(await admin.post(`${AP}/submit`, { bartererId: s, reasonType: '4', finalAmt }));
      expect(bill).toMatchObject({ billType: '0858', billStatus: '1302' });
      bill = expectOk(await admin.post(`${AP}/audit`, { id: bill.id, version: bill.version, remark: '同意' }));
      expect(bill).toMatchObject({ billStatus: '1304', auditRemark: '同意' });
      return expectOk(await admin.post(`${AP}/accounting`, { id: bill.id, version: bill.version }));
    };
    const up = await post('10.00');
    expect(up).toMatchObject({ billStatus: '1306', finalAmt: '10.00' });
    expect(await partyBalance(server, 'AP', s)).toBe((Number(before) + 10).toFixed(2));
    expect((await items(PAYMENT, 'billlist', s)).find((i) => i.billId === up.id)).toMatchObject({ billTypeName: '应付调整单', openAmt: '10.00' });

    await approvedBill(admin, PAYMENT, { bartererId: s, settlementId: cash, precpAmt: '10', bodyList: [{ sourceBillId: up.id, settleAmt: '10' }] }, { post: true });
    expect((await items(PAYMENT, 'billlist', s)).find((i) => i.billId === up.id)).toBeUndefined();
    expect(await partyBalance(server, 'AP', s)).toBe(before);

    const down = await post('-3');
    expect(await partyBalance(server, 'AP', s)).toBe((Number(before) - 3).toFixed(2));
    expect((await items(PAYMENT, 'precplist', s)).find((i) => i.billId === down.id)?.openAmt).toBe('3.00');
    await flush(AP, down);
    expect(await partyBalance(server, 'AP', s)).toBe(before);
    expect((await items(PAYMENT, 'precplist', s)).find((i) => i.billId === down.id)).toBeUndefined();

    // A draft is cancelled by POST; a flushed bill cannot be flushed again.
    const draft = expectOk(await admin.post(`${AP}/draft`, { bartererId: s, reasonType: '1', finalAmt: '1' }));
    expect(expectOk(await admin.post(`${AP}/cancel`, { id: draft.id, version: draft.version, remark: '录错' })).billStatus).toBe('1307');
    const again = await admin.post(`${AP}/flush`, { id: down.id, version: Number(down.version) + 1 });
    expect(again.body.msg).toBe('单据当前状态为「已冲红」，不能冲红；只有「已记账」的单据可以冲红');
  });

  test('refusals name the field: a zero amount, no reason, no customer; nothing is written', async () => {
    const count = () => server.services.store.count(server.services.m('ar-supplement'), '000000');
    const before = await count();
    const zero = await admin.post(`${AR}/submit`, { bartererId: w.customers[1], reasonType: '1', finalAmt: '0.00' });
    expect(zero.status).toBe(400);
    expect(zero.body).toMatchObject({ msg: '调整金额必须是不为0的数字（负数表示调减）', data: { fieldErrors: { finalAmt: '调整金额必须是不为0的数字（负数表示调减）' } } });
    expect((await admin.post(`${AR}/submit`, { bartererId: w.customers[1], finalAmt: '5' })).body.msg).toBe('请选择调整原因');
    expect((await admin.post(`${AR}/submit`, { reasonType: '1', finalAmt: '5' })).body.msg).toBe('请选择客户');
    expect(await count()).toBe(before);
  });

  test('exportInfo reads a sheet into unsaved bills; unknown codes, bad or zero amounts and unknown reasons are named by row; nothing is written', async () => {
    const known = expectOk(await admin.get('/blade-base/customer/detail', { id: w.customers[0] }));
    const code = `KHTZ${Date.now() % 100000}`;
    const customer = expectOk(await admin.post('/blade-base/customer/submit', { bartererCode: code, bartererName: '调整导入客户', natureId: known.natureId, levelId: known.levelId }));
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('调整');
    sheet.addRow(['客户编码', '金额', '原因', '备注']);
    sheet.addRow([code, 12.5, '折让', '年终折让']);
    sheet.addRow(['NO-SUCH', 1, '折让', null]);
    sheet.addRow([code, 0, '尾差', null]);
    sheet.addRow([code, 'abc', '尾差', null]);
    sheet.addRow([code, -0.4, '没有这个原因', null]);
    sheet.addRow([code, '-0.40', '3', null]);
    const send = async (content: Buffer, name: string) => {
      const { body, contentType } = multipart('file', name, content, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      return admin.call('POST', `${AR}/exportInfo`, { body, headers: { 'content-type': contentType } });
    };
    const total = async () => expectOk(await admin.get(`${AR}/list`, { current: 1, size: 1 })).total;
    const before = await total();
    const read = expectOk(await send(Buffer.from(await book.xlsx.writeBuffer()), '调整.xlsx'));
    expect(read.total).toBe(6);
    expect(read.errors).toEqual([
      '第3行：客户编码「NO-SUCH」不存在',
      '第4行：金额不能为0',
      '第5行：金额「abc」不是有效数字',
      '第6行：原因「没有这个原因」不存在（可选：折让、坏账、尾差、其他）',
    ]);
    expect(read.records).toHaveLength(2);
    expect(read.records[0]).toMatchObject({ row: 2, billType: '0857', bartererId: customer.id, bartererCode: code, bartererName: '调整导入客户', reasonType: '1', finalAmt: '12.50', remark: '年终折让' });
    expect(read.records[1]).toMatchObject({ row: 7, reasonType: '3', finalAmt: '-0.40' });
    expect(await total(), 'nothing written').toBe(before);
    expect(await partyBalance(server, 'AR', customer.id)).toBe('0.00');

    // A reviewed row is submitted as it is.
    const { row: _row, ...head } = read.records[0];
    void _row;
    const bill = await approvedBill(admin, AR, head, { post: true });
    expect(bill.finalAmt).toBe('12.50');
    expect(await partyBalance(server, 'AR', customer.id)).toBe('12.50');

    const untitled = new ExcelJS.Workbook();
    untitled.addWorksheet('x').addRow(['名称', '数额']);
    const refused = await send(Buffer.from(await untitled.xlsx.writeBuffer()), 'x.xlsx');
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('第1行应为列标题：客户编码、金额、原因（可选：备注）');
    expect((await send(Buffer.from('客户编码,金额\n'), 'x.txt')).body.msg).toContain('不支持的文件类型');
  });

  test('without the audit button approving is 403; the bill stays 待审核', async () => {
    const role = expectOk(await admin.post('/blade-system/role/submit', { parentId: '0', roleName: '调整开单员', roleAlias: 'adjuster', sort: 9 }));
    const deptId = expectOk<{ id: string }[]>(await admin.get('/blade-system/dept/list'))[0].id;
    expectOk(await admin.post('/blade-user/submit', { account: 'adjuster1', password: 'Adjust-1234', realName: '开单员乙', roleId: role.id, deptId }));
    const menus = expectOk<{ id: string; code: string }[]>(await admin.get('/blade-system/menu/list', { code: 'arSupplement' }));
    const grant = menus.filter((m) => ['arSupplement', 'arSupplement_add', 'arSupplement_submit'].includes(m.code)).map((m) => m.id);
    expect(grant).toHaveLength(3);
    expectOk(await admin.call('POST', '/blade-system/role/grant', { query: { roleIds: role.id, menuIds: grant.join(',') } }));
    const clerk = await signedIn(server.url, '000000', 'adjuster1', 'Adjust-1234');
    const bill = expectOk(await clerk.post(`${AR}/submit`, { bartererId: w.customers[2], reasonType: '2', finalAmt: '-8' }), 'clerk submits');
    const approve = await clerk.post(`${AR}/audit`, { id: bill.id, version: bill.version, remark: '自审' });
    expect(approve.status).toBe(403);
    expect(expectOk(await admin.get(`${AR}/detail`, { id: bill.id })).billStatus).toBe('1302');
  });
});
