/**
 * 商城统计 and the mall's trade analyses (tradeanalysis list/selectList/sumtotal,
 * tradecustomeranalysis list/sumtotal, recommendedanalysis list/sumtotal) and the mall range
 * categories (rangeclassify), on SQLite and PostgreSQL. Mall orders are placed through the real
 * storefront call (intake, signed in as buyer accounts), then confirmed, shipped, received or put
 * into after-sales through the real calls; one more is cancelled and a back-office order is made,
 * neither of which counts. Every figure is recomputed here with Dec from the orders as the order
 * API answers them. Another tenant places its own mall order: each tenant sees only its own.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';
import { BASES, approvedBill, lines, makeGoods, makeWorld, setConfig, type World } from '../support/bills.ts';
import { uniqueToken } from '../support/resources.ts';
import { formatDateTime } from '../../src/shared/dates.ts';
import { Dec, fixed, type Decimal } from '../../src/shared/money/index.ts';

type Row = Record<string, any>;
const M = '/blade-market/marketing';
const TA = '/blade-report/tradeanalysis';
const TC = '/blade-report/tradecustomeranalysis';
const RA = '/blade-report/recommendedanalysis';
const RC = '/blade-mall/rangeclassify';
const dayFromNow = (days: number) => formatDateTime(new Date(Date.now() + days * 86_400_000)).slice(0, 10);
const at = (days: number, time = '00:00:00') => `${dayFromNow(days)} ${time}`;
const span = { beginTime: at(-1), endTime: at(10, '23:59:59') };
const address = { contacts: '张三', contactsPhone: '13900000000', contactsAreaName: '上海市 浦东新区', contactsAddress: '张杨路 500 号' };

const m2 = (d: Decimal) => fixed(d, 2);
const pct = (part: Decimal, whole: Decimal) => (whole.isZero() ? '0.00' : fixed(part.div(whole).times(100), 2));
const avg = (amount: Decimal, count: number) => (count ? fixed(amount.div(count), 2) : '0.00');

/** One line of a placed order as the order API answers it. */
interface Line {
  orderId: string;
  customerId: string;
  status: string;
  shipped: boolean;
  goods: string;
  qty: Decimal;
  totalAmt: Decimal;
  couponAmt: Decimal;
  finalAmt: Decimal;
}
const sum = (ls: Line[], f: (l: Line) => Decimal) => ls.reduce((s, l) => s.plus(f(l)), new Dec(0));
const orders = (ls: Line[]) => new Set(ls.map((l) => l.orderId));

/** The trade figures of some lines, recomputed. */
function trade(ls: Line[]) {
  const ordered = orders(ls);
  const statusOf = (status: string) => new Set(ls.filter((l) => l.status === status).map((l) => l.orderId)).size;
  const finalAmt = sum(ls, (l) => l.finalAmt);
  return {
    orderCount: ordered.size,
    buyerCount: new Set(ls.map((l) => l.customerId)).size,
    baseQty: m2(sum(ls, (l) => l.qty)),
    totalAmt: m2(sum(ls, (l) => l.totalAmt)),
    couponAmt: m2(sum(ls, (l) => l.couponAmt)),
    orderAmt: m2(finalAmt),
    avgOrderAmt: avg(finalAmt, ordered.size),
    shippedCount: new Set(ls.filter((l) => l.shipped).map((l) => l.orderId)).size,
    completedCount: statusOf('6204'),
    afterSaleCount: statusOf('6206'),
  };
}
const ZERO = trade([]);

/** A tenant's mall set up as in tests/api/mall-orders.test.ts: goods on shelves with stock and prices, buyers for customers. */
async function mallOf(url: string, tenantId: string, admin: Api, opts: { goods: number; customers: number; buyers: number }) {
  const w = await makeWorld(admin, { goods: opts.goods, customers: opts.customers });
  const prices = ['25.00', '12.80', '40.00'];
  for (const [i, id] of w.goods.entries()) expectOk(await admin.post('/blade-base/commprice/submit', { commInfoId: id, unitId: w.unitId, retailPrice: prices[i % prices.length] }));
  await setConfig(admin, 'MALL_DEPOT_ID', w.depots[0]);
  await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, w.goods.map((g) => ({ goods: g, qty: '100', purchasePrice: '5' }))) }, { post: true });
  expectOk(await admin.call('POST', '/blade-base/comminfo/putOnShelves', { query: { ids: w.goods.join(',') } }));
  const buyers: Api[] = [];
  for (let i = 0; i < opts.buyers; i++) {
    const phone = `13${i}${String(Date.now()).slice(-8)}`;
    const member = expectOk<Row>(await admin.post('/blade-base/member/submit', { customerId: w.customers[i], phone, realName: `买家${i + 1}` }));
    expectOk(await admin.post('/blade-base/member/openAccount', { id: member.id, password: 'buyer123' }));
    buyers.push(await signedIn(url, tenantId, phone, 'buyer123'));
  }
  return { w, buyers };
}

