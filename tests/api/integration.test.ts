/**
 * Integration outbox, exception lists and freight (spec 001 §7), on SQLite and PostgreSQL:
 * pushSrm queues an approved purchase order (head and lines) in the outbox and marks it, refusing
 * drafts and stale versions; pushwjyp queues the tenant's real stock balances; the purchase and
 * sales exception lists answer contract pages; saveFreight / queryFreightInfo round-trip on the
 * four bills without touching lines or totals, and bad freight is refused in Chinese.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, approvedBill, lines, makeGoods, makeWorld, type World } from '../support/bills.ts';
import { uniqueToken } from '../support/resources.ts';

const OUTBOX = '/blade-system/outbox';
const WJYP = '/blade-purchase/syncwjpyinventory';

type Row = Record<string, any>;

describe.each(databases())('integration outbox, exceptions and freight ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 2, depots: 2, customers: 1 });
  });
  afterAll(async () => server?.close());

  const detail = async (base: string, id: string) => expectOk(await admin.get(`${base}/detail`, { id }), `${base}/detail`);
  const outbox = async (query: Record<string, unknown>) => expectOk(await admin.get(`${OUTBOX}/list`, { current: 1, size: 100, ...query }), 'outbox list');
  const orderBody = (goods: [string, string], extra: Record<string, unknown> = {}) => ({
    supplierId: w.supplierId,
    depotId: w.depots[0],
    bodyList: lines(w, [
      { goods: goods[0], qty: '3', purchasePrice: '10.00' },
      { goods: goods[1], qty: '2', purchasePrice: '4.50' },
    ]),
    ...extra,
  });

  test('pushSrm: a draft is refused; an approved order is queued with head and lines and marked 已推送; a stale version is refused; pushing again re-sends', async () => {
    const draft = expectOk(await admin.post(`${BASES.purchaseOrder}/draft`, orderBody([w.goods[0], w.goods[1]])));
    const refused = await admin.get(`${BASES.purchaseOrder}/pushSrm`, { id: draft.id, version: draft.version });
    expect(refused.body.success).toBe(false);
    expect(refused.body.msg).toBe('只有已审核的采购订单可以推送到供应商门户，该订单当前状态为「草稿」');
    expect((await outbox({ billId_equal: draft.id })).total).toBe(0);
    expect((await detail(BASES.purchaseOrder, draft.id)).version).toBe(draft.version);

    const po = await approvedBill(admin, BASES.purchaseOrder, orderBody([w.goods[0], w.goods[1]]));
    expect(po).toMatchObject({ billStatus: '1304', purchaseAmt: '39.00', totalAmt: '44.07' });
    const pushed = expectOk(await admin.get(`${BASES.purchaseOrder}/pushSrm`, { id: po.id, version: po.version }));
    expect(pushed.bill).toMatchObject({ id: po.id, billNo: po.billNo, version: po.version + 1, srmStatus: '2' });
    expect(pushed.outbox).toMatchObject({ target: 'SRM', sendStatus: 1, billType: '0811', billId: po.id, billNo: po.billNo });
    expect(pushed.outbox.payload).toBeUndefined();

    // The order is marked; its lines and totals are as approved.
    const seen = await detail(BASES.purchaseOrder, po.id);
    expect(seen).toMatchObject({ billStatus: '1304', srmStatus: '2', version: po.version + 1, purchaseAmt: '39.00', totalAmt: '44.07', totalQty: '5.00' });
    expect(seen.srmPushTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    // One pending SRM message whose payload is the order head and its two lines.
    const first = await outbox({ billId_equal: po.id });
    expect(first.total).toBe(1);
    const row = first.records[0];
    expect(row).toMatchObject({ target: 'SRM', topic: 'purchaseOrder.push', sendStatus: 1, billNo: po.billNo, createUserName: expect.any(String) });
    expect(row.summary).toBe(`采购订单 ${po.billNo}：${po.bartererName}，2 行，价税合计 44.07`);
    const message = await detail(OUTBOX, row.id);
    const payload = JSON.parse(message.payload);
    expect(payload.head).toMatchObject({ id: po.id, billNo: po.billNo, supplierId: w.supplierId, purchaseAmt: '39.00', totalAmt: '44.07', srmStatus: '2' });
    expect(payload.head.bodyList).toBeUndefined();
    expect(payload.lines.map((l: Row) => [l.commInfoId, l.qty, l.purchasePrice, l.totalAmt])).toEqual([
      [w.goods[0], '3.00', '10.00000', '33.90'],
      [w.goods[1], '2.00', '4.50000', '10.17'],
    ]);

    // The version the push was made with is stale now: refused, nothing written.
    const stale = await admin.get(`${BASES.purchaseOrder}/pushSrm`, { id: po.id, version: po.version });
    expect(stale.body.success).toBe(false);
    expect(stale.body.msg).toMatch(/^单据已被.+修改（当前状态：已审核），请刷新后重试$/);
    expect((await outbox({ billId_equal: po.id })).total).toBe(1);
    expect((await detail(BASES.purchaseOrder, po.id)).version).toBe(po.version + 1);
    const noVersion = await admin.get(`${BASES.purchaseOrder}/pushSrm`, { id: po.id });
    expect(noVersion.body.msg).toBe('缺少数据版本号(version)，请刷新后重试');

    // Pushing again with the current version writes a second message (a re-send); the first stays.
    const again = expectOk(await admin.get(`${BASES.purchaseOrder}/pushSrm`, { id: po.id, version: po.version + 1 }));
    expect(again.bill.version).toBe(po.version + 2);
    const both = await outbox({ billId_equal: po.id, descs: 'create_time,id' });
    expect(both.total).toBe(2);
    expect(both.records.map((r: Row) => r.id).sort()).toEqual([row.id, again.outbox.id].sort());
    expect(both.records.find((r: Row) => r.id === again.outbox.id).summary).toContain('（重发，第2次推送）');
    expect(both.records.find((r: Row) => r.id === row.id)).toMatchObject({ summary: row.summary, sendStatus: 1 });

    // SRM messages are not in the WJYP list; the outbox is insert-only.
    expect((await admin.get(`${WJYP}/list`, { billId_equal: po.id })).body.data.total).toBe(0);
    await expect(server.services.store.update(server.services.m('integration-outbox'), { tenantId: '000000', userId: '0' }, row.id, { sendStatus: 2 })).rejects.toThrow(/只能新增/);
  });

  test('pushwjyp: one pending WJYP message per push, holding the real stock balances after a posted purchase-in', async () => {
    const g = await makeGoods(admin, w.unitId, '库存同步商品');
    await approvedBill(
      admin,
      BASES.purchaseIn,
      { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '5', purchasePrice: '2.00' }, { goods: w.goods[1], qty: '7.5', purchasePrice: '1.00' }]) },
      { post: true },
    );
    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[1], bodyList: lines(w, [{ goods: g, qty: '1.25', purchasePrice: '2.00' }]) }, { post: true });

    const { store, internal } = server.services;
    const balances = await store.find(internal.stockBalance, '000000', {});
    expect(balances.length).toBeGreaterThanOrEqual(3);

    const pushed = expectOk(await admin.get(`${WJYP}/pushwjyp`));
    expect(pushed).toMatchObject({ target: 'WJYP', topic: 'inventory.sync', sendStatus: 1, summary: `库存 ${balances.length} 条`, billId: null });
    const payload = JSON.parse((await detail(OUTBOX, pushed.id)).payload);
    expect(payload.count).toBe(balances.length);
    const key = (depotId: string, commInfoId: string) => `${depotId}|${commInfoId}`;
    const sent = new Map<string, Row>(payload.items.map((i: Row) => [key(i.depotId, i.commInfoId), i]));
    expect(sent.size).toBe(balances.length);
    for (const b of balances) expect(Number(sent.get(key(String(b.depotId), String(b.commInfoId)))?.qty)).toBe(Number(b.qty));
    expect(sent.get(key(w.depots[0], g))).toMatchObject({ qty: '5.00', commInfoName: '库存同步商品' });
    expect(sent.get(key(w.depots[1], g))).toMatchObject({ qty: '1.25' });
    expect(sent.get(key(w.depots[0], w.goods[1]))?.qty).toBe('7.50');
    expect(sent.get(key(w.depots[0], g))?.depotName).toMatch(/^仓库/);

    // The WJYP list is the outbox's WJYP rows only, one per push.
    let list = expectOk(await admin.get(`${WJYP}/list`, { current: 1, size: 10 }));
    expect(list).toMatchObject({ total: 1, current: 1, size: 10, pages: 1 });
    expect(list.records[0]).toMatchObject({ id: pushed.id, target: 'WJYP', summary: `库存 ${balances.length} 条` });
    expectOk(await admin.get(`${WJYP}/pushwjyp`));
    list = expectOk(await admin.get(`${WJYP}/list`, { current: 1, size: 10 }));
    expect(list.total).toBe(2);
    expect(list.records.every((r: Row) => r.target === 'WJYP')).toBe(true);
    expect((await outbox({ target_equal: 'WJYP' })).total).toBe(2);
  });

  test('the purchase and sales exception lists answer contract pages: empty, then what an integration wrote', async () => {
    for (const base of ['/blade-purchase/purchaseexception', '/blade-sales/salesexception']) {
      const reply = await admin.get(`${base}/list`, { current: 1, size: 10 });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ code: 200, success: true, msg: '操作成功', data: { records: [], total: 0, size: 10, current: 1, pages: 0 } });
      const filtered = await admin.get(`${base}/list`, { exceptionType_equal: '1', handleStatus_equal: 1, billNo: 'CG' });
      expect(filtered.body.data).toMatchObject({ records: [], total: 0 });
      expect((await admin.get(`${base}/detail`, { id: '1' })).body).toMatchObject({ code: 200, success: true, data: null });
    }

    // A future integration writes rows; the list shows them with the partner's and goods' names.
    const actor = { tenantId: '000000', userId: '0' };
    const services = server.services;
    await services.store.insert(services.m('purchase-exception'), actor, {
      target: 'SRM', billType: '0812', billNo: 'CGRK-X1', supplierId: w.supplierId, commInfoId: w.goods[0], exceptionType: '1', qty: '-2', description: '少到 2 件', handleStatus: 1,
    });
    await services.store.insert(services.m('sales-exception'), actor, {
      target: 'WJYP', billType: '0803', billNo: 'XSCK-X1', customerId: w.customers[0], commInfoId: w.goods[1], exceptionType: '4', description: '收货地址无法送达', handleStatus: 1,
    });
    const purchase = expectOk(await admin.get('/blade-purchase/purchaseexception/list', { exceptionType_equal: '1' }));
    expect(purchase.total).toBe(1);
    expect(purchase.records[0]).toMatchObject({ billNo: 'CGRK-X1', handleStatus: 1, commInfoId: w.goods[0] });
    expect(purchase.records[0].commInfoName).toMatch(/^商品.+-1$/);
    expect(Number(purchase.records[0].qty)).toBe(-2);
    expect(purchase.records[0].bartererName).toMatch(/^供应商/);
    expect(expectOk(await admin.get('/blade-purchase/purchaseexception/list', { exceptionType_equal: '2' })).total).toBe(0);
    const sales = expectOk(await admin.get('/blade-sales/salesexception/list', { billNo: 'XSCK' }));
    expect(sales.records[0]).toMatchObject({ billNo: 'XSCK-X1', exceptionType: '4', description: '收货地址无法送达' });
    expect(sales.records[0].bartererName).toMatch(/^客户/);
  });

  describe('freight', () => {
    let company: Row;
    let other: Row;
    beforeAll(async () => {
      const token = uniqueToken().slice(-6);
      company = expectOk(await admin.post('/blade-base/express/submit', { bartererCode: `WL${token}`, bartererName: `顺丰${token}` }));
      other = expectOk(await admin.post('/blade-base/express/submit', { bartererCode: `WM${token}`, bartererName: `德邦${token}` }));
    });

    /** The four bills, approved (the inbound and outbound also posted). */
    async function fourBills() {
      const g = await makeGoods(admin, w.unitId, '运费商品');
      const po = await approvedBill(admin, BASES.purchaseOrder, orderBody([g, w.goods[0]]));
      const pin = await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '10', purchasePrice: '5.00' }]) }, { post: true });
      const so = await approvedBill(admin, BASES.salesOrder, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '4', taxPrice: '9.04' }]) });
      const out = await approvedBill(admin, BASES.salesOut, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '4', taxPrice: '9.04' }]) }, { post: true });
      return [
        [BASES.purchaseOrder, po, '1304'],
        [BASES.purchaseIn, pin, '1306'],
        [BASES.salesOrder, so, '1304'],
        [BASES.salesOut, out, '1306'],
      ] as const;
    }

    const figures = (bill: Row) => ({
      billStatus: bill.billStatus,
      remark: bill.remark ?? null,
      totalQty: bill.totalQty,
      totalAmt: bill.totalAmt,
      taxAmt: bill.taxAmt,
      finalAmt: bill.finalAmt,
      lines: bill.bodyList.map((l: Row) => [l.id, l.commInfoId, l.qty, l.totalAmt, l.taxAmt]),
    });

    test('saveFreight and queryFreightInfo round-trip on purchase order, purchase-in, sales order and sales-out; lines and totals untouched', async () => {
      for (const [base, bill, state] of await fourBills()) {
        const before = await detail(base, bill.id);
        expect(before.billStatus).toBe(state);
        const empty = expectOk(await admin.get(`${base}/queryFreightInfo`, { id: bill.id }));
        expect(empty).toMatchObject({ id: bill.id, billNo: bill.billNo, logisticsCompanyId: null, logisticsCompanyName: null, courierNo: null, freightAmt: null, remark: null });

        // freightAmt is money: 12.345 is kept as 12.35 (half up at two places).
        const saved = expectOk(
          await admin.post(`${base}/saveFreight`, { logisticsCompanyId: company.id, courierNo: 'SF1234567890', freightAmt: '12.345', remark: '到付' }, { id: bill.id }),
          `${base}/saveFreight`,
        );
        const expected = {
          id: bill.id,
          billNo: bill.billNo,
          billStatus: state,
          logisticsCompanyId: company.id,
          logisticsCompanyName: company.bartererName,
          courierNo: 'SF1234567890',
          freightAmt: '12.35',
          remark: '到付',
          version: before.version + 1,
        };
        expect(saved).toMatchObject(expected);
        expect(expectOk(await admin.get(`${base}/queryFreightInfo`, { id: bill.id }))).toMatchObject(expected);

        const after = await detail(base, bill.id);
        expect(figures(after)).toEqual(figures(before));
        expect(after).toMatchObject({ logisticsCompanyName: company.bartererName, courierNo: 'SF1234567890', freightAmt: '12.35', freightRemark: '到付' });

        // A second save with the current version changes only what it names; an empty value clears.
        const changed = expectOk(await admin.post(`${base}/saveFreight`, { logisticsCompanyId: other.id, freightAmt: '0', remark: '' }, { id: bill.id, version: after.version }));
        expect(changed).toMatchObject({ logisticsCompanyName: other.bartererName, courierNo: 'SF1234567890', freightAmt: '0.00', remark: null, version: after.version + 1 });
        expect(figures(await detail(base, bill.id))).toEqual(figures(before));
      }
    });

    test('bad freight is refused in Chinese and nothing is written: negative, not a number, unknown company, stale version, cancelled bill', async () => {
      const po = await approvedBill(admin, BASES.purchaseOrder, orderBody([w.goods[0], w.goods[1]]));
      const save = (body: Record<string, unknown>, query: Record<string, unknown> = {}) => admin.post(`${BASES.purchaseOrder}/saveFreight`, body, { id: po.id, ...query });
      const ok = expectOk(await save({ courierNo: 'YT001', freightAmt: '8' }));
      expect(ok.freightAmt).toBe('8.00');

      const negative = await save({ freightAmt: '-0.01' });
      expect(negative.status).toBe(400);
      expect(negative.body).toMatchObject({ success: false, msg: '运费不能为负数', data: { fieldErrors: { freightAmt: '运费不能为负数' } } });
      expect((await save({ freightAmt: 'abc' })).body.msg).toBe('运费必须是不小于0的数字');
      expect((await save({ logisticsCompanyId: '404404' })).body.msg).toBe('物流公司不存在或已被删除');
      expect((await save({})).body.msg).toBe('请填写物流公司、快递单号、运费或备注');
      const stale = await save({ courierNo: 'YT002' }, { version: po.version });
      expect(stale.body.success).toBe(false);
      expect(stale.body.msg).toContain('请刷新后重试');
      const info = expectOk(await admin.get(`${BASES.purchaseOrder}/queryFreightInfo`, { id: po.id }));
      expect(info).toMatchObject({ courierNo: 'YT001', freightAmt: '8.00', version: po.version + 1 });

      // A cancelled order keeps what it had.
      const draft = expectOk(await admin.post(`${BASES.purchaseOrder}/draft`, orderBody([w.goods[0], w.goods[1]])));
      const cancelled = expectOk(await admin.get(`${BASES.purchaseOrder}/cancel`, { id: draft.id, version: draft.version, remark: '不要了' }));
      const refused = await admin.post(`${BASES.purchaseOrder}/saveFreight`, { courierNo: 'YT003' }, { id: draft.id });
      expect(refused.body.msg).toBe('单据当前状态为「已作废」，不能保存运费信息');
      expect((await detail(BASES.purchaseOrder, draft.id)).version).toBe(cancelled.version);
    });

    test('purchaseinhead/updateCourierNo changes only the courier number, also on a posted bill', async () => {
      const pin = await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '2', purchasePrice: '3.00' }]) }, { post: true });
      expectOk(await admin.post(`${BASES.purchaseIn}/saveFreight`, { logisticsCompanyId: company.id, freightAmt: '6.5' }, { id: pin.id }));
      const before = await detail(BASES.purchaseIn, pin.id);
      expectOk(await admin.post(`${BASES.purchaseIn}/updateCourierNo`, { id: pin.id, courierNo: 'ZTO778899', version: before.version }));
      const after = await detail(BASES.purchaseIn, pin.id);
      expect(after).toMatchObject({ billStatus: '1306', courierNo: 'ZTO778899', freightAmt: '6.50', logisticsCompanyId: company.id, version: before.version + 1 });
      expect(figures(after)).toEqual(figures(before));
      expect(expectOk(await admin.get(`${BASES.purchaseIn}/queryFreightInfo`, { id: pin.id }))).toMatchObject({ courierNo: 'ZTO778899', logisticsCompanyName: company.bartererName });
    });
  });
});
