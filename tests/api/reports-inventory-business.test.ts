/**
 * 库存分析 and 经营分析 on SQLite and PostgreSQL. Seeded with past bill dates: goods A bought 10 @ 5.00
 * sixty days ago, sold 4 forty days ago and 2 five days ago, 1 returned yesterday, 1 sold two days ago
 * and flushed; goods B bought 6 @ 3.00 a hundred days ago and never sold (slow-moving); goods C, in a
 * sub-category, bought 4 @ 2.00 ten days ago into the second warehouse. Then a receipt, an expense
 * bill and an other-income bill. Every figure is recomputed here from those inputs (turnover days =
 * value × 90 ÷ cost of the last 90 days' sales); the months from the same dated events and checked
 * against the 利润表; another tenant sees nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { approvedBill, BASES, lines, makeGoods, makeWorld, type World } from '../support/bills.ts';
import { unanswered, type Call } from '../support/catalogue.ts';
import { uniqueToken } from '../support/resources.ts';
import { Dec, type Decimal } from '../../src/shared/money/index.ts';
import { formatDate } from '../../src/shared/dates.ts';

const INV = '/blade-report/inventoryanalysis';
const BIZ = '/blade-report/businessanalysis';
const EXIN = '/blade-finance/exinhead';
type Row = Record<string, any>;

const money = (d: Decimal | string | number) => new Dec(d).toFixed(2);
function daysBefore(n: number): string {
  const d = new Date(`${formatDate()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
}

describe.each(databases())('inventory and business analysis ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let goodsA: string;
  let goodsB: string;
  let goodsC: string;
  let parentName: string;
  let parent: string;
  let child: string;
  /** The ledger effects of every seeded bill, by posting date: revenue, cost, expenses, income, cash. */
  const gl: { day: string; revenue?: Decimal; cost?: Decimal; admin?: Decimal; income?: Decimal; cashIn?: Decimal; cashOut?: Decimal }[] = [];

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 0, depots: 2, customers: 1 });
    parentName = `大类${uniqueToken().slice(-6)}`;
    parent = String(expectOk(await admin.post('/blade-base/commclassifyshop/submit', { commClassifyName: parentName, parentCommClassifyId: '0' })).id);
    child = String(expectOk(await admin.post('/blade-base/commclassifyshop/submit', { commClassifyName: `子类${uniqueToken().slice(-6)}`, parentCommClassifyId: parent })).id);
    goodsA = await makeGoods(admin, w.unitId, `商品A${uniqueToken().slice(-6)}`, { classifyId: parent });
    goodsB = await makeGoods(admin, w.unitId, `商品B${uniqueToken().slice(-6)}`, { classifyId: parent });
    goodsC = await makeGoods(admin, w.unitId, `商品C${uniqueToken().slice(-6)}`, { classifyId: child });

    const buy = (goods: string, qty: string, price: string, days: number, depot = w.depots[0]) =>
      approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: depot, billDate: daysBefore(days), bodyList: lines(w, [{ goods, qty, purchasePrice: price }]) }, { post: true });
    await buy(goodsA, '10', '5.00', 60);
    await buy(goodsB, '6', '3.00', 100);
    await buy(goodsC, '4', '2.00', 10, w.depots[1]);
    const sell = async (qty: string, days: number) => {
      const bill = await approvedBill(admin, BASES.salesOut, { customerId: w.customers[0], depotId: w.depots[0], billDate: daysBefore(days), bodyList: lines(w, [{ goods: goodsA, qty, taxPrice: '11.30' }]) }, { post: true });
      gl.push({ day: daysBefore(days), revenue: new Dec(qty).times(10), cost: new Dec(qty).times(5) });
      return bill;
    };
    await sell('4', 40);
    const five = await sell('2', 5);
    const flushed = await sell('1', 2);
    const fresh = expectOk(await admin.get(`${BASES.salesOut}/detail`, { id: flushed.id }));
    expectOk(await admin.post(`${BASES.salesOut}/flush`, { id: fresh.id, version: fresh.version }));
    gl.push({ day: formatDate(), revenue: new Dec(-10), cost: new Dec(-5) }); // the flush's mirror is dated today
    const ret = expectOk(await admin.get(`${BASES.salesReturn}/generate`, { soNo: five.billNo }));
    await approvedBill(admin, BASES.salesReturn, { ...ret, billDate: daysBefore(1), bodyList: [{ ...ret.bodyList[0], qty: '-1', salesAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined }] }, { post: true });
    gl.push({ day: daysBefore(1), revenue: new Dec(-10), cost: new Dec(-5) });

    const cash = String(expectOk(await admin.get('/blade-base/settlement/retail')).find((m: { settlementName: string }) => m.settlementName === '现金').id);
    await approvedBill(admin, '/blade-finance/receipt', { bartererId: w.customers[0], settlementId: cash, precpAmt: '20', bodyList: [{ sourceBillId: five.id, settleAmt: '20' }] }, { post: true });
    gl.push({ day: formatDate(), cashIn: new Dec(20) });
    const items = expectOk(await admin.get('/blade-base/exinitem/select', { current: 1, size: 100 })).records as { id: string; expendName: string }[];
    const item = (name: string) => items.find((i) => i.expendName === name)!.id;
    const exin = async (expendType: number, name: string, amount: string) => {
      const saved = expectOk(await admin.post(`${EXIN}/submit`, { expendType, settlementId: cash, bodyList: [{ expendId: item(name), amount }] }));
      const audited = expectOk(await admin.post(`${EXIN}/audit`, { id: saved.id, version: saved.version, remark: '同意' }));
      expectOk(await admin.post(`${EXIN}/accounting`, { id: audited.id, version: audited.version }));
    };
    await exin(6002, '房租', '1286.50');
    gl.push({ day: formatDate(), admin: new Dec('1286.50'), cashOut: new Dec('1286.50') });
    await exin(6001, '利息收入', '12.34');
    gl.push({ day: formatDate(), income: new Dec('12.34'), cashIn: new Dec('12.34') });
  });
  afterAll(async () => server?.close());

  /** Goods A, B and C as the inputs above make them: stock now, sales of the last 30 and 90 days, dates. */
  function expected() {
    const a = { id: goodsA, qty: new Dec(10 - 4 - 2 + 1), out30: new Dec(2 - 1), out90: new Dec(4 + 2 - 1), lastOut: daysBefore(2), lastIn: daysBefore(1), cls: parent };
    const b = { id: goodsB, qty: new Dec(6), out30: new Dec(0), out90: new Dec(0), lastOut: null, lastIn: daysBefore(100), cls: parent };
    const c = { id: goodsC, qty: new Dec(4), out30: new Dec(0), out90: new Dec(0), lastOut: null, lastIn: daysBefore(10), cls: child };
    const cost = { [a.id]: new Dec(5), [b.id]: new Dec(3), [c.id]: new Dec(2) };
    return [a, b, c].map((g) => {
      const value = g.qty.times(cost[g.id]);
      const cost90 = g.out90.times(cost[g.id]);
      const since = g.lastOut ?? g.lastIn;
      const idle = Math.round((Date.parse(`${formatDate()}T00:00:00Z`) - Date.parse(`${since}T00:00:00Z`)) / 86_400_000);
      return {
        commInfoId: g.id,
        classifyId: g.cls,
        qty: money(g.qty),
        value: money(value),
        outQty30: money(g.out30),
        outQty90: money(g.out90),
        outCost90: money(cost90),
        turnoverDays: cost90.isZero() ? null : value.times(90).div(cost90).toFixed(1),
        lastOutDate: g.lastOut,
        lastInDate: g.lastIn,
        idleDays: idle,
        isSlow: g.qty.gt(0) && idle >= 90 ? 2 : 1,
        valueDec: value,
        cost90,
      };
    });
  }
  const pick = (r: Row) => ({
    commInfoId: r.commInfoId,
    classifyId: r.classifyId,
    qty: r.qty,
    value: r.value,
    outQty30: r.outQty30,
    outQty90: r.outQty90,
    outCost90: r.outCost90,
    turnoverDays: r.turnoverDays,
    lastOutDate: r.lastOutDate,
    lastInDate: r.lastInDate,
    idleDays: r.idleDays,
    isSlow: r.isSlow,
  });
  const strip = ({ valueDec, cost90, ...r }: ReturnType<typeof expected>[number]) => (void valueDec, void cost90, r);

  test('库存分析: per goods stock, 30/90-day sales, turnover days and slow-moving; filters; totals; value per category', async () => {
    const all = expected();
    const page = expectOk(await admin.get(`${INV}/list`, { current: 1, size: 20 }));
    const byValue = [...all].sort((x, y) => y.valueDec.comparedTo(x.valueDec));
    expect(page.records.map(pick)).toEqual(byValue.map(strip));
    expect(page.total).toBe(3);
    expect(page.records[0]).toMatchObject({ commInfoName: expect.stringContaining('商品A'), classifyName: parentName });
    expect(new Dec(page.records[0].unitCost).eq(5)).toBe(true);
    expect(page.records.find((r: Row) => r.commInfoId === goodsB).turnoverDays).toBeNull();

    const value = all.reduce((s, g) => s.plus(g.valueDec), new Dec(0));
    const cost90 = all.reduce((s, g) => s.plus(g.cost90), new Dec(0));
    const totals = {
      goodsCount: 3,
      qty: money(all.reduce((s, g) => s.plus(g.qty), new Dec(0))),
      value: money(value),
      outQty30: '1.00',
      outQty90: '5.00',
      outCost90: money(cost90),
      dailyCost: money(cost90.div(90)),
      turnoverDays: value.times(90).div(cost90).toFixed(1),
      slowCount: 1,
      slowValue: money(all.find((g) => g.isSlow === 2)!.valueDec),
    };
    expect(page.summary).toEqual(totals);
    expect(expectOk(await admin.get(`${INV}/sumtotal`))).toEqual(totals);

    const ids = async (query: Row) => (expectOk(await admin.get(`${INV}/list`, { current: 1, size: 20, ...query })).records as Row[]).map((r) => r.commInfoId).sort();
    expect(await ids({ depotId: w.depots[1] })).toEqual([goodsC]);
    expect(await ids({ classifyId: child })).toEqual([goodsC]);
    expect(await ids({ classifyId: parent })).toEqual([goodsA, goodsB, goodsC].sort());
    expect(await ids({ isSlow: 2 })).toEqual([goodsB]);
    expect(await ids({ commInfoId_equal: goodsA })).toEqual([goodsA]);
    const sorted = expectOk(await admin.get(`${INV}/list`, { current: 1, size: 20, ascs: 'idle_days' })).records.map((r: Row) => r.idleDays);
    expect(sorted).toEqual([2, 10, 100]);

    const perClass = [parent, child].map((cls) => ({ cls, value: all.filter((g) => g.classifyId === cls).reduce((s, g) => s.plus(g.valueDec), new Dec(0)), count: all.filter((g) => g.classifyId === cls).length }));
    const pie = expectOk(await admin.get(`${INV}/classify`)) as Row[];
    expect(pie.map((r) => [r.classifyId, r.goodsCount, r.value, r.valueShare])).toEqual(
      perClass.sort((x, y) => y.value.comparedTo(x.value)).map((c) => [c.cls, c.count, money(c.value), c.value.div(value).times(100).toFixed(2)]),
    );
    expect(pie[0].classifyName).toBeTruthy();

    const bad = await admin.get(`${INV}/list`, { isSlow: '3' });
    expect(bad.body.success).toBe(false);
    expect(bad.body.msg).toBe('积压只能是 1（否）或 2（是）');
  });

  /** The months of a year as the seeded events make them. */
  function months(year: string) {
    return Array.from({ length: 12 }, (_, i) => `${year}-${String(i + 1).padStart(2, '0')}`).map((month) => {
      const of = gl.filter((e) => e.day.startsWith(month));
      const sum = (k: 'revenue' | 'cost' | 'admin' | 'income' | 'cashIn' | 'cashOut') => of.reduce((s, e) => s.plus(e[k] ?? 0), new Dec(0));
      const gross = sum('revenue').minus(sum('cost'));
      return {
        id: month,
        month,
        salesRevenue: money(sum('revenue')),
        costOfSales: money(sum('cost')),
        grossProfit: money(gross),
        grossMargin: sum('revenue').isZero() ? '0.00' : gross.div(sum('revenue')).times(100).toFixed(2),
        sellingExpense: '0.00',
        adminExpense: money(sum('admin')),
        financeExpense: '0.00',
        expenses: money(sum('admin')),
        otherIncome: money(sum('income')),
        otherExpense: '0.00',
        netProfit: money(gross.minus(sum('admin')).plus(sum('income'))),
        receipts: money(sum('cashIn')),
        payments: money(sum('cashOut')),
        netCash: money(sum('cashIn').minus(sum('cashOut'))),
      };
    });
  }

  test('经营分析: each month of the year from the ledger, the year total, a past year, and the 利润表 agreeing', async () => {
    const year = formatDate().slice(0, 4);
    for (const y of [year, String(Number(year) - 1)]) {
      const want = months(y);
      const page = expectOk(await admin.get(`${BIZ}/list`, y === year ? {} : { year: y }));
      expect(page).toMatchObject({ total: 12, current: 1, pages: 1, year: y });
      expect(page.records).toEqual(want);
      const total = expectOk(await admin.get(`${BIZ}/total`, { year: y }));
      for (const field of ['salesRevenue', 'costOfSales', 'grossProfit', 'adminExpense', 'otherIncome', 'netProfit', 'receipts', 'payments', 'netCash'] as const) {
        expect(total[field], field).toBe(money(want.reduce((s, m) => s.plus(m[field]), new Dec(0))));
      }
    }
    // This month's net profit is the 利润表's profit for the month; its cost line the cost of sales.
    const month = formatDate().slice(0, 7);
    const row = (expectOk(await admin.get(`${BIZ}/list`)).records as Row[]).find((r) => r.month === month)!;
    expect(row.adminExpense).toBe('1286.50');
    const statement = expectOk(await admin.get('/blade-finance/profitstatement/list', { startDate: `${month}-01`, endDate: formatDate() })).records as Row[];
    const line = (key: string) => statement.find((r) => r.id === key)!.periodAmt;
    expect([row.netProfit, row.costOfSales]).toEqual([line('profit'), line('cost')]);

    const empty = expectOk(await admin.get(`${BIZ}/total`, { year: '2001' }));
    expect([empty.salesRevenue, empty.netProfit, empty.receipts]).toEqual(['0.00', '0.00', '0.00']);
    const bad = await admin.get(`${BIZ}/list`, { year: '20x5' });
    expect(bad.body.success).toBe(false);
    expect(bad.body.msg).toBe('年份格式应为 yyyy');
  });

  test('another tenant sees nothing; every call answers', async () => {
    const calls: Call[] = [`${INV}/list`, `${INV}/sumtotal`, `${INV}/classify`, `${BIZ}/list`, `${BIZ}/total`].map((p) => ['GET', p]);
    expect(await unanswered(admin, calls)).toEqual([]);
    const theirs = await signedIn(server.url, '100001');
    expect(expectOk(await theirs.get(`${INV}/list`)).total).toBe(0);
    expect(expectOk(await theirs.get(`${INV}/classify`))).toEqual([]);
    expect(expectOk(await theirs.get(`${INV}/sumtotal`))).toMatchObject({ goodsCount: 0, value: '0.00' });
    const year = expectOk(await theirs.get(`${BIZ}/total`));
    expect([year.salesRevenue, year.expenses, year.netProfit, year.receipts, year.payments]).toEqual(['0.00', '0.00', '0.00', '0.00', '0.00']);
  });
});
