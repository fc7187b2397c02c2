/**
 * 商城管理 content pages on SQLite and PostgreSQL: 门店管理 (codes generated, unique names, enable
 * and disable), 退货原因 (seeded per tenant), 商城公告 (published or draft, pinned first) with the
 * help categories and articles, 基础设置 (one seeded row per tenant, edited never added, ranges
 * refused in Chinese), 运费设置 (fees required unless 包邮, one default per tenant) and 店铺装修 (the
 * page layout's shape and goods checked by the server, every refusal naming the block at fault).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api, type Reply } from '../support/client.ts';
import { makeWorld, type World } from '../support/bills.ts';
import { uniqueToken } from '../support/resources.ts';

type Row = Record<string, unknown>;
type Page = { records: Row[]; total: number };
const SHOP = '/blade-mall/shopinfo';
const RETURN = '/blade-mall/returntype';
const NOTICE = '/blade-mall/notice';
const HELP_TYPE = '/blade-mall/helptype';
const HELP = '/blade-mall/helpdetail';
const SETTINGS = '/blade-mall/settings';
const FREIGHT = '/blade-mall/freight';
const PAGE = '/blade-mall/decoration';

/** A 400 with the message, and (when given) the same message on the field. */
function expectRefused(reply: Reply, msg: string, field?: string) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(400);
  expect(reply.body.code).toBe(400);
  expect(reply.body.msg).toBe(msg);
  if (field) expect(reply.body.data?.fieldErrors?.[field]).toBe(msg);
}

