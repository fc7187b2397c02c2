/**
 * 期初库存 (openinginventoryhead) on SQLite and PostgreSQL: quantities and unit costs per goods in a
 * warehouse, posted once as each goods' first stock row there. A second opening for goods that
 * already have one, goods that moved by any other bill, and the same goods twice in one bill are
 * refused naming line, goods and warehouse, nothing written; 冲红 takes the opening value back out,
 * after which the goods' opening may be entered again.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { approvedBill, makeGoods, makeWorld, stockOf, type World } from '../support/bills.ts';

const OPENING = '/blade-warehouse/openinginventoryhead';
const OTHER_IN = '/blade-warehouse/otherinhead';

describe.each(databases())('opening stock ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let depotName: string;

  const line = (goods: string, qty: string, costPrice?: string) => ({ commInfoId: goods, unitId: w.unitId, qty, ...(costPrice !== undefined ? { costPrice } : {}) });
  const post = async (bill: { id: string; version: number }) => admin.post(`${OPENING}/accounting`, { id: bill.id, version: bill.version });

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1, depots: 2 });
    depotName = expectOk(await admin.get('/blade-system/depot/detail', { id: w.depots[0] })).depotName;
  });
  afterAll(async () => server?.close());

  test('an opening posts each line as the first stock of its goods; the unit cost is required', async () => {
    const a = await makeGoods(admin, w.unitId, '期初商品甲');
    const b = await makeGoods(admin, w.unitId, '期初商品乙');
    const noCost = await admin.post(`${OPENING}/submit`, { depotId: w.depots[0], bodyList: [line(a, '10')] });
    expect(noCost.status).toBe(400);
    expect(noCost.body.msg).toContain('请输入成本单价');

    const bill = await approvedBill(admin, OPENING, { depotId: w.depots[0], bodyList: [line(a, '10', '5.00'), line(b, '3', '2.50')] }, { post: true });
    expect(bill).toMatchObject({ billStatus: '1306', billType: '0871', totalQty: '13.00', costAmt: '57.50' });
    expect(await stockOf(server, w.depots[0], a)).toMatchObject({ qty: '10.00', value: '50.00', rows: 1 });
    expect(await stockOf(server, w.depots[0], b)).toMatchObject({ qty: '3.00', value: '7.50', rows: 1 });
    // The same goods in another warehouse have an opening of their own.
    await approvedBill(admin, OPENING, { depotId: w.depots[1], bodyList: [line(a, '1', '6.00')] }, { post: true });
    expect(await stockOf(server, w.depots[1], a)).toMatchObject({ qty: '1.00', value: '6.00' });
  });

  test('a second opening, goods already moved, and duplicates are refused naming line, goods and warehouse; after 冲红 the opening may be entered again', async () => {
    const a = await makeGoods(admin, w.unitId, '期初商品丙');
    const moved = await makeGoods(admin, w.unitId, '已入库商品');
    const first = await approvedBill(admin, OPENING, { depotId: w.depots[0], bodyList: [line(a, '4', '2.00')] }, { post: true });
    await approvedBill(admin, OTHER_IN, { depotId: w.depots[0], reasonType: '1', bodyList: [line(moved, '2', '1.00')] }, { post: true });

    const second = await approvedBill(admin, OPENING, { depotId: w.depots[0], bodyList: [line(moved, '1', '1.00'), line(a, '1', '2.00')] });
    const refused = await post(second);
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe(
      `期初库存不能记账：第1行 商品「已入库商品」在仓库「${depotName}」已有出入库记录，不能再录入期初库存（差异请用报溢单、报损单或盘点单调整）；` +
        `第2行 商品「期初商品丙」在仓库「${depotName}」已有出入库记录，不能再录入期初库存（差异请用报溢单、报损单或盘点单调整）`,
    );
    expect(expectOk(await admin.get(`${OPENING}/detail`, { id: second.id })).billStatus).toBe('1304');
    expect(await stockOf(server, w.depots[0], a)).toMatchObject({ qty: '4.00', value: '8.00', rows: 1 });

    const fresh = await makeGoods(admin, w.unitId, '期初商品丁');
    const twice = await approvedBill(admin, OPENING, { depotId: w.depots[0], bodyList: [line(fresh, '1', '1.00'), line(fresh, '2', '1.00')] });
    const duplicate = await post(twice);
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.msg).toBe(`期初库存不能记账：第2行 商品「期初商品丁」在仓库「${depotName}」与第1行重复`);
    expect(await stockOf(server, w.depots[0], fresh)).toMatchObject({ qty: '0.00', rows: 0 });

    // 冲红 takes the opening out; a corrected opening then posts.
    expectOk(await admin.post(`${OPENING}/flush`, { id: first.id, version: first.version }));
    expect(await stockOf(server, w.depots[0], a)).toMatchObject({ qty: '0.00', value: '0.00', rows: 2 });
    await approvedBill(admin, OPENING, { depotId: w.depots[0], bodyList: [line(a, '5', '2.20')] }, { post: true });
    expect(await stockOf(server, w.depots[0], a)).toMatchObject({ qty: '5.00', value: '11.00', rows: 3 });
  });
});
