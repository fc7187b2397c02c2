/**
 * Sales reports (销售分析 salesAnalysis/Sumtotal/Detail, customersalesanalysis; salesProfit list and
 * distribution; salesStatistics cashList, deptList, total, payTypeList) on known posted sales-outs,
 * a return, retail sales and a retail return, on SQLite and PostgreSQL. Every figure is recomputed
 * here from the posted bills' own lines (as the bill API answers them) with Dec; a flushed bill and
 * an unposted one never count; a period filter; another tenant sees nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, approvedBill, lines, makeWorld, type World } from '../support/bills.ts';
import { unanswered, type Call } from '../support/catalogue.ts';
import { uniqueToken } from '../support/resources.ts';
import { Dec, fixed, type Decimal } from '../../src/shared/money/index.ts';

type Row = Record<string, any>;
const RETAIL = '/blade-sales/lsdsalesorderhead';
const RETAIL_RETURN = '/blade-sales/lsthdsalesorderhead';
const SA = '/blade-report/salesanalysis';
const SP = '/blade-report/salesProfit';
const SS = '/blade-report/salesStatistics';

const pad = (n: number) => String(n).padStart(2, '0');
const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};
const monthFromNow = (n: number) => {
  const d = new Date();
  const k = d.getFullYear() * 12 + d.getMonth() + n;
  return `${Math.floor(k / 12)}-${pad((k % 12) + 1)}`;
};

/** One posted line as the test knows it (units are base units: makeWorld's unit has rate 1). */
interface Line {
  billId: string;
  isReturn: boolean;
  date: string;
  customerId: string | null;
  staffId: string | null;
  deptId: string | null;
  depotId: string;
  goods: string;
  settlementId: string | null;
  finalAmt: Decimal;
  qty: Decimal;
  salesAmt: Decimal;
  taxAmt: Decimal;
  totalAmt: Decimal;
  costAmt: Decimal;
}

const m2 = (d: Decimal) => fixed(d, 2);
const pct = (part: Decimal, whole: Decimal) => (whole.isZero() ? '0.00' : fixed(part.div(whole).times(100), 2));
const sum = (ls: Line[], f: (l: Line) => Decimal) => ls.reduce((s, l) => s.plus(f(l)), new Dec(0));

/** The figures every sales report answers, recomputed from lines. */
function figures(ls: Line[]) {
  const sales = ls.filter((l) => !l.isReturn);
  const returns = ls.filter((l) => l.isReturn);
  const salesAmt = sum(ls, (l) => l.salesAmt);
  const profit = salesAmt.minus(sum(ls, (l) => l.costAmt));
  return {
    billCount: new Set(sales.map((l) => l.billId)).size,
    returnBillCount: new Set(returns.map((l) => l.billId)).size,
    salesQty: m2(sum(sales, (l) => l.qty)),
    returnQty: m2(sum(returns, (l) => l.qty).neg()),
    qty: m2(sum(ls, (l) => l.qty)),
    outAmt: m2(sum(sales, (l) => l.totalAmt)),
    returnAmt: m2(sum(returns, (l) => l.totalAmt).neg()),
    totalAmt: m2(sum(ls, (l) => l.totalAmt)),
    salesAmt: m2(salesAmt),
    taxAmt: m2(sum(ls, (l) => l.taxAmt)),
    costAmt: m2(sum(ls, (l) => l.costAmt)),
    grossProfit: m2(profit),
    grossMargin: pct(profit, salesAmt),
  };
}
const FIELDS = Object.keys(figures([]));
const pick = (row: Row, keys = FIELDS) => Object.fromEntries(keys.map((k) => [k, row[k]]));

