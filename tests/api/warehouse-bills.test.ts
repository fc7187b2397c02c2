/**
 * The four goods-only warehouse bills on SQLite and PostgreSQL: 其他入库单 (otherinhead, goods in at
 * the unit cost the clerk types), 其他出库单 (otherouthead, out at the moving average), 报损单
 * (lossinventory, out at the average, beyond stock refused naming the shortfall) and 报溢单
 * (profitinventory, in at the current average unit cost unless a unit cost is typed; goods without
 * any cost in the warehouse refused). 冲红 restores quantity and value of each; initAdd answers a new
 * bill's defaults; audit and edit are the catalogue's names for approve and re-submit; readExcel reads
 * a counted .xlsx into lines for review, naming unknown codes by row, and writes nothing.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { multipart } from '../support/files.ts';
import { approvedBill, makeGoods, makeWorld, stockOf, type World } from '../support/bills.ts';

const OTHER_IN = '/blade-warehouse/otherinhead';
const OTHER_OUT = '/blade-warehouse/otherouthead';
const LOSS = '/blade-warehouse/lossinventory';
const GAIN = '/blade-warehouse/profitinventory';

type Line = Record<string, string | null>;

describe.each(databases())('warehouse bills: other in/out, loss, gain ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let depot: string;
  let depotName: string;
  let staffId: string;
  let deptId: string;

  const line = (goods: string, qty: string, costPrice?: string) => ({ commInfoId: goods, unitId: w.unitId, qty, ...(costPrice !== undefined ? { costPrice } : {}) });
  /** Goods received by 其他入库单 at the given unit costs, posted. */
  const receive = async (goods: string, ...lots: [string, string][]) => {
    for (const [qty, price] of lots) await approvedBill(admin, OTHER_IN, { depotId: depot, reasonType: '1', bodyList: [line(goods, qty, price)] }, { post: true });
  };

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1 });
    depot = w.depots[0];
    depotName = expectOk(await admin.get('/blade-system/depot/detail', { id: depot })).depotName;
    deptId = expectOk<{ id: string }[]>(await admin.get('/blade-system/dept/list'))[0].id;
    const me = expectOk(await admin.get('/blade-user/info'));
    const staff = expectOk(await admin.post('/blade-base/staff/submit', { staffCode: `CK${Date.now() % 1000000}`, staffName: '仓管员李四', deptId, isUser: 2, userId: me.id }));
    staffId = String(staff.id);
  });
  afterAll(async () => server?.close());

  test('其他入库单 5 @ 3.00 raises stock and value by 15.00; the unit cost is required and the amount checked; 其他出库单 leaves at the average; 冲红 restores each', async () => {
    const g = await makeGoods(admin, w.unitId, '其他出入库商品');

    const noCost = await admin.post(`${OTHER_IN}/submit`, { depotId: depot, bodyList: [line(g, '5')] });
    expect(noCost.status).toBe(400);
    expect(noCost.body.msg).toContain('请输入成本单价');
    const wrongAmount = await admin.post(`${OTHER_IN}/submit`, { depotId: depot, bodyList: [{ ...line(g, '5', '3.00'), costAmt: '14.00' }] });
    expect(wrongAmount.status).toBe(400);
    expect(wrongAmount.body.msg).toBe('第1行：成本金额应为 15.00，提交的是 14.00（请刷新金额后重试）');
    const negative = await admin.post(`${OTHER_IN}/submit`, { depotId: depot, bodyList: [line(g, '5', '-1')] });
    expect(negative.status).toBe(400);

    const submitted = expectOk(await admin.post(`${OTHER_IN}/submit`, { depotId: depot, reasonType: '2', staffId, remark: '供应商样品', bodyList: [line(g, '5', '3')] }));
    expect(submitted).toMatchObject({ billStatus: '1302', billType: '0831', totalQty: '5.00', costAmt: '15.00', staffName: '仓管员李四', depotName });
    expect(submitted.billNo).toMatch(/\d{8}/);
    expect(submitted.bodyList[0]).toMatchObject({ qty: '5.00', costPrice: '3.00000', costAmt: '15.00' });
    const passed = expectOk(await admin.get(`${OTHER_IN}/audit`, { id: submitted.id, version: submitted.version, remark: '同意' }));
    expect(passed.billStatus).toBe('1304');
    const inOne = expectOk(await admin.post(`${OTHER_IN}/accounting`, { id: passed.id, version: passed.version }));
    expect(inOne).toMatchObject({ billStatus: '1306', costAmt: '15.00' });
    expect(inOne.bodyList[0]).toMatchObject({ costPrice: '3.00000', costAmt: '15.00' });
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '5.00', value: '15.00' });
    const postings = expectOk(await admin.get(`${OTHER_IN}/postings`, { id: inOne.id }));
    expect(postings.party).toEqual([]);
    expect(postings.stock.map((r: { qty: string; value: string }) => [Number(r.qty), Number(r.value)])).toEqual([[5, 15]]);

    // 3 more at 4.00: 8 worth 27.00 (average 3.375).
    const inTwo = await approvedBill(admin, OTHER_IN, { depotId: depot, bodyList: [line(g, '3', '4.00')] }, { post: true });
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '8.00', value: '27.00' });

    // 2 out at the average: 27.00 × 2 / 8 = 6.75.
    const out = await approvedBill(admin, OTHER_OUT, { depotId: depot, reasonType: '1', bodyList: [line(g, '2')] }, { post: true });
    expect(out).toMatchObject({ billStatus: '1306', billType: '0832', costAmt: '6.75', totalQty: '2.00' });
    expect(out.bodyList[0]).toMatchObject({ costAmt: '6.75', costPrice: '3.37500' });
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '6.00', value: '20.25' });

    // 冲红, last first: the outbound comes back at 6.75, then each inbound leaves at what it brought.
    expectOk(await admin.get(`${OTHER_OUT}/flush`, { id: out.id, version: out.version }));
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '8.00', value: '27.00' });
    expectOk(await admin.post(`${OTHER_IN}/flush`, { id: inTwo.id, version: inTwo.version }));
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '5.00', value: '15.00' });
    const flushed = expectOk(await admin.get(`${OTHER_IN}/flush`, { id: inOne.id, version: inOne.version }));
    expect(flushed.billStatus).toBe('1308');
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '0.00', value: '0.00' });
  });

  test('报损单: initAdd gives the defaults; beyond stock is refused with the shortfall; edit and audit (id, version) lead to a loss at the average; 冲红 restores it', async () => {
    const g = await makeGoods(admin, w.unitId, '报损商品');
    await receive(g, ['4', '2.50']);

    const init = expectOk(await admin.get(`${LOSS}/initAdd`));
    expect(init).toMatchObject({ billType: '0834', staffId, staffName: '仓管员李四', deptId, bodyList: [] });
    expect(init.billDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(init.id).toBeUndefined();

    const noReason = await admin.post(`${LOSS}/submit`, { depotId: depot, bodyList: [line(g, '1')] });
    expect(noReason.status).toBe(400);
    expect(noReason.body.msg).toContain('请选择报损原因');

    const tooMuch = await approvedBill(admin, LOSS, { depotId: depot, reasonType: '1', bodyList: [line(g, '6')] });
    const refused = await admin.post(`${LOSS}/accounting`, { id: tooMuch.id, version: tooMuch.version });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe(`库存不足：第1行 商品「报损商品」在仓库「${depotName}」缺少 2`);
    expect(expectOk(await admin.get(`${LOSS}/detail`, { id: tooMuch.id })).billStatus).toBe('1304');
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '4.00', value: '10.00' });
    expectOk(await admin.get(`${LOSS}/cancel`, { id: tooMuch.id, version: tooMuch.version, remark: '数量有误' }));

    // A draft edited into a submitted bill (edit = submit of an existing bill), approved by audit.
    const draft = expectOk(await admin.post(`${LOSS}/draft`, { ...init, depotId: depot, reasonType: '2', bodyList: [line(g, '2')] }));
    expect(draft).toMatchObject({ billStatus: '1301', staffId });
    const edited = expectOk(await admin.post(`${LOSS}/edit`, { ...draft, remark: '过期两件改为一件', bodyList: [{ ...draft.bodyList[0], qty: '1' }] }));
    expect(edited).toMatchObject({ billStatus: '1302', totalQty: '1.00', id: draft.id });
    const stale = await admin.post(`${LOSS}/audit`, { id: edited.id, version: draft.version });
    expect(stale.status).toBe(400);
    expect(stale.body.msg).toMatch(/^单据已被.+于.+修改（当前状态：待审核），请刷新后重试$/);
    const audited = expectOk(await admin.post(`${LOSS}/audit`, { id: edited.id, version: edited.version }));
    expect(audited.billStatus).toBe('1304');
    const posted = expectOk(await admin.post(`${LOSS}/accounting`, { id: audited.id, version: audited.version }));
    expect(posted).toMatchObject({ billStatus: '1306', costAmt: '2.50' });
    expect(posted.bodyList[0]).toMatchObject({ qty: '1.00', costAmt: '2.50', costPrice: '2.50000' });
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '3.00', value: '7.50' });

    const listed = expectOk(await admin.get(`${LOSS}/list`, { reasonType: '2', billStatus: '1306', current: 1, size: 10 }));
    expect(listed.records.map((r: { id: string }) => r.id)).toContain(posted.id);

    expectOk(await admin.post(`${LOSS}/flush`, { id: posted.id, version: posted.version }));
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '4.00', value: '10.00' });
  });

  test('报溢单: a gain enters at the current average unit cost (or a typed one); goods with no cost here are refused; 冲红 restores each', async () => {
    const g = await makeGoods(admin, w.unitId, '报溢商品');
    // 4 at 2.50 and 2 at 3.10: 6 worth 16.20, average 2.70.
    await receive(g, ['4', '2.50'], ['2', '3.10']);
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '6.00', value: '16.20' });

    const atAverage = await approvedBill(admin, GAIN, { depotId: depot, reasonType: '1', bodyList: [line(g, '3')] }, { post: true });
    expect(atAverage).toMatchObject({ billStatus: '1306', billType: '0835', costAmt: '8.10', totalQty: '3.00' });
    expect(atAverage.bodyList[0]).toMatchObject({ costPrice: '2.70000', costAmt: '8.10' });
    // The average stays 2.70: 9 worth 24.30.
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '9.00', value: '24.30' });

    const typed = await approvedBill(admin, GAIN, { depotId: depot, bodyList: [line(g, '1', '5.00')] }, { post: true });
    expect(typed.bodyList[0]).toMatchObject({ costPrice: '5.00000', costAmt: '5.00' });
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '10.00', value: '29.30' });

    // Goods never in this warehouse have no average: refused unless a unit cost is typed.
    const fresh = await makeGoods(admin, w.unitId, '无成本商品');
    const uncosted = await approvedBill(admin, GAIN, { depotId: depot, bodyList: [line(fresh, '2')] });
    const refused = await admin.post(`${GAIN}/accounting`, { id: uncosted.id, version: uncosted.version });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe(`没有成本价：第1行 商品「无成本商品」在仓库「${depotName}」尚无出入库记录，无法按移动平均成本入库，请填写成本单价`);
    expect(await stockOf(server, depot, fresh)).toMatchObject({ qty: '0.00', value: '0.00', rows: 0 });

    expectOk(await admin.get(`${GAIN}/flush`, { id: typed.id, version: typed.version }));
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '9.00', value: '24.30' });
    expectOk(await admin.post(`${GAIN}/flush`, { id: atAverage.id, version: atAverage.version }));
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '6.00', value: '16.20' });
  });

  test('报溢单 readExcel: a counted workbook comes back as lines with goods by code, unknown codes and bad figures named by row; nothing is written', async () => {
    const g = await makeGoods(admin, w.unitId, '盘盈导入商品');
    const other = await makeGoods(admin, w.unitId, '盘盈新商品');
    await receive(g, ['4', '2.50']);
    const codeOf = async (id: string) => String(expectOk(await admin.get('/blade-base/comminfo/detail', { id })).commInfoCode);
    const [code, otherCode] = [await codeOf(g), await codeOf(other)];

    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('盘点');
    sheet.addRow(['商品编码', '数量', '成本单价', '备注']);
    sheet.addRow([code, 2, null, '货架后发现']);
    sheet.addRow(['NO-SUCH-CODE', 1, null, null]);
    sheet.addRow([otherCode, '3', 1.5, null]);
    sheet.addRow([code, 'abc', null, null]);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const send = (content: Buffer, name: string, headers: Record<string, string>) => {
      const { body, contentType } = multipart('file', name, content, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      return admin.call('POST', `${GAIN}/readExcel`, { body, headers: { 'content-type': contentType, ...headers } });
    };
    const before = expectOk(await admin.get(`${GAIN}/list`, { current: 1, size: 1 })).total;

    const read = expectOk(await send(bytes, '盘点.xlsx', { depotId: depot }));
    expect(read).toMatchObject({ depotId: depot, depotName, total: 4 });
    expect(read.errors).toEqual(['第3行：商品编码「NO-SUCH-CODE」不存在', '第5行：数量「abc」不是有效数字']);
    expect(read.warnings).toEqual([]);
    expect(read.bodyList).toHaveLength(2);
    expect(read.bodyList[0]).toMatchObject({
      row: 2, commInfoId: g, commInfoCode: code, commInfoName: '盘盈导入商品', unitId: w.unitId, qty: '2.00', costPrice: null, costAmt: null,
      remark: '货架后发现', stockQty: '4.00', stockUnitCost: '2.50000',
    });
    expect(read.bodyList[1]).toMatchObject({ row: 4, commInfoId: other, qty: '3.00', costPrice: '1.50000', costAmt: '4.50', stockQty: '0.00', stockUnitCost: null });
    // Nothing written: no bill, no stock moved.
    expect(expectOk(await admin.get(`${GAIN}/list`, { current: 1, size: 1 })).total).toBe(before);
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '4.00', value: '10.00' });

    // The reviewed lines become a gain report as they are.
    const bill = await approvedBill(admin, GAIN, { depotId: depot, reasonType: '1', bodyList: read.bodyList.map((l: Line) => ({ commInfoId: l.commInfoId, unitId: l.unitId, qty: l.qty, costPrice: l.costPrice, remark: l.remark })) }, { post: true });
    expect(bill.costAmt).toBe('9.50'); // 2 × 2.50 + 3 × 1.50
    expect(await stockOf(server, depot, g)).toMatchObject({ qty: '6.00', value: '15.00' });
    expect(await stockOf(server, depot, other)).toMatchObject({ qty: '3.00', value: '4.50' });

    // The warehouse header, the file type and the titles are checked before anything is read.
    const noDepot = await send(bytes, '盘点.xlsx', {});
    expect(noDepot.status).toBe(400);
    expect(noDepot.body.msg).toContain('请选择仓库');
    const text = await send(Buffer.from('商品编码,数量\n'), '盘点.txt', { depotId: depot });
    expect(text.status).toBe(400);
    expect(text.body.msg).toContain('不支持的文件类型');
    const blankBook = new ExcelJS.Workbook();
    blankBook.addWorksheet('x').addRow(['名称', '件数']);
    const untitled = await send(Buffer.from(await blankBook.xlsx.writeBuffer()), 'x.xlsx', { depotId: depot });
    expect(untitled.status).toBe(400);
    expect(untitled.body.msg).toContain('第1行应为列标题');
  });
});
