/**
 * 营销活动 and 优惠券 on SQLite and PostgreSQL: each campaign kind's rules refused in Chinese on
 * the line and field at fault, publishing by time, overlaps, extending and cancelling; the
 * campaign goods calls; coupons whose counters add up after single, bulk (5,000 customers, with
 * progress), repeated and concurrent sends, and cancelling that takes customers' copies with it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { makeWorld, type World } from '../support/bills.ts';
import { formatDateTime } from '../../src/shared/dates.ts';
import { refreshMarketingStatuses } from '../../src/server/marketing/status.ts';

type Row = Record<string, unknown>;
const M = '/blade-market/marketing';
const C = '/blade-market/coupon';
const at = (days: number, time = '00:00:00') => `${formatDateTime(new Date(Date.now() + days * 86_400_000)).slice(0, 10)} ${time}`;

describe.each(databases())('marketing ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 3, customers: 3 });
  });
  afterAll(async () => server?.close());

  const campaign = (kind: number, bodyList: Row[], extra: Row = {}) => ({
    marketingName: `活动${kind}`,
    marketingType: kind,
    beginTime: at(-1),
    endTime: at(7, '23:59:59'),
    bodyList,
    ...extra,
  });

  test('each kind refuses its missing rule on the line at fault', async () => {
    const cases: [number, Row, string][] = [
      [1, { commInfoId: w.goods[0] }, '第1行：请输入折扣（如 90 表示九折）'],
      [1, { commInfoId: w.goods[0], discountRate: '100' }, '第1行：折扣必须大于0且小于100（如 90 表示九折）'],
      [2, { fullAmt: '100', reduceAmt: '100' }, '第1行：减额必须小于满额'],
      [3, { commInfoId: w.goods[0] }, '第1行：请输入特价价'],
      [5, { commInfoId: w.goods[0], promoPrice: '8' }, '第1行：请输入起团数量'],
      [6, { commInfoId: w.goods[0], promoPrice: '8' }, '第1行：秒杀必须设置活动库存'],
      [7, { commInfoId: w.goods[0], promoPrice: '8', depositAmt: '9' }, '第1行：定金不能超过预售价'],
      [3, {}, '第1行：请选择商品'],
    ];
    for (const [kind, line, msg] of cases) {
      const r = await admin.post(`${M}/submit`, campaign(kind, [line]));
      expect(r.status, msg).toBe(400);
      expect(r.body.msg).toBe(msg);
    }
    const twice = await admin.post(`${M}/submit`, campaign(3, [{ commInfoId: w.goods[0], promoPrice: '8' }, { commInfoId: w.goods[0], promoPrice: '9' }]));
    expect(twice.body.msg).toBe('第2行：与第1行是同一商品同一单位');
    const pack = await admin.post(`${M}/submit`, campaign(4, [{ commInfoId: w.goods[0], qty: '1' }, { commInfoId: w.goods[1], qty: '1' }]));
    expect(pack.body.msg).toBe('请输入套餐价');
    const presale = await admin.post(`${M}/submit`, campaign(7, [{ commInfoId: w.goods[0], promoPrice: '8' }]));
    expect(presale.body.msg).toBe('请选择发货日期');
    const backwards = await admin.post(`${M}/submit`, campaign(3, [{ commInfoId: w.goods[0], promoPrice: '8' }], { endTime: at(-2) }));
    expect(backwards.body.msg).toBe('结束时间必须晚于开始时间');
  });

  test('publishing sets the status by time; overlapping goods of one kind are refused; delay and cancel', async () => {
    const running = expectOk<Row>(await admin.post(`${M}/submit`, campaign(3, [{ commInfoId: w.goods[0], promoPrice: '8.5', limitQty: '5' }])));
    expect(running.billStatus).toBe('9503');
    expect(running.billType).toBe('0893');
    expect(String(running.billNo)).not.toBe('');
    expect(running.goodsCount).toBe(1);
    const later = expectOk<Row>(await admin.post(`${M}/submit`, campaign(3, [{ commInfoId: w.goods[1], promoPrice: '3' }], { beginTime: at(10), endTime: at(20) })));
    expect(later.billStatus).toBe('9502');
    const clash = await admin.post(`${M}/submit`, campaign(3, [{ commInfoId: w.goods[0], promoPrice: '7' }], { beginTime: at(2), endTime: at(3) }));
    expect(clash.status).toBe(400);
    expect(clash.body.msg).toMatch(/^商品「.+」已在特价活动「活动3」（.+）中，时间重叠$/);
    // Another kind may hold the same goods: precedence decides.
    expectOk(await admin.post(`${M}/submit`, campaign(1, [{ commInfoId: w.goods[0], discountRate: '90' }])));

    const early = await admin.post(`${M}/delay`, { id: running.id, version: running.version, endTime: at(1) });
    expect(early.body.msg).toBe(`延期后的结束时间必须晚于原结束时间 ${String(running.endTime)}`);
    const extended = expectOk<Row>(await admin.post(`${M}/delay`, { id: running.id, version: running.version, endTime: at(30, '23:59:59') }));
    expect(extended.billStatus).toBe('9504');
    expect(extended.endTime).toBe(at(30, '23:59:59'));
    const stale = await admin.post(`${M}/delay`, { id: running.id, version: running.version, endTime: at(40) });
    expect(stale.body.msg).toBe('活动已被他人修改，请刷新后重试');
    const cancelled = expectOk<Row>(await admin.get(`${M}/cancel`, { id: later.id, version: later.version }));
    expect(cancelled.billStatus).toBe('9506');
    const published = await admin.post(`${M}/submit`, { ...running, ...extended, marketingName: '改名' });
    expect(published.status).toBe(400);
    const listed = expectOk<{ records: Row[] }>(await admin.get(`${M}/list`, { marketingType: 3 })).records;
    expect(listed.map((r) => r.id)).toEqual(expect.arrayContaining([running.id, later.id]));
    expect(listed.every((r) => Number(r.marketingType) === 3)).toBe(true);
  });

  test('campaign goods: add to a draft, list with the campaign, remove', async () => {
    const draft = expectOk<Row>(await admin.post(`${M}/draft`, campaign(1, [{ commInfoId: w.goods[0], discountRate: '95' }])));
    expect(draft.billStatus).toBe('9501');
    const added = expectOk<Row>(await admin.post('/blade-market/commmarketing/add', { marketingId: draft.id, commInfoIds: `${w.goods[0]},${w.goods[1]},${w.goods[2]}` }));
    const lines = added.bodyList as Row[];
    expect(lines.map((l) => l.commInfoId)).toEqual([w.goods[0], w.goods[1], w.goods[2]]);
    expect(added.goodsCount).toBe(3);
    const page = expectOk<{ records: Row[]; total: number }>(await admin.get('/blade-market/commmarketing/list', { marketingId: draft.id }));
    expect(page.total).toBe(3);
    expect(page.records[0]).toMatchObject({ marketingId: draft.id, marketingName: '活动1', marketingType: 1, billNo: draft.billNo });
    // Publishing needs every new line's discount.
    const incomplete = await admin.post(`${M}/submit`, added);
    expect(incomplete.body.msg).toBe('第2行：请输入折扣（如 90 表示九折）；第3行：请输入折扣（如 90 表示九折）');
    expect(expectOk<number>(await admin.post('/blade-market/commmarketing/remove', { ids: `${lines[1].id},${lines[2].id}` }))).toBe(2);
    const after = expectOk<Row>(await admin.get(`${M}/detail`, { id: draft.id }));
    expect((after.bodyList as Row[]).length).toBe(1);
    expect(after.goodsCount).toBe(1);
    expectOk(await admin.get('/blade-market/customermarketing/list', { marketingId: draft.id }));
  });

  const coupon = async (extra: Row = {}) =>
    expectOk<Row>(await admin.post(`${C}/submit`, { couponName: '满100减10', couponType: 1, couponAmt: '10', fullAmt: '100', couponNum: 5, beginTime: at(-1), endTime: at(30), ...extra }));
  const counts = async (id: unknown) => {
    const c = expectOk<Row>(await admin.get(`${C}/detail`, { id }));
    expect(Number(c.couponNum)).toBe(Number(c.sendNum) + Number(c.receiveNum) + Number(c.unSendNum));
    return c;
  };

  test('a coupon states its rule and counters; its kind rules are refused in Chinese', async () => {
    const c = await coupon();
    expect(c).toMatchObject({ useRule: '满100减10', sendNum: 0, unSendNum: 5, usedNum: 0, couponStatus: '9403' });
    const d = await coupon({ couponName: '85折', couponType: 2, couponAmt: '', fullAmt: '200', discountRate: '85', maxAmt: '50' });
    expect(d.useRule).toBe('满200打8.5折，最高减50');
    const v = await coupon({ couponName: '代金券', couponType: 3, couponAmt: '5', fullAmt: '' , beginTime: at(3) });
    expect(v).toMatchObject({ useRule: '代金券5元', couponStatus: '9402' });
    const bad = await admin.post(`${C}/submit`, { couponName: 'x', couponType: 1, couponAmt: '100', fullAmt: '100', couponNum: 1, beginTime: at(0), endTime: at(1) });
    expect(bad.body).toMatchObject({ msg: '面额必须小于满额', data: { fieldErrors: { couponAmt: '面额必须小于满额' } } });
    const none = await admin.post(`${C}/submit`, { couponName: 'x', couponType: 2, couponNum: 1, beginTime: at(0), endTime: at(1) });
    expect(none.body.msg).toBe('请输入折扣');
  });

  test('send, re-send, run out, and cancel: the counters always add up', async () => {
    const c = await coupon({ couponNum: 4, perLimit: 1 });
    const first = expectOk<Row>(await admin.get(`${C}/send`, { id: c.id, customerIds: `${w.customers[0]},${w.customers[1]}` }));
    expect(first).toMatchObject({ sent: 2, skipped: 0, status: 2 });
    // Each already holds one (the per-customer limit): skipped.
    const again = expectOk<Row>(await admin.get(`${C}/send`, { id: c.id, customerIds: `${w.customers[0]},${w.customers[1]},${w.customers[2]}` }));
    expect(again).toMatchObject({ sent: 1, skipped: 2 });
    const unknown = await admin.get(`${C}/send`, { id: c.id, customerIds: '123' });
    expect(unknown.body.msg).toBe('所选客户不存在或已被删除');
    const after = await counts(c.id);
    expect(after).toMatchObject({ sendNum: 3, unSendNum: 1, couponStatus: '9403' });
    const held = expectOk<{ records: Row[]; total: number }>(await admin.get('/blade-market/customercoupon/list', { couponId: c.id }));
    expect(held.total).toBe(3);
    expect(held.records.every((h) => Number(h.useStatus) === 1 && Number(h.getType) === 1)).toBe(true);
    const cancelled = expectOk<Row>(await admin.get(`${C}/cancel`, { id: c.id, version: after.version }));
    expect(cancelled.couponStatus).toBe('9407');
    const gone = expectOk<{ records: Row[] }>(await admin.get('/blade-market/customercoupon/list', { couponId: c.id })).records;
    expect(gone.every((h) => Number(h.useStatus) === 3)).toBe(true);
    expect((await admin.get(`${C}/send`, { id: c.id, customerIds: w.customers[0] })).body.msg).toBe('优惠券已作废，不能发放');
    expect((await admin.post(`${C}/submit`, { ...cancelled, couponName: '改' })).body.msg).toBe('已作废的优惠券不能修改');
  });

  test('sendBatch to 5,000 customers: progress while it runs, counts that add up, a re-sent batch sends nothing twice', async () => {
    const { services } = server;
    const actor = { tenantId: '000000', userId: '1', deptId: null };
    const token = Date.now().toString(36);
    const [level] = expectOk<{ records: Row[] }>(await admin.get('/blade-base/commcustomerlevel/list', { size: 1 })).records;
    const levelId = expectOk<Row>(await admin.post('/blade-base/commcustomerlevel/submit', { levelName: `批量${token}`, levelType: level?.levelType ?? '0301', coefficient: '1' })).id;
    await services.store.insertMany(
      services.m('customer'),
      actor as never,
      Array.from({ length: 5000 }, (_, i) => ({ bartererName: `批量客户${token}-${i}`, bartererCode: `B${token}${i}`, levelId, natureId: '0' })),
    );
    const c = await coupon({ couponNum: 6000, couponName: '批量券' });
    const batchNo = `T${token}`;
    const progress: number[] = [];
    let done = false;
    const poll = (async () => {
      while (!done) {
        const p = expectOk<Row>(await admin.get(`${C}/sendBatchProgress`, { batchNo }));
        progress.push(Number(p.sent));
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const outcome = expectOk<Row>(await admin.post(`${C}/sendBatch`, { id: c.id, batchNo, levelId }));
    done = true;
    await poll;
    expect(outcome).toMatchObject({ total: 5000, sent: 5000, skipped: 0, status: 2 });
    // Progress was seen between the start and the end (chunks of 500 commit one by one).
    expect(progress.some((n) => n > 0 && n < 5000)).toBe(true);
    const afterFirst = await counts(c.id);
    expect(afterFirst).toMatchObject({ sendNum: 5000, unSendNum: 1000 });
    const resent = expectOk<Row>(await admin.post(`${C}/sendBatch`, { id: c.id, batchNo, levelId }));
    expect(resent).toMatchObject({ sent: 0, skipped: 5000 });
    expect(await counts(c.id)).toMatchObject({ sendNum: 5000, unSendNum: 1000 });
    expect(expectOk<{ total: number }>(await admin.get('/blade-market/customercoupon/list', { couponId: c.id, size: 1 })).total).toBe(5000);
    const batch = expectOk<{ records: Row[] }>(await admin.get('/blade-market/couponbatch/list', { batchNo })).records[0];
    expect(batch).toMatchObject({ total: 5000, sent: 0, skipped: 5000, batchStatus: 2 });
  }, 120_000);

  test('concurrent sends of a scarce coupon never hand out more than it has', async () => {
    const c = await coupon({ couponNum: 2, perLimit: 5 });
    const replies = await Promise.all(
      Array.from({ length: 6 }, () => admin.get(`${C}/send`, { id: c.id, customerIds: w.customers[0] })),
    );
    const sent = replies.map((r) => (r.body.success ? Number((r.body.data as Row).sent) : 0)).reduce((a, b) => a + b, 0);
    expect(sent).toBe(2);
    for (const r of replies) if (!r.body.success) expect(r.body.msg).toMatch(/优惠券已发完|优惠券剩余数量不足/);
    expect(await counts(c.id)).toMatchObject({ sendNum: 2, unSendNum: 0, couponStatus: '9404' });
  });

  test('the marketingStatus task moves campaigns and coupons on as time passes', async () => {
    const later = expectOk<Row>(await admin.post(`${M}/submit`, campaign(3, [{ commInfoId: w.goods[2], promoPrice: '1' }], { beginTime: at(50), endTime: at(60) })));
    const c = await coupon({ couponName: '未来券', beginTime: at(50), endTime: at(60) });
    expect([later.billStatus, c.couponStatus]).toEqual(['9502', '9402']);
    const status = async () => [expectOk<Row>(await admin.get(`${M}/detail`, { id: later.id })).billStatus, expectOk<Row>(await admin.get(`${C}/detail`, { id: c.id })).couponStatus];
    expect(await refreshMarketingStatuses(server.services, at(55))).toMatch(/^活动开始 [1-9]\d* 个/);
    expect(await status()).toEqual(['9503', '9403']);
    await refreshMarketingStatuses(server.services, at(61));
    expect(await status()).toEqual(['9505', '9406']);
    // The task is one of the 系统任务 and runs from there too.
    const tasks = expectOk<{ records: Row[] }>(await admin.get('/blade-system/systemtask/list', { size: 20 })).records;
    const task = tasks.find((t) => t.taskCode === 'marketingStatus')!;
    const ran = expectOk<Row>(await admin.call('POST', '/blade-system/systemtask/run', { query: { id: String(task.id) } }));
    expect(String(ran.lastMessage)).toMatch(/^活动开始 \d+ 个、结束 \d+ 个；优惠券开始发放 \d+ 张、过期 \d+ 张$/);
  });
});