describe.each(databases())('sales reports ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let staffId: string;
  let deptId: string;
  let top: string;
  let sub: string;
  let natureTop: string;
  let natureSub: string;
  let cash: string;
  let other: string;
  const posted: Line[] = [];

  /** Reads a posted bill back through its API and records its lines. */
  async function record(base: string, id: string, isReturn: boolean) {
    const bill = expectOk(await admin.get(`${base}/detail`, { id }));
    expect(bill.billStatus).toBe('1306');
    for (const l of bill.bodyList as Row[]) {
      const d = (k: string) => new Dec(String(l[k] ?? '0'));
      posted.push({
        billId: bill.id, isReturn, date: String(bill.billDate).slice(0, 10),
        customerId: bill.customerId || null, staffId: bill.staffId || null, deptId: bill.deptId || null,
        depotId: l.depotId || bill.depotId, goods: l.commInfoId, settlementId: bill.settlementId || null, finalAmt: new Dec(String(bill.finalAmt ?? '0')),
        qty: d('qty'), salesAmt: d('salesAmt'), taxAmt: d('taxAmt'), totalAmt: d('totalAmt'), costAmt: d('costAmt'),
      });
    }
    return bill;
  }

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 3, customers: 2 });
    const [g1, g2, g3] = w.goods;
    const t = uniqueToken().slice(-6);
    // Goods categories: g1 and g3 in a top category, g2 in its sub-category.
    top = String(expectOk(await admin.post('/blade-base/commclassifyshop/submit', { commClassifyName: `顶级${t}`, parentCommClassifyId: '0' })).id);
    sub = String(expectOk(await admin.post('/blade-base/commclassifyshop/submit', { commClassifyName: `下级${t}`, parentCommClassifyId: top })).id);
    for (const [g, c] of [[g1, top], [g2, sub], [g3, top]]) {
      expectOk(await admin.post('/blade-base/comminfo/submit', { ...expectOk<Row>(await admin.get('/blade-base/comminfo/detail', { id: g })), classifyId: c }));
    }
    // Customer categories: customer 1 in a sub-category, customer 2 directly in its parent.
    natureTop = String(expectOk(await admin.post('/blade-base/customernature/submit', { natureName: `客户类${t}`, parentId: '0' })).id);
    natureSub = String(expectOk(await admin.post('/blade-base/customernature/submit', { natureName: `客户子类${t}`, parentId: natureTop })).id);
    for (const [c, n] of [[w.customers[0], natureSub], [w.customers[1], natureTop]]) {
      expectOk(await admin.post('/blade-base/customer/submit', { ...expectOk<Row>(await admin.get('/blade-base/customer/detail', { id: c })), natureId: n }));
    }
    const dept = expectOk(await admin.get('/blade-system/dept/list'));
    deptId = String((Array.isArray(dept) ? dept : dept.records)[0].id);
    staffId = String(expectOk(await admin.post('/blade-base/staff/submit', { staffCode: `Y${t}`, staffName: `业务员${t}`, deptId })).id);
    const methods = expectOk(await admin.get('/blade-base/settlement/retail'));
    cash = String(methods.find((m: Row) => m.settlementName === '现金').id);
    other = String(methods.find((m: Row) => m.settlementName !== '现金').id);

    await approvedBill(admin, BASES.purchaseIn, {
      supplierId: w.supplierId,
      depotId: w.depots[0],
      bodyList: lines(w, [{ goods: g1, qty: '30', purchasePrice: '2.00' }, { goods: g2, qty: '30', purchasePrice: '3.00' }, { goods: g3, qty: '30', purchasePrice: '1.00' }]),
    }, { post: true });
    const out1 = await approvedBill(admin, BASES.salesOut, {
      customerId: w.customers[0], staffId, deptId, depotId: w.depots[0], billDate: today(),
      bodyList: lines(w, [{ goods: g1, qty: '3', taxPrice: '11.30' }, { goods: g2, qty: '5', taxPrice: '1.13' }]),
    }, { post: true });
    await record(BASES.salesOut, out1.id, false);
    const out2 = await approvedBill(admin, BASES.salesOut, {
      customerId: w.customers[1], depotId: w.depots[0], billDate: `${monthFromNow(-2)}-01`,
      bodyList: lines(w, [{ goods: g1, qty: '1', taxPrice: '11.30' }, { goods: g3, qty: '4', taxPrice: '2.26' }]),
    }, { post: true });
    await record(BASES.salesOut, out2.id, false);
    const generated = expectOk(await admin.get(`${BASES.salesReturn}/generate`, { soNo: out1.billNo }));
    const back = generated.bodyList.find((l: Row) => l.commInfoId === g1);
    const ret = await approvedBill(admin, BASES.salesReturn, {
      ...generated, billDate: today(),
      bodyList: [{ ...back, qty: '-1', salesAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined }],
    }, { post: true });
    await record(BASES.salesReturn, ret.id, true);
    // Counter sales: a walk-in paying cash, customer 1 paying by the other method; a cash refund.
    const walkIn = expectOk(await admin.post(`${RETAIL}/account`, { depotId: w.depots[0], settlementId: cash, receivedAmt: '20', bodyList: lines(w, [{ goods: g3, qty: '2', taxPrice: '2.26' }]) }));
    await record(RETAIL, walkIn.id, false);
    const sale2 = expectOk(await admin.post(`${RETAIL}/account`, { customerId: w.customers[0], depotId: w.depots[0], settlementId: other, receivedAmt: '11.30', bodyList: lines(w, [{ goods: g1, qty: '1', taxPrice: '11.30' }]) }));
    await record(RETAIL, sale2.id, false);
    const draft = expectOk(await admin.get(`${RETAIL_RETURN}/generate`, { soNo: walkIn.billNo }));
    const refund = expectOk(await admin.post(`${RETAIL_RETURN}/account`, { ...draft, settlementId: cash, bodyList: [{ ...draft.bodyList[0], qty: '-1', salesAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined }] }));
    await record(RETAIL_RETURN, refund.id, true);
    // Never counted: a posted sale flushed, and one not posted.
    const flushed = await approvedBill(admin, BASES.salesOut, { customerId: w.customers[1], depotId: w.depots[0], bodyList: lines(w, [{ goods: g2, qty: '2', taxPrice: '1.13' }]) }, { post: true });
    expectOk(await admin.post(`${BASES.salesOut}/flush`, { id: flushed.id, version: flushed.version }));
    expectOk(await admin.post(`${BASES.salesOut}/submit`, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: g1, qty: '7', taxPrice: '11.30' }]) }));
  });
  afterAll(async () => server?.close());

  const get = async (path: string, query: Record<string, unknown> = {}) => expectOk(await admin.get(path, { current: 1, size: 50, ...query }), path);
  const byKey = (rows: Row[], key: string) => new Map(rows.map((r) => [r[key] ?? null, r]));

  test('every call answers', async () => {
    const calls: Call[] = [
      ['GET', `${SA}/salesAnalysis`], ['GET', `${SA}/salesAnalysisSumtotal`], ['GET', `${SA}/salesAnalysisDetail`], ['GET', `${SA}/customersalesanalysis`],
      ['GET', `${SP}/list`], ['GET', `${SP}/distribution`],
      ['GET', `${SS}/cashList`], ['GET', `${SS}/deptList`], ['GET', `${SS}/total`], ['GET', `${SS}/payTypeList`],
    ];
    expect(await unanswered(admin, calls)).toEqual([]);
    const bad = await admin.get(`${SA}/salesAnalysis`, { groupBy: 'colour' });
    expect([bad.status, bad.body.msg]).toEqual([400, 'groupBy 只能是 goods、classify、customer、staff、dept、depot 或 month']);
    expect((await admin.get(`${SS}/total`, { billDate_datege: '2026-02-30' })).status).toBe(400);
  });

  test('salesAnalysis per goods, customer, category, salesperson, department, warehouse and month; its totals; a period', async () => {
    const goods = await get(`${SA}/salesAnalysis`);
    expect(goods.total).toBe(3);
    const whole = sum(posted, (l) => l.totalAmt);
    for (const row of goods.records as Row[]) {
      const mine = posted.filter((l) => l.goods === row.groupKey);
      expect(pick(row), row.groupName).toEqual(figures(mine));
      expect(row.amountShare).toBe(pct(sum(mine, (l) => l.totalAmt), whole));
      expect(row.commInfoId).toBe(row.groupKey);
      expect(row.unitName).toBeTruthy();
      expect(row.classifyName).toBeTruthy();
    }
    const amounts = goods.records.map((r: Row) => new Dec(r.totalAmt));
    expect(amounts.every((a: Decimal, i: number) => i === 0 || amounts[i - 1].gte(a)), 'net sales first').toBe(true);
    expect(pick(await get(`${SA}/salesAnalysisSumtotal`))).toEqual(figures(posted));

    const check = async (groupBy: string, keyOf: (l: Line) => string | null, query: Record<string, unknown> = {}, lines = posted) => {
      const page = await get(`${SA}/salesAnalysis`, { groupBy, ...query });
      const keys = new Set(lines.map((l) => keyOf(l) ?? '0'));
      expect(page.total, groupBy).toBe(keys.size);
      for (const row of page.records as Row[]) expect(pick(row), `${groupBy} ${row.groupName}`).toEqual(figures(lines.filter((l) => (keyOf(l) ?? '0') === row.groupKey)));
      return byKey(page.records, 'groupKey');
    };
    const customers = await check('customer', (l) => l.customerId);
    expect(customers.get('0')?.groupName).toBe('散客');
    await check('客户', (l) => l.customerId);
    const categories = await check('classify', (l) => (l.goods === w.goods[1] ? sub : top));
    expect(categories.size).toBe(2);
    await check('staff', (l) => l.staffId);
    await check('dept', (l) => l.deptId);
    await check('depot', (l) => l.depotId);
    const months = await check('month', (l) => l.date.slice(0, 7));
    expect([...months.keys()].sort()).toEqual([monthFromNow(-2), today().slice(0, 7)].sort());

    // Today only: the sale of two months ago drops out; filters by customer and by category (with its sub-category).
    const todays = posted.filter((l) => l.date === today());
    await check('goods', (l) => l.goods, { billDate_datege: today(), billDate_datele: today() }, todays);
    expect(pick(await get(`${SA}/salesAnalysisSumtotal`, { billDate_datege: today(), billDate_datele: today() }))).toEqual(figures(todays));
    await check('goods', (l) => l.goods, { customerId: w.customers[0] }, posted.filter((l) => l.customerId === w.customers[0]));
    await check('goods', (l) => l.goods, { classifyId: top }, posted);
    await check('goods', (l) => l.goods, { classifyId_equal: sub }, posted.filter((l) => l.goods === w.goods[1]));
  });

  test('salesAnalysisDetail: the lines behind a figure', async () => {
    const g1 = await get(`${SA}/salesAnalysisDetail`, { groupBy: 'goods', groupKey: w.goods[0] });
    const mine = posted.filter((l) => l.goods === w.goods[0]);
    expect(g1.total).toBe(mine.length);
    expect(g1.records.map((r: Row) => r.totalAmt).sort()).toEqual(mine.map((l) => m2(l.totalAmt)).sort());
    expect(g1.records.every((r: Row) => r.commInfoName && r.billNo)).toBe(true);
    const walkIn = await get(`${SA}/salesAnalysisDetail`, { groupBy: 'customer', groupKey: '0' });
    expect(walkIn.records.map((r: Row) => r.totalAmt).sort()).toEqual(posted.filter((l) => !l.customerId).map((l) => m2(l.totalAmt)).sort());
    const month = await get(`${SA}/salesAnalysisDetail`, { groupBy: 'month', groupKey: monthFromNow(-2) });
    expect(month.total).toBe(posted.filter((l) => l.date.startsWith(monthFromNow(-2))).length);
    // A key outside the filter: nothing.
    expect((await get(`${SA}/salesAnalysisDetail`, { groupBy: 'customer', groupKey: w.customers[1], customerId: w.customers[0] })).total).toBe(0);
  });

  test('customersalesanalysis: per customer category, rolled up the tree', async () => {
    const rootRows = byKey((await get(`${SA}/customersalesanalysis`)).records, 'natureId');
    expect(pick(rootRows.get(natureTop)!)).toEqual(figures(posted.filter((l) => l.customerId)));
    expect(rootRows.get(natureTop)).toMatchObject({ customerCount: 2, hasChildren: true, natureName: expect.stringContaining('客户类') });
    expect(pick(rootRows.get(null)!)).toEqual(figures(posted.filter((l) => !l.customerId)));
    const inside = byKey((await get(`${SA}/customersalesanalysis`, { natureId: natureTop })).records, 'natureId');
    expect(inside.size).toBe(2);
    expect(pick(inside.get(natureSub)!)).toEqual(figures(posted.filter((l) => l.customerId === w.customers[0])));
    expect(pick(inside.get(natureTop)!)).toEqual(figures(posted.filter((l) => l.customerId === w.customers[1])));
  });

  test('salesProfit: per goods and per bill; the distribution by category', async () => {
    const goods = byKey((await get(`${SP}/list`)).records, 'commInfoId');
    for (const g of w.goods) {
      const mine = posted.filter((l) => l.goods === g);
      const f = figures(mine);
      const qty = sum(mine, (l) => l.qty);
      expect(pick(goods.get(g)!, ['qty', 'totalAmt', 'salesAmt', 'costAmt', 'grossProfit', 'grossMargin'])).toEqual(pick(f, ['qty', 'totalAmt', 'salesAmt', 'costAmt', 'grossProfit', 'grossMargin']));
      expect(goods.get(g)!.avgPrice).toBe(fixed(new Dec(f.salesAmt).div(qty), 5));
      expect(goods.get(g)!.avgCost).toBe(fixed(new Dec(f.costAmt).div(qty), 5));
    }
    const bills = await get(`${SP}/list`, { groupBy: 'bill' });
    const billIds = [...new Set(posted.map((l) => l.billId))];
    expect(bills.total).toBe(billIds.length);
    for (const row of bills.records as Row[]) {
      const f = figures(posted.filter((l) => l.billId === row.id));
      expect(pick(row, ['totalAmt', 'salesAmt', 'taxAmt', 'costAmt', 'grossProfit', 'grossMargin'])).toEqual(pick(f, ['totalAmt', 'salesAmt', 'taxAmt', 'costAmt', 'grossProfit', 'grossMargin']));
      expect(row.billTypeName).toBeTruthy();
    }
    const withG2 = await get(`${SP}/list`, { groupBy: 'bill', commInfoId: w.goods[1] });
    expect(withG2.records.map((r: Row) => r.id).sort()).toEqual([...new Set(posted.filter((l) => l.goods === w.goods[1]).map((l) => l.billId))].sort());

    const profit = (ls: Line[]) => sum(ls, (l) => l.salesAmt.minus(l.costAmt));
    const atRoot = await get(`${SP}/distribution`);
    expect(atRoot.map((r: Row) => [r.classifyId, r.grossProfit, r.profitShare, r.hasChildren])).toEqual([[top, m2(profit(posted)), '100.00', true]]);
    const inTop = byKey(await get(`${SP}/distribution`, { classifyId: top }), 'classifyId');
    const [g2Lines, restLines] = [posted.filter((l) => l.goods === w.goods[1]), posted.filter((l) => l.goods !== w.goods[1])];
    expect(pick(inTop.get(sub)!, ['salesAmt', 'costAmt', 'grossProfit', 'grossMargin'])).toEqual(pick(figures(g2Lines), ['salesAmt', 'costAmt', 'grossProfit', 'grossMargin']));
    expect(inTop.get(sub)!.profitShare).toBe(pct(profit(g2Lines), profit(posted)));
    expect(inTop.get(top)!.grossProfit).toBe(m2(profit(restLines)));
  });

  test('salesStatistics: takings per day and method, per method; per department; the totals', async () => {
    const retail = posted.filter((l) => l.settlementId);
    const perBill = [...new Map(retail.map((l) => [l.billId, l])).values()];
    const takings = (ls: Line[]) => ({
      billCount: ls.filter((l) => !l.isReturn).length,
      returnBillCount: ls.filter((l) => l.isReturn).length,
      saleAmt: m2(sum(ls.filter((l) => !l.isReturn), (l) => l.finalAmt)),
      refundAmt: m2(sum(ls.filter((l) => l.isReturn), (l) => l.finalAmt).neg()),
      netAmt: m2(sum(ls, (l) => l.finalAmt)),
    });
    const cashRows = (await get(`${SS}/cashList`)).records as Row[];
    expect(cashRows.map((r) => [r.billDate, r.settlementId]).sort()).toEqual([[today(), cash], [today(), other]].sort());
    for (const row of cashRows) expect(pick(row, ['billCount', 'returnBillCount', 'saleAmt', 'refundAmt', 'netAmt'])).toEqual(takings(perBill.filter((l) => l.settlementId === row.settlementId)));
    expect(cashRows.find((r) => r.settlementId === cash)?.settlementName).toBe('现金');
    const methods = await get(`${SS}/payTypeList`);
    const net = sum(perBill, (l) => l.finalAmt);
    for (const row of methods as Row[]) {
      const mine = perBill.filter((l) => l.settlementId === row.settlementId);
      expect({ ...pick(row, ['billCount', 'returnBillCount', 'saleAmt', 'refundAmt', 'netAmt']), amountShare: row.amountShare }).toEqual({ ...takings(mine), amountShare: pct(sum(mine, (l) => l.finalAmt), net) });
    }

    const depts = (await get(`${SS}/deptList`)).records as Row[];
    expect(depts.length).toBe(new Set(posted.map((l) => l.deptId ?? '0')).size);
    for (const row of depts) expect(pick(row), row.deptName).toEqual(figures(posted.filter((l) => (l.deptId ?? '0') === row.deptId)));
    expect(depts.some((r) => r.deptId === deptId && r.deptName)).toBe(true);

    const total = await get(`${SS}/total`);
    expect(pick(total)).toEqual(figures(posted));
    expect(total.avgBillAmt).toBe(m2(new Dec(figures(posted).outAmt).div(figures(posted).billCount)));
    const past = await get(`${SS}/total`, { queryDate: monthFromNow(-2), dateType: 'month' });
    expect(pick(past)).toEqual(figures(posted.filter((l) => l.date.startsWith(monthFromNow(-2)))));
    expect(past.dateFrom).toBe(`${monthFromNow(-2)}-01`);
  });

  test('another tenant sees nothing', async () => {
    const b = await signedIn(server.url, '100001');
    const okOf = async (path: string, query: Record<string, unknown> = {}) => expectOk(await b.get(path, { current: 1, size: 50, ...query }), path);
    for (const path of [`${SA}/salesAnalysis`, `${SA}/salesAnalysisDetail`, `${SA}/customersalesanalysis`, `${SP}/list`, `${SS}/cashList`, `${SS}/deptList`]) expect((await okOf(path)).records, path).toEqual([]);
    expect(await okOf(`${SP}/distribution`)).toEqual([]);
    expect(await okOf(`${SS}/payTypeList`)).toEqual([]);
    expect(await okOf(`${SS}/total`)).toMatchObject({ billCount: 0, totalAmt: '0.00', grossProfit: '0.00' });
    expect(await okOf(`${SA}/salesAnalysisSumtotal`)).toMatchObject({ billCount: 0, groupCount: 0, totalAmt: '0.00' });
  });
});
