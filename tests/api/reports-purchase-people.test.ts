/**
 * Purchase analysis and the people reports on SQLite and PostgreSQL: known purchases, sales,
 * receipts, delivery runs, referrals and SRM pushes are seeded through the API; every figure is
 * recomputed here from the bills as the API answers them (Dec) or from the outbox rows, never
 * copied from a report. A flushed bill and a bill only approved never count; a period filter cuts;
 * another tenant sees nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, approvedBill, lines, makeWorld, type World } from '../support/bills.ts';
import { uniqueToken } from '../support/resources.ts';
import { unanswered, type Call } from '../support/catalogue.ts';
import { Dec, fixed, type Decimal } from '../../src/shared/money/index.ts';

type Row = Record<string, any>;
const PURCHASE = '/blade-report/purchaseanalysis';
const RUNS = '/blade-sales/salesdistributionhead';
const MAY = { billDate_datege: '2025-05-01', billDate_datele: '2025-05-31' };
const CALLS: Call[] = [
  ['GET', `${PURCHASE}/purchaseAnalysis`],
  ['GET', `${PURCHASE}/purchaseAnalysisDetail`],
  ['GET', `${PURCHASE}/supplierpurchaseAnalysis`],
  ['GET', '/blade-report/staffreport/list'],
  ['GET', '/blade-report/driverreport/list'],
  ['GET', '/blade-report/driverreport/detailList'],
  ['GET', '/blade-report/srminforeport/logininfolist'],
  ['GET', '/blade-report/customerrecommendrank/page'],
  ['GET', '/blade-report/customerrecommendrank/customerrecommenddetailanalysis'],
];

const sum = (rows: Row[], field: string): Decimal => rows.reduce<Decimal>((a, r) => a.plus(String(r[field] ?? '0')), new Dec(0));
const money = (d: Decimal) => fixed(d, 2);
const pct = (part: Decimal, whole: Decimal) => (whole.isZero() ? '0.00' : fixed(part.div(whole).times(100), 2));

describe.each(databases())('purchase analysis and people reports ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let supplier2: string;
  let subCategory: string;
  let salesmanA: string;
  let salesmanB: string;
  let driverId: string;
  let partner1: string;
  let partner2: string;
  const bills: Record<string, Row> = {};

  const get = async (path: string, query: Record<string, unknown> = {}) => expectOk(await admin.get(path, { current: 1, size: 50, ...query }), path);
  const detail = async (base: string, id: string) => expectOk(await admin.get(`${base}/detail`, { id }));
  /** Purchase lines as posted (returns negative), each with its bill's supplier, warehouse and date. */
  const purchaseLines = () =>
    ['in1', 'in2', 'ret1'].flatMap((k) => bills[k].bodyList.map((l: Row) => ({ ...l, supplierId: bills[k].supplierId, depotId: bills[k].depotId, billDate: bills[k].billDate, isReturn: k.startsWith('ret') })));

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 2, depots: 2, customers: 3 });
    const token = uniqueToken().slice(-6);
    const [g1, g2] = w.goods;
    const [c1, c2, c3] = w.customers;
    // g2 sits in a sub-category of g1's category: filtering by g1's category takes both.
    const goods1 = await detail('/blade-base/comminfo', g1);
    subCategory = String(expectOk(await admin.post('/blade-base/commclassifyshop/submit', { commClassifyName: `子类${token}`, parentCommClassifyId: goods1.classifyId })).id);
    expectOk(await admin.post('/blade-base/comminfo/submit', { ...(await detail('/blade-base/comminfo', g2)), classifyId: subCategory }));
    const natures = await get('/blade-base/suppliernature/list');
    const nature = (Array.isArray(natures) ? natures : natures.records)[0];
    supplier2 = String(expectOk(await admin.post('/blade-base/supplier/submit', { bartererCode: `S2${token}`, bartererName: `二号供应商${token}`, natureId: nature?.id ?? '0' })).id);
    const dept = expectOk(await admin.get('/blade-system/dept/list'))[0];
    salesmanA = String(expectOk(await admin.post('/blade-base/staff/submit', { staffCode: `YA${token}`, staffName: `业务员甲${token}`, deptId: dept.id })).id);
    salesmanB = String(expectOk(await admin.post('/blade-base/staff/submit', { staffCode: `YB${token}`, staffName: `业务员乙${token}`, deptId: dept.id })).id);
    const carId = String(expectOk(await admin.post('/blade-base/car/submit', { carNumber: `京B${token}`, type: '1', load: '2.50', volume: '12.00', shortName: `车${token}`, description: '厢式货车', remark: '测试' })).id);
    const routeId = String(expectOk(await admin.post('/blade-base/route/submit', { routeCode: `L${token}`, routeName: `东线${token}`, areaCode: '110105', areaName: '北京市/市辖区/朝阳区' })).id);
    driverId = String(expectOk(await admin.post('/blade-base/staff/submit', { staffCode: `SJ${token}`, staffName: `司机${token}`, deptId: dept.id, isDriver: 2, carId, routeId })).id);

    // Purchases: March from supplier 1 (a return of 2 × g1), April from supplier 2; a flushed and an approved-only inbound.
    const inbound = (supplierId: string, depotId: string, billDate: string, specs: Parameters<typeof lines>[1]) => ({ supplierId, depotId, billDate, bodyList: lines(w, specs) });
    bills.in1 = await approvedBill(admin, BASES.purchaseIn, inbound(w.supplierId, w.depots[0], '2025-03-05', [{ goods: g1, qty: '10', purchasePrice: '4.00' }, { goods: g2, qty: '5', purchasePrice: '10.00' }]), { post: true });
    bills.in2 = await approvedBill(admin, BASES.purchaseIn, inbound(supplier2, w.depots[1], '2025-04-10', [{ goods: g1, qty: '20', purchasePrice: '5.00' }]), { post: true });
    const generated = expectOk(await admin.get(`${BASES.purchaseReturn}/generate`, { poNo: bills.in1.billNo }));
    const line = generated.bodyList.find((l: Row) => l.commInfoId === g1);
    bills.ret1 = await approvedBill(admin, BASES.purchaseReturn, { ...generated, billDate: '2025-03-20', bodyList: [{ ...line, qty: '-2', purchaseAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined }] }, { post: true });
    const toFlush = await approvedBill(admin, BASES.purchaseIn, inbound(w.supplierId, w.depots[0], '2025-03-25', [{ goods: g2, qty: '3', purchasePrice: '10.00' }]), { post: true });
    bills.flushedIn = expectOk(await admin.post(`${BASES.purchaseIn}/flush`, { id: toFlush.id, version: toFlush.version }));
    await approvedBill(admin, BASES.purchaseIn, inbound(w.supplierId, w.depots[0], '2025-03-26', [{ goods: g1, qty: '7', purchasePrice: '4.00' }]));
    for (const k of ['in1', 'in2', 'ret1']) bills[k] = await detail(k === 'ret1' ? BASES.purchaseReturn : BASES.purchaseIn, bills[k].id);

    // Sales in May by two salespeople, a return, June outside the period, an approved-only and a flushed sale.
    const sale = (customerId: string, staffId: string, billDate: string, goods: string, qty: string, taxPrice: string) => ({ customerId, staffId, depotId: w.depots[1], billDate, bodyList: lines(w, [{ goods, qty, taxPrice, depotId: w.depots[1] }]) });
    bills.so1 = await approvedBill(admin, BASES.salesOut, sale(c1, salesmanA, '2025-05-02', g1, '3', '11.30'), { post: true });
    bills.so2 = await approvedBill(admin, BASES.salesOut, sale(c2, salesmanA, '2025-05-03', g1, '2', '22.60'), { post: true });
    bills.so3 = await approvedBill(admin, BASES.salesOut, { ...sale(c3, salesmanB, '2025-05-04', g1, '1', '33.90') }, { post: true });
    const back = expectOk(await admin.get(`${BASES.salesReturn}/generate`, { soNo: bills.so1.billNo }));
    bills.sr1 = await approvedBill(admin, BASES.salesReturn, { ...back, billDate: '2025-05-06', staffId: salesmanA, bodyList: [{ ...back.bodyList[0], qty: '-1', salesAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined }] }, { post: true });
    bills.so4 = await approvedBill(admin, BASES.salesOut, sale(c1, salesmanB, '2025-06-01', g1, '1', '11.30'), { post: true });
    bills.so5 = await approvedBill(admin, BASES.salesOut, sale(c1, salesmanA, '2025-05-05', g1, '4', '11.30'));
    bills.so6 = await approvedBill(admin, BASES.salesOut, sale(c2, salesmanA, '2025-05-07', g1, '5', '11.30'), { post: true });
    for (const k of ['so1', 'so2', 'so3', 'sr1', 'so4']) bills[k] = await detail(k === 'sr1' ? BASES.salesReturn : BASES.salesOut, bills[k].id);

    // Money received: salesperson A takes 10.00 on so1, B takes 5.00 in advance; a June receipt of A is outside May.
    const cash = String(expectOk(await admin.get('/blade-base/settlement/retail')).find((m: Row) => m.settlementName === '现金').id);
    bills.rc1 = await approvedBill(admin, '/blade-finance/receipt', { bartererId: c1, staffId: salesmanA, billDate: '2025-05-08', settlementId: cash, precpAmt: '10', bodyList: [{ sourceBillId: bills.so1.id, settleAmt: '10' }] }, { post: true });
    bills.rc2 = await approvedBill(admin, '/blade-finance/receipt', { bartererId: c3, staffId: salesmanB, billDate: '2025-05-09', settlementId: cash, precpAmt: '5', bodyList: [] }, { post: true });
    bills.rc3 = await approvedBill(admin, '/blade-finance/receipt', { bartererId: c2, staffId: salesmanA, billDate: '2025-06-09', settlementId: cash, precpAmt: '7', bodyList: [] }, { post: true });

    // Delivery runs of the driver: run 1 (so1, so2) signed for; run 2 (so3, the approved so5, so6 flushed later); June's run 3 (so4).
    const run1 = expectOk(await admin.post(`${RUNS}/save`, { driverId, deliveryDate: '2025-05-10', soOutIds: `${bills.so1.id},${bills.so2.id}` }));
    bills.run1 = expectOk(await admin.post(`${RUNS}/save`, { id: run1.id, version: run1.version, driverId, deliveryDate: '2025-05-10', deliveryStatus: '3005', soOutIds: `${bills.so1.id},${bills.so2.id}` }));
    bills.run2 = expectOk(await admin.post(`${RUNS}/save`, { driverId, deliveryDate: '2025-05-12', soOutIds: `${bills.so3.id},${bills.so5.id},${bills.so6.id}` }));
    bills.run3 = expectOk(await admin.post(`${RUNS}/save`, { driverId, deliveryDate: '2025-06-02', soOutIds: bills.so4.id }));
    bills.so6 = expectOk(await admin.post(`${BASES.salesOut}/flush`, { id: bills.so6.id, version: bills.so6.version }));
    expect([bills.flushedIn.billStatus, bills.so6.billStatus]).toEqual(['1308', '1308']);

    // Referrals: customer 1 names partner 1 on its file; partner 2's approved recommendation links customer 2; partner 1's refused one links customer 3.
    partner1 = String(expectOk(await admin.post('/blade-base/partner/submit', { userName: `合伙人甲${token}`, phone: '13800000001', recommendedCode: `A${token}` })).id);
    partner2 = String(expectOk(await admin.post('/blade-base/partner/submit', { userName: `合伙人乙${token}`, phone: '13800000002', recommendedCode: `B${token}` })).id);
    expectOk(await admin.post('/blade-base/customer/submit', { ...(await detail('/blade-base/customer', c1)), partner: partner1 }));
    const recommend = async (partnerId: string, customerId: string, action: 'recommendedpass' | 'recommendedrefuse') => {
      const r = expectOk(await admin.post('/blade-base/customerrecommended/submit', { partnerId, customerId, bartererName: `推荐${token}`, contactPerson: '张三', telephone: '13900000009' }));
      expectOk(await admin.post(`/blade-base/customerrecommended/${action}`, { id: r.id, version: r.version, auditRemark: '审核' }));
    };
    await recommend(partner2, c2, 'recommendedpass');
    await recommend(partner1, c3, 'recommendedrefuse');

    // SRM: an approved purchase order of supplier 1 pushed twice.
    const po = await approvedBill(admin, BASES.purchaseOrder, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: g1, qty: '1', purchasePrice: '4.00' }]) });
    const pushed = expectOk(await admin.get(`${BASES.purchaseOrder}/pushSrm`, { id: po.id, version: po.version }));
    expectOk(await admin.get(`${BASES.purchaseOrder}/pushSrm`, { id: po.id, version: pushed.bill.version }));
  });
  afterAll(async () => server?.close());

  test('every call answers (no 404, no server error)', async () => {
    expect(await unanswered(admin, CALLS)).toEqual([]);
  });

  test('purchaseAnalysis per goods: quantities, amounts, tax, returns and average cost of posted bills only', async () => {
    const all = purchaseLines();
    const page = await get(`${PURCHASE}/purchaseAnalysis`, { groupBy: 'goods', billDate_datege: '2025-01-01', billDate_datele: '2025-12-31' });
    expect(page.records.map((r: Row) => r.commInfoId)).toEqual(
      [...w.goods].sort((a, b) => sum(all.filter((l) => l.commInfoId === b), 'totalAmt').comparedTo(sum(all.filter((l) => l.commInfoId === a), 'totalAmt'))),
    );
    const whole = sum(all, 'totalAmt');
    for (const g of w.goods) {
      const mine = all.filter((l) => l.commInfoId === g);
      const ins = mine.filter((l) => !l.isReturn);
      const rets = mine.filter((l) => l.isReturn);
      const qty = sum(mine, 'qty');
      const row = page.records.find((r: Row) => r.commInfoId === g);
      expect(row, g).toMatchObject({
        groupKey: g,
        groupName: expect.stringContaining('商品'),
        inQty: money(sum(ins, 'qty')),
        returnQty: money(sum(rets, 'qty').neg()),
        baseQty: money(qty),
        inAmt: money(sum(ins, 'totalAmt')),
        returnAmt: money(sum(rets, 'totalAmt').neg()),
        totalAmt: money(sum(mine, 'totalAmt')),
        purchaseAmt: money(sum(mine, 'purchaseAmt')),
        taxAmt: money(sum(mine, 'taxAmt')),
        avgPrice: fixed(sum(mine, 'purchaseAmt').div(qty), 5),
        avgTaxPrice: fixed(sum(mine, 'totalAmt').div(qty), 5),
        billCount: new Set(ins.map((l) => l.headId)).size,
        returnBillCount: new Set(rets.map((l) => l.headId)).size,
        amountShare: pct(sum(mine, 'totalAmt'), whole),
        returnRate: pct(sum(rets, 'totalAmt').neg(), sum(ins, 'totalAmt')),
        supplierCount: new Set(mine.map((l) => l.supplierId)).size,
        lastPurchaseDate: ins.map((l) => l.billDate.slice(0, 10)).sort().at(-1) ?? null,
      });
      expect(new Dec(row.purchaseAmt).plus(row.taxAmt).toFixed(2)).toBe(row.totalAmt);
      // A page of one goods counts its suppliers too (the default order counts only the page's groups),
      // and so does an order by another figure (every group counted).
      const place = page.records.indexOf(row) + 1;
      for (const query of [{ size: 1, current: place }, { size: 20, current: 1, descs: 'supplierCount' }]) {
        const other = await get(`${PURCHASE}/purchaseAnalysis`, { groupBy: 'goods', billDate_datege: '2025-01-01', billDate_datele: '2025-12-31', ...query });
        expect(other.records.find((r: Row) => r.commInfoId === g), JSON.stringify(query)).toMatchObject({ supplierCount: row.supplierCount, lastPurchaseDate: row.lastPurchaseDate, totalAmt: row.totalAmt });
      }
    }
    expect(page.summary).toMatchObject({ groupCount: 2, totalAmt: money(whole), billCount: 2, returnBillCount: 1, goodsCount: 2, supplierCount: 2 });
    // The return is negative on its bill: 2 × g1 back.
    expect(bills.ret1.bodyList[0].qty).toBe('-2.00');

    // A period: March only drops supplier 2's April inbound.
    const march = await get(`${PURCHASE}/purchaseAnalysis`, { groupBy: 'goods', billDate_datege: '2025-03-01', billDate_datele: '2025-03-31' });
    const inMarch = all.filter((l) => l.billDate.startsWith('2025-03'));
    expect(march.summary.totalAmt).toBe(money(sum(inMarch, 'totalAmt')));
    expect(march.records.find((r: Row) => r.commInfoId === w.goods[0]).totalAmt).toBe(money(sum(inMarch.filter((l) => l.commInfoId === w.goods[0]), 'totalAmt')));
    expect((await admin.get(`${PURCHASE}/purchaseAnalysis`, { groupBy: 'nope' })).status).toBe(400);
    expect((await admin.get(`${PURCHASE}/purchaseAnalysis`, { billDate_datege: '2025-02-30' })).status).toBe(400);
  });

  test('purchaseAnalysis by supplier, warehouse, month and category (sub-categories included); supplierpurchaseAnalysis', async () => {
    const all = purchaseLines();
    const year = { billDate_datege: '2025-01-01', billDate_datele: '2025-12-31' };
    const bySupplier = await get(`${PURCHASE}/purchaseAnalysis`, { ...year, groupBy: '供应商' });
    const bySupplierToo = await get(`${PURCHASE}/supplierpurchaseAnalysis`, year);
    for (const [id, name] of [[w.supplierId, '供应商'], [supplier2, '二号供应商']]) {
      const mine = all.filter((l) => l.supplierId === id);
      for (const page of [bySupplier, bySupplierToo]) {
        expect(page.records.find((r: Row) => r.supplierId === id)).toMatchObject({ bartererName: expect.stringContaining(name), totalAmt: money(sum(mine, 'totalAmt')), taxAmt: money(sum(mine, 'taxAmt')), avgPrice: null, goodsCount: new Set(mine.map((l) => l.commInfoId)).size });
      }
    }
    const one = await get(`${PURCHASE}/supplierpurchaseAnalysis`, { ...year, supplierId: supplier2 });
    expect(one.records.map((r: Row) => r.supplierId)).toEqual([supplier2]);

    const byDepot = await get(`${PURCHASE}/purchaseAnalysis`, { ...year, groupBy: 'depot' });
    for (const d of w.depots) expect(byDepot.records.find((r: Row) => r.depotId === d).totalAmt).toBe(money(sum(all.filter((l) => l.depotId === d), 'totalAmt')));

    const byMonth = await get(`${PURCHASE}/purchaseAnalysis`, { ...year, groupBy: 'month', ascs: 'month' });
    expect(byMonth.records.map((r: Row) => [r.month, r.totalAmt])).toEqual(['2025-03', '2025-04'].map((m) => [m, money(sum(all.filter((l) => l.billDate.startsWith(m)), 'totalAmt'))]));

    const goods1 = await detail('/blade-base/comminfo', w.goods[0]);
    const parentOnly = await get(`${PURCHASE}/purchaseAnalysis`, { ...year, groupBy: 'classify', classifyId: goods1.classifyId });
    expect(parentOnly.summary.totalAmt).toBe(money(sum(all, 'totalAmt')));
    expect(parentOnly.records.map((r: Row) => r.classifyId).sort()).toEqual([goods1.classifyId, subCategory].sort());
    const child = await get(`${PURCHASE}/purchaseAnalysis`, { ...year, groupBy: 'goods', classifyId_equal: subCategory });
    expect(child.records.map((r: Row) => r.commInfoId)).toEqual([w.goods[1]]);
  });

  test('purchaseAnalysisDetail: the posted lines behind a figure, newest first, with their totals', async () => {
    const all = purchaseLines();
    const g1 = all.filter((l) => l.commInfoId === w.goods[0]);
    const page = await get(`${PURCHASE}/purchaseAnalysisDetail`, { commInfoId: w.goods[0] });
    expect(page.total).toBe(g1.length);
    expect(page.records.map((r: Row) => r.billNo)).toEqual([bills.in2.billNo, bills.ret1.billNo, bills.in1.billNo]);
    expect(page.records[1]).toMatchObject({ billType: '0813', isReturn: 2, qty: '-2.00', totalAmt: g1.find((l) => l.isReturn).totalAmt, commInfoName: expect.any(String), bartererName: expect.any(String) });
    expect(page.summary).toMatchObject({ lineCount: 3, totalAmt: money(sum(g1, 'totalAmt')), returnAmt: money(sum(g1.filter((l) => l.isReturn), 'totalAmt').neg()) });
    const returns = await get(`${PURCHASE}/purchaseAnalysisDetail`, { month: '2025-03', isReturn: 2 });
    expect(returns.records.map((r: Row) => r.billNo)).toEqual([bills.ret1.billNo]);
    expect((await admin.get(`${PURCHASE}/purchaseAnalysisDetail`, { month: '2025-13' })).status).toBe(400);
  });

  test('staffreport: per salesperson sales, returns, cost, gross profit, customers and money received in May', async () => {
    const page = await get('/blade-report/staffreport/list', MAY);
    const may = ['so1', 'so2', 'so3', 'sr1'].map((k) => bills[k]);
    const expected = [salesmanA, salesmanB].map((staff) => {
      const mine = may.filter((b) => b.staffId === staff);
      const lns = mine.flatMap((b) => b.bodyList);
      const outs = mine.filter((b) => b.billType === '0803');
      const returns = mine.filter((b) => b.billType === '0804');
      const salesAmt = sum(lns, 'salesAmt');
      const costAmt = sum(lns, 'costAmt');
      const received = sum([bills.rc1, bills.rc2].filter((r) => r.staffId === staff), 'precpAmt');
      return {
        staffId: staff,
        billCount: outs.length,
        returnBillCount: returns.length,
        customerCount: new Set(mine.map((b) => b.customerId)).size,
        outAmt: money(sum(outs.flatMap((b) => b.bodyList), 'totalAmt')),
        returnAmt: money(sum(returns.flatMap((b) => b.bodyList), 'totalAmt').neg()),
        totalAmt: money(sum(lns, 'totalAmt')),
        salesAmt: money(salesAmt),
        costAmt: money(costAmt),
        grossProfit: money(salesAmt.minus(costAmt)),
        grossMargin: pct(salesAmt.minus(costAmt), salesAmt),
        receivedAmt: money(received),
      };
    });
    expected.sort((a, b) => new Dec(b.totalAmt).comparedTo(a.totalAmt));
    expect(page.records.map((r: Row) => r.staffId)).toEqual(expected.map((e) => e.staffId));
    expected.forEach((e, i) => expect(page.records[i]).toMatchObject({ ...e, rank: i + 1, staffName: expect.stringContaining('业务员') }));
    expect(page.summary.totalAmt).toBe(money(sum(may.flatMap((b) => b.bodyList), 'totalAmt')));
    expect(page.summary.customerCount).toBe(3);
    // June: only so4 (B) and A's June receipt.
    const june = await get('/blade-report/staffreport/list', { queryDate: '2025-06', dateType: 2 });
    expect(june.records.find((r: Row) => r.staffId === salesmanB)).toMatchObject({ billCount: 1, totalAmt: money(sum(bills.so4.bodyList, 'totalAmt')), receivedAmt: '0.00' });
    expect(june.records.find((r: Row) => r.staffId === salesmanA)).toMatchObject({ billCount: 0, totalAmt: '0.00', receivedAmt: money(new Dec(bills.rc3.precpAmt)) });
    expect((await get('/blade-report/staffreport/list', { ...MAY, staffId_equal: salesmanB })).records.map((r: Row) => r.staffId)).toEqual([salesmanB]);
  });

  test('driverreport: runs, sales-outs (approved or posted, flushed left out), customers, quantity and amount; detailList', async () => {
    const delivered = ['so1', 'so2', 'so3', 'so5'].map((k) => bills[k]);
    const finished = [bills.so1, bills.so2];
    const period = { deliveryDate_datege: '2025-05-01', deliveryDate_datele: '2025-05-31' };
    const page = await get('/blade-report/driverreport/list', period);
    expect(page.records).toHaveLength(1);
    expect(page.records[0]).toMatchObject({
      driverId,
      driverName: expect.stringContaining('司机'),
      runCount: 2,
      soCount: delivered.length,
      finishedSoCount: finished.length,
      finishedRate: pct(new Dec(finished.length), new Dec(delivered.length)),
      customerCount: new Set(delivered.map((b) => b.customerId)).size,
      totalQty: money(sum(delivered, 'totalQty')),
      totalAmt: money(sum(delivered, 'finalAmt')),
      finishedAmt: money(sum(finished, 'finalAmt')),
      avgRunAmt: money(sum(delivered, 'finalAmt').div(2)),
      lastDeliveryDate: '2025-05-12',
    });
    expect(page.summary).toMatchObject({ driverCount: 1, soCount: 4, totalAmt: money(sum(delivered, 'finalAmt')) });
    const whole = await get('/blade-report/driverreport/list', {});
    expect(whole.records[0]).toMatchObject({ runCount: 3, soCount: 5 });

    const rows = await get('/blade-report/driverreport/detailList', { ...period, driverId });
    expect(rows.total).toBe(4);
    expect(rows.records.map((r: Row) => r.billNo)).toEqual([...[bills.so3, bills.so5].map((b) => b.billNo).sort(), ...[bills.so1, bills.so2].map((b) => b.billNo).sort()]);
    expect(rows.records[0]).toMatchObject({ runNo: bills.run2.billNo, deliveryDate: '2025-05-12', deliveryStatus: '3001', driverName: expect.any(String), carNumber: expect.stringContaining('京B'), routeName: expect.stringContaining('东线') });
    expect(rows.summary.totalAmt).toBe(money(sum(delivered, 'finalAmt')));
    expect((await admin.get('/blade-report/driverreport/detailList', {})).body.msg).toBe('请选择司机');
  });

  test('srminforeport: no portal login exists; per supplier the orders it can see and the pushes in the outbox', async () => {
    const outbox = await server.services.store.find(server.services.m('integration-outbox'), '000000', { where: { target: 'SRM' } });
    const page = await get('/blade-report/srminforeport/logininfolist', {});
    const first = page.records[0];
    const times = outbox.map((m) => String(m.createTime)).sort();
    expect(first).toMatchObject({
      supplierId: w.supplierId,
      portalStatus: '未开通',
      portalAccount: null,
      loginCount: 0,
      lastLoginTime: null,
      orderCount: 1,
      pushedOrderCount: 1,
      pushCount: outbox.length,
      pendingCount: outbox.filter((m) => m.sendStatus === 1).length,
      firstPushTime: times[0],
      lastPushTime: times[times.length - 1],
    });
    expect(outbox.length).toBe(2);
    expect(page.records.find((r: Row) => r.supplierId === supplier2)).toMatchObject({ pushCount: 0, orderCount: 0, lastPushTime: null });
    expect(page.summary).toMatchObject({ pushCount: 2, pushedSupplierCount: 1, loginCount: 0 });
    expect((await get('/blade-report/srminforeport/logininfolist', { pushed: 2 })).total).toBe(1);
  });

  test('customerrecommendrank: partners ranked by what their customers bought in May; one partner in detail', async () => {
    const net = (customer: string) => sum(['so1', 'so2', 'so3', 'sr1'].map((k) => bills[k]).filter((b) => b.customerId === customer).flatMap((b) => b.bodyList), 'totalAmt');
    const [c1, c2] = w.customers;
    const page = await get('/blade-report/customerrecommendrank/page', MAY);
    const expected = [
      { partnerId: partner1, recommendCount: 1, approvedCount: 0, customerCount: 1, buyerCount: 1, totalAmt: money(net(c1)), returnBillCount: 1 },
      { partnerId: partner2, recommendCount: 1, approvedCount: 1, customerCount: 1, buyerCount: 1, totalAmt: money(net(c2)), returnBillCount: 0 },
    ].sort((a, b) => new Dec(b.totalAmt).comparedTo(a.totalAmt));
    expect(page.records.map((r: Row) => r.partnerId)).toEqual(expected.map((e) => e.partnerId));
    expected.forEach((e, i) => expect(page.records[i]).toMatchObject({ ...e, rank: i + 1, partnerName: expect.stringContaining('合伙人'), amountShare: pct(new Dec(e.totalAmt), net(c1).plus(net(c2))) }));
    expect(page.summary.totalAmt).toBe(money(net(c1).plus(net(c2))));

    const one = await get('/blade-report/customerrecommendrank/customerrecommenddetailanalysis', { ...MAY, partnerId: partner1 });
    expect(one).toMatchObject({ partnerId: partner1, customerCount: 1, recommendCount: 1, totalAmt: money(net(c1)) });
    expect(one.records).toHaveLength(1);
    const c1Bills = ['so1', 'sr1'].map((k) => bills[k]);
    expect(one.records[0]).toMatchObject({
      customerId: c1,
      billCount: 1,
      returnBillCount: 1,
      outAmt: money(sum(bills.so1.bodyList, 'totalAmt')),
      returnAmt: money(sum(bills.sr1.bodyList, 'totalAmt').neg()),
      totalAmt: money(net(c1)),
      grossProfit: money(sum(c1Bills.flatMap((b) => b.bodyList), 'salesAmt').minus(sum(c1Bills.flatMap((b) => b.bodyList), 'costAmt'))),
    });
    // June: only customer 1's so4.
    const june = await get('/blade-report/customerrecommendrank/page', { queryDate: '2025-06' });
    expect(june.records[0]).toMatchObject({ partnerId: partner1, totalAmt: money(sum(bills.so4.bodyList, 'totalAmt')) });
    expect((await admin.get('/blade-report/customerrecommendrank/customerrecommenddetailanalysis', {})).status).toBe(400);
  });

  test('another tenant sees nothing', async () => {
    const other = await signedIn(server.url, '100001');
    for (const [path, query] of [
      [`${PURCHASE}/purchaseAnalysis`, {}],
      [`${PURCHASE}/purchaseAnalysisDetail`, {}],
      [`${PURCHASE}/supplierpurchaseAnalysis`, {}],
      ['/blade-report/staffreport/list', {}],
      ['/blade-report/driverreport/list', {}],
      ['/blade-report/driverreport/detailList', { driverId }],
      ['/blade-report/srminforeport/logininfolist', { supplierId: w.supplierId }],
      ['/blade-report/customerrecommendrank/page', {}],
    ] as const) {
      expect(expectOk(await other.get(path, { current: 1, size: 50, ...query }), path).total, path).toBe(0);
    }
    expect((await other.get('/blade-report/customerrecommendrank/customerrecommenddetailanalysis', { partnerId: partner1 })).body.msg).toBe('合伙人不存在或已被删除');
  });
});
