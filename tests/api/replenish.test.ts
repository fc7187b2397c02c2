/**
 * Replenishment strategies (预警补货 included, on the 库存预警 settings) (issue: purchasing, sales and retail, acceptance 5), on SQLite and
 * PostgreSQL: 缺货补货 proposes open sales demand less stock and purchase orders on the way, in
 * base units; 以销定采 proposes what chosen sales orders have not shipped; each saves as a
 * purchase order draft per default supplier with the reason on every line.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, approvedBill, lines, makeGoods, makeWorld, type World } from '../support/bills.ts';

describe.each(databases())('replenishment ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1 });
  });
  afterAll(async () => server?.close());

  test('缺货补货: demand 12 (a box of 6 counted as 6 units), stock 3, on order 2 → 7 proposed; saved as a draft order from the default supplier', async () => {
    const box = expectOk(await admin.post('/blade-base/unit/submit', { unitName: `箱${Date.now() % 100000}`, mnCode: 'XIANG' })).id;
    const g = await makeGoods(admin, w.unitId, '缺货商品', { supplierId: w.supplierId, unitList: [{ unitId: w.unitId, rate: '1', isBasic: 2 }, { unitId: box, rate: '6', isBasic: 1 }] });
    const depot = w.depots[0];
    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: depot, bodyList: lines(w, [{ goods: g, qty: '3', purchasePrice: '2.50' }]) }, { post: true });
    await approvedBill(admin, BASES.salesOrder, {
      customerId: w.customers[0],
      depotId: depot,
      bodyList: [...lines(w, [{ goods: g, qty: '6', taxPrice: '5.00' }]), { ...lines(w, [{ goods: g, qty: '1', taxPrice: '30.00' }])[0], unitId: box }],
    });
    await approvedBill(admin, BASES.purchaseOrder, { supplierId: w.supplierId, depotId: depot, bodyList: lines(w, [{ goods: g, qty: '2', purchasePrice: '2.50' }]) });
    const rows = expectOk(await admin.get('/blade-purchase/replenish/shortage/list', { commInfoId: g, current: 1, size: 10 })).records;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ demandQty: '12.00', stockQty: '3.00', onOrderQty: '2.00', shortageQty: '7.00', commInfoName: '缺货商品', depotId: depot });

    const made = expectOk(await admin.post(`/blade-purchase/replenish/shortage/toPurchase?ids=${rows[0].id}`, {}));
    expect(made).toHaveLength(1);
    const order = expectOk(await admin.get(`${BASES.purchaseOrder}/detail`, { id: made[0].id }));
    expect(order).toMatchObject({ billStatus: '1301', supplierId: w.supplierId, depotId: depot });
    expect(order.bodyList[0]).toMatchObject({ commInfoId: g, unitId: w.unitId, qty: '7.00', purchasePrice: '2.50000', remark: '缺货补货：订单需求 12，库存 3，在途 2' });
    // The draft is not yet on order: once approved, the shortage is covered.
    expectOk(await admin.post(`${BASES.purchaseOrder}/submit`, { ...order, bodyList: order.bodyList }));
    const submitted = expectOk(await admin.get(`${BASES.purchaseOrder}/detail`, { id: order.id }));
    expectOk(await admin.get(`${BASES.purchaseOrder}/pass`, { id: order.id, version: submitted.version, remark: '同意' }));
    expect(expectOk(await admin.get('/blade-purchase/replenish/shortage/list', { commInfoId: g, current: 1, size: 10 })).records).toEqual([]);
  });

  test('以销定采: the chosen order\'s unshipped quantities become a draft; goods without a default supplier are named', async () => {
    const g = await makeGoods(admin, w.unitId, '以销定采商品', { supplierId: w.supplierId });
    const orphan = await makeGoods(admin, w.unitId, '无供应商商品');
    const so = await approvedBill(admin, BASES.salesOrder, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '4', taxPrice: '3.00' }]) });
    const listed = expectOk(await admin.get('/blade-purchase/replenish/order/list', { current: 1, size: 50 })).records.map((r: { id: string }) => r.id);
    expect(listed).toContain(so.id);
    const made = expectOk(await admin.get('/blade-sales/saveSalesToPurchase', { id: so.id }));
    const order = expectOk(await admin.get(`${BASES.purchaseOrder}/detail`, { id: made[0].id }));
    expect(order.bodyList[0]).toMatchObject({ commInfoId: g, qty: '4.00', remark: `以销定采：销售订单 ${so.billNo} 未出库 4` });

    const other = await approvedBill(admin, BASES.salesOrder, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: orphan, qty: '1', taxPrice: '3.00' }]) });
    const refused = await admin.get('/blade-sales/saveSalesToPurchase', { id: other.id });
    expect(refused.body.msg).toBe('以下商品没有默认供应商，请先在商品资料中设置：无供应商商品');
    const draft = expectOk(await admin.post(`${BASES.salesOrder}/draft`, { customerId: w.customers[0], bodyList: lines(w, [{ goods: g, qty: '1', taxPrice: '3.00' }]) }));
    expect((await admin.get('/blade-sales/saveSalesToPurchase', { id: draft.id })).body.msg).toContain('只有已审核未完成的销售订单可以以销定采');
  });

  test('预警补货: stock 2 below a minimum of 5 with a maximum of 20 and 3 on order → 15 proposed; a second warning per goods and warehouse is refused', async () => {
    const g = await makeGoods(admin, w.unitId, '预警商品', { supplierId: w.supplierId });
    const depot = w.depots[0];
    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: depot, bodyList: lines(w, [{ goods: g, qty: '2', purchasePrice: '1.50' }]) }, { post: true });
    await approvedBill(admin, BASES.purchaseOrder, { supplierId: w.supplierId, depotId: depot, bodyList: lines(w, [{ goods: g, qty: '3', purchasePrice: '1.50' }]) });
    expectOk(await admin.post('/blade-warehouse/stockwarning/submit', { commInfoId: g, depotId: depot, minQty: '5', maxQty: '20' }));
    const twice = await admin.post('/blade-warehouse/stockwarning/submit', { commInfoId: g, depotId: depot, minQty: '1' });
    expect(twice.body.msg).toBe('该商品在此仓库已设置库存预警');
    const rows = expectOk(await admin.get('/blade-purchase/replenish/warning/list', { commInfoId: g, current: 1, size: 10 })).records;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ minQty: '5.00', maxQty: '20.00', stockQty: '2.00', onOrderQty: '3.00', proposeQty: '15.00' });
    const made = expectOk(await admin.post(`/blade-purchase/replenish/warning/toPurchase?ids=${rows[0].id}`, {}));
    const order = expectOk(await admin.get(`${BASES.purchaseOrder}/detail`, { id: made[0].id }));
    expect(order.bodyList[0]).toMatchObject({ commInfoId: g, qty: '15.00', purchasePrice: '1.50000', remark: '预警补货：库存 2 低于下限 5，补到上限 20，在途 3' });
    // Stock at or above the minimum: no longer listed.
    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: depot, bodyList: lines(w, [{ goods: g, qty: '3', purchasePrice: '1.50' }]) }, { post: true });
    expect(expectOk(await admin.get('/blade-purchase/replenish/warning/list', { commInfoId: g, current: 1, size: 10 })).records).toEqual([]);
  });

  test('智能补货: 12 sold in the last 30 days, 15 days to cover → 6 needed; stock 1, on order 2 → 3 proposed', async () => {
    const g = await makeGoods(admin, w.unitId, '智能补货商品', { supplierId: w.supplierId });
    const depot = w.depots[0];
    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: depot, bodyList: lines(w, [{ goods: g, qty: '13', purchasePrice: '1.00' }]) }, { post: true });
    await approvedBill(admin, BASES.salesOut, { customerId: w.customers[0], depotId: depot, bodyList: lines(w, [{ goods: g, qty: '12', taxPrice: '2.26' }]) }, { post: true });
    await approvedBill(admin, BASES.purchaseOrder, { supplierId: w.supplierId, depotId: depot, bodyList: lines(w, [{ goods: g, qty: '2', purchasePrice: '1.00' }]) });
    const rows = expectOk(await admin.get('/blade-purchase/replenish/smart/list', { commInfoId: g, current: 1, size: 10 })).records;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ soldQty: '12.00', windowDays: 30, coverDays: 15, needQty: '6.00', stockQty: '1.00', onOrderQty: '2.00', proposeQty: '3.00' });
    const made = expectOk(await admin.post(`/blade-purchase/replenish/smart/toPurchase?ids=${rows[0].id}`, {}));
    const order = expectOk(await admin.get(`${BASES.purchaseOrder}/detail`, { id: made[0].id }));
    expect(order.bodyList[0]).toMatchObject({ qty: '3.00', remark: '智能补货：近30天销量 12，备货15天需要 6，库存 1，在途 2' });
  });

  test('采购需求单: approved requisitions become purchase order drafts (demandhead/purchase) and are then 已完成; unapproved ones are refused', async () => {
    const g = await makeGoods(admin, w.unitId, '需求商品', { supplierId: w.supplierId });
    const DEMAND = '/blade-purchase/demandhead';
    const demand = await approvedBill(admin, DEMAND, { depotId: w.depots[0], remark: '门店补货', bodyList: lines(w, [{ goods: g, qty: '9', purchasePrice: '1.20' }]) });
    expect(demand).toMatchObject({ billStatus: '1304', totalQty: '9.00' });
    expect(expectOk(await admin.get('/blade-purchase/demandbody/list', { headId: demand.id })).records).toHaveLength(1);
    const draft = expectOk(await admin.post(`${DEMAND}/draft`, { depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '1', purchasePrice: '1.20' }]) }));
    expect((await admin.post(`${DEMAND}/purchase?ids=${draft.id}`, {})).body.msg).toContain('只有已审核的采购需求单可以生成采购订单');
    const made = expectOk(await admin.post(`${DEMAND}/purchase?ids=${demand.id}`, {}));
    const order = expectOk(await admin.get(`${BASES.purchaseOrder}/detail`, { id: made[0].id }));
    expect(order).toMatchObject({ supplierId: w.supplierId, billStatus: '1301' });
    expect(order.bodyList[0]).toMatchObject({ commInfoId: g, qty: '9.00', remark: `采购需求：${demand.billNo}` });
    expect(expectOk(await admin.get(`${DEMAND}/detail`, { id: demand.id })).billStatus).toBe('1309');
    expect((await admin.post(`${DEMAND}/purchase?ids=${demand.id}`, {})).body.msg).toContain('只有已审核的采购需求单可以生成采购订单');
  });
});
