/**
 * 成本调整单 (blade-finance/costhead, lines /fi-cost-body/costbody, bill type 0861) on SQLite and
 * PostgreSQL: posting changes the stock VALUE of goods in a warehouse, never the quantity (value-only
 * stock rows, posting.valueField adjustAmt), so the moving-average unit cost follows; the voucher is
 * Dr 库存商品 1405 / Cr 主营业务成本 6401 for a raise (the reverse for a lowering), so 利润表's 营业成本
 * shows the difference; pushap answers the balanced voucher; 冲红 restores the value. Refused: a
 * lowering that would leave the value below zero, goods that never moved in the warehouse, a zero
 * amount. costbody submit/remove edit a draft's lines through the bill (totals follow) and are
 * refused on a bill past draft. Another tenant sees none of it. Figures computed by hand.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, approvedBill, lines, makeGoods, makeWorld, stockOf, type World } from '../support/bills.ts';
import { Dec, fixed } from '../../src/shared/money/index.ts';
import { formatDate } from '../../src/shared/dates.ts';

const COST = '/blade-finance/costhead';
const BODY = '/fi-cost-body/costbody';
const PROFIT = '/blade-finance/profitstatement/list';

describe.each(databases())('stock cost adjustment ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;

  const adjust = (goods: string, qty: string, adjustAmt: string, depotId?: string) => ({ commInfoId: goods, unitId: w.unitId, qty, adjustAmt, ...(depotId ? { depotId } : {}) });
  /** Goods received into a warehouse: qty @ price tax-exclusive. */
  const received = async (goods: string, depotId: string, qty: string, price: string) =>
    approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId, bodyList: lines(w, [{ goods, qty, purchasePrice: price }]) }, { post: true });
  const unitCost = async (depotId: string, goods: string) => Number((await server.services.store.find(server.services.internal.stockBalance, '000000', { where: { depotId, commInfoId: goods } }))[0].unitCost);
  async function account(code: string, billIds?: string[]) {
    const rows = await server.services.store.find(server.services.internal.glEntry, '000000', { where: { account: code, ...(billIds ? { billId: billIds } : {}) } });
    return fixed(
      rows.reduce((s, r) => s.plus(String(r.amount)), new Dec(0)),
      2,
    );
  }
  async function costOfSales() {
    const today = formatDate();
    const rows = expectOk(await admin.get(PROFIT, { billDateStart: `${today.slice(0, 7)}-01 00:00:00`, billDateEnd: `${today} 23:59:59` })).records as { id: string; periodAmt: string }[];
    return rows.find((r) => r.id === 'cost')!.periodAmt;
  }

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1, depots: 2 });
  });
  afterAll(async () => server?.close());

  test('+4.00 on 10 units worth 50.00: value 54.00, quantity 10, unit cost 5.40; 主营业务成本 −4.00; pushap balances; a sale leaves at 5.40; 冲红 takes the 4.00 back', async () => {
    const depot = w.depots[0];
    const g = await makeGoods(admin, w.unitId, '调价商品甲');
    await received(g, depot, '10', '5.00');
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '10.00', value: '50.00' });
    expect(await costOfSales()).toBe('0.00');

    const submitted = expectOk(await admin.post(`${COST}/submit`, { depotId: depot, remark: '补记加工费', bodyList: [adjust(g, '10', '4')] }));
    expect(submitted).toMatchObject({ billStatus: '1302', billType: '0861', adjustAmt: '4.00', totalQty: '10.00' });
    expect(submitted.bodyList[0]).toMatchObject({ commInfoId: g, adjustAmt: '4.00', qty: '10.00', commInfoName: '调价商品甲' });
    const passed = expectOk(await admin.get(`${COST}/pass`, { id: submitted.id, version: submitted.version, remark: '同意' }));
    const posted = expectOk(await admin.get(`${COST}/accountingById`, { id: passed.id, version: passed.version }));
    expect(posted).toMatchObject({ billStatus: '1306', costAmt: '4.00' });
    // The line's cost is the adjustment; per unit 4.00 / 10 = 0.40.
    expect(posted.bodyList[0]).toMatchObject({ costAmt: '4.00', costPrice: '0.40000' });

    expect(await stockOf(server, depot, g), 'value moves, quantity does not').toMatchObject({ qty: '10.00', value: '54.00' });
    expect(await unitCost(depot, g)).toBe(5.4);
    const postings = expectOk(await admin.get(`${COST}/postings`, { id: posted.id }));
    expect(postings.stock.map((r: { qty: string; value: string }) => [Number(r.qty), Number(r.value)])).toEqual([[0, 4]]);
    // Dr 库存商品 4.00 / Cr 主营业务成本 4.00.
    expect([await account('1405', [posted.id]), await account('6401', [posted.id])]).toEqual(['4.00', '-4.00']);
    expect(await costOfSales()).toBe('-4.00');

    const pushed = expectOk(await admin.get(`${COST}/pushap`, { id: posted.id }));
    expect(pushed).toHaveLength(1);
    expect(pushed[0]).toMatchObject({ voucherNo: `PZ${posted.billNo}`, entry: 'post', billType: '0861', debitAmt: '4.00', creditAmt: '4.00' });
    expect(pushed[0].lines.map((l: { account: string; accountName: string; debit: string; credit: string }) => [l.account, l.accountName, l.debit, l.credit]).sort()).toEqual([
      ['1405', '库存商品', '4.00', '0'],
      ['6401', '主营业务成本', '0', '4.00'],
    ]);

    // A sale of 5 now leaves at 5.40: 27.00.
    const sale = await approvedBill(admin, BASES.salesOut, { customerId: w.customers[0], depotId: depot, bodyList: lines(w, [{ goods: g, qty: '5', taxPrice: '11.30' }]) }, { post: true });
    expect(sale.costAmt).toBe('27.00');
    expect(await costOfSales()).toBe('23.00');
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '5.00', value: '27.00' });

    // 冲红 takes the 4.00 back (what was sold is not re-costed): 27.00 − 4.00 = 23.00 for 5, 4.60 each.
    const flushed = expectOk(await admin.post(`${COST}/flush`, { id: posted.id, version: posted.version }));
    expect(flushed.billStatus).toBe('1308');
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '5.00', value: '23.00' });
    expect(await unitCost(depot, g)).toBe(4.6);
    expect(await costOfSales()).toBe('27.00');
    expect(await account('6401', [posted.id])).toBe('0.00');
    const reversal = expectOk(await admin.get(`${COST}/pushap`, { id: posted.id }));
    expect(reversal).toMatchObject([{ voucherNo: `PZ${posted.billNo}-R`, entry: 'reverse', debitAmt: '4.00', creditAmt: '4.00' }]);
    expect((await admin.get(`${COST}/flush`, { id: flushed.id, version: flushed.version })).body.msg).toContain('只有「已记账」的单据可以冲红');
  });

  test('a lowering of 2.50 (a line naming another warehouse than the head) and the refusals: below zero value, goods never in the warehouse, zero amount', async () => {
    const [d0, d1] = w.depots;
    const g = await makeGoods(admin, w.unitId, '调价商品乙');
    await received(g, d1, '4', '2.00');
    // Head warehouse d0, line warehouse d1: the line's wins. 8.00 − 2.50 = 5.50 for 4, 1.375 each.
    const lowered = await approvedBill(admin, COST, { depotId: d0, bodyList: [adjust(g, '4', '-2.5', d1)] }, { post: true });
    expect(lowered).toMatchObject({ billStatus: '1306', adjustAmt: '-2.50', costAmt: '-2.50' });
    expect(await stockOf(server, d1, g)).toMatchObject({ qty: '4.00', value: '5.50' });
    expect(await unitCost(d1, g)).toBe(1.375);
    // Dr 主营业务成本 2.50 / Cr 库存商品 2.50.
    expect([await account('1405', [lowered.id]), await account('6401', [lowered.id])]).toEqual(['-2.50', '2.50']);

    // Lowering 6.00 from 5.50: refused naming line, goods, warehouse and figures; nothing written.
    const tooMuch = await approvedBill(admin, COST, { depotId: d1, bodyList: [adjust(g, '4', '-6')] });
    const refused = await admin.post(`${COST}/accounting`, { id: tooMuch.id, version: tooMuch.version });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toMatch(/^不能调整库存金额：第1行 商品「调价商品乙」在仓库「仓库.*」结存数量 4、结存金额 5\.50，调减 6\.00 后库存金额将为负数$/);
    expect(expectOk(await admin.get(`${COST}/detail`, { id: tooMuch.id })).billStatus).toBe('1304');
    expect(await stockOf(server, d1, g)).toMatchObject({ qty: '4.00', value: '5.50' });

    // The goods never moved in d0: nothing to adjust there.
    const nowhere = await approvedBill(admin, COST, { depotId: d0, bodyList: [adjust(g, '1', '1')] });
    const none = await admin.post(`${COST}/accounting`, { id: nowhere.id, version: nowhere.version });
    expect(none.body.msg).toMatch(/^不能调整库存金额：第1行 商品「调价商品乙」在仓库「仓库.*」没有库存，不能调整成本$/);
    expect(await stockOf(server, d0, g)).toMatchObject({ qty: '0.00', value: '0.00', rows: 0 });

    const zero = await admin.post(`${COST}/submit`, { depotId: d1, bodyList: [adjust(g, '4', '0.00')] });
    expect(zero.status).toBe(400);
    expect(zero.body.msg).toContain('调整金额必须是不为0的数字（正数调增、负数调减）');
    const noAmount = await admin.post(`${COST}/submit`, { depotId: d1, bodyList: [{ commInfoId: g, unitId: w.unitId, qty: '1' }] });
    expect(noAmount.body.msg).toContain('请输入调整金额');
    const noDepot = await admin.post(`${COST}/submit`, { bodyList: [adjust(g, '4', '1')] });
    expect(noDepot.body.msg).toContain('请选择仓库');
  });

  test('costbody CRUD edits a draft through its bill (totals and version follow); a bill past draft refuses; cancel; another tenant sees nothing', async () => {
    const depot = w.depots[0];
    const [a, b] = [await makeGoods(admin, w.unitId, '调价商品丙'), await makeGoods(admin, w.unitId, '调价商品丁')];
    await received(a, depot, '2', '1.00');
    await received(b, depot, '3', '1.00');
    const draft = expectOk(await admin.post(`${COST}/draft`, { depotId: depot, bodyList: [adjust(a, '2', '1')] }));
    expect(draft).toMatchObject({ billStatus: '1301', adjustAmt: '1.00' });

    // Add a line: the bill is saved again, its total is 1.00 + 0.60.
    const added = expectOk(await admin.post(`${BODY}/submit`, { headId: draft.id, ...adjust(b, '3', '0.6') }));
    expect(added).toMatchObject({ headId: draft.id, commInfoId: b, adjustAmt: '0.60', commInfoName: '调价商品丁' });
    let head = expectOk(await admin.get(`${COST}/detail`, { id: draft.id }));
    expect(head).toMatchObject({ billStatus: '1301', adjustAmt: '1.60', version: draft.version + 1 });
    const listed = expectOk(await admin.get(`${BODY}/list`, { headId_equal: draft.id, current: 1, size: 10 }));
    expect(listed.records.map((l: { commInfoId: string; adjustAmt: string }) => [l.commInfoId, Number(l.adjustAmt)])).toEqual([
      [a, 1],
      [b, 0.6],
    ]);
    expect(expectOk(await admin.get(`${BODY}/detail`, { id: added.id }))).toMatchObject({ id: added.id, headId: draft.id, commInfoId: b });

    // Change it, then remove the first line.
    const changed = expectOk(await admin.post(`${BODY}/submit`, { id: added.id, adjustAmt: '-0.25' }));
    expect(changed).toMatchObject({ id: added.id, adjustAmt: '-0.25', qty: '3.00' });
    const bad = await admin.post(`${BODY}/submit`, { id: added.id, adjustAmt: '0' });
    expect(bad.body.msg).toContain('调整金额必须是不为0的数字');
    expect(expectOk(await admin.get(`${COST}/detail`, { id: draft.id })).adjustAmt).toBe('0.75');
    expectOk(await admin.post(`${BODY}/remove`, undefined, { ids: head.bodyList[0].id }));
    head = expectOk(await admin.get(`${COST}/detail`, { id: draft.id }));
    expect(head.bodyList.map((l: { id: string }) => l.id)).toEqual([added.id]);
    expect(head.adjustAmt).toBe('-0.25');
    const last = await admin.post(`${BODY}/remove`, undefined, { ids: added.id });
    expect(last.body.msg).toBe('单据至少要保留一行明细；不需要这张单据时请作废');
    expect((await admin.post(`${BODY}/submit`, adjust(a, '1', '1'))).body.msg).toBe('请指定明细所属的单据（headId）');

    // Submitted, then posted: the lines no longer change.
    const submitted = expectOk(await admin.post(`${COST}/submit`, { ...head, bodyList: head.bodyList }));
    let refused = await admin.post(`${BODY}/submit`, { id: added.id, adjustAmt: '1' });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('单据当前状态为「待审核」，不能修改明细；只有「草稿、已驳回」的单据可以修改明细');
    const passed = expectOk(await admin.get(`${COST}/pass`, { id: submitted.id, version: submitted.version }));
    const posted = expectOk(await admin.post(`${COST}/accounting`, { id: passed.id, version: passed.version }));
    expect(await stockOf(server, depot, b)).toMatchObject({ qty: '3.00', value: '2.75' });
    refused = await admin.post(`${BODY}/submit`, { headId: posted.id, ...adjust(a, '2', '1') });
    expect(refused.body.msg).toBe('单据当前状态为「已记账」，不能修改明细；只有「草稿、已驳回」的单据可以修改明细');
    refused = await admin.post(`${BODY}/remove`, undefined, { ids: added.id });
    expect(refused.body.msg).toContain('单据当前状态为「已记账」，不能修改明细');
    expect(expectOk(await admin.get(`${COST}/detail`, { id: posted.id })).bodyList).toHaveLength(1);

    // A rejected bill takes line edits again and becomes a draft.
    const toReject = expectOk(await admin.post(`${COST}/submit`, { depotId: depot, bodyList: [adjust(a, '2', '1')] }));
    const rejected = expectOk(await admin.get(`${COST}/reject`, { id: toReject.id, version: toReject.version, remark: '金额不对' }));
    expect(rejected.billStatus).toBe('1305');
    expectOk(await admin.post(`${BODY}/submit`, { id: rejected.bodyList[0].id, adjustAmt: '1.5' }));
    expect(expectOk(await admin.get(`${COST}/detail`, { id: rejected.id }))).toMatchObject({ billStatus: '1301', adjustAmt: '1.50' });
    const cancelled = expectOk(await admin.post(`${COST}/cancel`, { id: rejected.id, version: rejected.version + 1, remark: '不调了' }));
    expect(cancelled.billStatus).toBe('1307');

    // Another tenant: no list rows, no detail, no line edits on our bill.
    const other = await signedIn(server.url, '100001');
    expect(expectOk(await other.get(`${COST}/list`, { current: 1, size: 10 })).total).toBe(0);
    expect(expectOk(await other.get(`${BODY}/list`, { headId_equal: posted.id, current: 1, size: 10 })).total).toBe(0);
    expect(expectOk(await other.get(`${BODY}/detail`, { id: added.id }))).toBeNull();
    expect((await other.post(`${BODY}/submit`, { headId: draft.id, ...adjust(a, '1', '1') })).body.msg).toBe('单据不存在或已被删除');
    expect((await other.post(`${BODY}/submit`, { id: added.id, adjustAmt: '9' })).body.msg).toBe('明细不存在或已被删除');
    expect((await other.get(`${COST}/pushap`, { id: posted.id })).body.success).toBe(false);
  });
});
