/**
 * 领料单 (blade-material/usehead) on SQLite and PostgreSQL: goods received at known costs leave
 * stock at the moving average when a requisition is posted (line and head 成本金额 to the cent),
 * a requisition beyond stock is refused naming the shortfall, 冲红 restores quantity and value,
 * productUseList lists the lines with their head, unReceivePage the approved unposted bills, and
 * purchaseorderhead/toUse proposes an approved order's lines as a new requisition.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, approvedBill, lines, makeGoods, makeWorld, stockOf, type World } from '../support/bills.ts';

const USE = '/blade-material/usehead';

describe.each(databases())('material requisition ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let staffId: string;
  let deptId: string;

  /** A requisition line: goods, unit and quantity only. */
  const useLine = (goods: string, qty: string) => ({ commInfoId: goods, unitId: w.unitId, qty });

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1 });
    deptId = expectOk<{ id: string }[]>(await admin.get('/blade-system/dept/list'))[0].id;
    const staff = expectOk(await admin.post('/blade-base/staff/submit', { staffCode: `LL${Date.now() % 1000000}`, staffName: '领料员张三', deptId }));
    staffId = String(staff.id);
  });
  afterAll(async () => server?.close());

  test('posting issues stock at the moving average: line and head 成本金额 to the cent; beyond stock is refused; 冲红 restores stock and value', async () => {
    const depot = w.depots[0];
    const g1 = await makeGoods(admin, w.unitId, '领料商品甲');
    const g2 = await makeGoods(admin, w.unitId, '领料商品乙');
    // g1: 3 at 10.00 and 4 at 11.11 → 7 worth 74.44; g2: 3 at 1.00 → 3 worth 3.00 (tax-exclusive amounts).
    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: depot, bodyList: lines(w, [{ goods: g1, qty: '3', purchasePrice: '10.00' }, { goods: g2, qty: '3', purchasePrice: '1.00' }]) }, { post: true });
    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: depot, bodyList: lines(w, [{ goods: g1, qty: '4', purchasePrice: '11.11' }]) }, { post: true });
    expect(await stockOf(server, depot, g1)).toMatchObject({ qty: '7.00', value: '74.44' });

    // No staff: refused with the field's message, nothing written.
    const noStaff = await admin.post(`${USE}/submit`, { depotId: depot, bodyList: [useLine(g1, '2')] });
    expect(noStaff.status).toBe(400);
    expect(noStaff.body.msg).toContain('请选择领料人');

    const submitted = expectOk(await admin.post(`${USE}/submit`, { staffId, deptId, depotId: depot, remark: '车间领用', bodyList: [useLine(g1, '2'), useLine(g2, '3')] }));
    expect(submitted).toMatchObject({ billStatus: '1302', billType: '0839', staffName: '领料员张三', totalQty: '5.00' });
    expect(submitted.useNo).toMatch(/\d{8}/);
    expect(submitted.bodyList.map((l: { qty: string; costAmt: unknown }) => [l.qty, l.costAmt ?? null])).toEqual([
      ['2.00', null],
      ['3.00', null],
    ]);
    const passed = expectOk(await admin.get(`${USE}/pass`, { id: submitted.id, version: submitted.version, remark: '同意' }));
    const posted = expectOk(await admin.get(`${USE}/accountingById`, { id: passed.id, version: passed.version }));
    // 74.44 × 2 / 7 = 21.268… → 21.27 (unit 10.63500); g2 leaves whole: 3.00.
    expect(posted.billStatus).toBe('1306');
    expect(posted.bodyList.map((l: { costAmt: string; costPrice: string }) => [l.costAmt, l.costPrice])).toEqual([
      ['21.27', '10.63500'],
      ['3.00', '1.00000'],
    ]);
    expect(posted.costAmt).toBe('24.27');
    const detail = expectOk(await admin.get(`${USE}/detail`, { id: posted.id }));
    expect(detail).toMatchObject({ costAmt: '24.27', totalQty: '5.00', useNo: posted.useNo, staffName: '领料员张三' });
    expect(detail.bodyList[0]).toMatchObject({ commInfoId: g1, qty: '2.00', costAmt: '21.27', costPrice: '10.63500', commInfoName: '领料商品甲' });
    expect(await stockOf(server, depot, g1)).toMatchObject({ qty: '5.00', value: '53.17' });
    expect(await stockOf(server, depot, g2)).toMatchObject({ qty: '0.00', value: '0.00' });
    // The posting wrote no party ledger (no partner).
    const postings = expectOk(await admin.get(`${USE}/postings`, { id: posted.id }));
    expect(postings.party).toEqual([]);
    expect(postings.stock.map((r: { qty: string; value: string }) => [r.qty, r.value])).toEqual([
      ['-2', '-21.27'],
      ['-3', '-3'],
    ]);

    // 6 more of g1 with 5 on hand: refused naming goods, warehouse and the shortfall; the bill stays approved.
    const tooMany = await approvedBill(admin, USE, { staffId, depotId: depot, bodyList: [useLine(g1, '6')] });
    const refused = await admin.get(`${USE}/accountingById`, { id: tooMany.id, version: tooMany.version });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toMatch(/^库存不足：第1行 商品「领料商品甲」在仓库「仓库.*」缺少 1$/);
    expect(expectOk(await admin.get(`${USE}/detail`, { id: tooMany.id })).billStatus).toBe('1304');
    expect(await stockOf(server, depot, g1)).toMatchObject({ qty: '5.00', value: '53.17' });

    // 冲红: the goods come back at the value they left with.
    const flushed = expectOk(await admin.get(`${USE}/flush`, { id: posted.id, version: posted.version }));
    expect(flushed.billStatus).toBe('1308');
    expect(await stockOf(server, depot, g1)).toMatchObject({ qty: '7.00', value: '74.44' });
    expect(await stockOf(server, depot, g2)).toMatchObject({ qty: '3.00', value: '3.00' });
    const again = await admin.get(`${USE}/flush`, { id: flushed.id, version: flushed.version });
    expect(again.body.msg).toContain('只有「已记账」的单据可以冲红');
  });

  test('productUseList lists the lines with their head (cancelled bills left out); unReceivePage lists approved, unposted requisitions', async () => {
    const depot = w.depots[0];
    const g = await makeGoods(admin, w.unitId, '领料列表商品');
    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: depot, bodyList: lines(w, [{ goods: g, qty: '10', purchasePrice: '2.00' }]) }, { post: true });
    const draft = expectOk(await admin.post(`${USE}/draft`, { staffId, depotId: depot, bodyList: [useLine(g, '1')] }));
    const approved = await approvedBill(admin, USE, { staffId, depotId: depot, bodyList: [useLine(g, '2'), useLine(g, '3')] });
    const posted = await approvedBill(admin, USE, { staffId, depotId: depot, bodyList: [useLine(g, '4')] }, { post: true });
    const cancelled = expectOk(await admin.post(`${USE}/draft`, { staffId, depotId: depot, bodyList: [useLine(g, '5')] }));
    expectOk(await admin.get(`${USE}/cancel`, { id: cancelled.id, version: cancelled.version, remark: '不用了' }));

    const rows = expectOk(await admin.get(`${USE}/productUseList`, { commInfoId_equal: g, current: 1, size: 50 })).records;
    const seen = rows.map((r: Record<string, string>) => `${r.useNo}|${r.qty}|${r.billStatus}|${r.costAmt ?? ''}`).sort();
    expect(seen).toEqual(
      [`${draft.useNo}|1.00|1301|`, `${approved.useNo}|2.00|1304|`, `${approved.useNo}|3.00|1304|`, `${posted.useNo}|4.00|1306|8.00`].sort(),
    );
    const one = rows.find((r: Record<string, string>) => r.useNo === posted.useNo);
    expect(one).toMatchObject({ headId: posted.id, staffId, staffName: '领料员张三', commInfoName: '领料列表商品', depotId: depot, billDate: posted.billDate });
    const byNo = expectOk(await admin.get(`${USE}/productUseList`, { useNo: approved.useNo, current: 1, size: 50 }));
    expect(byNo.total).toBe(2);

    const open = expectOk(await admin.get(`${USE}/unReceivePage`, { staffId_equal: staffId, current: 1, size: 50 })).records;
    const openIds = open.map((r: { id: string }) => r.id);
    expect(openIds).toContain(approved.id);
    expect(openIds).not.toContain(posted.id);
    expect(openIds).not.toContain(draft.id);
    expect(open.every((r: { billStatus: string }) => r.billStatus === '1304')).toBe(true);

    const body = expectOk(await admin.get('/blade-material/usebody/productUseBodyList', { headId_equal: approved.id, current: 1, size: 10 })).records;
    expect(body.map((l: { qty: string }) => Number(l.qty))).toEqual([2, 3]);
  });

  test('toUse: an approved purchase order proposes its lines as a new requisition, without what was already requisitioned', async () => {
    const depot = w.depots[0];
    const g = await makeGoods(admin, w.unitId, '自用采购商品');
    const draftOrder = expectOk(await admin.post(`${BASES.purchaseOrder}/draft`, { supplierId: w.supplierId, depotId: depot, bodyList: lines(w, [{ goods: g, qty: '1', purchasePrice: '5.00' }]) }));
    const notYet = await admin.get(`${BASES.purchaseOrder}/toUse`, { id: draftOrder.id });
    expect(notYet.status).toBe(400);
    expect(notYet.body.msg).toContain('当前状态为「草稿」');

    const order = await approvedBill(admin, BASES.purchaseOrder, { supplierId: w.supplierId, depotId: depot, staffId, bodyList: lines(w, [{ goods: g, qty: '4', purchasePrice: '5.00' }]) });
    const proposal = expectOk(await admin.get(`${BASES.purchaseOrder}/toUse`, { id: order.id }));
    expect(proposal).toMatchObject({ sourceBillId: order.id, sourceBillNo: order.billNo, sourceBillType: '0811', depotId: depot, staffId });
    expect(proposal.id).toBeUndefined();
    expect(proposal.bodyList).toHaveLength(1);
    expect(proposal.bodyList[0]).toMatchObject({ commInfoId: g, unitId: w.unitId, qty: '4.00', sourceBodyId: order.bodyList[0].id, commInfoName: '自用采购商品' });
    expect(proposal.bodyList[0].taxPrice).toBeUndefined();
    expect(proposal.bodyList[0].purchasePrice).toBeUndefined();
    // The bill page's own pull answers the same.
    expect(expectOk(await admin.get(`${USE}/pullOrderById`, { id: order.id })).bodyList[0].qty).toBe('4.00');

    // Saved for 3 of the 4: the next proposal offers the remaining 1; more than that is refused.
    const saved = expectOk(await admin.post(`${USE}/draft`, { ...proposal, bodyList: [{ ...proposal.bodyList[0], qty: '3' }] }));
    expect(saved).toMatchObject({ billStatus: '1301', sourceBillId: order.id });
    expect(expectOk(await admin.get(`${BASES.purchaseOrder}/toUse`, { id: order.id })).bodyList[0].qty).toBe('1.00');
    const over = await admin.post(`${USE}/draft`, { ...proposal, bodyList: [{ ...proposal.bodyList[0], qty: '2' }] });
    expect(over.status).toBe(400);
    expect(over.body.msg).toContain('数量超过源单未完成数量');
    // The requisition is linked to its order (单据关联).
    const chain = expectOk(await admin.get('/blade-desk/billrelation/purchase', { id: order.id, billType: '0811' }));
    expect(chain.map((r: { billNo: string }) => r.billNo)).toContain(saved.useNo);
  });
});
