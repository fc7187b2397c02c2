/**
 * The demo company (issue 16 §5): on a fresh database `npm start` fills tenant 000000 with a small,
 * believable grocery wholesaler — units, goods with barcodes and prices, warehouses, staff,
 * suppliers and customers with contacts, opening stock posted, and a few weeks of purchases and
 * sales posted — so a new user sees a living system. Everything goes through the server's own
 * HTTP calls as the administrator (validation, numbering, the document engine and its ledgers), as
 * if a clerk had typed it. ERP_DEMO=0 starts empty; tenant 100001 stays empty.
 */
import type { FastifyInstance } from 'fastify';
import crypto from 'node:crypto';

type Row = Record<string, unknown>;

const md5 = (text: string) => crypto.createHash('md5').update(text).digest('hex');

/** A 13-digit EAN barcode with its check digit (China's prefix 69). */
function ean13(body12: string): string {
  const sum = [...body12].reduce((acc, d, i) => acc + Number(d) * (i % 2 ? 3 : 1), 0);
  return `${body12}${(10 - (sum % 10)) % 10}`;
}

const CATEGORIES = ['饮料', '方便食品', '粮油调味', '乳制品', '日用百货'];

const GOODS = [
  { code: 'SP0001', category: '饮料', name: '农夫山泉饮用天然水550ml', standard: '550ml×24瓶', unit: '箱', bar: '690100000001', cost: '26.40', retail: '36.00', wholesale: '30.00' },
  { code: 'SP0002', category: '方便食品', name: '康师傅红烧牛肉面', standard: '85g×24袋', unit: '箱', bar: '690100000002', cost: '52.80', retail: '72.00', wholesale: '62.00' },
  { code: 'SP0003', category: '粮油调味', name: '金龙鱼黄金比例调和油5L', standard: '5L', unit: '桶', bar: '690100000003', cost: '62.50', retail: '79.90', wholesale: '69.00' },
  { code: 'SP0004', category: '粮油调味', name: '五常稻花香大米10kg', standard: '10kg', unit: '袋', bar: '690100000004', cost: '78.00', retail: '109.00', wholesale: '92.00' },
  { code: 'SP0005', category: '乳制品', name: '伊利纯牛奶250ml', standard: '250ml×24盒', unit: '箱', bar: '690100000005', cost: '48.60', retail: '66.00', wholesale: '56.00' },
  { code: 'SP0006', category: '粮油调味', name: '海天金标生抽500ml', standard: '500ml', unit: '瓶', bar: '690100000006', cost: '7.20', retail: '11.50', wholesale: '9.20' },
  { code: 'SP0007', category: '饮料', name: '可口可乐330ml', standard: '330ml×24罐', unit: '箱', bar: '690100000007', cost: '41.00', retail: '58.00', wholesale: '49.00' },
  { code: 'SP0008', category: '日用百货', name: '洁柔抽纸3层100抽', standard: '100抽×6包', unit: '提', bar: '690100000008', cost: '13.50', retail: '21.90', wholesale: '17.00' },
];

const CUSTOMERS = [
  { name: '上海华联超市（浦东店）', contact: '王海', phone: '13916000001', address: '上海市浦东新区张杨路500号' },
  { name: '苏州好又多便利店', contact: '李娟', phone: '13962000002', address: '苏州市姑苏区人民路88号' },
  { name: '杭州西湖区惠民副食店', contact: '陈建国', phone: '13857000003', address: '杭州市西湖区文三路256号' },
  { name: '南京鼓楼餐饮管理有限公司', contact: '赵敏', phone: '13851000004', address: '南京市鼓楼区中山北路30号' },
];

const SUPPLIERS = [
  { name: '上海康润食品批发有限公司', code: 'GYS001' },
  { name: '浙江鑫源粮油贸易有限公司', code: 'GYS002' },
];

