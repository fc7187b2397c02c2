/**
 * 盘点单 (checkinventory, bill type 0836) on SQLite and PostgreSQL: the book quantity and unit cost
 * are the warehouse's balance snapshotted at the line's first save; posting books counted − book
 * as a loss or gain at the book cost (stock 9 worth 45.00 after counting 9 of 10 at 5.00), lines
 * counted as booked post nothing, movements made while the count is open stand and the count's
 * difference goes on top of them; what a count refuses (duplicate goods, another unit or
 * warehouse, a negative count, a gain without a book cost) names the line; 冲红 restores; another
 * tenant sees and moves nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { approvedBill, makeGoods, makeWorld, stockOf, type World } from '../support/bills.ts';
import { Dec } from '../../src/shared/money/index.ts';

const COUNT = '/blade-warehouse/checkinventory';
const OTHER_IN = '/blade-warehouse/otherinhead';
const OTHER_OUT = '/blade-warehouse/otherouthead';

type Row = Record<string, any>;

describe.each(databases())('stocktaking 盘点单 ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let depot: string;
  let depotName: string;

  /** A count line as the grid sends it: goods, base unit, the counted quantity (qty is the server's). */
  const counted = (goods: string, checkQty: string, extra: Row = {}) => ({ commInfoId: goods, unitId: w.unitId, checkQty, ...extra });
  const count = (...bodyList: Row[]) => ({ depotId: depot, remark: '月末盘点', bodyList });
  /** Goods received by 其他入库单 at 5.00 each, posted. */
  const received = async (name: string, qty = '10') => {
    const g = await makeGoods(admin, w.unitId, name);
    await approvedBill(admin, OTHER_IN, { depotId: depot, reasonType: '1', bodyList: [{ commInfoId: g, unitId: w.unitId, qty, costPrice: '5.00' }] }, { post: true });
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: `${qty}.00`, value: new Dec(qty).times(5).toFixed(2) });
    return g;
  };
  const refused = async (reply: Promise<{ status: number; body: any }>) => {
    const r = await reply;
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    return String(r.body.msg);
  };
  /** The bill's stock ledger rows as [qty, value] at two places. */
  const postings = async (id: string) =>
    expectOk(await admin.get(`${COUNT}/postings`, { id })).stock.map((r: Row) => [new Dec(String(r.qty)).toFixed(2), new Dec(String(r.value)).toFixed(2)]);

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1, depots: 2 });
    depot = w.depots[0];
    depotName = expectOk(await admin.get('/blade-system/depot/detail', { id: depot })).depotName;
  });
  afterAll(async () => server?.close());

  test('book 10 at 5.00 counted 9: a loss of 1 worth −5.00, stock 9 worth 45.00; 冲红 restores; counted 12: a gain of 2 worth 10.00', async () => {
    const g = await received('盘点商品甲');
    const init = expectOk(await admin.get(`${COUNT}/initAdd`));
    expect(init).toMatchObject({ billType: '0836', bodyList: [] });

    // The first save snapshots the book; the difference is the server's (a submitted qty is ignored).
    const draft = expectOk(await admin.post(`${COUNT}/draft`, { ...init, ...count(counted(g, '9', { qty: '123' })) }));
    expect(draft).toMatchObject({ billStatus: '1301', billType: '0836', depotName, totalQty: '-1.00', costAmt: '-5.00' });
    expect(draft.billNo).toMatch(/\d{8}/);
    expect(draft.bodyList[0]).toMatchObject({ bookQty: '10.00', checkQty: '9.00', qty: '-1.00', costPrice: '5.00000', costAmt: '-5.00', depotId: depot, unitName: expect.any(String) });

    const submitted = expectOk(await admin.post(`${COUNT}/edit`, { ...draft, bodyList: draft.bodyList }));
    expect(submitted.billStatus).toBe('1302');
    const audited = expectOk(await admin.get(`${COUNT}/audit`, { id: submitted.id, version: submitted.version, remark: '同意' }));
    expect(audited.billStatus).toBe('1304');
    const loss = expectOk(await admin.post(`${COUNT}/accounting`, { id: audited.id, version: audited.version }));
    expect(loss).toMatchObject({ billStatus: '1306', totalQty: '-1.00', costAmt: '-5.00' });
    expect(loss.bodyList[0]).toMatchObject({ qty: '-1.00', costPrice: '5.00000', costAmt: '-5.00' });
    expect(await postings(loss.id)).toEqual([['-1.00', '-5.00']]);
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '9.00', value: '45.00' });
    const listed = expectOk(await admin.get(`${COUNT}/list`, { billNo: loss.billNo, current: 1, size: 10 })).records;
    expect(listed[0]).toMatchObject({ id: loss.id, billStatus: '1306', depotName });
    expect([listed[0].totalQty, listed[0].costAmt].map((v: string) => new Dec(v).toFixed(2))).toEqual(['-1.00', '-5.00']);

    expect(expectOk(await admin.get(`${COUNT}/flush`, { id: loss.id, version: loss.version })).billStatus).toBe('1308');
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '10.00', value: '50.00' });

    const gain = await approvedBill(admin, COUNT, count(counted(g, '12')), { post: true });
    expect(gain).toMatchObject({ billStatus: '1306', totalQty: '2.00', costAmt: '10.00' });
    expect(gain.bodyList[0]).toMatchObject({ bookQty: '10.00', checkQty: '12.00', qty: '2.00', costPrice: '5.00000', costAmt: '10.00' });
    expect(await postings(gain.id)).toEqual([['2.00', '10.00']]);
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '12.00', value: '60.00' });
    expectOk(await admin.post(`${COUNT}/flush`, { id: gain.id, version: gain.version }));
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '10.00', value: '50.00' });
  });

  test('a line counted as booked posts no ledger row; a count with no difference at all posts nothing', async () => {
    const same = await received('盘点商品乙');
    const short = await received('盘点商品丙');
    const before = await stockOf(server, depot, same);

    const bill = await approvedBill(admin, COUNT, count(counted(same, '10'), counted(short, '7.5')), { post: true });
    expect(bill).toMatchObject({ billStatus: '1306', totalQty: '-2.50', costAmt: '-12.50' });
    expect(bill.bodyList.map((l: Row) => [l.qty, l.costAmt])).toEqual([['0.00', '0.00'], ['-2.50', '-12.50']]);
    expect(await postings(bill.id)).toEqual([['-2.50', '-12.50']]);
    expect(await stockOf(server, depot, same)).toEqual(before);
    expect(await stockOf(server, depot, short)).toMatchObject({ qty: '7.50', value: '37.50' });

    const none = await approvedBill(admin, COUNT, count(counted(same, '10')), { post: true });
    expect(none).toMatchObject({ billStatus: '1306', totalQty: '0.00', costAmt: '0.00' });
    expect(await postings(none.id)).toEqual([]);
    expect(expectOk(await admin.get(`${COUNT}/flush`, { id: none.id, version: none.version })).billStatus).toBe('1308');
    expect(await stockOf(server, depot, same)).toEqual(before);
  });

  test('movements while the count is open: book 10 snapshotted, 3 sent out meanwhile, counted 9 → a loss of 1 on top, stock 10 − 3 − 1 = 6', async () => {
    const g = await received('盘点商品丁');
    const draft = expectOk(await admin.post(`${COUNT}/draft`, count(counted(g, '9'))));
    expect(draft.bodyList[0]).toMatchObject({ bookQty: '10.00', qty: '-1.00' });

    await approvedBill(admin, OTHER_OUT, { depotId: depot, reasonType: '1', bodyList: [{ commInfoId: g, unitId: w.unitId, qty: '3' }] }, { post: true });
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '7.00', value: '35.00' });

    // Saved again (same line): the snapshot stays, whatever the balance is now.
    const submitted = expectOk(await admin.post(`${COUNT}/submit`, { ...draft, bodyList: [{ ...draft.bodyList[0], checkQty: '9' }] }));
    expect(submitted.bodyList[0]).toMatchObject({ id: draft.bodyList[0].id, bookQty: '10.00', checkQty: '9.00', qty: '-1.00', costAmt: '-5.00' });
    const passed = expectOk(await admin.get(`${COUNT}/pass`, { id: submitted.id, version: submitted.version }));
    const posted = expectOk(await admin.get(`${COUNT}/accountingById`, { id: passed.id, version: passed.version }));
    expect(posted.billStatus).toBe('1306');
    expect(await postings(posted.id)).toEqual([['-1.00', '-5.00']]);
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '6.00', value: '30.00' });
  });

  test('refusals name the line: duplicate goods, another unit, another warehouse, a negative or missing count, a gain without a book cost', async () => {
    const g = await received('盘点商品戊');
    const dozen = String(expectOk(await admin.post('/blade-base/unit/submit', { unitName: `打${Date.now() % 100000}`, mnCode: `D${Date.now() % 100000}` })).id);
    const boxed = await makeGoods(admin, w.unitId, '盘点箱装商品', { unitList: [{ unitId: w.unitId, rate: '1', isBasic: 2 }, { unitId: dozen, rate: '12', isBasic: 1 }] });
    const fresh = await makeGoods(admin, w.unitId, '盘点新商品');
    const other = expectOk(await admin.get('/blade-system/depot/detail', { id: w.depots[1] })).depotName;
    const submit = (...lines: Row[]) => refused(admin.post(`${COUNT}/submit`, count(...lines)));

    expect(await submit(counted(g, '9'), counted(g, '8'))).toBe('第2行：商品「盘点商品戊」与第1行重复，每种商品只能盘点一行');
    expect(await submit(counted(boxed, '0', { unitId: dozen }))).toMatch(/^第1行：盘点按基本单位计数，商品「盘点箱装商品」请选择「个.+」$/);
    expect(await submit(counted(g, '9', { depotId: w.depots[1] }))).toBe(`第1行：盘点行的仓库必须是盘点单的仓库「${depotName}」，一张盘点单只盘点一个仓库`);
    expect(other).not.toBe(depotName);
    expect(await submit(counted(g, '-1'))).toContain('实盘数量必须是不小于0的数字');
    expect(await submit(counted(g, ''))).toContain('请输入实盘数量');
    expect(await submit(counted(fresh, '2'))).toBe(`第1行：商品「盘点新商品」在仓库「${depotName}」没有账面成本，不能按账面成本盘盈，请用报溢单填写成本单价入库`);
    expect(await refused(admin.post(`${COUNT}/submit`, { bodyList: [counted(g, '9')] }))).toContain('请选择仓库');

    // Nothing was written by any of them; goods never counted here may be counted as none.
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '10.00', value: '50.00' });
    const nothing = await approvedBill(admin, COUNT, count(counted(fresh, '0')), { post: true });
    expect(nothing.bodyList[0]).toMatchObject({ bookQty: '0.00', checkQty: '0.00', qty: '0.00', costAmt: '0.00' });
    expect(await stockOf(server, depot, fresh)).toMatchObject({ qty: '0.00', value: '0.00', rows: 0 });
  });

  test('another tenant sees none of it and cannot act on it', async () => {
    const g = await received('盘点商品己');
    const bill = await approvedBill(admin, COUNT, count(counted(g, '8')));
    const b = await signedIn(server.url, '100001');
    expect(expectOk(await b.get(`${COUNT}/list`, { current: 1, size: 10 })).total).toBe(0);
    expect(expectOk(await b.get('/blade-warehouse/checkinventorybody/list', { headId: bill.id, current: 1, size: 10 })).total).toBe(0);
    expect(expectOk(await b.get(`${COUNT}/detail`, { id: bill.id }))).toBeNull();
    expect(await refused(b.post(`${COUNT}/accounting`, { id: bill.id, version: bill.version }))).toBe('单据不存在或已被删除');
    // Tenant A's goods do not exist for tenant B.
    expect(await refused(b.post(`${COUNT}/submit`, { depotId: depot, bodyList: [counted(g, '1')] }))).toBe('第1行：商品不存在或已被删除');
    expect(expectOk(await admin.get(`${COUNT}/detail`, { id: bill.id })).billStatus).toBe('1304');
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '10.00', value: '50.00' });
  });
});
