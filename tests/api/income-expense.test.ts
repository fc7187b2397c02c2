/**
 * 收支单 (exinhead, lines exinbody) on SQLite and PostgreSQL: one bill in three kinds told apart by
 * expendType (6002 费用单 0855, 6001 其他收入单 0856, 6003 报销单 0859), each numbered on its own.
 * initAdd answers a kind's defaults; draft → edit → audit → accounting → flush with totals summed
 * exactly from the lines; the Chinese messages of missing fields, bad kinds and items of the wrong
 * kind; a paid bill posts no party row, a bill on account (挂账) posts AP to its supplier (or AR to
 * its customer) as an open bill a payment (receipt) settles, and a flush takes it back.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { makeWorld, partyBalance, type World } from '../support/bills.ts';
import { Dec } from '../../src/shared/money/index.ts';

const EXIN = '/blade-finance/exinhead';
const PAYMENT = '/blade-finance/payment';
const RECEIPT = '/blade-finance/receipt';

type Bill = Record<string, any>;

describe.each(databases())('收支单: 费用单, 其他收入单, 报销单 ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let cash: string;
  let staffId: string;
  const item: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { customers: 1 });
    const methods = expectOk(await admin.get('/blade-base/settlement/retail'));
    cash = String(methods.find((m: { settlementName: string }) => m.settlementName === '现金').id);
    const items = expectOk(await admin.get('/blade-base/exinitem/select', { current: 1, size: 100 })).records as { id: string; expendName: string }[];
    for (const i of items) item[i.expendName] = i.id;
    const deptId = expectOk<{ id: string }[]>(await admin.get('/blade-system/dept/list'))[0].id;
    const me = expectOk(await admin.get('/blade-user/info'));
    staffId = String(expectOk(await admin.post('/blade-base/staff/submit', { staffCode: `CW${Date.now() % 1000000}`, staffName: '出纳王五', deptId, isUser: 2, userId: me.id })).id);
  });
  afterAll(async () => server?.close());

  const line = (name: string, amount: string, remark?: string) => ({ expendId: item[name], amount, ...(remark ? { remark } : {}) });
  const expense = (lines: ReturnType<typeof line>[], extra: Bill = {}) => ({ expendType: 6002, settlementId: cash, bodyList: lines, ...extra });
  const approve = async (bill: Bill) => expectOk(await admin.post(`${EXIN}/audit`, { id: bill.id, version: bill.version, remark: '同意' }), 'audit');
  const post = async (bill: Bill) => expectOk(await admin.post(`${EXIN}/accounting`, { id: bill.id, version: bill.version }), 'accounting');
  const posted = async (body: Bill) => post(await approve(expectOk(await admin.post(`${EXIN}/submit`, body), 'submit')));
  const refusal = async (body: Bill) => {
    const reply = await admin.post(`${EXIN}/submit`, body);
    expect(reply.status).toBe(400);
    return String(reply.body.msg);
  };

  test('the seeded items: 费用单 takes 房租 and 水电费 (支出), 其他收入单 利息收入 and 租金收入 (收入), 报销单 差旅费 (费用报销)', async () => {
    const kinds = expectOk(await admin.get('/blade-base/exinitem/select', { expendType: 6002, size: 100 })).records.map((r: Bill) => r.expendName);
    expect(kinds).toEqual(expect.arrayContaining(['房租', '水电费', '工资', '办公费', '运输费', '其他费用']));
    expect(kinds).not.toContain('租金收入');
    const income = expectOk(await admin.get('/blade-base/exinitem/select', { expendType: 6001, size: 100 })).records.map((r: Bill) => r.expendName);
    expect(income).toEqual(expect.arrayContaining(['利息收入', '租金收入', '废品收入', '其他收入']));
    const claims = expectOk(await admin.get('/blade-base/exinitem/select', { expendType: 6003, size: 100 })).records.map((r: Bill) => r.expendName);
    expect(claims).toEqual(expect.arrayContaining(['差旅费']));
  });

  test('initAdd answers each kind its bill type, today and the caller as 经办人, writing nothing', async () => {
    const before = expectOk(await admin.get(`${EXIN}/list`, { current: 1, size: 1 })).total;
    const plain = expectOk(await admin.get(`${EXIN}/initAdd`));
    expect(plain).toMatchObject({ expendType: 6002, billType: '0855', staffId, staffName: '出纳王五', bodyList: [] });
    expect(plain.billDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(plain.id).toBeUndefined();
    expect(expectOk(await admin.get(`${EXIN}/initAdd`, { expendType: 6001 }))).toMatchObject({ expendType: 6001, billType: '0856' });
    expect(expectOk(await admin.get(`${EXIN}/initAdd`, { expendType: '6003' }))).toMatchObject({ expendType: 6003, billType: '0859' });
    expect(expectOk(await admin.get(`${EXIN}/list`, { current: 1, size: 1 })).total).toBe(before);
  });

  test('费用单 房租 1,200.00 + 水电费 86.50 = 1,286.50: draft, edit, audit, accounting (no party row), flush', async () => {
    const init = expectOk(await admin.get(`${EXIN}/initAdd`));
    const draft = expectOk(await admin.post(`${EXIN}/draft`, { ...init, settlementId: cash, remark: '十一月房租水电', bodyList: [line('房租', '1200'), line('水电费', '86.5', '电费')] }));
    expect(draft).toMatchObject({ billStatus: '1301', billType: '0855', expendType: 6002, finalAmt: '1286.50', totalAmt: '1286.50', settlementName: '现金', staffName: '出纳王五', onAccount: 1 });
    expect(draft.bodyList.map((l: Bill) => [l.expendName, l.amount, l.remark ?? ''])).toEqual([
      ['房租', '1200.00', ''],
      ['水电费', '86.50', '电费'],
    ]);
    // edit is the catalogue's re-submit of a saved draft: a third line, and it is 待审核.
    const edited = expectOk(await admin.post(`${EXIN}/edit`, { ...draft, bodyList: [...draft.bodyList, line('办公费', '13.49')] }));
    expect(edited).toMatchObject({ id: draft.id, billNo: draft.billNo, billStatus: '1302', finalAmt: '1299.99' });
    const stale = await admin.post(`${EXIN}/audit`, { id: edited.id, version: draft.version, remark: '同意' });
    expect(stale.body.success).toBe(false);
    expect(stale.body.msg).toMatch(/^单据已被.+于\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}修改（当前状态：待审核），请刷新后重试$/);
    const audited = await approve(edited);
    expect(audited).toMatchObject({ billStatus: '1304', auditRemark: '同意' });
    const done = await post(audited);
    expect(done).toMatchObject({ billStatus: '1306', finalAmt: '1299.99' });
    expect(expectOk(await admin.get(`${EXIN}/postings`, { id: done.id }))).toEqual({ stock: [], party: [] });
    const again = await admin.post(`${EXIN}/accounting`, { id: done.id, version: done.version });
    expect(again.body.msg).toBe('单据当前状态为「已记账」，不能记账；只有「已审核」的单据可以记账');
    const flushed = expectOk(await admin.post(`${EXIN}/flush`, { id: done.id, version: done.version }));
    expect(flushed.billStatus).toBe('1308');
    const history = expectOk(await admin.get(`${EXIN}/history`, { id: done.id })).map((h: Bill) => h.action);
    expect(history).toEqual(['draft', 'submit', 'pass', 'accounting', 'flush']);
    const detail = expectOk(await admin.get(`${EXIN}/detail`, { id: done.id }));
    expect(detail).toMatchObject({ billStatus: '1308', finalAmt: '1299.99', expendType: 6002 });
    expect(detail.bodyList.map((l: Bill) => l.amount)).toEqual(['1200.00', '86.50', '13.49']);
  });

  test('each kind numbers on its own and the list filters by kind', async () => {
    const out = await posted(expense([line('工资', '3000')]));
    const inc = await posted({ expendType: 6001, settlementId: cash, bodyList: [line('利息收入', '12.34')] });
    const claim = await posted({ expendType: 6003, settlementId: cash, staffId, bodyList: [line('差旅费', '456.7')] });
    expect([out.billType, inc.billType, claim.billType]).toEqual(['0855', '0856', '0859']);
    // Each kind has its own rule: prefix + yyyyMMdd + serial.
    expect(new Set([out.billNo, inc.billNo, claim.billNo].map((n: string) => n.slice(0, -12))).size).toBe(3);
    expect(claim).toMatchObject({ finalAmt: '456.70', staffName: '出纳王五' });
    const listed = async (kind: number) => expectOk(await admin.get(`${EXIN}/list`, { expendType: kind, current: 1, size: 200 })).records.map((r: Bill) => r.id);
    expect(await listed(6001)).toContain(inc.id);
    expect(await listed(6001)).not.toContain(out.id);
    expect(await listed(6002)).toContain(out.id);
    expect(await listed(6003)).toEqual([claim.id]);
    const row = expectOk(await admin.get(`${EXIN}/list`, { billNo: inc.billNo })).records[0];
    expect(row).toMatchObject({ billNo: inc.billNo, expendType: 6001, finalAmt: '12.34', settlementName: '现金', billStatus: '1306' });
  });

  test('missing and wrong fields are refused in Chinese, naming the field and line', async () => {
    const ok = [line('房租', '10')];
    expect(await refusal({ settlementId: cash, bodyList: ok })).toContain('请选择收支类型');
    expect(await refusal({ expendType: 6009, settlementId: cash, bodyList: ok })).toContain('收支类型只能是收入(6001)、支出(6002)、费用报销(6003)');
    expect(await refusal({ expendType: 6002, bodyList: ok })).toContain('请选择结算方式');
    expect(await refusal(expense([]))).toBe('请添加收支项目明细');
    expect(await refusal(expense([{ expendId: item['房租'] } as ReturnType<typeof line>]))).toBe('第1条：请输入金额');
    expect(await refusal(expense([{ amount: '5' } as ReturnType<typeof line>]))).toBe('第1条：请选择收支项目');
    expect(await refusal(expense([line('房租', '10'), line('水电费', '0')]))).toBe('第2行：金额必须大于0');
    expect(await refusal(expense([line('房租', 'abc')]))).toContain('金额必须是数字');
    expect(await refusal(expense([line('房租', '10'), line('租金收入', '5')]))).toBe('第2行：收支项目「租金收入」的收支类型是「收入」，本单是「支出」');
    expect(await refusal({ expendType: 6001, settlementId: cash, bodyList: [line('房租', '1')] })).toBe('第1行：收支项目「房租」的收支类型是「支出」，本单是「收入」');
    expect(await refusal(expense(ok, { expendType: 6003 }))).toBe('第1行：收支项目「房租」的收支类型是「支出」，本单是「费用报销」');
    expect(await refusal(expense(ok, { onAccount: 2, settlementId: undefined }))).toContain('挂账的费用单请选择供应商');
    expect(await refusal({ expendType: 6001, onAccount: 2, bodyList: [line('租金收入', '1')] })).toContain('挂账的其他收入单请选择客户');
    expect(await refusal(expense(ok, { onAccount: 3 }))).toContain('挂账只能是否(1)、是(2)');
    const draft = expectOk(await admin.post(`${EXIN}/draft`, expense(ok)));
    const changed = await admin.post(`${EXIN}/submit`, { ...draft, expendType: 6001, bodyList: [line('租金收入', '1')] });
    expect(changed.body.msg).toBe('已保存的费用单不能改为其他收入单');
    expect(expectOk(await admin.get(`${EXIN}/detail`, { id: draft.id })).billStatus).toBe('1301');
  });

  test('费用单 on account: the supplier is owed 1,286.50, listed by the payment’s billlist; a payment of 286.50 leaves 1,000.00; flush restores', async () => {
    const supplier = w.supplierId;
    const before = await partyBalance(server, 'AP', supplier);
    const bill = await posted(expense([line('房租', '1200'), line('水电费', '86.50')], { onAccount: 2, supplierId: supplier, settlementId: undefined }));
    expect(bill).toMatchObject({ billStatus: '1306', finalAmt: '1286.50', onAccount: 2, supplierName: expect.stringContaining('供应商') });
    expect(await partyBalance(server, 'AP', supplier)).toBe(new Dec(before).plus('1286.50').toFixed(2));
    const party = expectOk(await admin.get(`${EXIN}/postings`, { id: bill.id })).party;
    expect(party.map((r: Bill) => [r.kind, r.partyId, r.billType, r.entry, Number(r.amount)])).toEqual([['AP', supplier, '0855', 'post', 1286.5]]);
    const open = expectOk(await admin.get(`${PAYMENT}/billlist`, { bartererId: supplier })).find((i: Bill) => i.billId === bill.id);
    expect(open).toMatchObject({ billNo: bill.billNo, billType: '0855', billTypeName: '费用单', openAmt: '1286.50' });

    const pay = await approvedPayment(supplier, '286.50', bill.id);
    expect(pay.billStatus).toBe('1306');
    const left = expectOk(await admin.get(`${PAYMENT}/billlist`, { bartererId: supplier })).find((i: Bill) => i.billId === bill.id);
    expect(left.openAmt).toBe('1000.00');
    expect(await partyBalance(server, 'AP', supplier)).toBe(new Dec(before).plus('1000.00').toFixed(2));

    expectOk(await admin.post(`${EXIN}/flush`, { id: bill.id, version: bill.version }));
    expect(expectOk(await admin.get(`${PAYMENT}/billlist`, { bartererId: supplier })).find((i: Bill) => i.billId === bill.id)).toBeUndefined();
    // The payment's 286.50 is unapplied again: the supplier's balance is the old one less it.
    expect(await partyBalance(server, 'AP', supplier)).toBe(new Dec(before).minus('286.50').toFixed(2));
    const credit = expectOk(await admin.get(`${PAYMENT}/precplist`, { bartererId: supplier })).find((i: Bill) => i.billId === pay.id);
    expect(credit.openAmt).toBe('286.50');
  });

  test('其他收入单 on account: the customer owes 320.00, listed by the receipt’s billlist; a paid one and a 报销单 write no party row', async () => {
    const customer = w.customers[0];
    const before = await partyBalance(server, 'AR', customer);
    const bill = await posted({ expendType: 6001, onAccount: 2, customerId: customer, bodyList: [line('租金收入', '300'), line('废品收入', '20')] });
    expect(bill).toMatchObject({ billType: '0856', finalAmt: '320.00', customerName: expect.stringContaining('客户') });
    expect(await partyBalance(server, 'AR', customer)).toBe(new Dec(before).plus('320').toFixed(2));
    const open = expectOk(await admin.get(`${RECEIPT}/billlist`, { bartererId: customer })).find((i: Bill) => i.billId === bill.id);
    expect(open).toMatchObject({ billType: '0856', billTypeName: '其他收入单', openAmt: '320.00' });
    expectOk(await admin.post(`${EXIN}/flush`, { id: bill.id, version: bill.version }));
    expect(await partyBalance(server, 'AR', customer)).toBe(before);

    // Paid on the spot, with the customer named: recorded as posted, nothing owed.
    const paid = await posted({ expendType: 6001, customerId: customer, settlementId: cash, bodyList: [line('租金收入', '50')] });
    expect(expectOk(await admin.get(`${EXIN}/postings`, { id: paid.id })).party).toEqual([]);
    // A claim is reimbursed to a staff member, never on account.
    const claim = await posted({ expendType: 6003, onAccount: 2, staffId, settlementId: cash, bodyList: [line('差旅费', '88')] });
    expect(expectOk(await admin.get(`${EXIN}/postings`, { id: claim.id })).party).toEqual([]);
    expect(await partyBalance(server, 'AR', customer)).toBe(before);
  });

  async function approvedPayment(supplier: string, amount: string, billId: string) {
    let p = expectOk(await admin.post(`${PAYMENT}/submit`, { bartererId: supplier, settlementId: cash, precpAmt: amount, bodyList: [{ sourceBillId: billId, settleAmt: amount }] }), 'payment');
    p = expectOk(await admin.get(`${PAYMENT}/pass`, { id: p.id, version: p.version, remark: '同意' }), 'payment pass');
    return expectOk(await admin.post(`${PAYMENT}/accounting`, { id: p.id, version: p.version }), 'payment accounting');
  }
});
