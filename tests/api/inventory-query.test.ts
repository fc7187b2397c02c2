/**
 * 库存查询 (blade-warehouse/inventory) on SQLite and PostgreSQL: each warehouse's stock of a goods
 * item as the balances hold it (quantity, moving-average unit cost, value, last in and out dates),
 * its distribution over warehouses, sumtotal over every matching row (not one page), the Excel
 * export, the reconciliation of balances against Σ ledger (库存对账), and nothing of it for
 * another tenant.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { approvedBill, makeGoods, makeWorld, type World } from '../support/bills.ts';

const BASE = '/blade-warehouse/inventory';
const OTHER_IN = '/blade-warehouse/otherinhead';
const OTHER_OUT = '/blade-warehouse/otherouthead';

interface StockRow {
  depotId: string;
  depotName: string;
  commInfoId: string;
  commInfoName: string;
  unitName: string;
  qty: string;
  unitCost: string;
  value: string;
  lastInDate: string | null;
  lastOutDate: string | null;
}

describe.each(databases())('stock on hand ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let goods: string;

  const line = (qty: string, costPrice?: string) => ({ commInfoId: goods, unitId: w.unitId, qty, ...(costPrice ? { costPrice } : {}) });

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1, depots: 2 });
    goods = await makeGoods(admin, w.unitId, '库存查询商品');
    // First warehouse: 4 @ 2.50 and 2 @ 3.10 in (16.20, average 2.70), 3 out on the 10th (8.10): 3 worth 8.10.
    await approvedBill(admin, OTHER_IN, { depotId: w.depots[0], reasonType: '1', billDate: '2026-03-01', bodyList: [line('4', '2.50')] }, { post: true });
    await approvedBill(admin, OTHER_IN, { depotId: w.depots[0], reasonType: '1', billDate: '2026-03-05', bodyList: [line('2', '3.10')] }, { post: true });
    await approvedBill(admin, OTHER_OUT, { depotId: w.depots[0], reasonType: '1', billDate: '2026-03-10', bodyList: [line('3')] }, { post: true });
    // Second warehouse: 7 @ 1.00.
    await approvedBill(admin, OTHER_IN, { depotId: w.depots[1], reasonType: '1', billDate: '2026-03-02', bodyList: [line('7', '1.00')] }, { post: true });
  });
  afterAll(async () => server?.close());

  test('each warehouse holding the goods, with quantity, unit cost, value and last movements', async () => {
    const page = expectOk(await admin.get(`${BASE}/list`, { commInfoId: goods, current: 1, size: 10, descs: 'qty' }));
    expect(page.total).toBe(2);
    const rows = page.records as StockRow[];
    const [first, second] = [rows.find((r) => r.depotId === w.depots[0])!, rows.find((r) => r.depotId === w.depots[1])!];
    expect(first).toMatchObject({ commInfoName: '库存查询商品', qty: '3.00', unitCost: '2.70000', value: '8.10', lastInDate: '2026-03-05', lastOutDate: '2026-03-10' });
    expect(first.depotName).toBeTruthy();
    expect(first.unitName).toBeTruthy();
    expect(second).toMatchObject({ qty: '7.00', unitCost: '1.00000', value: '7.00', lastInDate: '2026-03-02', lastOutDate: null });

    const spread = expectOk(await admin.get(`${BASE}/distribution`, { commInfoId: goods })) as StockRow[];
    expect(spread.map((r) => [r.depotId, r.qty]).sort()).toEqual([[w.depots[0], '3.00'], [w.depots[1], '7.00']].sort());
    const inOne = expectOk(await admin.get(`${BASE}/list`, { commInfoId: goods, depotId: w.depots[1], current: 1, size: 10 }));
    expect(inOne.records.map((r: StockRow) => r.qty)).toEqual(['7.00']);
  });

  test('sumtotal adds every matching row, not one page; the export holds the rows', async () => {
    const total = expectOk(await admin.get(`${BASE}/sumtotal`, { commInfoId: goods, current: 1, size: 1 }));
    expect(total).toEqual({ qty: '10.00', value: '15.10', count: 2 });
    const onePage = expectOk(await admin.get(`${BASE}/list`, { commInfoId: goods, current: 1, size: 1 }));
    expect(onePage.records).toHaveLength(1);
    const none = expectOk(await admin.get(`${BASE}/sumtotal`, { commInfoName: '没有这个商品' }));
    expect(none).toEqual({ qty: '0.00', value: '0.00', count: 0 });

    const reply = await admin.call<Buffer>('GET', `${BASE}/exportInventoryInfoByCode`, { raw: true, query: { commInfoId: goods } });
    expect(reply.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(reply.body as unknown as ArrayBuffer);
    const text = JSON.stringify(book.worksheets[0].getSheetValues());
    expect(text).toContain('库存查询商品');
    expect(book.worksheets[0].rowCount).toBe(3);
  });

  test('库存对账: every balance equals Σ its ledger; check lists none; sumtotal and checksumtotal agree', async () => {
    const BAL = '/blade-warehouse/inventorybalance';
    const rows = expectOk(await admin.get(`${BAL}/list`, { commInfoId: goods, current: 1, size: 10 })).records;
    expect(rows.map((r: Record<string, unknown>) => [r.depotId, r.qty, r.value, r.ledgerQty, r.ledgerValue, r.diffQty, r.diffValue, r.balanced]).sort()).toEqual(
      [
        [w.depots[0], '3.00', '8.10', '3.00', '8.10', '0.00', '0.00', 1],
        [w.depots[1], '7.00', '7.00', '7.00', '7.00', '0.00', '0.00', 1],
      ].sort(),
    );
    expect(expectOk(await admin.get(`${BAL}/check`, { current: 1, size: 10 })).total).toBe(0);
    expect(expectOk(await admin.get(`${BAL}/sumtotal`, { commInfoId: goods }))).toEqual({ qty: '10.00', value: '15.10', count: 2 });
    expect(expectOk(await admin.get(`${BAL}/checksumtotal`, { commInfoId: goods }))).toEqual({ ledgerQty: '10.00', ledgerValue: '15.10', diffQty: '0.00', diffValue: '0.00', count: 2 });

    // A balance written behind posting's back (here by hand) shows as 不平, with the difference.
    const { store, internal } = server.services;
    const [balance] = await store.find(internal.stockBalance, '000000', { where: { depotId: w.depots[1], commInfoId: goods } });
    await store.updateMany(internal.stockBalance, { tenantId: '000000', userId: 'test' }, [{ id: balance.id, value: '7.01' }]);
    const off = expectOk(await admin.get(`${BAL}/check`, { current: 1, size: 10 })).records;
    expect(off.map((r: Record<string, unknown>) => [r.depotId, r.value, r.ledgerValue, r.diffValue, r.balanced])).toEqual([[w.depots[1], '7.01', '7.00', '0.01', 2]]);
    await store.updateMany(internal.stockBalance, { tenantId: '000000', userId: 'test' }, [{ id: balance.id, value: '7' }]);
    expect(expectOk(await admin.get(`${BAL}/check`, { current: 1, size: 10 })).total).toBe(0);
  });

  test('another tenant sees none of it', async () => {
    const other = await signedIn(server.url, '100001');
    expect(expectOk(await other.get(`${BASE}/list`, { commInfoId: goods, current: 1, size: 10 })).total).toBe(0);
    expect(expectOk(await other.get(`${BASE}/sumtotal`, { commInfoId: goods }))).toMatchObject({ count: 0 });
  });
});