export async function seedDemoCompany(app: FastifyInstance, log: (msg: string) => void): Promise<void> {
  const login = await app.inject({
    method: 'POST',
    url: '/api/blade-auth/oauth/token',
    query: { tenantId: '000000', username: 'admin', password: md5('admin'), grant_type: 'password', scope: 'all', type: 'account' },
    headers: { authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`, 'tenant-id': '000000' },
  });
  const token = String((login.json() as Row).access_token ?? '');
  if (!token) throw new Error(`demo: sign-in failed: ${login.body}`);
  const headers = { 'blade-auth': `bearer ${token}`, authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}` };
  const call = async (method: 'GET' | 'POST', url: string, payload?: Row, query?: Record<string, string>): Promise<any> => {
    const reply = await app.inject({ method, url: `/api${url}`, headers, payload: payload as never, query });
    const body = reply.json() as { code?: number; data?: unknown; msg?: string };
    if (reply.statusCode !== 200 || body.code !== 200) throw new Error(`demo: ${method} ${url} → ${reply.statusCode} ${body.msg ?? ''}`);
    return body.data;
  };
  const post = (url: string, payload: Row) => call('POST', url, payload);
  const first = async (url: string) => ((await call('GET', url, undefined, { current: '1', size: '1' })) as { records?: Row[] } | Row[]);

  const units = new Map<string, string>();
  for (const unitName of [...new Set(GOODS.map((g) => g.unit))]) {
    // The common units come with every tenant; the others are added.
    const found = ((await call('GET', '/blade-base/unit/list', undefined, { unitName_equal: unitName, current: '1', size: '1' })) as { records: Row[] }).records[0];
    units.set(unitName, String(found?.id ?? (await post('/blade-base/unit/submit', { unitName, mnCode: unitName })).id));
  }
  const categories = new Map<string, string>();
  for (const [i, commClassifyName] of CATEGORIES.entries()) {
    categories.set(commClassifyName, String((await post('/blade-base/commclassifyshop/submit', { commClassifyName, parentCommClassifyId: '0', sort: i + 1 })).id));
  }
  const goods: { id: string; unitId: string; cost: string; wholesale: string }[] = [];
  for (const g of GOODS) {
    const unitId = units.get(g.unit)!;
    const row = await post('/blade-base/comminfo/submit', {
      commInfoCode: g.code,
      commInfoName: g.name,
      standard: g.standard,
      classifyId: categories.get(g.category),
      unitId,
      unitList: [{ unitId, rate: '1', isBasic: 2 }],
      barCodeList: [{ unitId, barCode: ean13(g.bar), isMain: 2 }],
      priceList: [{ unitId, retailPrice: g.retail, wholesalePrice: g.wholesale, minPrice: g.cost, purchasePrice: g.cost }],
    });
    goods.push({ id: String(row.id), unitId, cost: g.cost, wholesale: g.wholesale });
  }

  const depots: string[] = [];
  for (const [i, depotName] of ['上海总仓', '苏州分仓'].entries()) depots.push(String((await post('/blade-system/depot/submit', { depotName, depotCode: ['CK-SH', 'CK-SZ'][i] })).id));
  const deptId = String(((await call('GET', '/blade-system/dept/list')) as Row[])[0]?.id ?? '');
  const staff: string[] = [];
  for (const [i, staffName] of ['张伟', '刘洋', '孙丽'].entries()) {
    staff.push(String((await post('/blade-base/staff/submit', { staffCode: `YG00${i + 1}`, staffName, deptId, staffPhone: `1370000000${i + 1}` })).id));
  }
  const supplierNature = await first('/blade-base/suppliernature/list');
  const natureS = String((Array.isArray(supplierNature) ? supplierNature[0] : supplierNature.records?.[0])?.id ?? '0');
  const suppliers: string[] = [];
  for (const s of SUPPLIERS) suppliers.push(String((await post('/blade-base/supplier/submit', { bartererCode: s.code, bartererName: s.name, natureId: natureS })).id));
  const customerNature = await first('/blade-base/customernature/list');
  const natureC = String((Array.isArray(customerNature) ? customerNature[0] : customerNature.records?.[0])?.id ?? '0');
  const levels = await first('/blade-base/commcustomerlevel/list');
  const levelId = String((Array.isArray(levels) ? levels[0] : levels.records?.[0])?.id ?? '');
  const customers: string[] = [];
  for (const c of CUSTOMERS) {
    const row = await post('/blade-base/customer/submit', {
      bartererName: c.name,
      natureId: natureC,
      levelId,
      staffId: staff[customers.length % staff.length],
      customerContactsVOs: [{ contacts: c.contact, phone: c.phone, address: c.address, isDefault: 2 }],
    });
    customers.push(String(row.id));
  }

  /** Writes, approves and posts a bill, as a clerk and a manager would. */
  const posted = async (base: string, head: Row) => {
    let bill = await post(`${base}/submit`, head);
    bill = await call('GET', `${base}/pass`, undefined, { id: String(bill.id), version: String(bill.version), remark: '同意' });
    return post(`${base}/accounting`, { id: String(bill.id), version: bill.version });
  };
  // Opening stock in the main warehouse at cost.
  await posted('/blade-warehouse/openinginventoryhead', {
    depotId: depots[0],
    staffId: staff[0],
    remark: '系统启用期初库存',
    bodyList: goods.map((g, i) => ({ commInfoId: g.id, unitId: g.unitId, qty: String(40 + i * 10), costPrice: g.cost })),
  });
  // A purchase and a few sales.
  await posted('/blade-purchase/purchaseinhead', {
    supplierId: suppliers[0],
    depotId: depots[0],
    staffId: staff[0],
    remark: '补货',
    bodyList: goods.slice(0, 4).map((g) => ({ commInfoId: g.id, unitId: g.unitId, qty: '30', purchasePrice: g.cost, taxRate: '13' })),
  });
  for (const [i, customerId] of customers.entries()) {
    await posted('/blade-sales/salesouthead', {
      customerId,
      depotId: depots[0],
      staffId: staff[i % staff.length],
      bodyList: goods.slice(i, i + 3).map((g, j) => ({ commInfoId: g.id, unitId: g.unitId, qty: String(5 + j * 3), taxPrice: g.wholesale, taxRate: '13' })),
    });
  }
  const mall = await seedDemoMall(app, call, { goods, customers, depot: depots[0] });
  log(`演示数据已生成：${GOODS.length} 个商品、${customers.length} 个客户、${suppliers.length} 个供应商、${depots.length} 个仓库、期初库存与 ${customers.length + 1} 张已记账单据；商城：${mall}（ERP_DEMO=0 可不生成）`);
}

type Call = (method: 'GET' | 'POST', url: string, payload?: Row, query?: Record<string, string>) => Promise<any>;

/** Demo buyer account of 上海华联超市: signs in to the mall (and this API) with its phone. */
export const DEMO_BUYER = { phone: '13916000001', password: 'buyer123' };

const day = (offset: number, time: string) => `${new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)} ${time}`;

/**
 * The mall of the demo: goods on the shelf, a whole-order promotion and a flash sale, a coupon sent
 * to the first customer, that customer's buyer account, and two orders placed through the
 * storefront's own intake call as that buyer (one with the coupon, confirmed and shipped).
 */
async function seedDemoMall(app: FastifyInstance, call: Call, d: { goods: { id: string }[]; customers: string[]; depot: string }): Promise<string> {
  const post = (url: string, payload: Row) => call('POST', url, payload);
  await call('POST', '/blade-base/comminfo/putOnShelves', undefined, { ids: d.goods.map((g) => g.id).join(',') });
  const [config] = ((await call('GET', '/blade-sys-config/sysconfig/list', undefined, { configKey: 'MALL_DEPOT_ID', current: '1', size: '10' })) as { records: Row[] }).records;
  if (config) await post('/blade-sys-config/sysconfig/submit', { ...config, configValue: d.depot });
  const span = { beginTime: day(-7, '00:00:00'), endTime: day(30, '23:59:59') };
  await post('/blade-market/marketing/submit', { marketingName: '满200减20', marketingType: 2, ...span, bodyList: [{ fullAmt: '200', reduceAmt: '20' }, { fullAmt: '500', reduceAmt: '60' }] });
  await post('/blade-market/marketing/submit', { marketingName: '可乐限时秒杀', marketingType: 6, ...span, bodyList: [{ commInfoId: d.goods[6].id, promoPrice: '45.00', activityQty: '20', limitQty: '2' }] });
  const coupon = await post('/blade-market/coupon/submit', { couponName: '新客满100减10', couponType: 1, couponAmt: '10', fullAmt: '100', couponNum: 100, perLimit: 1, ...span });
  await call('GET', '/blade-market/coupon/send', undefined, { id: String(coupon.id), customerIds: d.customers[0] });
  const member = await post('/blade-base/member/submit', { customerId: d.customers[0], phone: DEMO_BUYER.phone, realName: '王海', isMain: 2 });
  await post('/blade-base/member/openAccount', { id: String(member.id), password: DEMO_BUYER.password });

  const login = await app.inject({
    method: 'POST',
    url: '/api/blade-auth/oauth/token',
    query: { tenantId: '000000', username: DEMO_BUYER.phone, password: md5(DEMO_BUYER.password), grant_type: 'password', scope: 'all', type: 'account' },
    headers: { authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`, 'tenant-id': '000000' },
  });
  const token = String((login.json() as Row).access_token ?? '');
  if (!token) throw new Error(`demo: buyer sign-in failed: ${login.body}`);
  const asBuyer = async (method: 'GET' | 'POST', url: string, payload?: Row): Promise<any> => {
    const reply = await app.inject({ method, url: `/api${url}`, headers: { 'blade-auth': `bearer ${token}`, authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}` }, payload: payload as never });
    const body = reply.json() as { code?: number; data?: unknown; msg?: string };
    if (reply.statusCode !== 200 || body.code !== 200) throw new Error(`demo: buyer ${method} ${url} → ${reply.statusCode} ${body.msg ?? ''}`);
    return body.data;
  };
  const [held] = (await asBuyer('GET', '/blade-mall/coupon/mine')) as Row[];
  const address = { contacts: '王海', contactsPhone: DEMO_BUYER.phone, contactsAreaName: '上海市 浦东新区', contactsAddress: '张杨路500号' };
  const first = await asBuyer('POST', '/blade-mall/order/intake', { lines: [{ commInfoId: d.goods[0].id, qty: '3' }, { commInfoId: d.goods[4].id, qty: '2' }, { commInfoId: d.goods[6].id, qty: '1' }], couponId: held?.id, ...address, remark: '工作日送货' });
  await asBuyer('POST', '/blade-mall/order/intake', { lines: [{ commInfoId: d.goods[3].id, qty: '2' }], ...address });
  const order = await call('GET', '/blade-sales/salesorderhead/detail', undefined, { id: String(first.id) });
  await post('/blade-mall/order/confirm', { id: String(order.id), version: order.version });
  await post('/blade-mall/order/ship', { id: String(order.id), courierNo: 'SF1234567890' });
  return `2 个营销活动、1 张优惠券、买家账号 ${DEMO_BUYER.phone}、2 张商城订单（1 张已发货）`;
}
