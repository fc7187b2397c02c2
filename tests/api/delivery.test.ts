/**
 * 配送中心 and the sales-out lists, on SQLite and PostgreSQL: a delivery run saved with two
 * sales-outs and what addsoout refuses, totals per driver, sales-out figures per period, salesman
 * and customer (a posted return lowers them, drafts, approved-only and flushed bills never count),
 * the settlement of a sales-out and the overdue interest on what is unsettled.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, approvedBill, lines, makeWorld, type World } from '../support/bills.ts';
import { uniqueToken } from '../support/resources.ts';
import { Dec, fixed } from '../../src/shared/money/index.ts';
import { formatDate } from '../../src/shared/dates.ts';
import { refreshBill } from '../../src/server/engine/materialized.ts';

const RUNS = '/blade-sales/salesdistributionhead';

describe.each(databases())('delivery center and sales-out lists ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let driverId: string;
  let carId: string;
  let routeId: string;
  let salesmanId: string;
  const bills: Record<string, any> = {};

  const rows = async (path: string, query: Record<string, unknown> = {}) => expectOk(await admin.get(path, { current: 1, size: 50, ...query })).records;
  const refused = async (reply: Promise<{ status: number; body: any }>) => {
    const r = await reply;
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    return String(r.body.msg);
  };
  const sale = (customer: string, billDate: string, qty: string, taxPrice: string) => ({
    customerId: customer,
    depotId: w.depots[0],
    staffId: salesmanId,
    billDate,
    bodyList: lines(w, [{ goods: w.goods[0], qty, taxPrice }]),
  });

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1, customers: 2 });
    const token = uniqueToken().slice(-6);
    const dept = expectOk(await admin.get('/blade-system/dept/list'))[0];
    carId = String(expectOk(await admin.post('/blade-base/car/submit', { carNumber: `京A${token}`, type: '1', load: '2.50', volume: '12.00', description: '厢式货车', shortName: `货车${token}`, remark: '测试' })).id);
    routeId = String(expectOk(await admin.post('/blade-base/route/submit', { routeCode: `XL${token}`, routeName: `朝阳线${token}`, areaCode: '110105', areaName: '北京市/市辖区/朝阳区' })).id);
    driverId = String(expectOk(await admin.post('/blade-base/staff/submit', { staffCode: `SJ${token}`, staffName: `司机${token}`, deptId: dept.id, isDriver: 2, carId, routeId })).id);
    salesmanId = String(expectOk(await admin.post('/blade-base/staff/submit', { staffCode: `YW${token}`, staffName: `业务员${token}`, deptId: dept.id })).id);
    // Customer 1 buys on 30 days' credit and has a delivery address; customer 2 pays cash.
    const c1 = expectOk(await admin.get('/blade-base/customer/detail', { id: w.customers[0] }));
    expectOk(await admin.post('/blade-base/customer/submit', { ...c1, isPeriodContract: 2, periodDays: 30, address: '建国路88号', contactPerson: '王经理', telephone: '13900000001' }));

    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '100', purchasePrice: '4.00' }]) }, { post: true });
    // March 2025: two posted sales-outs and a posted return of 2 from the first.
    bills.so1 = await approvedBill(admin, BASES.salesOut, sale(w.customers[0], '2025-03-10', '10', '11.30'), { post: true });
    bills.so2 = await approvedBill(admin, BASES.salesOut, sale(w.customers[1], '2025-03-20', '5', '22.60'), { post: true });
    const ret = expectOk(await admin.get(`${BASES.salesReturn}/generate`, { soNo: bills.so1.billNo }));
    bills.ret = await approvedBill(
      admin,
      BASES.salesReturn,
      { ...ret, billDate: '2025-03-25', staffId: salesmanId, bodyList: [{ ...ret.bodyList[0], qty: '-2', salesAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined }] },
      { post: true },
    );
    // April 2025: one posted, one only approved (not counted).
    bills.so3 = await approvedBill(admin, BASES.salesOut, sale(w.customers[0], '2025-04-05', '2', '11.30'));
    bills.so4 = await approvedBill(admin, BASES.salesOut, sale(w.customers[1], '2025-04-08', '1', '11.30'), { post: true });
    // A draft, a cancelled and a flushed sales-out: none may be delivered or counted.
    bills.draft = expectOk(await admin.post(`${BASES.salesOut}/draft`, sale(w.customers[0], '2025-04-09', '1', '11.30')));
    const toCancel = await approvedBill(admin, BASES.salesOut, sale(w.customers[0], '2025-04-09', '1', '11.30'));
    bills.cancelled = expectOk(await admin.get(`${BASES.salesOut}/cancel`, { id: toCancel.id, version: toCancel.version, remark: '客户取消' }));
    const toFlush = await approvedBill(admin, BASES.salesOut, sale(w.customers[0], '2025-04-09', '1', '11.30'), { post: true });
    bills.flushed = expectOk(await admin.post(`${BASES.salesOut}/flush`, { id: toFlush.id, version: toFlush.version }));
    expect([bills.draft.billStatus, bills.cancelled.billStatus, bills.flushed.billStatus]).toEqual(['1301', '1307', '1308']);
  });
  afterAll(async () => server?.close());

  test('a run saved with two sales-outs: driver, car and route, totals, detail with customer and address', async () => {
    const run = expectOk(await admin.post(`${RUNS}/save`, { driverId, deliveryDate: '2025-05-01', remark: '上午送达', outList: [{ soOutId: bills.so1.id }, { soOutId: bills.so3.id }] }));
    expect(run).toMatchObject({
      billNo: expect.stringMatching(/^DC40\d{12}$/),
      deliveryStatus: '3001',
      driverName: expect.stringContaining('司机'),
      carId,
      routeId,
      carNumber: expect.stringContaining('京A'),
      routeName: expect.stringContaining('朝阳线'),
      soCount: 2,
      totalQty: '12.00',
      totalAmt: '135.60',
    });
    bills.run1 = run;
    const detail = expectOk(await admin.get(`${RUNS}/detail`, { id: run.id }));
    expect(detail.outList).toHaveLength(2);
    expect(detail.outList[0]).toMatchObject({ soOutId: bills.so1.id, billNo: bills.so1.billNo, billStatus: '1306', bartererName: expect.stringContaining('客户'), address: '建国路88号', contactPerson: '王经理', totalQty: '10.00', finalAmt: '113.00' });
    expect(detail.outList[1]).toMatchObject({ soOutId: bills.so3.id, billStatus: '1304', totalQty: '2.00', finalAmt: '22.60' });
    const page = await rows(`${RUNS}/list`, { driverId_equal: driverId });
    expect(page.map((r: { billNo: string }) => r.billNo)).toEqual([run.billNo]);
    // The pending list no longer offers them.
    const pending = (await rows('/blade-sales/salesdistributionpending/list', { size: 200 })).map((r: { id: string }) => r.id);
    expect(pending).toContain(bills.so2.id);
    expect(pending).not.toContain(bills.so1.id);
    expect(pending).not.toContain(bills.draft.id);

    // Saving the list again without one releases it; the stale version is refused.
    const stale = await admin.post(`${RUNS}/save`, { id: run.id, version: run.version - 1, driverId, deliveryDate: '2025-05-01', outList: [] });
    expect(stale.body.msg).toBe('数据已被他人修改，请刷新后重试');
    const released = expectOk(await admin.post(`${RUNS}/save`, { id: run.id, version: run.version, driverId, deliveryDate: '2025-05-01', outList: [{ soOutId: bills.so1.id }] }));
    expect(released).toMatchObject({ soCount: 1, totalQty: '10.00', totalAmt: '113.00' });
    bills.run1 = expectOk(await admin.post(`${RUNS}/save`, { id: run.id, version: released.version, driverId, deliveryDate: '2025-05-01', soOutIds: `${bills.so1.id},${bills.so3.id}` }));
    expect(bills.run1).toMatchObject({ soCount: 2, totalAmt: '135.60' });
    expect(bills.run1.outList[0].id, 'a sales-out kept on the run keeps its row').toBe(detail.outList[0].id);
  });

  test('addsoout: adds approved or posted sales-outs; refuses drafts, cancelled, flushed, another run and a finished run', async () => {
    const run1 = bills.run1;
    const run2 = expectOk(await admin.post(`${RUNS}/save`, { driverId, deliveryDate: '2025-05-02', outList: [] }));
    expect(await refused(admin.get(`${RUNS}/addsoout`, { id: run2.id, ids: bills.draft.id }))).toBe(`出库单 ${bills.draft.billNo} 当前状态为「草稿」，不能加入配送单；只有「已审核」或「已记账」的出库单可以配送`);
    expect(await refused(admin.get(`${RUNS}/addsoout`, { id: run2.id, ids: bills.cancelled.id }))).toContain('当前状态为「已作废」');
    expect(await refused(admin.get(`${RUNS}/addsoout`, { id: run2.id, ids: bills.flushed.id }))).toContain('当前状态为「已冲红」');
    expect(await refused(admin.get(`${RUNS}/addsoout`, { id: run2.id, ids: `${bills.so2.id},${bills.so1.id}` }))).toBe(
      `出库单 ${bills.so1.billNo} 已在配送单 ${run1.billNo}（待配货）中，一张出库单只能编入一张配送单`,
    );
    expect(await refused(admin.post(`${RUNS}/save`, { driverId, deliveryDate: '2025-05-02', outList: [{ soOutId: bills.so3.id }] }))).toContain(`已在配送单 ${run1.billNo}`);
    // Nothing of a refused call was written.
    expect(expectOk(await admin.get(`${RUNS}/detail`, { id: run2.id })).outList).toEqual([]);

    const added = expectOk(await admin.get(`${RUNS}/addsoout`, { id: run2.id, ids: `${bills.so2.id},${bills.so4.id}` }));
    expect(added).toMatchObject({ soCount: 2, totalQty: '6.00', totalAmt: '124.30' });
    expect(added.outList.map((l: { billNo: string }) => l.billNo)).toEqual([bills.so2.billNo, bills.so4.billNo]);
    // Adding one already on this run changes nothing.
    const same = expectOk(await admin.get(`${RUNS}/addsoout`, { id: run2.id, ids: bills.so2.id }));
    expect(same).toMatchObject({ soCount: 2, totalAmt: '124.30' });

    // A finished run (已签收) takes no more sales-outs and cannot be removed.
    const signed = expectOk(await admin.post(`${RUNS}/save`, { id: run2.id, version: same.version, driverId, deliveryDate: '2025-05-02', deliveryStatus: '3005' }));
    expect(signed).toMatchObject({ deliveryStatus: '3005', soCount: 2 });
    expect(await refused(admin.get(`${RUNS}/addsoout`, { id: run2.id, ids: bills.draft.id }))).toBe(`配送单 ${run2.billNo} 状态为「已签收」，不能再加入出库单`);
    expect(await refused(admin.post(`${RUNS}/remove`, { ids: run2.id }))).toContain('不能删除');

    // Not a driver: refused with the field named.
    const reply = await admin.post(`${RUNS}/save`, { driverId: salesmanId, deliveryDate: '2025-05-03' });
    expect(reply.status).toBe(400);
    expect(reply.body.data.fieldErrors.driverId).toContain('不是司机');

    // Removing an open run releases its sales-outs.
    const run3 = expectOk(await admin.post(`${RUNS}/save`, { driverId, deliveryDate: '2025-05-03' }));
    expectOk(await admin.post(`${RUNS}/remove`, { ids: run3.id }));
    expect(await refused(admin.get(`${RUNS}/detail`, { id: run3.id }))).toBe('配送单不存在或已被删除');
  });

  test('driver totals: runs, sales-outs, quantity and amount per driver over a date range', async () => {
    const [all] = expectOk(await admin.get('/blade-sales/driverdistribution/dirverdistribution', { driverId })).records;
    expect(all).toMatchObject({ driverId, runCount: 2, soCount: 4, totalQty: '18.00', totalAmt: '259.90', driverName: expect.stringContaining('司机') });
    expect(all.runs.map((r: { billNo: string; soCount: number }) => [r.billNo, r.soCount])).toEqual([[bills.run1.billNo, 2], [expect.any(String), 2]]);
    const [first] = expectOk(await admin.get('/blade-sales/driverdistribution/dirverdistribution', { driverId, deliveryDateStart: '2025-05-01', deliveryDateEnd: '2025-05-01' })).records;
    expect(first).toMatchObject({ runCount: 1, soCount: 2, totalQty: '12.00', totalAmt: '135.60' });
    const perRun = await rows('/blade-sales/driverdistribution/list', { driverId_equal: driverId });
    expect(perRun).toHaveLength(2);
    expect(expectOk(await admin.get('/blade-sales/driverdistribution/dirverdistribution', { deliveryDateStart: '2030-01-01' })).total).toBe(0);
  });

  test('per period, salesman and customer: posted bills only, a return lowers them, to the cent', async () => {
    const periods = await rows('/blade-sales/salesoutperiod/list');
    const march = periods.find((p: { period: string }) => p.period === '2025-03');
    // 10 × 11.30 and 5 × 22.60 out, 2 × 11.30 back; cost 4.00 a unit.
    expect(march).toMatchObject({ outCount: 2, returnCount: 1, totalQty: '13.00', salesAmt: '180.00', taxAmt: '23.40', totalAmt: '203.40', finalAmt: '203.40', costAmt: '52.00', grossProfit: '128.00', grossRate: '71.11' });
    const april = periods.find((p: { period: string }) => p.period === '2025-04');
    expect(april, 'approved, draft, cancelled and flushed bills are left out').toMatchObject({ outCount: 1, returnCount: 0, totalQty: '1.00', salesAmt: '10.00', costAmt: '4.00', grossProfit: '6.00', grossRate: '60.00' });
    expect(periods.map((p: { period: string }) => p.period)).toEqual(['2025-04', '2025-03']);
    expect(await rows('/blade-sales/salesoutperiod/list', { period_ge: '2025-04', period_le: '2025-04' })).toHaveLength(1);

    const staff = await rows('/blade-sales/salesoutperiod/staffList', { staffId_equal: salesmanId, period: '2025-03' });
    expect(staff).toHaveLength(1);
    expect(staff[0]).toMatchObject({ period: '2025-03', staffName: expect.stringContaining('业务员'), outCount: 2, returnCount: 1, salesAmt: '180.00', grossProfit: '128.00' });

    const customers = await rows('/blade-sales/salesoutperiod/customerList', { period: '2025-03' });
    const c1 = customers.find((r: { customerId: string }) => r.customerId === w.customers[0]);
    const c2 = customers.find((r: { customerId: string }) => r.customerId === w.customers[1]);
    expect(c1).toMatchObject({ outCount: 1, returnCount: 1, totalQty: '8.00', salesAmt: '80.00', totalAmt: '90.40', costAmt: '32.00', grossProfit: '48.00', grossRate: '60.00', bartererName: expect.stringContaining('客户') });
    expect(c2).toMatchObject({ outCount: 1, returnCount: 0, totalQty: '5.00', salesAmt: '100.00', totalAmt: '113.00', costAmt: '20.00', grossProfit: '80.00', grossRate: '80.00' });
  });

  test('settlement and overdue interest of a known sales-out', async () => {
    let [row] = await rows('/blade-sales/salesoutsettle/list', { billNo: bills.so1.billNo });
    expect(row).toMatchObject({ finalAmt: '113.00', settledAmt: '0.00', unsettledAmt: '113.00', settleStatus: '1501' });
    // A receipt recorded against the bill (as the finance module's receipts will be) settles part of it.
    const { store, internal } = server.services;
    await store.transaction(async () => {
      await store.insertMany(internal.partyLedger, { tenantId: '000000', userId: '1' }, [
        { kind: 'AR', partyId: w.customers[0], billType: '0851', billId: bills.so1.id, billNo: bills.so1.billNo, billDate: '2025-04-01', entry: 'receipt', amount: '-50.00' },
      ]);
      // Written behind the document engine: the reports' materialized views are told, as a posting would.
      await refreshBill(store.db, server.services.registry, '000000', store.writtenInTransaction(), bills.so1.id);
    });
    [row] = await rows('/blade-sales/salesoutsettle/list', { billNo: bills.so1.billNo });
    expect(row).toMatchObject({ settledAmt: '50.00', unsettledAmt: '63.00', settleStatus: '1502' });
    expect(await rows('/blade-sales/salesoutsettle/list', { billNo: bills.so3.billNo }), 'an approved, unposted bill is not listed').toEqual([]);

    const today = formatDate();
    const days = (from: string) => Math.round((Date.UTC(+today.slice(0, 4), +today.slice(5, 7) - 1, +today.slice(8, 10)) - Date.UTC(+from.slice(0, 4), +from.slice(5, 7) - 1, +from.slice(8, 10))) / 86_400_000);
    const interest = await rows('/blade-sales/salesoutinterest/list', { customerId_equal: w.customers[0] });
    const i1 = interest.find((r: { billNo: string }) => r.billNo === bills.so1.billNo);
    // 30 days' credit from 2025-03-10: due 2025-04-09; 63.00 × days × 0.5‰.
    expect(i1).toMatchObject({ creditDays: 30, dueDate: '2025-04-09', unsettledAmt: '63.00', overdueDays: days('2025-04-09'), dailyRate: '0.5' });
    expect(i1.interestAmt).toBe(fixed(new Dec('63.00').times(days('2025-04-09')).times('0.5').div(1000), 2));
    // A cash customer's bill is due on its date.
    const [i2] = await rows('/blade-sales/salesoutinterest/list', { billNo: bills.so2.billNo });
    expect(i2).toMatchObject({ creditDays: 0, dueDate: '2025-03-20', overdueDays: days('2025-03-20'), interestAmt: fixed(new Dec('113.00').times(days('2025-03-20')).times('0.5').div(1000), 2) });

    // The rate is a system parameter: 1‰ doubles it.
    const config = (await store.find(server.services.m('sysconfig'), '000000', { where: { configKey: 'SALES_INTEREST_RATE' } }))[0];
    expectOk(await admin.post('/blade-sys-config/sysconfig/submit', { ...config, configValue: '1' }));
    const [again] = await rows('/blade-sales/salesoutinterest/list', { billNo: bills.so2.billNo });
    expect(again.interestAmt).toBe(fixed(new Dec('113.00').times(days('2025-03-20')).div(1000), 2));
    // A bill posted today on 30 days' credit is not overdue.
    const fresh = await approvedBill(admin, BASES.salesOut, sale(w.customers[0], today, '1', '11.30'), { post: true });
    expect(await rows('/blade-sales/salesoutinterest/list', { billNo: fresh.billNo })).toEqual([]);
  });

  test('another tenant sees none of it', async () => {
    const b = await signedIn(server.url, '100001');
    for (const path of [`${RUNS}/list`, '/blade-sales/salesoutperiod/list', '/blade-sales/salesoutperiod/staffList', '/blade-sales/salesoutperiod/customerList', '/blade-sales/salesoutsettle/list', '/blade-sales/salesoutinterest/list', '/blade-sales/driverdistribution/dirverdistribution']) {
      expect(expectOk(await b.get(path, { current: 1, size: 10 })).total, path).toBe(0);
    }
    expect(await refused(b.get(`${RUNS}/detail`, { id: bills.run1.id }))).toBe('配送单不存在或已被删除');
    expect(await refused(b.get(`${RUNS}/addsoout`, { id: bills.run1.id, ids: bills.so2.id }))).toBe('配送单不存在或已被删除');
  });
});
