/**
 * 产品入库单 (blade-material/productinhead, bill type 0843) on SQLite and PostgreSQL: materials
 * issued to production by a 领料单 (Dr 生产成本 5001 / Cr 库存商品 1405 at their moving average)
 * come back as finished goods at the unit cost the clerk types (Dr 1405 / Cr 5001), so 生产成本
 * returns to zero and 存货 on the balance sheet never moves; pushap answers the balanced voucher;
 * 冲红 takes the goods out again (refused once they have left); drafts and cancels follow the bill
 * lifecycle; another tenant sees none of it. Figures are computed by hand in the comments.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, approvedBill, lines, makeGoods, makeWorld, stockOf, type World } from '../support/bills.ts';
import { Dec, fixed } from '../../src/shared/money/index.ts';
import { formatDate } from '../../src/shared/dates.ts';

const IN = '/blade-material/productinhead';
const USE = '/blade-material/usehead';
const SHEET = '/blade-finance/balancesheet/list';

describe.each(databases())('finished goods receipt ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let staffId: string;

  const stockLine = (goods: string, qty: string, costPrice?: string) => ({ commInfoId: goods, unitId: w.unitId, qty, ...(costPrice !== undefined ? { costPrice } : {}) });

  /** Σ of the general ledger on one account (debit-signed), over every bill or the given ones. */
  async function account(code: string, billIds?: string[]) {
    const rows = await server.services.store.find(server.services.internal.glEntry, '000000', { where: { account: code, ...(billIds ? { billId: billIds } : {}) } });
    return fixed(
      rows.reduce((s, r) => s.plus(String(r.amount)), new Dec(0)),
      2,
    );
  }
  async function inventoryLine() {
    const sheet = expectOk(await admin.get(SHEET, { reportDate: formatDate() })).records as { id: string; endAmt: string }[];
    return sheet.find((r) => r.id === 'inventory')!.endAmt;
  }

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1 });
    const deptId = expectOk<{ id: string }[]>(await admin.get('/blade-system/dept/list'))[0].id;
    staffId = String(expectOk(await admin.post('/blade-base/staff/submit', { staffCode: `CP${Date.now() % 1000000}`, staffName: '车间主任李四', deptId })).id);
  });
  afterAll(async () => server?.close());

  test('materials issued at 3.00 (5001 +30.00) come back as 2 finished goods at 15.00: stock +2 worth 30.00, 5001 back to 0.00, 存货 unchanged; pushap balances; 冲红 restores', async () => {
    const depot = w.depots[0];
    const material = await makeGoods(admin, w.unitId, '原材料甲');
    const product = await makeGoods(admin, w.unitId, '产成品乙');
    // 10 @ 3.00 tax-exclusive: 1405 +30.00.
    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: depot, bodyList: lines(w, [{ goods: material, qty: '10', purchasePrice: '3.00' }]) }, { post: true });
    const sheetBefore = await inventoryLine();
    const use = await approvedBill(admin, USE, { staffId, depotId: depot, bodyList: [stockLine(material, '10')] }, { post: true });
    expect(use.costAmt).toBe('30.00');
    expect(await account('5001')).toBe('30.00');
    expect(await inventoryLine(), '1405 → 5001: 存货 unchanged').toBe(sheetBefore);

    // No unit cost: refused naming the field, nothing written.
    const noCost = await admin.post(`${IN}/submit`, { depotId: depot, staffId, bodyList: [stockLine(product, '2')] });
    expect(noCost.status).toBe(400);
    expect(noCost.body.msg).toContain('请输入成本单价');
    // A cost amount that is not quantity × unit cost is refused.
    const wrong = await admin.post(`${IN}/submit`, { depotId: depot, staffId, bodyList: [{ ...stockLine(product, '2', '15'), costAmt: '31.00' }] });
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe('第1行：成本金额应为 30.00，提交的是 31.00（请刷新金额后重试）');

    const submitted = expectOk(await admin.post(`${IN}/submit`, { depotId: depot, staffId, remark: '一车间完工', bodyList: [stockLine(product, '2', '15')] }));
    expect(submitted).toMatchObject({ billStatus: '1302', billType: '0843', totalQty: '2.00', costAmt: '30.00', staffName: '车间主任李四' });
    expect(submitted.billNo).toMatch(/\d{8}/);
    expect(submitted.bodyList[0]).toMatchObject({ commInfoId: product, qty: '2.00', costPrice: '15.00000', costAmt: '30.00', commInfoName: '产成品乙' });
    const passed = expectOk(await admin.get(`${IN}/pass`, { id: submitted.id, version: submitted.version, remark: '同意' }));
    const posted = expectOk(await admin.post(`${IN}/accounting`, { id: passed.id, version: passed.version }));
    expect(posted).toMatchObject({ billStatus: '1306', costAmt: '30.00' });

    expect(await stockOf(server, depot, product)).toMatchObject({ qty: '2.00', value: '30.00' });
    expect(await stockOf(server, depot, material)).toMatchObject({ qty: '0.00', value: '0.00' });
    const postings = expectOk(await admin.get(`${IN}/postings`, { id: posted.id }));
    expect(postings.party).toEqual([]);
    expect(postings.stock.map((r: { qty: string; value: string; commInfoName: string }) => [r.commInfoName, Number(r.qty), Number(r.value)])).toEqual([['产成品乙', 2, 30]]);
    // Dr 库存商品 30.00 / Cr 生产成本 30.00: 5001 is back to zero, 存货 (1402 + 1405 + 5001) has not moved.
    expect([await account('1405', [posted.id]), await account('5001', [posted.id])]).toEqual(['30.00', '-30.00']);
    expect(await account('5001')).toBe('0.00');
    expect(await inventoryLine()).toBe(sheetBefore);

    const pushed = expectOk(await admin.get(`${IN}/pushap`, { id: posted.id }));
    expect(pushed).toHaveLength(1);
    expect(pushed[0]).toMatchObject({ voucherNo: `PZ${posted.billNo}`, entry: 'post', billType: '0843', debitAmt: '30.00', creditAmt: '30.00' });
    expect(pushed[0].lines.map((l: { account: string; accountName: string; debit: string; credit: string }) => [l.account, l.accountName, l.debit, l.credit]).sort()).toEqual([
      ['1405', '库存商品', '30.00', '0'],
      ['5001', '生产成本', '0', '30.00'],
    ]);
    expect((await admin.get(`${IN}/pushap`, { id: posted.id })).body.msg).toBe('凭证已推送');

    // 冲红: the finished goods leave at the value they came in with; 5001 holds the materials again.
    const flushed = expectOk(await admin.get(`${IN}/flush`, { id: posted.id, version: posted.version }));
    expect(flushed.billStatus).toBe('1308');
    expect(await stockOf(server, depot, product)).toMatchObject({ qty: '0.00', value: '0.00' });
    expect(await account('5001')).toBe('30.00');
    const reversal = expectOk(await admin.get(`${IN}/pushap`, { id: posted.id }));
    expect(reversal).toMatchObject([{ voucherNo: `PZ${posted.billNo}-R`, entry: 'reverse', debitAmt: '30.00', creditAmt: '30.00' }]);
    const history = expectOk(await admin.get(`${IN}/history`, { id: posted.id }));
    expect(history.map((h: { action: string }) => h.action)).toEqual(['submit', 'pass', 'accounting', 'flush']);
  });

  test('冲红 is refused once the finished goods have left; a draft can be cancelled; list, detail and productinbody/list find the bill', async () => {
    const depot = w.depots[0];
    const product = await makeGoods(admin, w.unitId, '产成品丙');
    const posted = await approvedBill(admin, IN, { depotId: depot, staffId, bodyList: [stockLine(product, '3', '7.5')] }, { post: true });
    expect(posted.costAmt).toBe('22.50');
    // 2 of the 3 leave by a requisition at the average 7.50: 15.00.
    const use = await approvedBill(admin, USE, { staffId, depotId: depot, bodyList: [stockLine(product, '2')] }, { post: true });
    expect(use.costAmt).toBe('15.00');
    expect(await stockOf(server, depot, product)).toMatchObject({ qty: '1.00', value: '7.50' });
    const refused = await admin.get(`${IN}/flush`, { id: posted.id, version: posted.version });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toMatch(/^冲红后库存将为负数，不能冲红：第1行 商品「产成品丙」在仓库「仓库.*」缺少 2$/);
    expect(expectOk(await admin.get(`${IN}/detail`, { id: posted.id })).billStatus).toBe('1306');

    const draft = expectOk(await admin.post(`${IN}/draft`, { depotId: depot, bodyList: [stockLine(product, '1', '8')] }));
    expect(draft).toMatchObject({ billStatus: '1301', costAmt: '8.00' });
    const cancelled = expectOk(await admin.get(`${IN}/cancel`, { id: draft.id, version: draft.version, remark: '录错了' }));
    expect(cancelled.billStatus).toBe('1307');
    const noPost = await admin.post(`${IN}/accounting`, { id: cancelled.id, version: cancelled.version });
    expect(noPost.body.msg).toContain('单据当前状态为「已作废」，不能记账');
    expect((await admin.get(`${IN}/pushap`, { id: cancelled.id })).body.msg).toBe('单据未记账，没有可推送的凭证');

    const listed = expectOk(await admin.get(`${IN}/list`, { billNo: posted.billNo, current: 1, size: 10 }));
    expect(listed.total).toBe(1);
    // Lists answer stored figures (22.5), the detail and actions at the tenant's places (22.50).
    expect(listed.records[0]).toMatchObject({ id: posted.id, billStatus: '1306', depotName: expect.stringContaining('仓库') });
    expect(Number(listed.records[0].costAmt)).toBe(22.5);
    const body = expectOk(await admin.get('/blade-material/productinbody/list', { headId_equal: posted.id, current: 1, size: 10 })).records;
    expect(body.map((l: { qty: string; costAmt: string }) => [Number(l.qty), Number(l.costAmt)])).toEqual([[3, 22.5]]);

    // Another tenant: not in its list, no detail, no voucher, no flush.
    const other = await signedIn(server.url, '100001');
    expect(expectOk(await other.get(`${IN}/list`, { current: 1, size: 10 })).total).toBe(0);
    expect(expectOk(await other.get(`${IN}/detail`, { id: posted.id }))).toBeNull();
    expect((await other.get(`${IN}/pushap`, { id: posted.id })).body.success).toBe(false);
    expect((await other.get(`${IN}/flush`, { id: posted.id, version: posted.version })).body.success).toBe(false);
    expect(expectOk(await other.get('/blade-material/productinbody/list', { headId_equal: posted.id, current: 1, size: 10 })).total).toBe(0);
  });
});
