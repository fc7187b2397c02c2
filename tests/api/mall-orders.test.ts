/**
 * Mall orders through the storefront's calls (quote, intake), signed in as a buyer account, on
 * SQLite and PostgreSQL: the README's worked example (特价, 九折, 秒杀, 满减 tiers and a 满100减10
 * coupon) priced and stored to the cent; a flash sale of 10 units under 50 concurrent orders of 1
 * (exactly 10 placed, the rest refused, campaign counters agree); refusals that leave nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';
import { BASES, approvedBill, lines, makeGoods, makeWorld, partyBalance, setConfig, stockOf, type World } from '../support/bills.ts';
import { formatDateTime } from '../../src/shared/dates.ts';
import { paymentSign } from '../../src/server/mall/payments.ts';

type Row = Record<string, unknown>;
const M = '/blade-market/marketing';
const at = (days: number, time = '00:00:00') => `${formatDateTime(new Date(Date.now() + days * 86_400_000)).slice(0, 10)} ${time}`;
const span = { beginTime: at(-1), endTime: at(10, '23:59:59') };

describe.each(databases())('mall orders ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let buyer: Api;
  let w: World;
  let goods: Record<'A' | 'B' | 'C' | 'D' | 'E', string>;
  let heldCoupon = '';
  let flash = '';

  const price = async (id: string, retailPrice: string) => expectOk(await admin.post('/blade-base/commprice/submit', { commInfoId: id, unitId: w.unitId, retailPrice }));

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 4, customers: 2 });
    const e = await makeGoods(admin, w.unitId, `秒杀商品${Date.now()}`);
    goods = { A: w.goods[0], B: w.goods[1], C: w.goods[2], D: w.goods[3], E: e };
    for (const [id, p] of [[goods.A, '25.00'], [goods.B, '12.80'], [goods.C, '40.00'], [goods.D, '29.90'], [goods.E, '59.00']] as const) await price(id, p);
    await setConfig(admin, 'MALL_DEPOT_ID', w.depots[0]);
    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, Object.values(goods).map((g) => ({ goods: g, qty: '100', purchasePrice: '5' }))) }, { post: true });
    expectOk(await admin.call('POST', '/blade-base/comminfo/putOnShelves', { query: { ids: Object.values(goods).join(',') } }));
    const phone = `139${String(Date.now()).slice(-8)}`;
    const member = expectOk<Row>(await admin.post('/blade-base/member/submit', { customerId: w.customers[0], phone, realName: '买家张三' }));
    expectOk(await admin.post('/blade-base/member/openAccount', { id: member.id, password: 'buyer123' }));
    buyer = await signedIn(server.url, '000000', phone, 'buyer123');

    const campaign = async (kind: number, bodyList: Row[], extra: Row = {}) => expectOk<Row>(await admin.post(`${M}/submit`, { marketingName: `活动${kind}-${bodyList.length}`, marketingType: kind, ...span, bodyList, ...extra }));
    await campaign(3, [{ commInfoId: goods.B, promoPrice: '9.90' }], { marketingName: '特价' });
    await campaign(1, [{ commInfoId: goods.C, discountRate: '90' }], { marketingName: '九折' });
    await campaign(6, [{ commInfoId: goods.D, promoPrice: '19.90', activityQty: '10', limitQty: '2' }], { marketingName: '秒杀' });
    await campaign(2, [{ fullAmt: '100', reduceAmt: '10' }, { fullAmt: '150', reduceAmt: '20' }, { fullAmt: '200', reduceAmt: '40' }], { marketingName: '满减' });
    flash = String((await campaign(6, [{ commInfoId: goods.E, promoPrice: '1.00', activityQty: '10' }], { marketingName: '一元秒杀' })).id);
    const coupon = expectOk<Row>(await admin.post('/blade-market/coupon/submit', { couponName: '满100减10', couponType: 1, couponAmt: '10', fullAmt: '100', couponNum: 10, ...span }));
    expectOk(await admin.get('/blade-market/coupon/send', { id: coupon.id, customerIds: w.customers[0] }));
    heldCoupon = String(expectOk<{ records: Row[] }>(await admin.get('/blade-market/customercoupon/list', { couponId: coupon.id })).records[0].id);
  });
  afterAll(async () => server?.close());

  const cart = () => [
    { commInfoId: goods.A, qty: '3' },
    { commInfoId: goods.B, qty: '5' },
    { commInfoId: goods.C, qty: '1' },
    { commInfoId: goods.D, qty: '1' },
  ];
  const address = { contacts: '张三', contactsPhone: '13900000000', contactsAreaName: '上海市 浦东新区', contactsAddress: '张杨路 500 号' };

  test('only a buyer account may order; a refusal leaves nothing behind', async () => {
    const staff = await admin.post('/blade-mall/order/intake', { lines: cart(), ...address });
    expect(staff.status).toBe(403);
    expect(staff.body.msg).toBe('只有商城买家账号可以在商城下单');
    // A buyer account reaches the storefront's calls and nothing of the back office.
    for (const [method, path] of [['GET', '/blade-base/customer/list'], ['GET', '/blade-sales/salesorderhead/list'], ['POST', '/blade-market/coupon/submit']] as const) {
      const reply = method === 'GET' ? await buyer.get(path) : await buyer.post(path, {});
      expect(reply.status, path).toBe(403);
      expect(reply.body.msg).toBe('商城买家账号只能使用商城接口');
    }
    const before = expectOk<{ total: number }>(await admin.get('/blade-sales/salesorderhead/list', { size: 1 })).total;
    const small = await buyer.post('/blade-mall/order/intake', { lines: [{ commInfoId: goods.A, qty: '1' }], couponId: heldCoupon, ...address });
    expect(small.status).toBe(400);
    expect(small.body.msg).toBe('未满足优惠券「满100减10」的使用条件：满 100 可用，本单可用金额 25.00');
    const overLimit = await buyer.post('/blade-mall/order/intake', { lines: [{ commInfoId: goods.D, qty: '3' }], ...address });
    expect(overLimit.body.msg).toMatch(/^「.+」参加秒杀「秒杀」，每单限购 2$/);
    // 商品授权 and 起订量: goods shielded from the customer are not sold to it; below the minimum quantity is refused.
    const f = await makeGoods(admin, w.unitId, `授权商品${Date.now()}`);
    await price(f, '10.00');
    expectOk(await admin.call('POST', '/blade-base/comminfo/putOnShelves', { query: { ids: f } }));
    expectOk(await admin.call('POST', '/blade-base/comminfo/shildCustomers', { query: { ids: f, alCustomerIds: w.customers[0] } }));
    expect((await buyer.post('/blade-mall/order/intake', { lines: [{ commInfoId: f, qty: '1' }], ...address })).body.msg).toMatch(/^商品「授权商品\d+」不对您销售$/);
    expectOk(await admin.call('POST', '/blade-base/comminfo/shildCustomers', { query: { ids: f, alCustomerIds: w.customers[1] } }));
    expectOk(await admin.call('POST', '/blade-base/comminfo/updateStartQty', { query: { ids: f, startQty: '5' } }));
    expect((await buyer.post('/blade-mall/order/intake', { lines: [{ commInfoId: f, qty: '1' }], ...address })).body.msg).toMatch(/^商品「授权商品\d+」起订量为 5$/);
    const noAddress = await buyer.post('/blade-mall/order/intake', { lines: cart() });
    expect(noAddress.body.msg).toBe('请填写收货人、电话和地址');
    expect(expectOk<{ total: number }>(await admin.get('/blade-sales/salesorderhead/list', { size: 1 })).total).toBe(before);
    const held = expectOk<{ records: Row[] }>(await admin.get('/blade-market/customercoupon/list', { id: heldCoupon })).records;
    expect(held[0].useStatus).toBe(1);
  });

  test('the README worked example: quote and order agree to the cent, the coupon is used once', async () => {
    const quote = expectOk<Row>(await buyer.post('/blade-mall/order/quote', { lines: cart(), couponId: heldCoupon }));
    expect(quote).toMatchObject({ totalAmt: '180.40', couponAmt: '30.00', finalAmt: '150.40', problems: [] });
    const placed = expectOk<Row>(await buyer.post('/blade-mall/order/intake', { lines: cart(), couponId: heldCoupon, ...address, remark: '工作日送货' }));
    expect(placed).toMatchObject({ billStatus: '1302', finalAmt: '150.40' });
    const order = expectOk<Row>(await admin.get('/blade-sales/salesorderhead/detail', { id: placed.id }));
    expect(order).toMatchObject({ orderSource: '2', customerId: w.customers[0], totalAmt: '180.40', couponAmt: '30.00', finalAmt: '150.40', contacts: '张三', customerCouponId: heldCoupon });
    const lines = order.bodyList as Row[];
    expect(lines.map((l) => [l.taxPrice, l.totalAmt, l.couponAmt, l.finalAmt])).toEqual([
      ['25.00000', '75.00', '14.02', '60.98'],
      ['9.90000', '49.50', '9.25', '40.25'],
      ['40.00000', '36.00', '6.73', '29.27'],
      ['19.90000', '19.90', '0.00', '19.90'],
    ]);
    expect(lines[0].priceRule).toBe('整单促销「满减」分摊 9.34；优惠券「满100减10」分摊 4.68');
    expect(lines[3].priceRule).toBe('秒杀「秒杀」19.90000');
    const held = expectOk<{ records: Row[] }>(await admin.get('/blade-market/customercoupon/list', { id: heldCoupon })).records[0];
    expect(held).toMatchObject({ useStatus: 2, useBillId: placed.id, useBillNo: placed.billNo });
    expect(Number(held.useAmt)).toBe(10);
    const again = await buyer.post('/blade-mall/order/intake', { lines: cart(), couponId: heldCoupon, ...address });
    expect(again.body.msg).toBe('优惠券已使用');
    const joined = expectOk<{ records: Row[] }>(await admin.get('/blade-market/customermarketing/list', { billNo: placed.billNo, size: 20 })).records;
    expect(joined.map((r) => [Number(r.marketingType), Number(r.promoAmt)]).sort()).toEqual([[1, 4], [2, 20], [3, 14.5], [6, 10]].sort());
    expect(order.mallStatus).toBe('6202');

    // 确认, 发货 (posts the sales-out: stock leaves, the customer owes the order's final amount), 确认收货.
    const early = await admin.post('/blade-mall/order/ship', { id: placed.id, courierNo: 'SF1001' });
    expect(early.body.msg).toBe('请先确认订单，再发货');
    expectOk(await admin.post('/blade-mall/order/confirm', { id: placed.id, version: order.version }));
    const arBefore = await partyBalance(server, 'AR', w.customers[0]);
    const stockBefore = await stockOf(server, w.depots[0], goods.A);
    const noCourier = await admin.post('/blade-mall/order/ship', { id: placed.id });
    expect(noCourier.body.msg).toBe('请填写快递单号');
    const shipped = expectOk<{ order: Row; salesOut: Row }>(await admin.post('/blade-mall/order/ship', { id: placed.id, courierNo: 'SF1001' }));
    expect(shipped.order).toMatchObject({ mallStatus: '6203' });
    expect(shipped.salesOut).toMatchObject({ billStatus: '1306', courierNo: 'SF1001', finalAmt: '150.40' });
    expect((await stockOf(server, w.depots[0], goods.A)).qty).toBe((Number(stockBefore.qty) - 3).toFixed(2));
    expect(Number(await partyBalance(server, 'AR', w.customers[0])) - Number(arBefore)).toBeCloseTo(150.4, 2);
    expect((await admin.post('/blade-mall/order/ship', { id: placed.id, courierNo: 'SF1002' })).body.msg).toBe('订单不是待发货状态');
    const done = expectOk<Row>(await buyer.post('/blade-mall/order/complete', { id: placed.id }));
    expect(done.mallStatus).toBe('6204');
    // 消费得积分: one point per 1.00 paid (会员设置 每消费金额 1), the remainder earning nothing.
    const earned = expectOk<{ records: Row[] }>(await admin.get('/blade-market/pointsledger/list', { customerId: w.customers[0], size: 50 })).records.filter((r) => r.billId === placed.id);
    expect(earned.map((r) => [Number(r.change), Number(r.changeType)])).toEqual([[150, 4]]);

    // 退货申请 by the buyer: 2 of A's 3 (its coupon and promotion shares prorated), then approved into a posted sales return.
    const aLine = lines[0];
    const tooMany = await buyer.post('/blade-mall/return/apply', { orderId: placed.id, lines: [{ sourceBodyId: aLine.id, qty: '4' }], returnReason: '质量问题' });
    expect(tooMany.body.msg).toBe('第1行：退货数量不能超过可退数量 3.00');
    const request = expectOk<Row>(await buyer.post('/blade-mall/return/apply', { orderId: placed.id, lines: [{ sourceBodyId: aLine.id, qty: '2' }], returnReason: '质量问题' }));
    expect(request).toMatchObject({ billStatus: '1302', orderNo: placed.billNo, returnAmt: '40.65' });
    expect(expectOk<Row>(await admin.get('/blade-sales/salesorderhead/detail', { id: placed.id })).mallStatus).toBe('6206');
    const second = await buyer.post('/blade-mall/return/apply', { orderId: placed.id, lines: [{ sourceBodyId: aLine.id, qty: '2' }], returnReason: '再退' });
    expect(second.body.msg).toBe('第1行：退货数量不能超过可退数量 1.00');
    const arMid = await partyBalance(server, 'AR', w.customers[0]);
    const stockMid = await stockOf(server, w.depots[0], goods.A);
    const approved = expectOk<Row>(await admin.post('/blade-mall/returnapply/pass', { id: request.id, version: request.version, depotId: w.depots[0], remark: '同意' }));
    expect(approved.billStatus).toBe('1304');
    expect(String(approved.salesReturnNo)).not.toBe('');
    const salesReturn = expectOk<Row>(await admin.get('/blade-sales/salesreturnorderhead/detail', { id: approved.salesReturnId }));
    expect(salesReturn).toMatchObject({ billStatus: '1306', finalAmt: '-40.65' });
    expect((await stockOf(server, w.depots[0], goods.A)).qty).toBe((Number(stockMid.qty) + 2).toFixed(2));
    expect(Number(await partyBalance(server, 'AR', w.customers[0])) - Number(arMid)).toBeCloseTo(-40.65, 2);
    expect(expectOk<Row>(await admin.get('/blade-sales/salesorderhead/detail', { id: placed.id })).mallStatus).toBe('6204');
  });

  test('a flash sale of 10 units under 50 concurrent orders of 1: exactly 10 placed', async () => {
    const replies = await Promise.all(Array.from({ length: 50 }, () => buyer.post('/blade-mall/order/intake', { lines: [{ commInfoId: goods.E, qty: '1' }], ...address })));
    const placed = replies.filter((r) => r.body.success);
    expect(placed).toHaveLength(10);
    for (const r of replies.filter((x) => !x.body.success)) expect(r.body.msg).toMatch(/^「.+」的秒杀「一元秒杀」已抢光$/);
    const campaign = expectOk<Row>(await admin.get(`${M}/detail`, { id: flash }));
    const line = (campaign.bodyList as Row[])[0];
    expect([Number(line.activityQty), Number(line.soldQty)]).toEqual([10, 10]);
    const joined = expectOk<{ total: number }>(await admin.get('/blade-market/customermarketing/list', { marketingId: flash, size: 1 })).total;
    expect(joined).toBe(10);
    const orders = new Set(placed.map((r) => (r.body.data as Row).id));
    expect(orders.size).toBe(10);
  }, 120_000);

  test('online payments: signed results recorded once, matched to orders, booked as mall prepayments that shipping consumes', async () => {
    const [wechat] = expectOk<{ records: Row[] }>(await admin.get('/blade-system/paymentconfig/list', { payChannel: 'wechat' })).records;
    const key = 'test-key-0123456789';
    expectOk(await admin.post('/blade-system/paymentconfig/submit', { ...wechat, enabled: 2, appId: 'wx-app', mchId: '1900000001', apiKey: key }));
    const order = expectOk<Row>(await buyer.post('/blade-mall/order/intake', { lines: [{ commInfoId: goods.A, qty: '2' }], ...address }));
    expect(order.finalAmt).toBe('50.00');
    const notify = (tradeNo: string, orderNo: string, payAmt: string, sign?: string) => {
      const p = { tenantId: '000000', payChannel: 'wechat', tradeNo, orderNo, payAmt, paidTime: formatDateTime() };
      return new Api(server.url, '000000').post('/blade-mall/pay/notify', { ...p, sign: sign ?? paymentSign(key, p) });
    };
    const forged = await notify('T-1', String(order.billNo), '50.00', 'f'.repeat(64));
    expect(forged.status).toBe(403);
    expect(forged.body.msg).toBe('支付结果签名不正确');
    expect(expectOk<Row>(await notify('T-2', String(order.billNo), '49.00')).matchStatus).toBe(2);
    expect(expectOk<Row>(await notify('T-3', 'NO-SUCH', '10.00')).matchStatus).toBe(3);
    const arBefore = await partyBalance(server, 'AR', w.customers[0]);
    const booked = expectOk<Row>(await notify('T-4', String(order.billNo), '50.00'));
    expect(booked.matchStatus).toBe(1);
    expect(expectOk<Row>(await notify('T-4', String(order.billNo), '50.00')).matchStatus).toBe(1);
    expect(expectOk<Row>(await notify('T-5', String(order.billNo), '50.00')).matchStatus).toBe(4);
    const rows = expectOk<{ records: Row[] }>(await admin.get('/blade-mall/onlinepay/list', { orderNo: order.billNo, size: 20 })).records;
    expect(rows.map((r) => [r.tradeNo, r.matchStatus]).sort()).toEqual([['T-2', 2], ['T-4', 1], ['T-5', 4]]);
    const paid = rows.find((r) => r.tradeNo === 'T-4')!;
    const prepayment = expectOk<Row>(await admin.get('/blade-finance/prepayment/detail', { id: paid.precpId }));
    expect(prepayment).toMatchObject({ billType: '0823', precpKind: 2, billStatus: '1306', precpAmt: '50.00', bartererId: w.customers[0] });
    // Paid ahead (AR 50.00 lower), then shipped: the sales-out consumes the prepayment, so the customer owes what it owed before.
    expect(Number(await partyBalance(server, 'AR', w.customers[0])) - Number(arBefore)).toBeCloseTo(-50, 2);
    const stored = expectOk<Row>(await admin.get('/blade-sales/salesorderhead/detail', { id: order.id }));
    expectOk(await admin.post('/blade-mall/order/confirm', { id: order.id, version: stored.version }));
    expectOk(await admin.post('/blade-mall/order/ship', { id: order.id, courierNo: 'SF2001' }));
    expect(await partyBalance(server, 'AR', w.customers[0])).toBe(arBefore);
    const retry = await admin.post('/blade-mall/onlinepay/match', { id: paid.id });
    expect(retry.body.msg).toBe('该笔支付已入账');
  });

  test('a buyer claims a coupon in the mall: within the per-customer limit, counted as 已领取, then offered at checkout', async () => {
    const coupon = expectOk<Row>(await admin.post('/blade-market/coupon/submit', { couponName: '领券满50减5', couponType: 1, couponAmt: '5', fullAmt: '50', couponNum: 2, perLimit: 1, ...span }));
    const offers = expectOk<Row[]>(await buyer.get('/blade-mall/coupon/offers'));
    expect(offers.find((o) => o.id === coupon.id)).toMatchObject({ useRule: '满50减5', left: 2 });
    const copy = expectOk<Row>(await buyer.post('/blade-mall/coupon/receive', { couponId: coupon.id }));
    expect(copy).toMatchObject({ couponId: coupon.id, customerId: w.customers[0], getType: 2, useStatus: 1 });
    expect((await buyer.post('/blade-mall/coupon/receive', { couponId: coupon.id })).body.msg).toBe('每人限领 1 张，您已领取');
    const after = expectOk<Row>(await admin.get('/blade-market/coupon/detail', { id: coupon.id }));
    expect(after).toMatchObject({ sendNum: 0, receiveNum: 1, unSendNum: 1 });
    const mine = expectOk<Row[]>(await buyer.get('/blade-mall/coupon/mine'));
    expect(mine.map((m) => m.id)).toContain(copy.id);
    const staff = await admin.post('/blade-mall/coupon/receive', { couponId: coupon.id });
    expect(staff.status).toBe(403);
    const quote = expectOk<Row>(await buyer.post('/blade-mall/order/quote', { lines: [{ commInfoId: goods.A, qty: '2' }], couponId: copy.id }));
    expect(quote).toMatchObject({ totalAmt: '50.00', couponAmt: '5.00', finalAmt: '45.00' });
  });
});
