/**
 * The rest of 营销管理 on SQLite and PostgreSQL: 会员设置 (one row, edited not added), 积分兑换 with
 * its points ledger (grants, deductions, exchanges, shipping, cancelling, every refusal in
 * Chinese, and 10 concurrent exchanges on points for 3 of which exactly 3 succeed), 短信营销
 * (one outbox row per target customer with a mobile, never sent twice), 弹窗广告 (end after
 * start), 推广管理 withdrawals (pass / refuse from 待审核 only) and 营销分析 on known rows.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { makeWorld, type World } from '../support/bills.ts';
import { uniqueToken } from '../support/resources.ts';
import { formatDateTime } from '../../src/shared/dates.ts';
import { useCustomerCoupon } from '../../src/server/marketing/coupons.ts';

type Row = Record<string, unknown>;
type Page = { records: Row[]; total: number };
const SETTINGS = '/blade-market/membersettings';
const EXCHANGE = '/blade-market/pointsexchange';
const LEDGER = '/blade-market/pointsledger';
const SMS = '/blade-market/smscampaign';
const AD = '/blade-market/popupad';
const WITHDRAW = '/blade-market/recommendedwithdraw';
const ANALYSIS = '/blade-report/marketinganalysis';
const at = (days: number, time = '00:00:00') => `${formatDateTime(new Date(Date.now() + days * 86_400_000)).slice(0, 10)} ${time}`;
let phoneSeq = 0;
const mobile = () => `139${String(Date.now() % 1e6).padStart(6, '0')}${String(phoneSeq++).padStart(2, '0')}`;

describe.each(databases())('marketing pages ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 3, customers: 4 });
    // goods 0 and 2 are in the points mall (100 and 30 points), goods 1 is not.
    expectOk(await admin.post('/blade-base/comminfo/scorePutOn', undefined, { ids: w.goods[0], score: 100 }));
    expectOk(await admin.post('/blade-base/comminfo/scorePutOn', undefined, { ids: w.goods[2], score: 30 }));
  });
  afterAll(async () => server?.close());

  const refused = (reply: { status: number; body: { msg: string } }, msg: string) => {
    expect(reply.status, msg).toBe(400);
    expect(reply.body.msg).toBe(msg);
  };
  const balanceOf = async (customerId: string) => {
    const rows = expectOk<Page>(await admin.get('/blade-market/pointsbalance/list', { customerId_equal: customerId })).records;
    return rows.length ? Number(rows[0].balance) : 0;
  };
  const ledgerOf = async (customerId: string) => expectOk<Page>(await admin.get(`${LEDGER}/list`, { customerId_equal: customerId, size: 100 })).records;

  test('会员设置: one seeded row with the defaults, edited not added; bad values refused in Chinese', async () => {
    const { records } = expectOk<Page>(await admin.get(`${SETTINGS}/list`));
    expect(records).toHaveLength(1);
    const row = records[0];
    expect(row).toMatchObject({ code: 'default', pointsPerYuan: 100, maxDeductRate: 50, expiryMonths: 0, enabled: 2, enabledName: '是' });
    expect(Number(row.earnAmt)).toBe(1);
    refused(await admin.post(`${SETTINGS}/submit`, { ...row, earnAmt: '0' }), '每消费金额必须大于0');
    refused(await admin.post(`${SETTINGS}/submit`, { ...row, maxDeductRate: 101 }), '最高抵扣比例(%)不能超过100');
    refused(await admin.post(`${SETTINGS}/submit`, { ...row, pointsPerYuan: 0 }), '积分抵现比例不能小于1');
    refused(await admin.post(`${SETTINGS}/submit`, { earnAmt: '2', pointsPerYuan: 10, maxDeductRate: 10, expiryMonths: 1, enabled: 2 }), '会员设置不可新增，请编辑已有设置');
    const saved = expectOk<Row>(await admin.post(`${SETTINGS}/submit`, { ...row, earnAmt: '2.5', expiryMonths: 12, signUpPoints: 50, upgradeRule: '年消费满5000元升银卡' }));
    expect(saved).toMatchObject({ expiryMonths: 12, signUpPoints: 50, upgradeRule: '年消费满5000元升银卡' });
    expect(Number(saved.earnAmt)).toBe(2.5);
    refused(await admin.post(`${SETTINGS}/submit`, { ...row, remark: '旧版本' }), '数据已被他人修改，请刷新后重试');
    expect(expectOk<Page>(await admin.get(`${SETTINGS}/list`)).records).toHaveLength(1);
  });

  test('积分: grants and deductions by hand, exchange, ship, cancel; every refusal in Chinese', async () => {
    const customer = w.customers[0];
    const granted = expectOk<Row>(await admin.post(`${LEDGER}/adjust`, { customerId: customer, change: 500, reason: '开业赠送' }));
    expect(granted).toMatchObject({ change: 500, balanceAfter: 500, changeType: 1, changeTypeName: '人工调整', reason: '开业赠送' });
    refused(await admin.post(`${LEDGER}/adjust`, { customerId: customer, change: -600, reason: '扣减' }), '积分不足：需要 600，可用 500');
    refused(await admin.post(`${LEDGER}/adjust`, { customerId: customer, change: 0, reason: 'x' }), '积分变动必须是不为0的整数（增加为正，扣减为负）');
    refused(await admin.post(`${LEDGER}/adjust`, { customerId: customer, change: 5 }), '请输入调整原因');
    refused(await admin.post(`${LEDGER}/adjust`, { change: 5, reason: 'x' }), '请选择客户');
    expect(await balanceOf(customer)).toBe(500);

    // Goods 1 is not in the points mall; goods 0 costs 100 points each.
    const notInMall = await admin.post(`${EXCHANGE}/exchange`, { customerId: customer, commInfoId: w.goods[1], qty: 1 });
    expect(notInMall.status).toBe(400);
    expect(notInMall.body.msg).toMatch(/^商品「.+」不在积分商城中，不能兑换$/);
    expect(notInMall.body.data.fieldErrors.commInfoId).toBe(notInMall.body.msg);
    refused(await admin.post(`${EXCHANGE}/exchange`, { customerId: customer, commInfoId: w.goods[0], qty: 6 }), '积分不足：需要 600，可用 500');
    refused(await admin.post(`${EXCHANGE}/exchange`, { customerId: customer, commInfoId: w.goods[0], qty: 0 }), '兑换数量必须是1到9999的整数');
    refused(await admin.post(`${EXCHANGE}/exchange`, { customerId: customer, qty: 1 }), '请选择兑换商品');
    const stranger = expectOk<Row>(await admin.post('/blade-base/member/submit', { customerId: w.customers[1], realName: '外人', phone: mobile() }));
    refused(await admin.post(`${EXCHANGE}/exchange`, { customerId: customer, commInfoId: w.goods[0], qty: 1, memberId: stranger.id }), '会员不属于该客户');
    expect(await balanceOf(customer)).toBe(500);

    const member = expectOk<Row>(await admin.post('/blade-base/member/submit', { customerId: customer, realName: '王会员', phone: mobile() }));
    const ex = expectOk<Row>(await admin.post(`${EXCHANGE}/exchange`, { customerId: customer, commInfoId: w.goods[0], qty: 2, memberId: member.id, remark: '门店自提' }));
    expect(ex).toMatchObject({ customerId: customer, memberName: '王会员', qty: 2, unitPoints: 100, points: 200, exchangeStatus: 1, exchangeStatusName: '待发货', remark: '门店自提' });
    expect(String(ex.exchangeTime)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(await balanceOf(customer)).toBe(300);
    const [spent] = await ledgerOf(customer);
    expect(spent).toMatchObject({ change: -200, balanceAfter: 300, changeType: 2, billId: ex.id });

    refused(await admin.post(`${EXCHANGE}/ship`, { id: ex.id, version: ex.version }), '请输入快递单号');
    refused(await admin.post(`${EXCHANGE}/ship`, { id: ex.id, version: Number(ex.version) + 5, expressNo: 'SF1' }), '数据已被他人修改，请刷新后重试');
    const shipped = expectOk<Row>(await admin.post(`${EXCHANGE}/ship`, { id: ex.id, version: ex.version, expressNo: 'SF1234567890' }));
    expect(shipped).toMatchObject({ exchangeStatus: 2, expressNo: 'SF1234567890' });
    expect(String(shipped.shipTime)).not.toBe('');
    refused(await admin.post(`${EXCHANGE}/ship`, { id: ex.id, version: shipped.version, expressNo: 'SF2' }), '兑换记录已发货');
    refused(await admin.post(`${EXCHANGE}/cancel`, { id: ex.id, version: shipped.version }), '已发货的兑换不能取消');

    const second = expectOk<Row>(await admin.post(`${EXCHANGE}/exchange`, { customerId: customer, commInfoId: w.goods[2], qty: 3 }));
    expect(second.points).toBe(90);
    expect(await balanceOf(customer)).toBe(210);
    const cancelled = expectOk<Row>(await admin.post(`${EXCHANGE}/cancel`, { id: second.id, version: second.version }));
    expect(cancelled.exchangeStatus).toBe(3);
    expect(await balanceOf(customer)).toBe(300);
    const [back] = await ledgerOf(customer);
    expect(back).toMatchObject({ change: 90, balanceAfter: 300, changeType: 3, billId: second.id });
    refused(await admin.post(`${EXCHANGE}/cancel`, { id: second.id, version: cancelled.version }), '兑换记录已取消');
    refused(await admin.post(`${EXCHANGE}/ship`, { id: second.id, version: cancelled.version, expressNo: 'SF3' }), '已取消的兑换不能发货');

    const deducted = expectOk<Row>(await admin.post(`${LEDGER}/adjust`, { customerId: customer, change: -300, reason: '过期清零' }));
    expect(deducted.balanceAfter).toBe(0);
    const ledger = await ledgerOf(customer);
    expect(ledger.reduce((s, r) => s + Number(r.change), 0)).toBe(0);
    expect(ledger.map((r) => r.changeType)).toEqual([1, 3, 2, 2, 1]);
    const page = expectOk<Page>(await admin.get(`${EXCHANGE}/list`, { customerId_equal: customer }));
    expect(page.total).toBe(2);
    // The ledger is insert-only.
    expect((await admin.post(`${LEDGER}/submit`, { id: spent.id, change: 1 })).status).toBe(404);
  });

  test('积分兑换 is refused while 会员积分 is disabled in 会员设置, and for a disabled customer', async () => {
    const customer = w.customers[3];
    expectOk(await admin.post(`${LEDGER}/adjust`, { customerId: customer, change: 100, reason: '赠送' }));
    const row = expectOk<Page>(await admin.get(`${SETTINGS}/list`)).records[0];
    const off = expectOk<Row>(await admin.post(`${SETTINGS}/submit`, { id: row.id, version: row.version, enabled: 1 }));
    refused(await admin.post(`${EXCHANGE}/exchange`, { customerId: customer, commInfoId: w.goods[0], qty: 1 }), '会员积分未启用，不能兑换（营销管理 → 会员设置）');
    expectOk(await admin.post(`${SETTINGS}/submit`, { id: row.id, version: off.version, enabled: 2 }));
    expectOk(await admin.post(`${EXCHANGE}/exchange`, { customerId: customer, commInfoId: w.goods[0], qty: 1 }));
    expect(await balanceOf(customer)).toBe(0);
    // A disabled customer cannot exchange either.
    expectOk(await admin.post('/blade-base/customer/disable', undefined, { ids: customer }));
    refused(await admin.post(`${EXCHANGE}/exchange`, { customerId: customer, commInfoId: w.goods[2], qty: 1 }), '客户已停用，不能兑换');
    expectOk(await admin.post('/blade-base/customer/enable', undefined, { ids: customer }));
  });

  test('10 concurrent exchanges on points for 3: exactly 3 succeed and the balance ends at 0', async () => {
    const customer = w.customers[2];
    expectOk(await admin.post(`${LEDGER}/adjust`, { customerId: customer, change: 300, reason: '活动赠送' }));
    const replies = await Promise.all(Array.from({ length: 10 }, () => admin.post(`${EXCHANGE}/exchange`, { customerId: customer, commInfoId: w.goods[0], qty: 1 })));
    const ok = replies.filter((r) => r.body.success);
    expect(ok).toHaveLength(3);
    for (const r of replies) if (!r.body.success) expect(r.body.msg).toBe('积分不足：需要 100，可用 0');
    expect(await balanceOf(customer)).toBe(0);
    const ledger = await ledgerOf(customer);
    expect(ledger).toHaveLength(4);
    expect(ledger.reduce((s, r) => s + Number(r.change), 0)).toBe(0);
    expect(ledger.map((r) => Number(r.balanceAfter)).sort((a, b) => a - b)).toEqual([0, 100, 200, 300]);
    expect(expectOk<Page>(await admin.get(`${EXCHANGE}/list`, { customerId_equal: customer })).total).toBe(3);
  });

  test('短信营销: one outbox row per target customer with a mobile; never sent twice; a sent one is kept', async () => {
    const token = uniqueToken().slice(-6);
    const [level] = expectOk<Page>(await admin.get('/blade-base/commcustomerlevel/list', { size: 1 })).records;
    const levelId = String(expectOk<Row>(await admin.post('/blade-base/commcustomerlevel/submit', { levelName: `短信${token}`, levelType: level?.levelType ?? '0301', coefficient: '1' })).id);
    const natures = expectOk<Row[] | Page>(await admin.get('/blade-base/customernature/list', { size: 1 }));
    const nature = Array.isArray(natures) ? natures[0] : natures.records[0];
    const [own, viaContact] = [mobile(), mobile()];
    const customer = async (name: string, extra: Row) =>
      expectOk<Row>(await admin.post('/blade-base/customer/submit', { bartererName: `${name}${token}`, natureId: nature?.id ?? '0', levelId, ...extra }));
    await customer('有手机', { telephone: own });
    await customer('联系人手机', { telephone: '021-66668888', customerContactsVOs: [{ contacts: '李四', phone: viaContact, isDefault: '2' }] });
    await customer('无手机', { telephone: '021-55556666' });

    refused(await admin.post(`${SMS}/submit`, { campaignName: '周年庆', content: '周年庆全场九折', target: 2 }), '请选择客户等级');
    refused(await admin.post(`${SMS}/submit`, { campaignName: '周年庆', content: '长'.repeat(501), target: 1 }), '短信内容不能超过500个字符');
    const draft = expectOk<Row>(await admin.post(`${SMS}/submit`, { campaignName: '周年庆', content: `【测试】周年庆全场九折${token}`, target: 2, levelId, rangeId: '123' }));
    expect(draft).toMatchObject({ smsStatus: 1, target: 2, levelId, rangeId: null });
    const sent = expectOk<Row>(await admin.post(`${SMS}/send`, { id: draft.id, version: draft.version }));
    expect(sent).toMatchObject({ smsStatus: 2, sentCount: 2 });
    expect(String(sent.sendTime)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const outbox = expectOk<Page>(await admin.get('/blade-resource/sms-outbox/list', { content: token, size: 50 })).records;
    expect(outbox.map((r) => r.phone).sort()).toEqual([own, viaContact].sort());
    expect(outbox.every((r) => r.content === `【测试】周年庆全场九折${token}`)).toBe(true);

    refused(await admin.post(`${SMS}/send`, { id: draft.id, version: sent.version }), '短信已发送');
    refused(await admin.post(`${SMS}/submit`, { ...sent, content: '改' }), '短信已发送，不能修改');
    refused(await admin.post(`${SMS}/remove`, { ids: String(draft.id) }), '已发送的短信不能删除');
    expect(expectOk<Page>(await admin.get('/blade-resource/sms-outbox/list', { content: token })).total).toBe(2);

    // Two sends of one draft at once: one goes out, the other is refused.
    const again = expectOk<Row>(await admin.post(`${SMS}/submit`, { campaignName: '再发', content: `再发${token}`, target: 2, levelId }));
    const both = await Promise.all([0, 1].map(() => admin.post(`${SMS}/send`, { id: again.id, version: again.version })));
    expect(both.filter((r) => r.body.success)).toHaveLength(1);
    expect(both.find((r) => !r.body.success)!.body.msg).toMatch(/^(短信已发送|数据已被他人修改，请刷新后重试)$/);
    expect(expectOk<Page>(await admin.get('/blade-resource/sms-outbox/list', { content: `再发${token}` })).total).toBe(2);

    // A draft to a range nobody is in is refused; a draft can be removed.
    const range = expectOk<Row>(await admin.post('/blade-base/customerrange/submit', { crCode: `R${token}`, crName: `空范围${token}` }));
    const empty = expectOk<Row>(await admin.post(`${SMS}/submit`, { campaignName: '空', content: '空', target: 3, rangeId: range.id }));
    refused(await admin.post(`${SMS}/send`, { id: empty.id, version: empty.version }), '发送对象中没有有手机号码的客户');
    expectOk(await admin.post(`${SMS}/remove`, { ids: String(empty.id) }));
  });

  test('弹窗广告: the end must be after the start; link and image checked; enable and disable', async () => {
    const ad = { title: '新品上市', imageUrl: '/oss/000000/ad.png', linkUrl: 'https://shop.example.com/new', showFrom: at(0), showTo: at(7), frequency: 2, sort: 1 };
    refused(await admin.post(`${AD}/submit`, { ...ad, showTo: at(0) }), '结束时间必须晚于开始时间');
    refused(await admin.post(`${AD}/submit`, { ...ad, showTo: at(-1) }), '结束时间必须晚于开始时间');
    refused(await admin.post(`${AD}/submit`, { ...ad, linkUrl: 'ftp://x' }), '跳转链接应以 http://、https:// 或 / 开头');
    refused(await admin.post(`${AD}/submit`, { ...ad, imageUrl: '' }), '请上传广告图片');
    const saved = expectOk<Row>(await admin.post(`${AD}/submit`, ad));
    expect(saved).toMatchObject({ title: '新品上市', frequency: 2, status: 1 });
    // An edit that moves only the end before the stored start is refused too.
    refused(await admin.post(`${AD}/submit`, { id: saved.id, version: saved.version, showTo: at(-3) }), '结束时间必须晚于开始时间');
    const edited = expectOk<Row>(await admin.post(`${AD}/submit`, { id: saved.id, version: saved.version, showTo: at(14), linkUrl: '/pages/new' }));
    expect(edited).toMatchObject({ showTo: at(14), linkUrl: '/pages/new' });
    expectOk(await admin.post(`${AD}/disable`, undefined, { ids: saved.id }));
    const row = expectOk<Row>(await admin.get(`${AD}/detail`, { id: saved.id }));
    expect(row).toMatchObject({ status: 2, statusName: '停用', frequencyName: '每天一次' });
    expectOk(await admin.post(`${AD}/enable`, undefined, { ids: saved.id }));
    expect(expectOk<Page>(await admin.get(`${AD}/list`, { title: '新品' })).records.map((r) => r.status)).toEqual([1]);
  });

  test('推广管理: a partner applies; pass and refuse only from 待审核 with id and version', async () => {
    const partner = expectOk<Row>(await admin.post('/blade-base/partner/submit', { userName: '推广张', phone: mobile(), bankName: '招商银行', bankAccount: '6225880000001234' }));
    refused(await admin.post(`${WITHDRAW}/submit`, { partnerId: partner.id, amount: '0' }), '提现金额必须大于0');
    refused(await admin.post(`${WITHDRAW}/submit`, { amount: '10' }), '请选择合伙人');
    const applied = expectOk<Row>(await admin.post(`${WITHDRAW}/submit`, { partnerId: partner.id, amount: '120.5', remark: '五月佣金' }));
    expect(applied).toMatchObject({ withdrawStatus: 1 });
    expect(String(applied.applyTime)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const edited = expectOk<Row>(await admin.post(`${WITHDRAW}/submit`, { id: applied.id, version: applied.version, amount: '100' }));
    expect(Number(edited.amount)).toBe(100);
    refused(await admin.post(`${WITHDRAW}/pass`, { id: applied.id, version: applied.version, auditRemark: '同意' }), '数据已被他人修改，请刷新后重试');
    expectOk(await admin.post(`${WITHDRAW}/pass`, { id: applied.id, version: edited.version, auditRemark: '同意' }));
    const passed = expectOk<Row>(await admin.get(`${WITHDRAW}/detail`, { id: applied.id }));
    expect(passed).toMatchObject({ withdrawStatus: 2, withdrawStatusName: '已通过', auditRemark: '同意', partnerName: '推广张', bankName: '招商银行' });
    refused(await admin.post(`${WITHDRAW}/refuse`, { id: applied.id, version: passed.version, auditRemark: '重复' }), '当前状态不允许该操作（提现状态）');
    refused(await admin.post(`${WITHDRAW}/submit`, { id: applied.id, version: passed.version, amount: '1' }), '已审核的提现申请不能修改');

    const other = expectOk<Row>(await admin.post(`${WITHDRAW}/submit`, { partnerId: partner.id, amount: '50' }));
    expectOk(await admin.post(`${WITHDRAW}/refuse`, { id: other.id, version: other.version, auditRemark: '资料不全' }));
    expect(expectOk<Row>(await admin.get(`${WITHDRAW}/detail`, { id: other.id }))).toMatchObject({ withdrawStatus: 3, withdrawStatusName: '已驳回' });
    const list = expectOk<Page>(await admin.get(`${WITHDRAW}/list`, { partnerId_equal: partner.id }));
    expect(list.total).toBe(2);

    expectOk(await admin.post('/blade-base/partner/disable', undefined, { ids: partner.id }));
    refused(await admin.post(`${WITHDRAW}/submit`, { partnerId: partner.id, amount: '10' }), '合伙人已停用，不能申请提现');
  });

  test('营销分析 on known rows: per campaign and coupon, totals, filters and the period', async () => {
    const { services } = server;
    const actor = { tenantId: '000000', userId: '1' };
    const [c0, c1] = w.customers;
    const campaign = async (kind: number, name: string, lines: Row[]) =>
      expectOk<Row>(await admin.post('/blade-market/marketing/submit', { marketingName: name, marketingType: kind, beginTime: at(-1), endTime: at(7, '23:59:59'), bodyList: lines }));
    const special = await campaign(3, '分析特价', [{ commInfoId: w.goods[1], promoPrice: '8.5' }]);
    const whole = await campaign(2, '分析满减', [{ fullAmt: '30', reduceAmt: '5' }]);
    const row = (marketing: Row, billId: string, customerId: string, qty: string | null, promoAmt: string, finalAmt: string) => ({
      marketingId: marketing.id, marketingType: marketing.marketingType, customerId, billId, billNo: `NO-${billId}`, billType: '0802',
      commInfoId: qty === null ? null : w.goods[1], qty, promoAmt, finalAmt,
    });
    await services.store.insertMany(services.m('customer-marketing'), actor, [
      row(special, 'bill1', c0, '2', '3', '17'),
      row(special, 'bill1', c0, '1', '1', '9'),
      row(whole, 'bill1', c0, null, '5', '40'),
      row(special, 'bill2', c1, '3', '4.5', '25.5'),
      // bill3 was reversed: its rows add up to nothing and it is no order of the campaign.
      row(special, 'bill3', c0, '1', '1.5', '8.5'),
      row(special, 'bill3', c0, '-1', '-1.5', '-8.5'),
    ]);
    const coupon = expectOk<Row>(await admin.post('/blade-market/coupon/submit', { couponName: '分析券', couponType: 1, couponAmt: '10', fullAmt: '50', couponNum: 10, beginTime: at(-1), endTime: at(30) }));
    expectOk(await admin.get('/blade-market/coupon/send', { id: coupon.id, customerIds: `${c0},${c1}` }));
    const held = expectOk<Page>(await admin.get('/blade-market/customercoupon/list', { couponId: coupon.id, customerId: c1 })).records[0];
    const order = await services.store.insert(services.m('sales-order'), actor, { billNo: `SO-ANALYSIS-${uniqueToken().slice(-6)}`, billDate: at(0).slice(0, 10), customerId: c1, finalAmt: '90', totalAmt: '100' }, { includeReadonly: true });
    await services.store.transaction(() => useCustomerCoupon(services, actor, String(held.id), c1, { id: String(order.id), billNo: 'SO-A', amount: '10' }));

    const page = expectOk<Page & Row>(await admin.get(`${ANALYSIS}/list`));
    expect(page.records.map((r) => r.campaignName)).toEqual(['分析券', '分析特价', '分析满减']);
    const [c, s, o] = page.records;
    expect(c).toMatchObject({ source: 2, kindName: '优惠券（满减券）', billCount: 1, customerCount: 1, qty: '0.00', promoAmt: '10.00', finalAmt: '90.00', couponNum: 10, sentNum: 2, usedNum: 1, useRate: '50.00' });
    expect(s).toMatchObject({ source: 1, campaignId: special.id, marketingType: 3, kindName: '特价', billCount: 2, customerCount: 2, qty: '6.00', promoAmt: '8.50', finalAmt: '51.50', couponNum: null });
    expect(o).toMatchObject({ source: 1, kindName: '整单促销', billCount: 1, customerCount: 1, qty: '0.00', promoAmt: '5.00', finalAmt: '40.00' });
    expect(page).toMatchObject({ total: 3, dateFrom: null, dateTo: null });

    const total = expectOk<Row>(await admin.get(`${ANALYSIS}/total`));
    expect(total).toMatchObject({ billCount: 4, customerCount: 4, qty: '6.00', promoAmt: '23.50', finalAmt: '181.50', orderCount: 3, buyerCount: 2 });

    const campaignsOnly = expectOk<Page>(await admin.get(`${ANALYSIS}/list`, { source_equal: 1 })).records;
    expect(campaignsOnly.map((r) => r.campaignName)).toEqual(['分析特价', '分析满减']);
    expect(expectOk<Page>(await admin.get(`${ANALYSIS}/list`, { marketingType_equal: 3 })).records.map((r) => r.campaignName)).toEqual(['分析特价']);
    const ofC1 = expectOk<Page>(await admin.get(`${ANALYSIS}/list`, { customerId: c1 })).records;
    expect(ofC1.map((r) => [r.campaignName, r.billCount, r.qty, r.promoAmt, r.finalAmt])).toEqual([
      ['分析券', 1, '0.00', '10.00', '90.00'],
      ['分析特价', 1, '3.00', '4.50', '25.50'],
    ]);
    const byName = expectOk<Page>(await admin.get(`${ANALYSIS}/list`, { ascs: 'final_amt' })).records;
    expect(byName.map((r) => r.campaignName)).toEqual(['分析满减', '分析特价', '分析券']);
    const before = expectOk<Page & Row>(await admin.get(`${ANALYSIS}/list`, { joinTime_datele: at(-1).slice(0, 10) }));
    expect(before).toMatchObject({ total: 0, dateTo: at(-1).slice(0, 10) });
    expect(expectOk<Page>(await admin.get(`${ANALYSIS}/list`, { joinTime_datege: at(0).slice(0, 10) })).total).toBe(3);
    refused(await admin.get(`${ANALYSIS}/list`, { joinTime_datege: '2026-13-01' }), '参与开始日期格式应为 yyyy-MM-dd');

    const detail = expectOk<Page>(await admin.get(`${ANALYSIS}/detailList`, { campaignId: special.id, size: 50 }));
    expect(detail.total).toBe(5);
    expect(detail.records.every((r) => r.marketingName === '分析特价' && r.commInfoName)).toBe(true);

    // Another tenant sees none of it.
    const other = await signedIn(server.url, '100001');
    expect(expectOk<Page>(await other.get(`${ANALYSIS}/list`)).total).toBe(0);
  });
});
