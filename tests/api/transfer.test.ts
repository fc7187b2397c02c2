/**
 * 调拨单 (blade-warehouse/moveinventory, 0833) and 借入单 / 借出单 with their 归还单 on SQLite and
 * PostgreSQL: a transfer's value leaves the issuing warehouse at its moving average on 调出 (the
 * goods are then in transit, in neither warehouse) and enters the receiving one at the same value
 * on 调入; the same warehouse twice, a transfer beyond stock and a second 调入 are refused; 冲红
 * restores both warehouses. Borrowed goods go out (in) and come back at the borrow's cost, never
 * more than borrowed. Every balance equals Σ its ledger (stockOf checks it).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, approvedBill, lines, makeGoods, makeWorld, stockOf, type World } from '../support/bills.ts';

const MOVE = '/blade-warehouse/moveinventory';
const MOVE_HEAD = '/blade-warehouse/moveinventoryhead';
const BORROW_OUT = '/blade-warehouse/borrowouthead';
const BORROW_OUT_RETURN = '/blade-warehouse/borrowoutreturnhead';
const BORROW_IN = '/blade-warehouse/borrowinhead';
const BORROW_IN_RETURN = '/blade-warehouse/borrowinreturnhead';

describe.each(databases())('transfer and borrowing ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let A: string;
  let B: string;

  const line = (goods: string, qty: string, extra: Record<string, unknown> = {}) => ({ commInfoId: goods, unitId: w.unitId, qty, ...extra });
  /** A goods item with 10 @ 5.00 (tax-exclusive) received into warehouse A. */
  const stocked = async (name: string) => {
    const g = await makeGoods(admin, w.unitId, name);
    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: A, bodyList: lines(w, [{ goods: g, qty: '10', purchasePrice: '5.00' }]) }, { post: true });
    expect(await stockOf(server, A, g)).toMatchObject({ qty: '10.00', value: '50.00' });
    return g;
  };

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1, depots: 2 });
    [A, B] = w.depots;
  });
  afterAll(async () => server?.close());

  test('调出 takes 4 of 10 @ 5.00 out of A at its average (A 6 worth 30.00, B nothing); 调入 puts them into B at 20.00; 冲红 restores both', async () => {
    const g = await stocked('调拨商品甲');

    // The same warehouse on both sides is refused on save, naming the field; nothing is written.
    const same = await admin.post(`${MOVE}/submit`, { outDepotId: A, inDepotId: A, bodyList: [line(g, '4')] });
    expect(same.status).toBe(400);
    expect(same.body.msg).toBe('调入仓库不能与调出仓库相同');
    expect(same.body.data.fieldErrors).toEqual({ inDepotId: '调入仓库不能与调出仓库相同' });
    const missing = await admin.post(`${MOVE}/submit`, { outDepotId: A, bodyList: [line(g, '4')] });
    expect(missing.status).toBe(400);
    expect(missing.body.data.fieldErrors).toEqual({ inDepotId: '请选择调入仓库' });
    expect(expectOk(await admin.get(`${MOVE}/list`, { outDepotId_equal: A, current: 1, size: 10 })).total).toBe(0);

    const submitted = expectOk(await admin.post(`${MOVE}/submit`, { outDepotId: A, inDepotId: B, remark: '门店补货', bodyList: [line(g, '4')] }));
    expect(submitted).toMatchObject({ billStatus: '1302', billType: '0833', totalQty: '4.00', outDepotId: A, inDepotId: B });
    expect(submitted.outDepotName).toMatch(/^仓库.*-1$/);
    expect(submitted.inDepotName).toMatch(/^仓库.*-2$/);
    const passed = expectOk(await admin.get(`${MOVE}/pass`, { id: submitted.id, version: submitted.version, remark: '同意' }));

    // 调出: A 6 worth 30.00, B nothing; the bill holds the value in transit.
    const out = expectOk(await admin.post(`${MOVE}/callout`, { id: passed.id, version: passed.version }));
    expect(out).toMatchObject({ billStatus: '1310', costAmt: '20.00' });
    expect(out.bodyList[0]).toMatchObject({ qty: '4.00', costAmt: '20.00', costPrice: '5.00000' });
    expect(await stockOf(server, A, g)).toMatchObject({ qty: '6.00', value: '30.00' });
    expect(await stockOf(server, B, g)).toMatchObject({ qty: '0.00', value: '0.00', rows: 0 });
    // In transit: the transfers 已调出, with their value.
    const transit = expectOk(await admin.get(`${MOVE}/list`, { billStatus_equal: '1310', outDepotId_equal: A, current: 1, size: 10 }));
    expect(transit.records.map((r: { billNo: string; costAmt: string }) => [r.billNo, Number(r.costAmt)])).toEqual([[out.billNo, 20]]);
    // A shipped-out transfer can no longer be cancelled.
    const cancel = await admin.get(`${MOVE}/cancel`, { id: out.id, version: out.version, remark: '不调了' });
    expect(cancel.status).toBe(400);
    expect(cancel.body.msg).toContain('当前状态为「已调出」');

    // 调入: the same value enters B.
    const inn = expectOk(await admin.get(`${MOVE}/callin`, { id: out.id, version: out.version }));
    expect(inn).toMatchObject({ billStatus: '1306', costAmt: '20.00' });
    expect(await stockOf(server, B, g)).toMatchObject({ qty: '4.00', value: '20.00' });
    expect(await stockOf(server, A, g)).toMatchObject({ qty: '6.00', value: '30.00' });
    const again = await admin.get(`${MOVE}/callin`, { id: inn.id, version: inn.version });
    expect(again.status).toBe(400);
    expect(again.body.msg).toContain('只有「已调出」的单据可以调入');
    const postings = expectOk(await admin.get(`${MOVE}/postings`, { id: inn.id }));
    expect(postings.stock.map((r: { depotId: string; entry: string; qty: string; value: string }) => [r.depotId, r.entry, r.qty, r.value])).toEqual([
      [A, 'post', '-4', '-20'],
      [B, 'postin', '4', '20'],
    ]);

    // detailList: the lines of one bill.
    const detailList = expectOk(await admin.get(`${MOVE}/detailList`, { headId_equal: inn.id, current: 1, size: 10 }));
    expect(detailList.records.map((l: { commInfoId: string; qty: string; costAmt: string }) => [l.commInfoId, Number(l.qty), Number(l.costAmt)])).toEqual([[g, 4, 20]]);

    // 冲红: B gives the 4 back and A has its 10 worth 50.00 again.
    const flushed = expectOk(await admin.post(`${MOVE}/flush`, { id: inn.id, version: inn.version }));
    expect(flushed.billStatus).toBe('1308');
    expect(await stockOf(server, A, g)).toMatchObject({ qty: '10.00', value: '50.00' });
    expect(await stockOf(server, B, g)).toMatchObject({ qty: '0.00', value: '0.00' });
  });

  test('a transfer beyond stock is refused with the shortfall; accounting moves both legs at once; a transfer in transit flushes back to its warehouse', async () => {
    const g = await stocked('调拨商品乙');

    const tooMany = await approvedBill(admin, MOVE, { outDepotId: A, inDepotId: B, bodyList: [line(g, '11')] });
    const refused = await admin.post(`${MOVE}/callout`, { id: tooMany.id, version: tooMany.version });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toMatch(/^库存不足：第1行 商品「调拨商品乙」在仓库「仓库.*-1」缺少 1$/);
    const refusedAll = await admin.post(`${MOVE}/accounting`, { id: tooMany.id, version: tooMany.version });
    expect(refusedAll.body.msg).toMatch(/^库存不足：第1行 商品「调拨商品乙」在仓库「仓库.*-1」缺少 1$/);
    expect(expectOk(await admin.get(`${MOVE}/detail`, { id: tooMany.id })).billStatus).toBe('1304');
    expect(await stockOf(server, A, g)).toMatchObject({ qty: '10.00', value: '50.00', rows: 1 });
    expect(await stockOf(server, B, g)).toMatchObject({ qty: '0.00', value: '0.00', rows: 0 });
    expectOk(await admin.get(`${MOVE}/cancel`, { id: tooMany.id, version: tooMany.version, remark: '数量错了' }));

    // Without transit: 记账 does 调出 and 调入 in one step. 3 of 10 @ 5.00 → A 7 / 35.00, B 3 / 15.00.
    const direct = await approvedBill(admin, MOVE, { outDepotId: A, inDepotId: B, bodyList: [line(g, '3')] }, { post: true });
    expect(direct).toMatchObject({ billStatus: '1306', costAmt: '15.00' });
    expect(await stockOf(server, A, g)).toMatchObject({ qty: '7.00', value: '35.00' });
    expect(await stockOf(server, B, g)).toMatchObject({ qty: '3.00', value: '15.00' });

    // Back from B to A, shipped out only, then flushed: the goods return to B at the value they left with.
    const back = await approvedBill(admin, MOVE, { outDepotId: B, inDepotId: A, bodyList: [line(g, '2')] });
    const shipped = expectOk(await admin.get(`${MOVE}/callout`, { id: back.id, version: back.version }));
    expect(await stockOf(server, B, g)).toMatchObject({ qty: '1.00', value: '5.00' });
    expect(await stockOf(server, A, g)).toMatchObject({ qty: '7.00', value: '35.00' });
    expectOk(await admin.get(`${MOVE}/flush`, { id: shipped.id, version: shipped.version }));
    expect(await stockOf(server, B, g)).toMatchObject({ qty: '3.00', value: '15.00' });
    expect(await stockOf(server, A, g)).toMatchObject({ qty: '7.00', value: '35.00' });

    // initAdd: a new bill's defaults, nothing written.
    const fresh = expectOk(await admin.get(`${MOVE}/initAdd`));
    expect(fresh).toMatchObject({ billType: '0833', bodyList: [] });
    expect(fresh.billDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(fresh.id).toBeUndefined();

    // moveinventoryhead CRUD: list, detail, submit, remove (drafts only).
    const draft = expectOk(await admin.post(`${MOVE_HEAD}/submit`, { outDepotId: A, inDepotId: B, bodyList: [line(g, '1')] }));
    expect(expectOk(await admin.get(`${MOVE_HEAD}/detail`, { id: draft.id })).billNo).toBe(draft.billNo);
    const listed = expectOk(await admin.get(`${MOVE_HEAD}/list`, { billNo: draft.billNo, current: 1, size: 10 }));
    expect(listed.records.map((r: { id: string }) => r.id)).toEqual([draft.id]);
    const notDraft = await admin.post(`${MOVE_HEAD}/remove`, { ids: draft.id });
    expect(notDraft.status).toBe(400);
    expect(notDraft.body.msg).toContain('当前状态为「待审核」');
    const rejected = expectOk(await admin.get(`${MOVE}/reject`, { id: draft.id, version: draft.version, remark: '重填' }));
    expectOk(await admin.post(`${MOVE_HEAD}/remove`, { ids: rejected.id }));
    expect(expectOk(await admin.get(`${MOVE_HEAD}/list`, { billNo: draft.billNo, current: 1, size: 10 })).total).toBe(0);
  });

  test('借出 2 and its 归还 of 2 restore stock and value; returning 3 of 2 is refused; the borrow-out shows what came back', async () => {
    const g = await stocked('借出商品');
    const customerId = w.customers[0];
    const lent = await approvedBill(admin, BORROW_OUT, { customerId, depotId: A, planReturnDate: '2030-01-31', bodyList: [line(g, '2')] }, { post: true });
    expect(lent).toMatchObject({ billStatus: '1306', billType: '0838', costAmt: '10.00' });
    expect(lent.bartererName).toMatch(/^客户/);
    expect(await stockOf(server, A, g)).toMatchObject({ qty: '8.00', value: '40.00' });
    // No money is owed for borrowed goods: no party ledger.
    expect(expectOk(await admin.get(`${BORROW_OUT}/postings`, { id: lent.id })).party).toEqual([]);

    // The return is generated from the borrow's number: its lines, positive, into the same warehouse.
    const proposal = expectOk(await admin.get(`${BORROW_OUT_RETURN}/generate`, { borrowNo: lent.billNo }));
    expect(proposal).toMatchObject({ customerId, depotId: A, sourceBillId: lent.id, sourceBillNo: lent.billNo, sourceBillType: '0838' });
    expect(proposal.bodyList).toHaveLength(1);
    expect(proposal.bodyList[0]).toMatchObject({ commInfoId: g, qty: '2.00', sourceBodyId: lent.bodyList[0].id });

    const tooMany = await admin.post(`${BORROW_OUT_RETURN}/submit`, { ...proposal, bodyList: [{ ...proposal.bodyList[0], qty: '3' }] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.msg).toBe('第1行：累计退货数量不能超过源单数量（源单 2，已退 0，本次 3）');
    const noSource = await admin.post(`${BORROW_OUT_RETURN}/submit`, { ...proposal, bodyList: [line(g, '1')] });
    expect(noSource.status).toBe(400);
    expect(noSource.body.msg).toContain('请从借出单选择明细');

    const back = await approvedBill(admin, BORROW_OUT_RETURN, proposal, { post: true });
    expect(back).toMatchObject({ billStatus: '1306', billType: '0842', costAmt: '10.00' });
    expect(await stockOf(server, A, g)).toMatchObject({ qty: '10.00', value: '50.00' });
    // The borrow-out: every line back, 已归还, 已完成 (so it cannot be flushed under its return).
    const after = expectOk(await admin.get(`${BORROW_OUT}/detail`, { id: lent.id }));
    expect(after).toMatchObject({ billStatus: '1309', returnStatus: '5413' });
    expect(after.bodyList[0].returnQty).toBe('2.00');
    const nothingLeft = await admin.get(`${BORROW_OUT_RETURN}/generate`, { borrowNo: lent.billNo });
    expect(nothingLeft.status).toBe(400);

    // Flushing the return takes the goods out again and reopens the borrow.
    expectOk(await admin.post(`${BORROW_OUT_RETURN}/flush`, { id: back.id, version: back.version }));
    expect(await stockOf(server, A, g)).toMatchObject({ qty: '8.00', value: '40.00' });
    expect(expectOk(await admin.get(`${BORROW_OUT}/detail`, { id: lent.id }))).toMatchObject({ billStatus: '1306', returnStatus: '5411' });
  });

  test('借入 at a typed unit cost enters at it, without one at the average; its 归还 leaves at the borrow cost', async () => {
    const g = await stocked('借入商品');
    const supplierId = w.supplierId;
    // 3 at 7.00 typed: A 13 worth 71.00; 2 without a cost: at the average 71.00 / 13 = 5.461538… → 10.92 (5.46 a unit).
    const borrowed = await approvedBill(admin, BORROW_IN, { supplierId, depotId: A, bodyList: [line(g, '3', { costPrice: '7' }), line(g, '2')] }, { post: true });
    expect(borrowed).toMatchObject({ billStatus: '1306', billType: '0837' });
    expect(borrowed.bodyList.map((l: { costPrice: string; costAmt: string }) => [l.costPrice, l.costAmt])).toEqual([
      ['7.00000', '21.00'],
      ['5.46000', '10.92'],
    ]);
    expect(await stockOf(server, A, g)).toMatchObject({ qty: '15.00', value: '81.92' });

    // Give back the 3 typed ones: they leave at 7.00 each, whatever the average now is.
    const proposal = expectOk(await admin.get(`${BORROW_IN_RETURN}/generate`, { borrowNo: borrowed.billNo }));
    expect(proposal.bodyList.map((l: { qty: string }) => l.qty)).toEqual(['3.00', '2.00']);
    const back = await approvedBill(admin, BORROW_IN_RETURN, { ...proposal, bodyList: [proposal.bodyList[0]] }, { post: true });
    expect(back).toMatchObject({ billStatus: '1306', costAmt: '21.00' });
    expect(await stockOf(server, A, g)).toMatchObject({ qty: '12.00', value: '60.92' });
    expect(expectOk(await admin.get(`${BORROW_IN}/detail`, { id: borrowed.id }))).toMatchObject({ billStatus: '1306', returnStatus: '5412' });
  });
});