describe.each(databases())('mall reports ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let buyers: Api[];
  let A: string, B: string, C: string;
  let placed: Line[] = [];
  const partners: string[] = [];
  let rangeId = '';
  let otherTenant: { admin: Api; lines: Line[]; partner: string };

  /** The order as the order API answers it, as lines. */
  async function linesOf(api: Api, id: string): Promise<Line[]> {
    const order = expectOk<Row>(await api.get('/blade-sales/salesorderhead/detail', { id }));
    const outs = expectOk<{ records: Row[] }>(await api.get('/blade-sales/salesouthead/list', { sourceBillId: id, size: 50 })).records;
    const shipped = outs.some((o) => o.billStatus === '1306');
    return (order.bodyList as Row[]).map((l) => ({
      orderId: id,
      customerId: String(order.customerId),
      status: String(order.mallStatus),
      shipped,
      goods: String(l.commInfoId),
      qty: new Dec(l.qty),
      totalAmt: new Dec(l.totalAmt),
      couponAmt: new Dec(l.couponAmt),
      finalAmt: new Dec(l.finalAmt),
    }));
  }
  const intake = async (buyer: Api, cart: { commInfoId: string; qty: string }[]) => String(expectOk<Row>(await buyer.post('/blade-mall/order/intake', { lines: cart, ...address })).id);
  const ship = async (id: string) => {
    const order = expectOk<Row>(await admin.get('/blade-sales/salesorderhead/detail', { id }));
    expectOk(await admin.post('/blade-mall/order/confirm', { id, version: order.version }));
    expectOk(await admin.post('/blade-mall/order/ship', { id, courierNo: `SF${uniqueToken().slice(-6)}` }));
  };
  const get = async (api: Api, path: string, query: Record<string, unknown> = {}) => expectOk<any>(await api.get(path, { current: 1, size: 100, ...query }), path);

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    ({ w, buyers } = await mallOf(server.url, '000000', admin, { goods: 3, customers: 3, buyers: 2 }));
    [A, B, C] = w.goods;
    // Campaigns: 特价 on B, a whole-order 满100减10 (its saving is allocated to the lines' couponAmt).
    expectOk(await admin.post(`${M}/submit`, { marketingName: '特价', marketingType: 3, ...span, bodyList: [{ commInfoId: B, promoPrice: '9.90' }] }));
    expectOk(await admin.post(`${M}/submit`, { marketingName: '满减', marketingType: 2, ...span, bodyList: [{ fullAmt: '100', reduceAmt: '10' }] }));

    // Referrals: partner 1 is on the files of customers 1 and 3; partner 2's approved recommendation links customer 2; partner 3 has none.
    const token = uniqueToken().slice(-6);
    for (const n of [1, 2, 3]) partners.push(String(expectOk<Row>(await admin.post('/blade-base/partner/submit', { userName: `合伙人${n}-${token}`, phone: `1370${String(Date.now()).slice(-6)}${n}`, recommendedCode: `R${n}${token}` })).id));
    for (const c of [w.customers[0], w.customers[2]]) {
      const customer = expectOk<Row>(await admin.get('/blade-base/customer/detail', { id: c }));
      expectOk(await admin.post('/blade-base/customer/submit', { ...customer, partner: partners[0] }));
    }
    const referral = expectOk<Row>(await admin.post('/blade-base/customerrecommended/submit', { partnerId: partners[1], customerId: w.customers[1], bartererName: `推荐${token}`, contactPerson: '李四', telephone: '13900000009' }));
    expectOk(await admin.post('/blade-base/customerrecommended/recommendedpass', { id: referral.id, version: referral.version, auditRemark: '同意' }));
    // Customer 2 in a customer range (商城范围).
    rangeId = String(expectOk<Row>(await admin.post('/blade-base/customerrange/submit', { crCode: `CR${token}`, crName: `范围${token}` })).id);
    expectOk(await admin.call('POST', '/blade-base/customer/updateRange', { query: { ids: w.customers[1], rangeId } }));

    // Orders: buyer 1 (customer 1) A×3 + B×5 (满减) and C×1; buyer 2 (customer 2) A×1 + C×2 (满减) and B×2.
    const o1 = await intake(buyers[0], [{ commInfoId: A, qty: '3' }, { commInfoId: B, qty: '5' }]);
    const o2 = await intake(buyers[0], [{ commInfoId: C, qty: '1' }]);
    const o3 = await intake(buyers[1], [{ commInfoId: A, qty: '1' }, { commInfoId: C, qty: '2' }]);
    const o4 = await intake(buyers[1], [{ commInfoId: B, qty: '2' }]);
    // o1 shipped and received (已完成); o2 shipped (待收货); o3 shipped, then a return requested (售后中); o4 waits (待发货).
    for (const id of [o1, o2, o3]) await ship(id);
    expectOk(await buyers[0].post('/blade-mall/order/complete', { id: o1 }));
    const o3Line = expectOk<Row>(await admin.get('/blade-sales/salesorderhead/detail', { id: o3 })).bodyList[0];
    expectOk(await buyers[1].post('/blade-mall/return/apply', { orderId: o3, lines: [{ sourceBodyId: o3Line.id, qty: '1' }], returnReason: '质量问题' }));
    // Not counted: a cancelled mall order, and an order entered in the back office.
    const o5 = await intake(buyers[1], [{ commInfoId: C, qty: '9' }]);
    const five = expectOk<Row>(await admin.get('/blade-sales/salesorderhead/detail', { id: o5 }));
    expectOk(await admin.post('/blade-sales/salesorderhead/cancel', { id: o5, version: five.version }));
    expect(expectOk<Row>(await admin.get('/blade-sales/salesorderhead/detail', { id: o5 })).billStatus).toBe('1307');
    await approvedBill(admin, BASES.salesOrder, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: A, qty: '7', taxPrice: '30' }]) });
    placed = (await Promise.all([o1, o2, o3, o4].map((id) => linesOf(admin, id)))).flat();
    expect(placed.map((l) => l.status).sort()).toEqual(['6202', '6203', '6204', '6204', '6206', '6206'].sort());
    expect(sum(placed, (l) => l.couponAmt).gt(0)).toBe(true);

    // Another tenant: its own partner, buyer and one mall order.
    const other = await signedIn(server.url, '100001');
    const mall = await mallOf(server.url, '100001', other, { goods: 1, customers: 1, buyers: 1 });
    const partner = String(expectOk<Row>(await other.post('/blade-base/partner/submit', { userName: `他租户合伙人${token}`, phone: `1360${String(Date.now()).slice(-7)}`, recommendedCode: `T${token}` })).id);
    const customer = expectOk<Row>(await other.get('/blade-base/customer/detail', { id: mall.w.customers[0] }));
    expectOk(await other.post('/blade-base/customer/submit', { ...customer, partner }));
    const id = await intake(mall.buyers[0], [{ commInfoId: mall.w.goods[0], qty: '4' }]);
    otherTenant = { admin: other, lines: await linesOf(other, id), partner };
  }, 180_000);
  afterAll(async () => server?.close());

  const today = () => dayFromNow(0);
  const period = () => ({ billDate_datege: dayFromNow(-2), billDate_datele: today() });

  test('tradeanalysis list: every day of the period, figures recomputed from the orders; sumtotal and summary', async () => {
    const page = await get(admin, `${TA}/list`, period());
    expect(page.records.map((r: Row) => r.tradeDate)).toEqual([dayFromNow(-2), dayFromNow(-1), today()]);
    expect(page.records[0]).toMatchObject({ ...ZERO });
    expect(page.records[2]).toMatchObject(trade(placed));
    expect(page.records[2]).toMatchObject({ orderCount: 4, buyerCount: 2, shippedCount: 3, completedCount: 1, afterSaleCount: 1 });
    const total = await get(admin, `${TA}/sumtotal`, period());
    expect(total).toMatchObject({ ...trade(placed), dayCount: 1, dateFrom: dayFromNow(-2), dateTo: today() });
    expect(page.summary).toEqual(total);
    // Per month; the newest first when asked.
    const months = await get(admin, `${TA}/list`, { ...period(), dateType: 'month', descs: 'trade_date' });
    const expected = [...new Set([dayFromNow(-2).slice(0, 7), today().slice(0, 7)])].reverse();
    expect(months.records.map((r: Row) => r.tradeDate)).toEqual(expected);
    expect(months.records[0]).toMatchObject(trade(placed));
    expect((await get(admin, `${TA}/list`, { queryDate: today().slice(0, 7), dateType: '月' })).records).toEqual([expect.objectContaining({ tradeDate: today().slice(0, 7), ...trade(placed) })]);
    // Without a period only days with orders; a period before today has none.
    expect((await get(admin, `${TA}/list`)).records.map((r: Row) => r.tradeDate)).toEqual([today()]);
    const before = await get(admin, `${TA}/list`, { billDate_datege: dayFromNow(-3), billDate_datele: dayFromNow(-1) });
    expect(before.records.every((r: Row) => r.orderCount === 0 && r.orderAmt === '0.00')).toBe(true);
    expect(before.summary).toMatchObject({ ...ZERO, dayCount: 0 });
    // Filters: a customer, a customer range, a goods item (orders holding it).
    const mine = (f: (l: Line) => boolean) => placed.filter(f);
    expect((await get(admin, `${TA}/sumtotal`, { customerId: w.customers[0] }))).toMatchObject(trade(mine((l) => l.customerId === w.customers[0])));
    expect((await get(admin, `${TA}/sumtotal`, { rangeId_equal: rangeId }))).toMatchObject(trade(mine((l) => l.customerId === w.customers[1])));
    expect((await get(admin, `${TA}/sumtotal`, { commInfoId: C }))).toMatchObject(trade(mine((l) => l.goods === C)));
    const bad = await admin.get(`${TA}/list`, { dateType: 'week' });
    expect([bad.status, bad.body.msg]).toEqual([400, 'dateType 只能是 1（日）、2（月）或 3（年）']);
    expect((await admin.get(`${TA}/list`, { billDate_datege: '2025-13-01' })).status).toBe(400);
  });

  test('tradeanalysis selectList: per goods, largest order amount first, shares of the whole', async () => {
    const rows: Row[] = await get(admin, `${TA}/selectList`, period());
    const whole = sum(placed, (l) => l.finalAmt);
    const expected = [A, B, C]
      .map((g) => {
        const ls = placed.filter((l) => l.goods === g);
        const t = trade(ls);
        return { commInfoId: g, baseQty: t.baseQty, orderCount: t.orderCount, buyerCount: t.buyerCount, totalAmt: t.totalAmt, couponAmt: t.couponAmt, orderAmt: t.orderAmt, amountShare: pct(sum(ls, (l) => l.finalAmt), whole) };
      })
      .sort((x, y) => new Dec(y.orderAmt).comparedTo(x.orderAmt) || x.commInfoId.localeCompare(y.commInfoId));
    expect(rows.map((r) => r.commInfoId)).toEqual(expected.map((e) => e.commInfoId));
    expected.forEach((e, i) => expect(rows[i]).toMatchObject({ ...e, commInfoName: expect.stringContaining('商品'), unitName: expect.any(String) }));
    expect(await get(admin, `${TA}/selectList`, { billDate_datele: dayFromNow(-1) })).toEqual([]);
  });

  test('tradecustomeranalysis list: per customer, with first and last order dates; sumtotal', async () => {
    const page = await get(admin, `${TC}/list`, period());
    const whole = sum(placed, (l) => l.finalAmt);
    const expected = [w.customers[0], w.customers[1]]
      .map((c) => {
        const ls = placed.filter((l) => l.customerId === c);
        const t = trade(ls);
        return { customerId: c, orderCount: t.orderCount, totalAmt: t.totalAmt, couponAmt: t.couponAmt, orderAmt: t.orderAmt, avgOrderAmt: t.avgOrderAmt, amountShare: pct(sum(ls, (l) => l.finalAmt), whole), firstOrderDate: today(), lastOrderDate: today() };
      })
      .sort((x, y) => new Dec(y.orderAmt).comparedTo(x.orderAmt) || x.customerId.localeCompare(y.customerId));
    expect(page.records.map((r: Row) => r.customerId)).toEqual(expected.map((e) => e.customerId));
    expected.forEach((e, i) => expect(page.records[i]).toMatchObject({ ...e, bartererName: expect.stringContaining('客户') }));
    expect(page.records.find((r: Row) => r.customerId === w.customers[1])).toMatchObject({ rangeId, rangeName: expect.stringContaining('范围') });
    const t = trade(placed);
    const total = await get(admin, `${TC}/sumtotal`, period());
    expect(total).toMatchObject({ customerCount: 2, orderCount: 4, totalAmt: t.totalAmt, couponAmt: t.couponAmt, orderAmt: t.orderAmt, avgOrderAmt: t.avgOrderAmt, firstOrderDate: today(), lastOrderDate: today() });
    expect(page.summary).toEqual(total);
    const ranged = await get(admin, `${TC}/list`, { rangeId });
    expect(ranged.records.map((r: Row) => r.customerId)).toEqual([w.customers[1]]);
    const ascending = await get(admin, `${TC}/list`, { ascs: 'order_amt' });
    expect(ascending.records.map((r: Row) => r.customerId)).toEqual(expected.map((e) => e.customerId).reverse());
    expect((await get(admin, `${TC}/list`, { billDate_datele: dayFromNow(-1) })).records).toEqual([]);
  });

  test('recommendedanalysis list: per partner, referred customers, buyers among them, their mall orders; sumtotal', async () => {
    const page = await get(admin, `${RA}/list`, period());
    const whole = sum(placed, (l) => l.finalAmt);
    const of = (c: string) => placed.filter((l) => l.customerId === c);
    const figures = (customers: string[]) => {
      const ls = customers.flatMap(of);
      const t = trade(ls);
      const buyers = customers.filter((c) => of(c).length).length;
      return { customerCount: customers.length, buyerCount: buyers, conversionRate: pct(new Dec(buyers), new Dec(customers.length)), orderCount: t.orderCount, totalAmt: t.totalAmt, couponAmt: t.couponAmt, orderAmt: t.orderAmt, avgOrderAmt: t.avgOrderAmt, amountShare: pct(sum(ls, (l) => l.finalAmt), whole) };
    };
    const expected = [
      { partnerId: partners[0], ...figures([w.customers[0], w.customers[2]]) },
      { partnerId: partners[1], ...figures([w.customers[1]]) },
      { partnerId: partners[2], ...figures([]) },
    ].sort((x, y) => new Dec(y.orderAmt).comparedTo(x.orderAmt) || y.customerCount - x.customerCount || x.partnerId.localeCompare(y.partnerId));
    expect(page.records.map((r: Row) => r.partnerId)).toEqual(expected.map((e) => e.partnerId));
    expected.forEach((e, i) => expect(page.records[i]).toMatchObject({ ...e, partnerName: expect.stringContaining('合伙人') }));
    expect(page.records.find((r: Row) => r.partnerId === partners[0]).conversionRate).toBe('50.00');
    const t = trade(placed);
    const total = await get(admin, `${RA}/sumtotal`, period());
    expect(total).toMatchObject({ partnerCount: 3, customerCount: 3, buyerCount: 2, conversionRate: pct(new Dec(2), new Dec(3)), orderCount: 4, orderAmt: t.orderAmt, couponAmt: t.couponAmt, totalAmt: t.totalAmt });
    expect(page.summary).toEqual(total);
    const one = await get(admin, `${RA}/list`, { ...period(), partnerId: partners[1] });
    // Shares are of what the query selects: one partner alone holds all of it.
    expect(one.records).toEqual([expect.objectContaining({ ...expected.find((e) => e.partnerId === partners[1]), amountShare: '100.00' })]);
    const named = await get(admin, `${RA}/list`, { ...period(), partnerName: '合伙人3-' });
    expect(named.records.map((r: Row) => r.partnerId)).toEqual([partners[2]]);
    // A period without orders: the referred customers stay, nothing bought.
    const quiet = await get(admin, `${RA}/sumtotal`, { billDate_datele: dayFromNow(-1) });
    expect(quiet).toMatchObject({ customerCount: 3, buyerCount: 0, orderCount: 0, orderAmt: '0.00' });
  });

  test('each tenant sees only its own mall orders, customers and partners', async () => {
    const { admin: other, lines: theirs, partner } = otherTenant;
    // Tenant 000000's figures above are exactly its own orders; tenant 100001 sees only its one order.
    expect(await get(admin, `${TA}/sumtotal`)).toMatchObject(trade(placed));
    expect(await get(other, `${TA}/sumtotal`)).toMatchObject({ ...trade(theirs), orderCount: 1, dayCount: 1 });
    expect((await get(other, `${TA}/list`)).records).toEqual([expect.objectContaining({ tradeDate: today(), ...trade(theirs) })]);
    expect((await get(other, `${TA}/selectList`)).map((r: Row) => r.commInfoId)).toEqual([theirs[0].goods]);
    expect((await get(other, `${TC}/list`)).records.map((r: Row) => r.customerId)).toEqual([theirs[0].customerId]);
    const referred = await get(other, `${RA}/list`);
    expect(referred.records).toEqual([expect.objectContaining({ partnerId: partner, customerCount: 1, buyerCount: 1, orderCount: 1, orderAmt: trade(theirs).orderAmt })]);
    // Another tenant's ids as filters find nothing.
    expect(await get(other, `${TA}/sumtotal`, { customerId: w.customers[0] })).toMatchObject(ZERO);
    expect((await get(other, `${RA}/list`, { partnerId: partners[0] })).records).toEqual([]);
    expect((await get(admin, `${TC}/list`, { customerId: theirs[0].customerId })).records).toEqual([]);
  });

  test('mall range categories: a tree with CRUD; names unique among siblings; a parent with children is kept', async () => {
    const token = uniqueToken().slice(-6);
    const top = expectOk<Row>(await admin.post(`${RC}/submit`, { classifyName: `华东${token}`, sort: 1 }));
    const child = expectOk<Row>(await admin.post(`${RC}/submit`, { classifyName: `上海${token}`, parentId: top.id, sort: 2 }));
    expect(child.ancestors).toBe(`0,${top.id}`);
    const twin = await admin.post(`${RC}/submit`, { classifyName: `上海${token}`, parentId: top.id });
    expect([twin.status, twin.body.msg]).toEqual([400, '同级下已存在该分类名称']);
    const empty = await admin.post(`${RC}/submit`, { classifyName: '' });
    expect(empty.status).toBe(400);
    const tree = expectOk<Row[]>(await admin.get(`${RC}/tree`));
    const node = tree.find((n) => n.id === top.id);
    expect(node?.children?.map((n: Row) => n.id)).toEqual([child.id]);
    const nested = expectOk<Row[]>(await admin.get(`${RC}/list`));
    expect(nested.find((n) => n.id === top.id)?.children?.map((n: Row) => n.classifyName)).toEqual([`上海${token}`]);
    expect(expectOk<Row>(await admin.get(`${RC}/detail`, { id: child.id }))).toMatchObject({ classifyName: `上海${token}`, parentId: top.id, parentName: `华东${token}` });
    const renamed = expectOk<Row>(await admin.post(`${RC}/submit`, { ...child, classifyName: `浦东${token}` }));
    expect(renamed.classifyName).toBe(`浦东${token}`);
    const stale = await admin.post(`${RC}/submit`, { ...child, classifyName: `旧版本${token}` });
    expect(stale.body.msg).toBe('数据已被他人修改，请刷新后重试');
    const blocked = await admin.call('POST', `${RC}/remove`, { query: { ids: top.id } });
    expect([blocked.status, blocked.body.msg]).toEqual([400, '请先删除子节点']);
    expectOk(await admin.call('POST', `${RC}/remove`, { query: { ids: `${child.id},${top.id}` } }));
    expect((await admin.get(`${RC}/detail`, { id: top.id })).body.data ?? null).toBeNull();
    // Another tenant does not see this tenant's categories.
    const mine = expectOk<Row>(await admin.post(`${RC}/submit`, { classifyName: `华北${token}` }));
    expect(expectOk<Row[]>(await otherTenant.admin.get(`${RC}/list`)).some((n) => n.id === mine.id)).toBe(false);
  });
});
