/**
 * The rest of 库存查询 (blade-warehouse/inventory) on SQLite and PostgreSQL: 组合/拆分 counts and
 * moves (selectMergeNum, selectSplitNum, merge, split — posted 其他出库/其他入库 pairs, value kept
 * to the cent), 积压库存 (getInvotoryBackLogInfo), 库存对账确认 (balanceconfig list, balance,
 * unbalance), and none of it across tenants.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api, type Reply } from '../support/client.ts';
import { approvedBill, makeGoods, makeWorld, stockOf, type World } from '../support/bills.ts';
import { formatDate } from '../../src/shared/dates.ts';

const BASE = '/blade-warehouse/inventory';
const OTHER_IN = '/blade-warehouse/otherinhead';
const OTHER_OUT = '/blade-warehouse/otherouthead';
const COMBO = '/blade-base/commcombination';
const CONFIG = '/blade-warehouse/balanceconfig';

/** yyyy-MM-dd, `n` days before today (the server's local date, as the backlog counts). */
function daysAgo(n: number): string {
  const today = formatDate();
  const d = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1, Number(today.slice(8, 10))) - n * 86_400_000);
  return d.toISOString().slice(0, 10);
}

function refused(reply: Reply, fragment: string) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(400);
  expect(reply.body.success).toBe(false);
  expect(reply.body.msg).toContain(fragment);
}