describe.each(databases())('商城管理 content ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let other: Api;
  let w: World;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    other = await signedIn(server.url, '100001', 'admin', 'admin');
    w = await makeWorld(admin, { goods: 3 });
  });
  afterAll(async () => server?.close());

  const detail = async (base: string, id: unknown) => expectOk<Row>(await admin.get(`${base}/detail`, { id }));
  const list = async (base: string, query: Row = {}, api = admin) => expectOk<Page>(await api.get(`${base}/list`, { size: 100, ...query }));

  test('门店管理: a blank code is generated, names are unique, bad phone and missing area refused, disable and enable, remove', async () => {
    const token = uniqueToken();
    const shop = {
      shopName: `南京新街口店${token}`, areaCode: '320102', areaName: '江苏省/南京市/玄武区', address: '中山路18号',
      contactPerson: '王店长', phone: '025-8888 6666', businessHours: '周一至周日 09:00-21:00',
    };
    const saved = expectOk<Row>(await admin.post(`${SHOP}/submit`, shop));
    expect(String(saved.shopCode)).toMatch(/^MD\d{4,}$/);
    const read = await detail(SHOP, saved.id);
    expect(read).toMatchObject({ ...shop, isPickup: 2, isPickupName: '是', sort: 0, status: 1, statusName: '正常' });
    expectRefused(await admin.post(`${SHOP}/submit`, { ...shop, shopCode: '' }), '门店名称已存在', 'shopName');
    expectRefused(await admin.post(`${SHOP}/submit`, { ...shop, shopName: `其他${token}`, phone: '电话12345' }), '联系电话只能包含数字、空格和 + - ( )，至少5位', 'phone');
    expectRefused(await admin.post(`${SHOP}/submit`, { ...shop, shopName: `其他${token}`, areaCode: '' }), '请选择所在地区', 'areaCode');
    expectRefused(await admin.post(`${SHOP}/submit`, { ...shop, shopName: `其他${token}`, shopCode: saved.shopCode }), '门店编码已存在', 'shopCode');

    expectOk(await admin.post(`${SHOP}/disable`, undefined, { id: saved.id }));
    expect(await detail(SHOP, saved.id)).toMatchObject({ status: 2, statusName: '停用' });
    expect((await list(SHOP, { status_equal: 1, shopName: token })).records).toHaveLength(0);
    expectOk(await admin.post(`${SHOP}/enable`, undefined, { id: saved.id }));
    expect((await list(SHOP, { status_equal: 1, shopName: token })).records.map((r) => r.id)).toEqual([saved.id]);
    // Another tenant sees none of it.
    expect((await list(SHOP, { shopName: token }, other)).total).toBe(0);
    expectOk(await admin.post(`${SHOP}/remove`, undefined, { ids: saved.id }));
    expect(expectOk(await admin.get(`${SHOP}/detail`, { id: saved.id }))).toBeNull();
  });

  test('退货原因: five reasons seeded per tenant in order; add, disable, remove', async () => {
    const seeded = ['质量问题', '发错货', '不想要了', '少件/破损', '其他'];
    expect((await list(RETURN)).records.map((r) => r.returnTypeName)).toEqual(seeded);
    expect((await list(RETURN, {}, other)).records.map((r) => r.returnTypeName)).toEqual(seeded);
    expectRefused(await admin.post(`${RETURN}/submit`, { returnTypeName: '', sort: 6 }), '请输入退货原因', 'returnTypeName');
    const added = expectOk<Row>(await admin.post(`${RETURN}/submit`, { returnTypeName: '尺码不合适', sort: 6 }));
    expect((await list(RETURN)).records.map((r) => r.returnTypeName)).toEqual([...seeded, '尺码不合适']);
    expectOk(await admin.post(`${RETURN}/disable`, undefined, { id: added.id }));
    expect(await detail(RETURN, added.id)).toMatchObject({ status: 2, statusName: '停用' });
    expectOk(await admin.post(`${RETURN}/remove`, undefined, { ids: added.id }));
    expect((await list(RETURN)).total).toBe(5);
    expect((await list(RETURN, {}, other)).total).toBe(5);
  });

  test('商城公告: saved published, withdrawn to draft and published again, pinned ones first; help categories and articles', async () => {
    const token = uniqueToken();
    const plain = expectOk<Row>(await admin.post(`${NOTICE}/submit`, { title: `春节发货安排${token}`, content: '除夕至初三暂停发货。', publishTime: '2026-01-20 09:00:00' }));
    const pinned = expectOk<Row>(await admin.post(`${NOTICE}/submit`, { title: `会员日活动${token}`, content: '每月8日全场九折。', publishTime: '2026-01-01 09:00:00', isTop: 2 }));
    expect(await detail(NOTICE, plain.id)).toMatchObject({ status: 1, statusName: '已发布', isTop: 1, isTopName: '否' });
    expect((await list(NOTICE, { title: token })).records.map((r) => r.id)).toEqual([pinned.id, plain.id]);
    expectOk(await admin.post(`${NOTICE}/disable`, undefined, { id: plain.id }));
    expect(await detail(NOTICE, plain.id)).toMatchObject({ status: 2, statusName: '草稿' });
    expect((await list(NOTICE, { title: token, status_equal: 1 })).records.map((r) => r.id)).toEqual([pinned.id]);
    expectOk(await admin.post(`${NOTICE}/enable`, undefined, { id: plain.id }));
    expect((await detail(NOTICE, plain.id)).statusName).toBe('已发布');
    expectRefused(await admin.post(`${NOTICE}/submit`, { title: '时间不对', content: '内容', publishTime: '2026-01-20' }), '发布时间格式应为yyyy-MM-dd HH:mm:ss', 'publishTime');
    expectRefused(await admin.post(`${NOTICE}/submit`, { title: '没有内容', publishTime: '2026-01-20 09:00:00' }), '请输入公告内容', 'content');
    expectOk(await admin.post(`${NOTICE}/remove`, undefined, { ids: `${plain.id},${pinned.id}` }));
    expect((await list(NOTICE, { title: token })).total).toBe(0);

    const guide = expectOk<Row>(await admin.post(`${HELP_TYPE}/submit`, { typeName: `购物指南${token}`, sort: 1 }));
    expectRefused(await admin.post(`${HELP_TYPE}/submit`, { typeName: `购物指南${token}` }), '帮助分类名称已存在', 'typeName');
    const article = expectOk<Row>(await admin.post(`${HELP}/submit`, { helpTypeId: guide.id, title: '如何下单', content: '选好商品加入购物车，结算时选择配送或自提。', sort: 1 }));
    expect(await detail(HELP, article.id)).toMatchObject({ helpTypeId: guide.id, helpTypeName: `购物指南${token}`, title: '如何下单' });
    expect((await list(HELP, { helpTypeId_equal: guide.id })).records.map((r) => r.id)).toEqual([article.id]);
    expectRefused(await admin.post(`${HELP}/submit`, { title: '没有分类', content: '内容' }), '请选择帮助分类', 'helpTypeId');
    expect((await list(HELP_TYPE, { typeName: token }, other)).total).toBe(0);
  });

  test('基础设置: one seeded row per tenant with its defaults; edited, never added; out-of-range values refused', async () => {
    const { records } = await list(SETTINGS);
    expect(records).toHaveLength(1);
    const row = records[0];
    expect(row).toMatchObject({ code: 'default', autoConfirmDays: 7, autoCancelMinutes: 30, guestBrowse: 1, invoiceEnabled: 2, returnDays: 7 });
    expect(Number(row.minOrderAmount)).toBe(0);
    expectRefused(await admin.post(`${SETTINGS}/submit`, { ...row, mallName: '' }), '请输入商城名称', 'mallName');
    const edit = { mallName: '华东商贸商城', servicePhone: '400-800-1234', logoUrl: '/oss/000000/20260101/logo.png', minOrderAmount: '99.50', deliveryNote: '江浙沪次日达', guestBrowse: 2 };
    expectOk(await admin.post(`${SETTINGS}/submit`, { ...row, ...edit }));
    const saved = await detail(SETTINGS, row.id);
    expect(saved).toMatchObject({ ...edit, minOrderAmount: expect.stringMatching(/^99\.50*$/), guestBrowseName: '是', code: 'default' });
    for (const [patch, msg, field] of [
      [{ autoConfirmDays: 31 }, '自动确认收货天数应在1至30天之间', 'autoConfirmDays'],
      [{ autoConfirmDays: 0 }, '自动确认收货天数应在1至30天之间', 'autoConfirmDays'],
      [{ autoCancelMinutes: 1441 }, '未付款自动取消分钟数应在5至1440之间', 'autoCancelMinutes'],
      [{ returnDays: 91 }, '可申请退货天数应在0至90天之间', 'returnDays'],
      [{ minOrderAmount: '-1' }, '起订金额必须是不小于0的数字', 'minOrderAmount'],
      [{ servicePhone: 'abc' }, '客服电话只能包含数字、空格和 + - ( )，至少5位', 'servicePhone'],
    ] as [Row, string, string][]) {
      expectRefused(await admin.post(`${SETTINGS}/submit`, { ...saved, ...patch }), msg, field);
    }
    // The code is the server's: a new one is refused, a changed one ignored.
    expectRefused(await admin.post(`${SETTINGS}/submit`, { mallName: '第二个商城' }), '商城基础设置不可新增，请编辑已有设置');
    expectOk(await admin.post(`${SETTINGS}/submit`, { ...saved, code: 'other' }));
    expect((await detail(SETTINGS, row.id)).code).toBe('default');
    expect((await list(SETTINGS)).records).toHaveLength(1);

    // Another tenant has its own row and cannot touch this one.
    const theirs = (await list(SETTINGS, {}, other)).records;
    expect(theirs).toHaveLength(1);
    expect(theirs[0]).toMatchObject({ mallName: '', autoConfirmDays: 7 });
    expect(theirs[0].id).not.toBe(row.id);
    const current = await detail(SETTINGS, row.id);
    expect((await other.post(`${SETTINGS}/submit`, { ...current, mallName: '越权修改' })).status).toBe(400);
    expect((await detail(SETTINGS, row.id)).mallName).toBe('华东商贸商城');
  });

  test('运费设置: fees required unless 包邮; one default per tenant through setDefault; a disabled template is never made default', async () => {
    const token = uniqueToken();
    const byPiece = { templateName: `按件${token}`, chargeMode: 1, firstQty: '1', firstFee: '8', extraQty: '1', extraFee: '2', freeAmount: '99', regions: '江苏省、浙江省、上海市' };
    const missing = await admin.post(`${FREIGHT}/submit`, { ...byPiece, firstFee: '', extraQty: '' });
    expect(missing.status).toBe(400);
    expect(missing.body.data.fieldErrors).toEqual({ firstFee: '请输入首费', extraQty: '请输入续件/续重' });
    expectRefused(await admin.post(`${FREIGHT}/submit`, { ...byPiece, firstQty: '0' }), '首件/首重必须是大于0的数字', 'firstQty');
    expectRefused(await admin.post(`${FREIGHT}/submit`, { ...byPiece, chargeMode: 4 }), '计费方式只能是按件、按重量或包邮', 'chargeMode');
    // isDefault is set only by setDefault: sent on submit it is ignored.
    const a = expectOk<Row>(await admin.post(`${FREIGHT}/submit`, { ...byPiece, isDefault: 2 }));
    expect(await detail(FREIGHT, a.id)).toMatchObject({ isDefault: 1, chargeModeName: '按件', regions: byPiece.regions });
    const b = expectOk<Row>(await admin.post(`${FREIGHT}/submit`, { templateName: `包邮${token}`, chargeMode: 3 }));
    expect(await detail(FREIGHT, b.id)).toMatchObject({ chargeModeName: '包邮', isDefault: 1 });
    expectRefused(await admin.post(`${FREIGHT}/submit`, { templateName: `包邮${token}`, chargeMode: 3 }), '运费模板名称已存在', 'templateName');

    // The other tenant's default is theirs and stays.
    const theirs = expectOk<Row>(await other.post(`${FREIGHT}/submit`, { templateName: `对方${token}`, chargeMode: 3 }));
    expectOk(await other.post(`${FREIGHT}/setDefault`, undefined, { id: theirs.id }));

    expectOk(await admin.post(`${FREIGHT}/setDefault`, undefined, { id: a.id }));
    expect((await detail(FREIGHT, a.id)).isDefault).toBe(2);
    expectOk(await admin.post(`${FREIGHT}/setDefault`, undefined, { id: b.id }));
    expect((await detail(FREIGHT, a.id)).isDefault).toBe(1);
    expect(await detail(FREIGHT, b.id)).toMatchObject({ isDefault: 2, isDefaultName: '是' });
    const defaults = (await list(FREIGHT, { isDefault_equal: 2 })).records;
    expect(defaults.map((r) => r.id)).toEqual([b.id]);
    expect(expectOk<Row>(await other.get(`${FREIGHT}/detail`, { id: theirs.id })).isDefault).toBe(2);

    expectOk(await admin.post(`${FREIGHT}/disable`, undefined, { id: a.id }));
    expectRefused(await admin.post(`${FREIGHT}/setDefault`, undefined, { id: a.id }), '当前状态不允许该操作（状态）');
    expect((await detail(FREIGHT, b.id)).isDefault).toBe(2);
    // Another tenant's template cannot be made default from here.
    expect((await admin.post(`${FREIGHT}/setDefault`, undefined, { id: theirs.id })).status).toBe(400);
  });

  test('店铺装修: a layout of banners and goods is stored as its text; an object layout as JSON; blank gets the default', async () => {
    const token = uniqueToken();
    const layout = JSON.stringify({
      blocks: [
        { type: 'banner', images: ['/oss/000000/20260101/a.png', 'https://cdn.example.com/b.jpg'] },
        { type: 'goods', title: '热卖推荐', goodsIds: [w.goods[0], w.goods[1]] },
      ],
    }, null, 2);
    const home = expectOk<Row>(await admin.post(`${PAGE}/submit`, { pageName: `首页${token}`, pageKind: 1, layout, isPublished: 2 }));
    expect(await detail(PAGE, home.id)).toMatchObject({ layout, pageKindName: '首页', isPublishedName: '是' });
    const asObject = { blocks: [{ type: 'goods', title: '新品', goodsIds: [w.goods[2]] }] };
    const promo = expectOk<Row>(await admin.post(`${PAGE}/submit`, { pageName: `活动页${token}`, pageKind: 3, layout: asObject }));
    expect(JSON.parse(String((await detail(PAGE, promo.id)).layout))).toEqual(asObject);
    const empty = expectOk<Row>(await admin.post(`${PAGE}/submit`, { pageName: `分类页${token}`, pageKind: 2 }));
    expect((await detail(PAGE, empty.id)).layout).toBe('{"blocks": []}');
    expectRefused(await admin.post(`${PAGE}/submit`, { pageName: `首页${token}`, pageKind: 1 }), '页面名称已存在', 'pageName');

    // Edit: a good layout is saved, a bad one leaves the row as it was, a blank one is missing.
    const current = await detail(PAGE, home.id);
    const edited = JSON.stringify({ blocks: [{ type: 'banner', images: ['/oss/000000/20260101/c.png'] }] });
    expectOk(await admin.post(`${PAGE}/submit`, { ...current, layout: edited }));
    const after = await detail(PAGE, home.id);
    expect(after.layout).toBe(edited);
    expectRefused(await admin.post(`${PAGE}/submit`, { ...after, layout: '{"blocks": [{"type": "video"}]}' }), '页面布局第1个区块的类型 type 应为 banner（轮播图）或 goods（商品区）', 'layout');
    expect(await detail(PAGE, home.id)).toEqual(after);
    expectRefused(await admin.post(`${PAGE}/submit`, { ...after, layout: '' }), '请输入页面布局', 'layout');
  });

  test('店铺装修: every layout refusal names the field and the block at fault, and writes nothing', async () => {
    const token = uniqueToken();
    const other3 = await makeWorld(other, { goods: 1 });
    const live = w.goods[2];
    // A removed goods no longer counts (a fresh one, so the other tests keep theirs).
    const gone = String(expectOk<Row>(await admin.post('/blade-base/comminfo/submit', {
      commInfoCode: `G${token.slice(-8)}`, commInfoName: `下架${token}`, classifyId: '0', unitId: w.unitId, unitList: [{ unitId: w.unitId, rate: '1', isBasic: 2 }],
    })).id);
    expectOk(await admin.post('/blade-base/comminfo/remove', undefined, { ids: gone }));
    const banner = (images: unknown) => ({ blocks: [{ type: 'banner', images }] });
    const goods = (block: Row) => ({ blocks: [{ type: 'banner', images: ['/oss/a.png'] }, { type: 'goods', ...block }] });
    const at2 = '页面布局第2个区块（商品区）';
    const cases: [unknown, string][] = [
      ['{"blocks": [}', '页面布局不是有效的 JSON'],
      ['[1, 2]', '页面布局应为 JSON 对象，如 {"blocks": []}'],
      ['{"items": []}', '页面布局应为 {"blocks": [区块…]}，缺少区块列表 blocks'],
      [{ blocks: [], theme: 'red' }, '页面布局有不认识的属性：theme（只能有 blocks）'],
      [{ blocks: Array.from({ length: 51 }, () => ({ type: 'banner', images: ['/oss/a.png'] })) }, '页面布局最多50个区块'],
      [{ blocks: ['banner'] }, '页面布局第1个区块应为对象，如 {"type": "banner", "images": […]}'],
      [{ blocks: [{ images: ['/oss/a.png'] }] }, '页面布局第1个区块的类型 type 应为 banner（轮播图）或 goods（商品区）'],
      [{ blocks: [{ type: 'banner', images: ['/oss/a.png'], link: '/x' }] }, '页面布局第1个区块有不认识的属性：link（只能有 type、images）'],
      [banner([]), '页面布局第1个区块（轮播图）须有至少一张图片 images'],
      [banner('/oss/a.png'), '页面布局第1个区块（轮播图）须有至少一张图片 images'],
      [banner(Array.from({ length: 11 }, (_, i) => `/oss/${i}.png`)), '页面布局第1个区块（轮播图）最多10张图片'],
      [banner(['/oss/a.png', 'javascript:alert(1)']), '页面布局第1个区块（轮播图）的第2张图片地址应为上传返回的链接（/oss/…）或 http(s) 地址'],
      [goods({ goodsIds: [w.goods[0]] }), `${at2}须填写标题 title`],
      [goods({ title: '长'.repeat(51), goodsIds: [w.goods[0]] }), `${at2}的标题不能超过50个字符`],
      [goods({ title: '推荐' }), `${at2}须有至少一个商品 goodsIds`],
      [goods({ title: '推荐', goodsIds: Array.from({ length: 101 }, (_, i) => String(i)) }), `${at2}最多100个商品`],
      [goods({ title: '推荐', goodsIds: [12345] }), `${at2}的第1个商品ID应为文本`],
      [goods({ title: '推荐', goodsIds: [w.goods[0], w.goods[0]] }), `${at2}的商品 ${w.goods[0]} 重复`],
      [goods({ title: '推荐', goodsIds: [w.goods[0], 'no-such-goods'] }), `${at2}的商品不存在或已删除：no-such-goods`],
      [goods({ title: '推荐', goodsIds: [live, gone] }), `${at2}的商品不存在或已删除：${gone}`],
      // Goods of another tenant are not this tenant's goods.
      [goods({ title: '推荐', goodsIds: [other3.goods[0]] }), `${at2}的商品不存在或已删除：${other3.goods[0]}`],
      ['长'.repeat(20001), '页面布局不能超过20000个字符'],
    ];
    const before = (await list(PAGE)).total;
    for (const [layout, msg] of cases) {
      expectRefused(await admin.post(`${PAGE}/submit`, { pageName: `坏页面${token}`, pageKind: 3, layout }), msg, 'layout');
    }
    expect((await list(PAGE)).total).toBe(before);
    expect((await list(PAGE, { pageName: `坏页面${token}` })).total).toBe(0);
  });
});
