/**
 * Customer analysis (客户分析 list/detail, customerprofit recently/recentlyTrend/preference) on
 * known posted sales-outs and a return, to the cent; the sales order extras (demand → 采购需求单
 * for a user, custormerOwn) and the mall orders (scdd: orders whose 订单来源 is 商城), on SQLite
 * and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, approvedBill, lines, makeWorld, type World } from '../support/bills.ts';
import { uniqueToken } from '../support/resources.ts';

type Row = Record<string, any>;

const pad = (n: number) => String(n).padStart(2, '0');
const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};
/** yyyy-MM of the month `n` months from now. */
const monthFromNow = (n: number) => {
  const d = new Date();
  const k = d.getFullYear() * 12 + d.getMonth() + n;
  return `${Math.floor(k / 12)}-${pad((k % 12) + 1)}`;
};

describe.each(databases())('customer analysis and sales order extras ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let token: string;
  let categoryA: string;
  let categoryB: string;
  let out1: Row;
  let out2: Row;
  let ret: Row;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 3, customers: 2 });
    const [g1, g2, g3] = w.goods;
    const c1 = expectOk(await admin.get('/blade-base/customer/detail', { id: w.customers[0] }));
    token = String(c1.bartererName).replace(/-1$/, '');
    // g2 sits in a sub-category of g1's category.
    const goods1 = expectOk(await admin.get('/blade-base/comminfo/detail', { id: g1 }));
    categoryA = String(goods1.classifyId);
    categoryB = String(expectOk(await admin.post('/blade-base/commclassifyshop/submit', { commClassifyName: `子类${uniqueToken().slice(-6)}`, parentCommClassifyId: categoryA })).id);
    expectOk(await admin.post('/blade-base/comminfo/submit', { ...expectOk<Row>(await admin.get('/blade-base/comminfo/detail', { id: g2 })), classifyId: categoryB }));

    await approvedBill(admin, BASES.purchaseIn, {
      supplierId: w.supplierId,
      depotId: w.depots[0],
      bodyList: lines(w, [
        { goods: g1, qty: '20', purchasePrice: '2.00' },
        { goods: g2, qty: '20', purchasePrice: '3.00' },
        { goods: g3, qty: '20', purchasePrice: '1.00' },
      ]),
    }, { post: true });
    // Customer 1: today 3 × g1 at 11.30 and 5 × g2 at 1.13; two months ago 1 × g1 at 11.30; today a return of 1 × g1.
    out1 = await approvedBill(admin, BASES.salesOut, {
      customerId: w.customers[0],
      depotId: w.depots[0],
      billDate: today(),
      bodyList: lines(w, [{ goods: g1, qty: '3', taxPrice: '11.30' }, { goods: g2, qty: '5', taxPrice: '1.13' }]),
    }, { post: true });
    out2 = await approvedBill(admin, BASES.salesOut, {
      customerId: w.customers[0],
      depotId: w.depots[0],
      billDate: `${monthFromNow(-2)}-01`,
      bodyList: lines(w, [{ goods: g1, qty: '1', taxPrice: '11.30' }]),
    }, { post: true });
    const generated = expectOk(await admin.get(`${BASES.salesReturn}/generate`, { soNo: out1.billNo }));
    const line = generated.bodyList.find((l: Row) => l.commInfoId === g1);
    ret = await approvedBill(admin, BASES.salesReturn, {
      ...generated,
      billDate: today(),
      bodyList: [{ ...line, qty: '-1', salesAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined }],
    }, { post: true });
    // Customer 2: today 4 × g3 at 2.26.
    await approvedBill(admin, BASES.salesOut, { customerId: w.customers[1], depotId: w.depots[0], billDate: today(), bodyList: lines(w, [{ goods: g3, qty: '4', taxPrice: '2.26' }]) }, { post: true });
    // Not posted: never counted.
    expectOk(await admin.post(`${BASES.salesOut}/submit`, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: g1, qty: '7', taxPrice: '11.30' }]) }));
  });
  afterAll(async () => server?.close());

  const list = async (query: Record<string, unknown>) => expectOk(await admin.get('/blade-sales/customeranalysis/list', { current: 1, size: 50, ...query }));

  test('list: per customer sales, returns, cost, gross profit and margin to the cent; a date range; quadrants', async () => {
    const all = await list({ bartererName: token });
    expect(all.total).toBe(2);
    const [c1, c2] = all.records;
    expect(c1).toMatchObject({
      customerId: w.customers[0],
      bartererName: `${token}-1`,
      billCount: 2,
      returnBillCount: 1,
      salesQty: '9.00',
      returnQty: '1.00',
      qty: '8.00',
      outAmt: '50.85',
      returnAmt: '11.30',
      totalAmt: '39.55',
      salesAmt: '35.00',
      costAmt: '21.00',
      grossProfit: '14.00',
      grossMargin: '40.00',
      returnRate: '22.22',
      avgBillAmt: '19.78',
      lastSaleDate: today(),
      firstSaleDate: `${monthFromNow(-2)}-01`,
      amountShare: '81.40',
    });
    expect(c2).toMatchObject({ customerId: w.customers[1], billCount: 1, returnBillCount: 0, totalAmt: '9.04', salesAmt: '8.00', costAmt: '4.00', grossProfit: '4.00', grossMargin: '50.00', returnAmt: '0.00' });
    expect(all.summary).toMatchObject({ customerCount: 2, totalAmt: '48.59', salesAmt: '43.00', costAmt: '25.00', grossProfit: '18.00', grossMargin: '41.86' });
    // Default thresholds: the average net sales (24.295) and the overall margin.
    expect([all.xValue, all.yValue]).toEqual(['24.30', '41.86']);
    expect([c1.quadrant, c1.quadrantName, c2.quadrant, c2.quadrantName]).toEqual([2, '规模客户', 3, '潜力客户']);
    const given = await list({ bartererName: token, xValue: '5', yValue: '45' });
    expect(given.records.map((r: Row) => r.quadrantName)).toEqual(['规模客户', '明星客户']);

    // Today only: the sale of two months ago drops out.
    const day = await list({ bartererName: token, billDate_datege: today(), billDate_datele: today() });
    expect(day.records[0]).toMatchObject({ customerId: w.customers[0], billCount: 1, returnBillCount: 1, outAmt: '39.55', returnAmt: '11.30', totalAmt: '28.25', salesAmt: '25.00', costAmt: '19.00', grossProfit: '6.00', grossMargin: '24.00' });
    const past = await list({ customerId: w.customers[0], queryDate: monthFromNow(-2), dateType: 'month' });
    expect(past.records).toHaveLength(1);
    expect(past.records[0]).toMatchObject({ billCount: 1, totalAmt: '11.30', salesAmt: '10.00', costAmt: '2.00' });
    expect(past.dateFrom).toBe(`${monthFromNow(-2)}-01`);

    // Sorting by another figure, and paging.
    const bySmallest = await list({ bartererName: token, ascs: 'total_amt', size: 1 });
    expect(bySmallest).toMatchObject({ total: 2, pages: 2, size: 1 });
    expect(bySmallest.records.map((r: Row) => r.customerId)).toEqual([w.customers[1]]);
    expect((await admin.get('/blade-sales/customeranalysis/list', { ascs: 'no_such_field' })).status).toBe(400);
    expect((await admin.get('/blade-sales/customeranalysis/list', { billDate_datege: '2026-13-01' })).status).toBe(400);
  });

  test('detail: the customer figures and one row per goods', async () => {
    const d = expectOk(await admin.get('/blade-sales/customeranalysis/detail', { customerId: w.customers[0] }));
    expect(d).toMatchObject({ customerId: w.customers[0], totalAmt: '39.55', grossProfit: '14.00', billCount: 2 });
    expect(d.goods.map((g: Row) => g.commInfoId)).toEqual([w.goods[0], w.goods[1]]);
    expect(d.goods[0]).toMatchObject({ salesQty: '4.00', returnQty: '1.00', qty: '3.00', outAmt: '45.20', returnAmt: '11.30', totalAmt: '33.90', salesAmt: '30.00', costAmt: '6.00', grossProfit: '24.00', grossMargin: '80.00', avgPrice: '10.00000', commInfoName: expect.stringContaining(token.replace('客户', '商品')), unitName: expect.any(String) });
    expect(d.goods[1]).toMatchObject({ qty: '5.00', totalAmt: '5.65', salesAmt: '5.00', costAmt: '15.00', grossProfit: '-10.00', grossMargin: '-200.00', classifyId: categoryB });
    const none = expectOk(await admin.get('/blade-sales/customeranalysis/detail', { customerId: w.customers[1], billDate_datele: '2000-01-01' }));
    expect(none).toMatchObject({ billCount: 0, totalAmt: '0.00', grossMargin: '0.00', goods: [] });
    expect((await admin.get('/blade-sales/customeranalysis/detail', {})).status).toBe(400);
    expect((await admin.get('/blade-sales/customeranalysis/detail', { customerId: 'nope' })).body.msg).toBe('客户不存在或已被删除');
  });

  test('recently: the last days or the last bills, newest first, returns negative', async () => {
    const days = expectOk(await admin.get('/blade-sales/customerprofit/recently', { customerId: w.customers[0] }));
    expect(days.records.map((r: Row) => r.billNo).sort()).toEqual([out1.billNo, ret.billNo].sort());
    const sale = days.records.find((r: Row) => r.billId === out1.id);
    expect(sale).toMatchObject({ billType: '0803', billTypeName: '销售出库单', isReturn: 1, lineCount: 2, qty: '8.00', totalAmt: '39.55', salesAmt: '35.00', costAmt: '21.00', grossProfit: '14.00', depotName: expect.any(String) });
    expect(days.records.find((r: Row) => r.billId === ret.id)).toMatchObject({ billType: '0804', isReturn: 2, qty: '-1.00', totalAmt: '-11.30', costAmt: '-2.00' });
    expect(days).toMatchObject({ totalAmt: '28.25', grossProfit: '6.00', dateTo: today() });
    const bills = expectOk(await admin.get('/blade-sales/customerprofit/recently', { customerId: w.customers[0], queryType: 2, size: 3 }));
    expect(bills.records).toHaveLength(3);
    expect(bills.records[2]).toMatchObject({ billId: out2.id, billDate: `${monthFromNow(-2)}-01`, totalAmt: '11.30' });
    const one = expectOk(await admin.get('/blade-sales/customerprofit/recently', { customerId: w.customers[0], queryType: 2, size: 1 }));
    expect(one.records).toHaveLength(1);
  });

  test('recentlyTrend: twelve months, every one present, the right ones filled', async () => {
    const t = expectOk(await admin.get('/blade-sales/customerprofit/recentlyTrend', { customerId: w.customers[0] }));
    expect(t.months.map((m: Row) => m.month)).toEqual(Array.from({ length: 12 }, (_, i) => monthFromNow(i - 11)));
    expect(t.months[11]).toMatchObject({ billCount: 1, returnBillCount: 1, outAmt: '39.55', returnAmt: '11.30', totalAmt: '28.25', grossProfit: '6.00' });
    expect(t.months[9]).toMatchObject({ billCount: 1, totalAmt: '11.30', salesAmt: '10.00', costAmt: '2.00', grossProfit: '8.00', grossMargin: '80.00' });
    for (const i of [0, 1, 2, 3, 4, 5, 6, 7, 8, 10]) expect(t.months[i], t.months[i].month).toMatchObject({ billCount: 0, totalAmt: '0.00', grossProfit: '0.00' });
    expect(t).toMatchObject({ totalAmt: '39.55', grossProfit: '14.00' });
    // Ending two months back: that month is the last of twelve.
    const back = expectOk(await admin.get('/blade-sales/customerprofit/recentlyTrend', { customerId: w.customers[0], queryDate: monthFromNow(-2) }));
    expect(back.months[11]).toMatchObject({ month: monthFromNow(-2), totalAmt: '11.30' });
    expect(back.totalAmt).toBe('11.30');
  });

  test('preference: goods and categories ranked by amount and by quantity', async () => {
    const p = expectOk(await admin.post('/blade-sales/customerprofit/preference', { customerId: w.customers[0] }));
    expect(p).toMatchObject({ totalAmt: '39.55', totalQty: '8.00' });
    expect(p.goodsByAmount.map((g: Row) => [g.rank, g.commInfoId, g.totalAmt, g.qty, g.amountShare])).toEqual([
      [1, w.goods[0], '33.90', '3.00', '85.71'],
      [2, w.goods[1], '5.65', '5.00', '14.29'],
    ]);
    expect(p.goodsByQty.map((g: Row) => [g.commInfoId, g.qtyShare])).toEqual([[w.goods[1], '62.50'], [w.goods[0], '37.50']]);
    expect(p.classifyByAmount.map((c: Row) => [c.classifyId, c.totalAmt, c.goodsCount])).toEqual([[categoryA, '33.90', 1], [categoryB, '5.65', 1]]);
    expect(p.classifyByQty.map((c: Row) => c.classifyId)).toEqual([categoryB, categoryA]);
    expect(p.classifyByQty[0].classifyName).toMatch(/^子类/);
    // Within a period (query string), and the top one only.
    const top = expectOk(await admin.call('POST', '/blade-sales/customerprofit/preference', { query: { billDate_datele: `${monthFromNow(-1)}-01`, size: 1 }, json: { customerId: w.customers[0] } }));
    expect(top.goodsByAmount).toEqual([expect.objectContaining({ commInfoId: w.goods[0], totalAmt: '11.30', qty: '1.00' })]);
  });

  test('demand: an approved order’s unshipped goods become a requisition draft for demandUserId, once', async () => {
    const [g1, g2] = w.goods;
    const deptId = expectOk<Row[]>(await admin.get('/blade-system/dept/list'))[0].id;
    const roleId = expectOk<Row[]>(await admin.get('/blade-system/role/list'))[0].id;
    const buyer = expectOk(await admin.post('/blade-user/submit', { account: `buyer${uniqueToken().slice(-6)}`, password: 'Buy-12345', realName: '采购员甲', roleId, deptId }));
    const so = await approvedBill(admin, BASES.salesOrder, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: g1, qty: '4', taxPrice: '11.30' }, { goods: g2, qty: '2', taxPrice: '1.13' }]) });
    await approvedBill(admin, BASES.salesOut, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: g1, qty: '1', taxPrice: '11.30', sourceBodyId: so.bodyList[0].id }]) }, { post: true });
    const demand = expectOk(await admin.get(`${BASES.salesOrder}/demand`, { id: so.id, demandUserId: buyer.id }));
    expect(demand).toMatchObject({ billStatus: '1301', billType: '0817', demandUserId: buyer.id, demandUserName: '采购员甲', sourceBillId: so.id, sourceBillNo: so.billNo, depotId: w.depots[0] });
    expect(demand.bodyList.map((l: Row) => [l.commInfoId, l.qty, l.purchasePrice, l.sourceBodyId])).toEqual([
      [g1, '3.00', '2.00000', so.bodyList[0].id],
      [g2, '2.00', '3.00000', so.bodyList[1].id],
    ]);
    const stored = expectOk(await admin.get('/blade-purchase/demandhead/detail', { id: demand.id }));
    expect(stored).toMatchObject({ demandUserId: buyer.id, totalQty: '5.00' });
    const tasks = expectOk(await admin.get('/blade-desk/usertask/list', { userId: buyer.id, size: 50 })).records;
    expect(tasks).toEqual([expect.objectContaining({ billId: demand.id, billType: '0817', title: `采购需求单 ${demand.billNo} 待处理` })]);
    const chain = expectOk(await admin.get('/blade-desk/billrelation/sale', { id: so.id, billType: '0802' }));
    expect(JSON.stringify(chain)).toContain(demand.billNo);

    const again = await admin.get(`${BASES.salesOrder}/demand`, { id: so.id, demandUserId: buyer.id });
    expect(again.status).toBe(400);
    expect(again.body.msg).toContain('请勿重复生成');
    const draft = expectOk(await admin.post(`${BASES.salesOrder}/draft`, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: g1, qty: '1', taxPrice: '11.30' }]) }));
    expect((await admin.get(`${BASES.salesOrder}/demand`, { id: draft.id, demandUserId: buyer.id })).body.msg).toContain('只有已审核的销售订单');
    expect((await admin.get(`${BASES.salesOrder}/demand`, { id: so.id })).status).toBe(400);
    expect((await admin.get(`${BASES.salesOrder}/demand`, { id: so.id, demandUserId: 'nobody' })).body.msg).toBe('需求负责人不存在');
  });

  test('custormerOwn: orders of my customers, with me as salesperson, or entered by me', async () => {
    const v = await makeWorld(admin, { goods: 1, customers: 2 });
    const deptId = expectOk<Row[]>(await admin.get('/blade-system/dept/list'))[0].id;
    const adminRole = expectOk<Row[]>(await admin.get('/blade-system/role/list')).find((r) => r.roleAlias === 'administrator')!.id;
    const account = `sales${uniqueToken().slice(-6)}`;
    const user = expectOk(await admin.post('/blade-user/submit', { account, password: 'Sale-12345', realName: '业务员乙', roleId: adminRole, deptId }));
    const staff = expectOk(await admin.post('/blade-base/staff/submit', { staffCode: `Y${uniqueToken().slice(-6)}`, staffName: '业务员乙', deptId, isUser: 2, userId: user.id }));
    expectOk(await admin.post('/blade-base/customer/submit', { ...expectOk<Row>(await admin.get('/blade-base/customer/detail', { id: v.customers[1] })), staffId: staff.id }));
    const order = (api: Api, customer: string, extra: Row = {}) =>
      api.post(`${BASES.salesOrder}/draft`, { customerId: customer, depotId: v.depots[0], bodyList: lines(v, [{ goods: v.goods[0], qty: '1', taxPrice: '1.13' }]), ...extra }).then((r) => expectOk(r));
    const ofMyCustomer = await order(admin, v.customers[1]);
    const asSalesperson = await order(admin, v.customers[0], { staffId: staff.id });
    const notMine = await order(admin, v.customers[0]);
    const seller = await signedIn(server.url, '000000', account, 'Sale-12345');
    const enteredByMe = await order(seller, v.customers[0]);
    const own = expectOk(await seller.get(`${BASES.salesOrder}/custormerOwn`, { size: 100 }));
    expect(own.records.map((r: Row) => r.id).sort()).toEqual([ofMyCustomer.id, asSalesperson.id, enteredByMe.id].sort());
    expect(own.total).toBe(3);
    expect(own.records.find((r: Row) => r.id === ofMyCustomer.id)).toMatchObject({ bartererName: expect.any(String) });
    // The list's map filters still apply.
    expect(expectOk(await seller.get(`${BASES.salesOrder}/custormerOwn`, { customerId_equal: v.customers[1] })).records.map((r: Row) => r.id)).toEqual([ofMyCustomer.id]);
    // The administrator has no staff record: only what the administrator entered.
    const adminOwn = expectOk(await admin.get(`${BASES.salesOrder}/custormerOwn`, { size: 1000 })).records.map((r: Row) => r.id);
    expect(adminOwn).toEqual(expect.arrayContaining([ofMyCustomer.id, notMine.id]));
    expect(adminOwn).not.toContain(enteredByMe.id);
  });

  test('mall orders (scdd): only 商城-source orders in the lists; lines by category (sub-categories included); purchase and detail', async () => {
    const [g1, g2] = w.goods;
    const mall = await approvedBill(admin, BASES.salesOrder, { customerId: w.customers[1], depotId: w.depots[0], orderSource: '2', bodyList: lines(w, [{ goods: g1, qty: '2', taxPrice: '11.30' }, { goods: g2, qty: '3', taxPrice: '1.13' }]) });
    const office = await approvedBill(admin, BASES.salesOrder, { customerId: w.customers[1], depotId: w.depots[0], bodyList: lines(w, [{ goods: g1, qty: '1', taxPrice: '11.30' }]) });
    expect(mall.orderSource).toBe('2');
    const heads = expectOk(await admin.get('/blade-sales/scddsalesorderhead/list', { customerId: w.customers[1], size: 50 })).records;
    expect(heads.map((r: Row) => r.id)).toEqual([mall.id]);
    const everything = expectOk(await admin.get(`${BASES.salesOrder}/list`, { customerId: w.customers[1], size: 50 })).records.map((r: Row) => r.id);
    expect(everything).toEqual(expect.arrayContaining([mall.id, office.id]));

    const body = async (query: Row) => expectOk(await admin.get('/blade-sales/scddsalesorderbody/list', { headId: mall.id, size: 50, ...query })).records;
    expect((await body({})).map((l: Row) => [l.commInfoId, l.qty, l.billNo])).toEqual([[g1, '2.00', mall.billNo], [g2, '3.00', mall.billNo]]);
    expect((await body({ classifyId: categoryB })).map((l: Row) => l.commInfoId)).toEqual([g2]);
    expect((await body({ classifyId: categoryA })).map((l: Row) => l.commInfoId).sort()).toEqual([g1, g2].sort());
    expect(expectOk(await admin.get('/blade-sales/scddsalesorderbody/list', { headId: office.id })).records).toEqual([]);

    const detail = expectOk(await admin.get('/dy-erp/openorder/scdddetail', { soHeadId: mall.id }));
    expect(detail).toMatchObject({ id: mall.id, billNo: mall.billNo, orderSource: '2', totalAmt: '25.99' });
    expect(detail.bodyList).toHaveLength(2);
    expect((await admin.get('/dy-erp/openorder/scdddetail', { soHeadId: office.id })).body.msg).toBe('商城订单不存在或已被删除');

    expect((await admin.get('/blade-sales/scddsalesorderhead/purchase', { ids: office.id })).body.msg).toContain('不是商城订单');
    expectOk(await admin.post('/blade-base/comminfo/submit', { ...expectOk<Row>(await admin.get('/blade-base/comminfo/detail', { id: g1 })), supplierId: w.supplierId }));
    expectOk(await admin.post('/blade-base/comminfo/submit', { ...expectOk<Row>(await admin.get('/blade-base/comminfo/detail', { id: g2 })), supplierId: w.supplierId }));
    const made = expectOk(await admin.get('/blade-sales/scddsalesorderhead/purchase', { ids: mall.id }));
    const po = expectOk(await admin.get(`${BASES.purchaseOrder}/detail`, { id: made[0].id }));
    expect(po.bodyList.map((l: Row) => [l.commInfoId, l.qty]).sort()).toEqual([[g1, '2.00'], [g2, '3.00']].sort());
  });

  test('another tenant sees none of it', async () => {
    const b = await signedIn(server.url, '100001');
    expect(expectOk(await b.get('/blade-sales/customeranalysis/list', {})).records).toEqual([]);
    expect((await b.get('/blade-sales/customeranalysis/detail', { customerId: w.customers[0] })).body.msg).toBe('客户不存在或已被删除');
    expect((await b.get('/blade-sales/customerprofit/recentlyTrend', { customerId: w.customers[0] })).status).toBe(400);
    expect(expectOk(await b.get('/blade-sales/scddsalesorderhead/list', {})).records).toEqual([]);
    expect(expectOk(await b.get('/blade-sales/scddsalesorderbody/list', {})).records).toEqual([]);
    expect(expectOk(await b.get('/blade-sales/customeranalysis/lines', {})).records).toEqual([]);
    expect(expectOk(await admin.get('/blade-sales/customeranalysis/lines', { customerId: w.customers[0] })).records.length).toBe(5);
  });
});