describe.each(databases())('inventory extras ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1, depots: 3 });
  });
  afterAll(async () => server?.close());

  const stockIn = (depotId: string, commInfoId: string, qty: string, costPrice: string, billDate?: string) =>
    approvedBill(admin, OTHER_IN, { depotId, reasonType: '1', ...(billDate ? { billDate } : {}), bodyList: [{ commInfoId, unitId: w.unitId, qty, costPrice }] }, { post: true });
  const stockOut = (depotId: string, commInfoId: string, qty: string, billDate?: string) =>
    approvedBill(admin, OTHER_OUT, { depotId, reasonType: '1', ...(billDate ? { billDate } : {}), bodyList: [{ commInfoId, unitId: w.unitId, qty }] }, { post: true });

  describe('组合与拆分', () => {
    let box: string;
    let bottle: string;
    let carton: string;
    let depot: string;

    beforeAll(async () => {
      depot = w.depots[0];
      bottle = await makeGoods(admin, w.unitId, '矿泉水（瓶）');
      carton = await makeGoods(admin, w.unitId, '纸箱');
      box = await makeGoods(admin, w.unitId, '矿泉水整箱', { isCombination: 2, alIds: `${bottle},${carton}` });
      // One box = 12 bottles + 1 carton.
      expectOk(await admin.post(`${COMBO}/submit`, { comboId: box, commInfoId: bottle, qty: '12', sort: 1 }));
      expectOk(await admin.post(`${COMBO}/submit`, { comboId: box, commInfoId: carton, qty: '1', sort: 2 }));
      // 25 bottles at 0.40 (10.00) and 3 cartons at 2.00 (6.00).
      await stockIn(depot, bottle, '25', '0.40');
      await stockIn(depot, carton, '3', '2.00');
    });

    test('a component row is checked: never the combination itself, no second row for the same goods', async () => {
      refused(await admin.post(`${COMBO}/submit`, { comboId: box, commInfoId: box, qty: '1' }), '明细商品不能是组合商品本身');
      refused(await admin.post(`${COMBO}/submit`, { comboId: box, commInfoId: bottle, qty: '6' }), '该组合商品已有此明细商品');
      refused(await admin.post(`${COMBO}/submit`, { comboId: box, commInfoId: w.goods[0], qty: '0' }), '每套数量必须是大于0的数字');
      const rows = expectOk(await admin.get(`${COMBO}/list`, { comboId_equal: box, current: 1, size: 10 })).records;
      expect(rows.map((r: Record<string, unknown>) => [r.commInfoName, r.qty])).toEqual([
        ['矿泉水（瓶）', '12'],
        ['纸箱', '1'],
      ]);
    });

    test('selectMergeNum: 25 bottles at 12 a box and 3 cartons make 2 boxes; selectSplitNum: none held yet', async () => {
      const merge = expectOk(await admin.get(`${BASE}/selectMergeNum`, { commInfoId: box, depotId: depot }));
      expect(merge).toMatchObject({ commInfoId: box, depotId: depot, mergeNum: '2.00' });
      expect(merge.components).toEqual([
        { commInfoId: bottle, commInfoName: '矿泉水（瓶）', qtyPerSet: '12.00', stockQty: '25.00', sets: '2.00' },
        { commInfoId: carton, commInfoName: '纸箱', qtyPerSet: '1.00', stockQty: '3.00', sets: '3.00' },
      ]);
      // Another warehouse holds none of the parts.
      expect(expectOk(await admin.get(`${BASE}/selectMergeNum`, { commInfoId: box, depotId: w.depots[1] })).mergeNum).toBe('0.00');
      expect(expectOk(await admin.get(`${BASE}/selectSplitNum`, { commInfoId: box, depotId: depot })).splitNum).toBe('0.00');
      refused(await admin.get(`${BASE}/selectMergeNum`, { commInfoId: bottle, depotId: depot }), '不是组合商品');
      refused(await admin.get(`${BASE}/selectMergeNum`, { commInfoId: box }), '请选择仓库');
    });

    test('merge: 3 boxes refused, 2 boxes move 24 bottles and 2 cartons out and 2 boxes in at their cost, through posted bills', async () => {
      refused(await admin.post(`${BASE}/merge`, { commInfoId: box, depotId: depot, num: '3' }), '最多可组合 2 套');
      refused(await admin.post(`${BASE}/merge`, { commInfoId: box, depotId: depot, num: '1.5' }), '组合套数必须是大于0的整数');
      expect((await stockOf(server, depot, bottle)).qty).toBe('25.00');

      const done = expectOk(await admin.post(`${BASE}/merge`, { commInfoId: box, depotId: depot, num: '2', remark: '备货' }));
      // 24 × 0.40 + 2 × 2.00 = 13.60.
      expect(done).toMatchObject({ num: '2.00', costAmt: '13.60' });
      expect(await stockOf(server, depot, bottle)).toMatchObject({ qty: '1.00', value: '0.40' });
      expect(await stockOf(server, depot, carton)).toMatchObject({ qty: '1.00', value: '2.00' });
      expect(await stockOf(server, depot, box)).toMatchObject({ qty: '2.00', value: '13.60' });

      const out = expectOk(await admin.get(`${OTHER_OUT}/detail`, { id: done.outBill.id }));
      expect(out.billStatus).toBe('1306');
      expect(out.remark).toContain('组合');
      expect(out.bodyList.map((l: Record<string, unknown>) => [l.commInfoId, l.qty, l.costAmt])).toEqual([
        [bottle, '24.00', '9.60'],
        [carton, '2.00', '4.00'],
      ]);
      const inn = expectOk(await admin.get(`${OTHER_IN}/detail`, { id: done.inBill.id }));
      expect(inn.billStatus).toBe('1306');
      expect(inn.bodyList.map((l: Record<string, unknown>) => [l.commInfoId, l.qty, l.costPrice, l.costAmt])).toEqual([[box, '2.00', '6.80000', '13.60']]);

      const after = expectOk(await admin.get(`${BASE}/selectMergeNum`, { commInfoId: box, depotId: depot }));
      expect(after.mergeNum).toBe('0.00');
      expect(expectOk(await admin.get(`${BASE}/selectSplitNum`, { commInfoId: box, depotId: depot }))).toMatchObject({
        stockQty: '2.00',
        splitNum: '2.00',
        components: [
          { commInfoId: bottle, qtyPerSet: '12.00' },
          { commInfoId: carton, qtyPerSet: '1.00' },
        ],
      });
    });

    test('split: 3 boxes refused, 1 box gives back 12 bottles and 1 carton, its cost shared by their unit cost', async () => {
      refused(await admin.post(`${BASE}/split`, { commInfoId: box, depotId: depot, num: '3' }), '最多可拆分 2 套');
      const done = expectOk(await admin.post(`${BASE}/split`, { commInfoId: box, depotId: depot, num: '1' }));
      expect(done).toMatchObject({ num: '1.00', costAmt: '6.80' });
      // 6.80 shared 12 × 0.40 : 1 × 2.00 = 4.80 : 2.00.
      expect(await stockOf(server, depot, bottle)).toMatchObject({ qty: '13.00', value: '5.20' });
      expect(await stockOf(server, depot, carton)).toMatchObject({ qty: '2.00', value: '4.00' });
      expect(await stockOf(server, depot, box)).toMatchObject({ qty: '1.00', value: '6.80' });
      const inn = expectOk(await admin.get(`${OTHER_IN}/detail`, { id: done.inBill.id }));
      expect(inn.bodyList.map((l: Record<string, unknown>) => [l.commInfoId, l.qty, l.costAmt])).toEqual([
        [bottle, '12.00', '4.80'],
        [carton, '1.00', '2.00'],
      ]);
      // The value in the warehouse never changed: 10.00 + 6.00 in, 16.00 now.
      expect(expectOk(await admin.get(`${BASE}/sumtotal`, { depotId_equal: depot }))).toMatchObject({ value: '16.00' });
      expect(expectOk(await admin.get(`${BASE}/selectMergeNum`, { commInfoId: box, depotId: depot })).mergeNum).toBe('1.00');
    });

    test('a combination without component rows uses its 组合明细商品 at one each', async () => {
      const pair = await makeGoods(admin, w.unitId, '纸箱两件套', { isCombination: 2, alIds: carton });
      expect(expectOk(await admin.get(`${BASE}/selectMergeNum`, { commInfoId: pair, depotId: depot }))).toMatchObject({
        mergeNum: '2.00',
        components: [{ commInfoId: carton, qtyPerSet: '1.00', stockQty: '2.00' }],
      });
    });
  });

  describe('积压库存', () => {
    let depot: string;
    let idle: string;
    let sold: string;
    let neverSold: string;
    let fresh: string;

    beforeAll(async () => {
      depot = w.depots[1];
      idle = await makeGoods(admin, w.unitId, '积压-久未出库');
      sold = await makeGoods(admin, w.unitId, '积压-昨天出库');
      neverSold = await makeGoods(admin, w.unitId, '积压-从未出库');
      fresh = await makeGoods(admin, w.unitId, '积压-新到货');
      // In 200 days ago, last out 150 days ago: 8 left worth 24.00.
      await stockIn(depot, idle, '10', '3.00', daysAgo(200));
      await stockOut(depot, idle, '2', daysAgo(150));
      // In 200 days ago, sold yesterday.
      await stockIn(depot, sold, '5', '2.00', daysAgo(200));
      await stockOut(depot, sold, '1', daysAgo(1));
      // In 100 days ago, never out: 4 worth 6.00.
      await stockIn(depot, neverSold, '4', '1.50', daysAgo(100));
      // In 30 days ago, never out.
      await stockIn(depot, fresh, '6', '1.00', daysAgo(30));
    });

    test('default 90 days: the goods untouched for 150 and 100 days, not the one sold yesterday nor the new arrival', async () => {
      const page = expectOk(await admin.get(`${BASE}/getInvotoryBackLogInfo`, { depotId_equal: depot, current: 1, size: 10, descs: 'idle_since' }));
      expect(page).toMatchObject({ days: 90, cutoffDate: daysAgo(90), total: 2, totalQty: '12.00', totalValue: '30.00' });
      const rows = page.records.map((r: Record<string, unknown>) => [r.commInfoId, r.qty, r.value, r.lastInDate, r.lastOutDate, r.lastMoveDate, r.idleDays]);
      expect(rows.sort()).toEqual(
        [
          [idle, '8.00', '24.00', daysAgo(200), daysAgo(150), daysAgo(150), 150],
          [neverSold, '4.00', '6.00', daysAgo(100), null, daysAgo(100), 100],
        ].sort(),
      );
    });

    test('days is a parameter: 120 keeps only the 150-day one, 20 adds the new arrival; a bad value is refused', async () => {
      const long = expectOk(await admin.get(`${BASE}/getInvotoryBackLogInfo`, { depotId_equal: depot, days: 120, current: 1, size: 10 }));
      expect(long.records.map((r: Record<string, unknown>) => r.commInfoId)).toEqual([idle]);
      expect(long).toMatchObject({ totalQty: '8.00', totalValue: '24.00' });
      const short = expectOk(await admin.get(`${BASE}/getInvotoryBackLogInfo`, { depotId_equal: depot, days: 20, current: 1, size: 10 }));
      expect(short.records.map((r: Record<string, unknown>) => r.commInfoId).sort()).toEqual([idle, neverSold, fresh].sort());
      expect(short.totalValue).toBe('36.00');
      refused(await admin.get(`${BASE}/getInvotoryBackLogInfo`, { days: 'abc' }), '积压天数应为1至3650之间的整数');
    });

    test('goods with no stock left are not backlog', async () => {
      await stockOut(depot, neverSold, '4', daysAgo(95));
      const page = expectOk(await admin.get(`${BASE}/getInvotoryBackLogInfo`, { depotId_equal: depot, current: 1, size: 10 }));
      expect(page.records.map((r: Record<string, unknown>) => r.commInfoId)).toEqual([idle]);
    });
  });

  describe('库存对账确认 (balanceconfig)', () => {
    let depot: string;
    let goods: string;
    let rowId: string;

    beforeAll(async () => {
      depot = w.depots[2];
      goods = w.goods[0];
      await stockIn(depot, goods, '5', '2.00');
    });

    test('balance marks a reconciled row confirmed with a snapshot; unbalance reopens it', async () => {
      const list = expectOk(await admin.get(`${CONFIG}/list`, { depotId_equal: depot, current: 1, size: 10 }));
      expect(list.total).toBe(1);
      const row = list.records[0];
      rowId = row.id;
      expect(row).toMatchObject({ commInfoId: goods, qty: '5.00', value: '10.00', balanced: 1, balanceStatus: 1, changed: 1, confirmUserName: null });

      expectOk(await admin.post(`${CONFIG}/balance`, { id: rowId, remark: '已盘点核对' }));
      const confirmed = expectOk(await admin.get(`${CONFIG}/list`, { depotId_equal: depot, current: 1, size: 10 })).records[0];
      expect(confirmed).toMatchObject({ balanceStatus: 2, confirmQty: '5.00', confirmValue: '10.00', changed: 1, confirmRemark: '已盘点核对' });
      expect(confirmed.confirmUserName).toBeTruthy();
      expect(confirmed.confirmTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      refused(await admin.post(`${CONFIG}/balance`, { id: rowId }), '无需重复确认');

      // Stock moves after the confirmation: the row shows it changed and may be confirmed again.
      await stockOut(depot, goods, '1');
      const moved = expectOk(await admin.get(`${CONFIG}/list`, { depotId_equal: depot, current: 1, size: 10 })).records[0];
      expect(moved).toMatchObject({ qty: '4.00', value: '8.00', balanceStatus: 2, confirmQty: '5.00', changed: 2 });
      expectOk(await admin.post(`${CONFIG}/balance`, { ids: rowId }));
      expect(expectOk(await admin.get(`${CONFIG}/list`, { depotId_equal: depot, current: 1, size: 10 })).records[0]).toMatchObject({ confirmQty: '4.00', confirmValue: '8.00', changed: 1 });

      expectOk(await admin.post(`${CONFIG}/unbalance`, undefined, { id: rowId }));
      expect(expectOk(await admin.get(`${CONFIG}/list`, { depotId_equal: depot, current: 1, size: 10 })).records[0]).toMatchObject({ balanceStatus: 1 });
      refused(await admin.post(`${CONFIG}/unbalance`, { id: rowId }), '尚未确认对平');
      refused(await admin.post(`${CONFIG}/balance`, {}), '请选择至少一条数据');
    });

    test('a row whose balance differs from its ledger cannot be confirmed', async () => {
      const { store, internal } = server.services;
      const [balance] = await store.find(internal.stockBalance, '000000', { where: { depotId: depot, commInfoId: goods } });
      const actor = { tenantId: '000000', userId: 'test' };
      await store.updateMany(internal.stockBalance, actor, [{ id: balance.id, value: '8.01' }]);
      try {
        refused(await admin.post(`${CONFIG}/balance`, { id: rowId }), '金额差异 0.01');
      } finally {
        await store.updateMany(internal.stockBalance, actor, [{ id: balance.id, value: '8' }]);
      }
      expectOk(await admin.post(`${CONFIG}/balance`, { id: rowId }));
    });
  });

  test('another tenant sees and moves none of it', async () => {
    const other = await signedIn(server.url, '100001');
    expect(expectOk(await other.get(`${CONFIG}/list`, { depotId_equal: w.depots[2], current: 1, size: 10 })).total).toBe(0);
    expect(expectOk(await other.get(`${BASE}/getInvotoryBackLogInfo`, { depotId_equal: w.depots[1], current: 1, size: 10 }))).toMatchObject({ total: 0, totalValue: '0.00' });
    refused(await other.get(`${BASE}/selectMergeNum`, { commInfoId: w.goods[0], depotId: w.depots[0] }), '不存在');
    const rows = expectOk(await admin.get(`${CONFIG}/list`, { depotId_equal: w.depots[2], current: 1, size: 10 })).records;
    refused(await other.post(`${CONFIG}/balance`, { id: rows[0].id }), '不存在');
  });
});
