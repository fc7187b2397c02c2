/**
 * The mall receipt (bill type 0819, spec 000 §6), on SQLite and PostgreSQL: only a user whose phone
 * is listed in ERP_PRINT_LIMIT_PHONE gets it; a self-pickup order answers its salesroom
 * (salesroomVO: roomName, areaName, address), a delivery order its contact (customercontactsVO);
 * the QR link is the mobile order detail (MALL_ORDER_URL with {id}); a back-office order has none.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';
import { BASES, lines, makeWorld, type World } from '../support/bills.ts';

type Row = Record<string, unknown>;
const RECEIPT = `${BASES.salesOrder}/receipt`;

describe.each(databases())('mall receipt ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let pickup: Row;
  let delivery: Row;
  let office: Row;

  const setConfig = async (key: string, value: string) => {
    const [row] = expectOk<{ records: Row[] }>(await admin.get('/blade-sys-config/sysconfig/list', { configKey: key })).records;
    expectOk(await admin.post('/blade-sys-config/sysconfig/submit', { ...row, configValue: value }));
  };

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 2, customers: 1 });
    const order = async (extra: Row) =>
      expectOk<Row>(
        await admin.post(`${BASES.salesOrder}/submit`, {
          customerId: w.customers[0],
          depotId: w.depots[0],
          bodyList: lines(w, [
            { goods: w.goods[0], qty: '2', taxPrice: '12.50' },
            { goods: w.goods[1], qty: '1', taxPrice: '7.00' },
          ]),
          ...extra,
        }),
      );
    pickup = await order({ orderSource: '2', isSalesroom: 2, roomName: '万达广场店', roomAreaName: '上海市 浦东新区', roomAddress: '张杨路 500 号', remark: '下午取货' });
    delivery = await order({ orderSource: '2', isSalesroom: 1, contacts: '李四', contactsPhone: '13912345678', contactsAreaName: '江苏省 南京市 玄武区', contactsAddress: '中山路 1 号' });
    office = await order({});
  });
  afterAll(async () => server?.close());

  test('refused to a user whose phone is not listed', async () => {
    await setConfig('ERP_PRINT_LIMIT_PHONE', '');
    const none = await admin.get(RECEIPT, { id: pickup.id });
    expect(none.status).toBe(403);
    expect(none.body.msg).toBe('您的手机号不在小票打印名单中（系统参数 ERP_PRINT_LIMIT_PHONE），不能打印小票');
    await setConfig('ERP_PRINT_LIMIT_PHONE', '13900000000');
    expect((await admin.get(RECEIPT, { id: pickup.id })).status).toBe(403);
  });

  test('a self-pickup order answers its salesroom, lines and the order link', async () => {
    // The admin of the demo tenant has phone 13800000000; the list may use Chinese commas and spaces.
    await setConfig('ERP_PRINT_LIMIT_PHONE', '13900000000， 13800000000');
    await setConfig('MALL_ORDER_URL', 'https://m.shop.test/order/detail?id={id}&no={billNo}');
    const receipt = expectOk<Row>(await admin.get(RECEIPT, { id: pickup.id }));
    expect(receipt).toMatchObject({
      billType: '0819',
      head: { billNo: pickup.billNo, finalAmt: '32.00', totalQty: '3.00', remark: '下午取货' },
      salesOrderHeadMallVO: { isSalesroom: 2, salesroomVO: { roomName: '万达广场店', areaName: '上海市 浦东新区', address: '张杨路 500 号' } },
      orderUrl: `https://m.shop.test/order/detail?id=${String(pickup.id)}&no=${String(pickup.billNo)}`,
    });
    expect((receipt.lines as Row[]).map((l) => [l.qty, l.totalAmt])).toEqual([
      ['2.00', '25.00'],
      ['1.00', '7.00'],
    ]);
    expect(receipt.salesOrderHeadMallVO).not.toHaveProperty('customercontactsVO');
  });

  test('a delivery order answers its contact', async () => {
    const receipt = expectOk<Row>(await admin.get(RECEIPT, { id: delivery.id }));
    expect(receipt.salesOrderHeadMallVO).toEqual({ isSalesroom: 1, customercontactsVO: { contacts: '李四', phone: '13912345678', areaName: '江苏省 南京市 玄武区', address: '中山路 1 号' } });
  });

  test('a back-office order has no receipt; an unknown one is not found', async () => {
    const refused = await admin.get(RECEIPT, { id: office.id });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('只有商城订单可以打印小票');
    expect((await admin.get(RECEIPT, { id: '999999999' })).body.msg).toBe('单据不存在或已被删除');
  });
});
