/**
 * The document engine on the six core bills (issue: document engine, acceptance 1–10), on SQLite
 * and on PostgreSQL: exact line figures, the lifecycle's refusals, idempotent retries, races with
 * one winner, negative stock, returns at source cost and atomic 1,000-line postings. Ledgers are
 * read in-process; every balance is checked against the sum of its ledger.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { Dec } from '../../src/shared/money/index.ts';
import { BASES, approvedBill, lines, makeGoods, makeWorld, partyBalance, stockOf, type World } from '../support/bills.ts';

describe.each(databases())('document engine ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 3, depots: 2, customers: 2 });
  });
  afterAll(async () => server?.close());

  const ledgerCount = async () => (await server.services.store.find(server.services.internal.stockLedger, '000000', {})).length;
  const partyCount = async () => (await server.services.store.find(server.services.internal.partyLedger, '000000', {})).length;
  const purchaseIn = (goods: string, qty: string, price: string, depot = w.depots[0]) =>
    approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: depot, bodyList: lines(w, [{ goods, qty, purchasePrice: price }]) }, { post: true });
  const salesOutBody = (goods: string, qty: string, price: string, customer = w.customers[0], depot = w.depots[0]) => ({
    customerId: customer,
    depotId: depot,
    bodyList: lines(w, [{ goods, qty, taxPrice: price }]),
  });

  test('1. purchase-in 10 @ 5.00 excl., sales-out 4 @ 9.04 incl.: exact figures, cost at average, flush mirrors everything', async () => {
    const g = await makeGoods(admin, w.unitId, '场景一商品');
    const pin = await purchaseIn(g, '10', '5.00');
    expect(pin.billStatus).toBe('1306');
    expect(pin.bodyList[0]).toMatchObject({ qty: '10.00', purchasePrice: '5.00000', taxPrice: '5.65000', purchaseAmt: '50.00', totalAmt: '56.50', taxAmt: '6.50' });
    expect(await stockOf(server, w.depots[0], g)).toMatchObject({ qty: '10.00', value: '50.00' });

    const ar = await partyBalance(server, 'AR', w.customers[1]);
    const out = await approvedBill(admin, BASES.salesOut, salesOutBody(g, '4', '9.04', w.customers[1]), { post: true });
    expect(out.bodyList[0]).toMatchObject({ qty: '4.00', taxPrice: '9.04000', salesPrice: '8.00000', totalAmt: '36.16', salesAmt: '32.00', taxAmt: '4.16', costAmt: '20.00', costPrice: '5.00000' });
    expect(out).toMatchObject({ totalQty: '4.00', salesAmt: '32.00', taxAmt: '4.16', totalAmt: '36.16', finalAmt: '36.16', costAmt: '20.00', billStatus: '1306' });
    expect(new Dec(await partyBalance(server, 'AR', w.customers[1])).minus(ar).toFixed(2)).toBe('36.16');
    expect(await stockOf(server, w.depots[0], g)).toMatchObject({ qty: '6.00', value: '30.00' });

    const postings = expectOk(await admin.get(`${BASES.salesOut}/postings`, { id: out.id }));
    expect(postings.stock).toHaveLength(1);
    const before = JSON.stringify(postings.stock[0]);

    const flushed = expectOk(await admin.post(`${BASES.salesOut}/flush`, { id: out.id, version: out.version }));
    expect(flushed.billStatus).toBe('1308');
    expect(await stockOf(server, w.depots[0], g)).toMatchObject({ qty: '10.00', value: '50.00' });
    expect(await partyBalance(server, 'AR', w.customers[1])).toBe(ar);
    const after = expectOk(await admin.get(`${BASES.salesOut}/postings`, { id: out.id }));
    expect(after.stock).toHaveLength(2);
    expect(JSON.stringify(after.stock.find((r: { entry: string }) => r.entry === 'post')), 'the posted row is unchanged').toBe(before);
    expect(after.stock.find((r: { entry: string }) => r.entry === 'reverse')).toMatchObject({ qty: '4', value: '20' });
    expect(after.party.map((r: { amount: string }) => new Dec(r.amount).toFixed(2))).toEqual(['36.16', '-36.16']);
    const history = expectOk(await admin.get(`${BASES.salesOut}/history`, { id: out.id }));
    expect(history.map((h: { action: string }) => h.action)).toEqual(['submit', 'pass', 'accounting', 'flush']);
    expect(history[3]).toMatchObject({ fromStatusName: '已记账', toStatusName: '已冲红', userName: '管理员' });
  });

  test('every action answers the bill exactly as its detail reads it afterwards (answers are built from rows in hand)', async () => {
    const g = await makeGoods(admin, w.unitId, '应答商品');
    await purchaseIn(g, '10', '5.00');
    const detail = async (id: string) => expectOk(await admin.get(`${BASES.salesOut}/detail`, { id }));
    let bill = expectOk(await admin.post(`${BASES.salesOut}/submit`, salesOutBody(g, '3', '9.04')));
    expect(bill).toEqual(await detail(bill.id));
    for (const [method, action, extra] of [
      ['get', 'pass', { remark: '同意' }],
      ['post', 'accounting', {}],
      ['post', 'flush', {}],
    ] as const) {
      const params = { id: bill.id, version: bill.version, ...extra };
      bill = expectOk(method === 'get' ? await admin.get(`${BASES.salesOut}/${action}`, params) : await admin.post(`${BASES.salesOut}/${action}`, params));
      expect(bill, action).toEqual(await detail(bill.id));
    }
    expect(bill.billStatus).toBe('1308');
    expect(bill.bodyList[0]).toMatchObject({ costAmt: '15.00', commInfoName: '应答商品' });
  });

  test('2. the same approved bill posted twice at once: one wins, the other gets the conflict; one posting', async () => {
    const g = await makeGoods(admin, w.unitId, '并发记账商品');
    const bill = await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '3', purchasePrice: '2.00' }]) });
    const second = await signedIn(server.url);
    const replies = await Promise.all([admin, second].map((api) => api.post(`${BASES.purchaseIn}/accounting`, { id: bill.id, version: bill.version })));
    const wins = replies.filter((r) => r.status === 200);
    const losses = replies.filter((r) => r.status !== 200);
    expect(wins).toHaveLength(1);
    expect(losses).toHaveLength(1);
    expect(losses[0].body.msg).toMatch(/已被.*修改|不能记账/);
    expect(await stockOf(server, w.depots[0], g)).toMatchObject({ qty: '3.00', value: '6.00', rows: 1 });
  });

  test('3. the same Idempotency-Key twice (and twice at once) answers the first answer; nothing new is written', async () => {
    const g = await makeGoods(admin, w.unitId, '幂等商品');
    const body = { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: g, qty: '1', purchasePrice: '1.00' }]) };
    const key = `k-${Date.now()}`;
    const call = () => admin.call('POST', `${BASES.purchaseIn}/submit`, { json: body, headers: { 'idempotency-key': key } });
    const first = expectOk(await call());
    const again = expectOk(await call());
    expect(again).toEqual(first);
    const list = expectOk(await admin.get(`${BASES.purchaseIn}/list`, { billNo: first.billNo }));
    expect(list.total).toBe(1);

    const bill = expectOk(await admin.get(`${BASES.purchaseIn}/pass`, { id: first.id, version: first.version }));
    const postKey = `p-${Date.now()}`;
    const post = () => admin.call('POST', `${BASES.purchaseIn}/accounting`, { json: { id: bill.id, version: bill.version }, headers: { 'idempotency-key': postKey } });
    const rows = await ledgerCount();
    const [a, b] = await Promise.all([post(), post()]);
    expect(expectOk(a)).toEqual(expectOk(b));
    expect(await ledgerCount()).toBe(rows + 1);
    // A key is one click of one user on one call: reusing it for another call is refused.
    const misuse = await admin.call('POST', `${BASES.purchaseIn}/flush`, { json: { id: bill.id, version: 99 }, headers: { 'idempotency-key': postKey } });
    expect(misuse.status).toBe(400);
  });

  test('4. a clerk holding version 2 cannot submit over the auditor\'s rejection (version 3); after reload the remark shows', async () => {
    const body = salesOutBody(w.goods[0], '1', '10.00');
    const draft = expectOk(await admin.post(`${BASES.salesOut}/draft`, body));
    expect(draft).toMatchObject({ billStatus: '1301', version: 1 });
    const submitted = expectOk(await admin.post(`${BASES.salesOut}/submit`, { ...draft, version: 1 }));
    expect(submitted).toMatchObject({ billStatus: '1302', version: 2 });
    const rejected = expectOk(await admin.get(`${BASES.salesOut}/reject`, { id: draft.id, version: 2, remark: '价格不对，请按合同价' }));
    expect(rejected).toMatchObject({ billStatus: '1305', version: 3, auditRemark: '价格不对，请按合同价' });
    const stale = await admin.post(`${BASES.salesOut}/submit`, { ...submitted, version: 2 });
    expect(stale.status).toBe(400);
    expect(stale.body.msg).toMatch(/单据已被管理员于\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}修改（当前状态：已驳回），请刷新后重试/);
    const reloaded = expectOk(await admin.get(`${BASES.salesOut}/detail`, { id: draft.id }));
    expect(reloaded).toMatchObject({ auditRemark: '价格不对，请按合同价', billStatus: '1305', version: 3 });
    const resubmitted = expectOk(await admin.post(`${BASES.salesOut}/submit`, { ...reloaded, bodyList: body.bodyList.map((l) => ({ ...l, taxPrice: '11.00' })) }));
    expect(resubmitted).toMatchObject({ billStatus: '1302', version: 4, totalAmt: '11.00' });
  });

  test('5. reject without a remark is refused; approving without the audit button is 403', async () => {
    const bill = expectOk(await admin.post(`${BASES.salesOut}/submit`, salesOutBody(w.goods[0], '1', '10.00')));
    const noRemark = await admin.get(`${BASES.salesOut}/reject`, { id: bill.id, version: bill.version, remark: '  ' });
    expect(noRemark.status).toBe(400);
    expect(noRemark.body.msg).toBe('驳回时请填写审核意见');

    const role = expectOk(await admin.post('/blade-system/role/submit', { parentId: '0', roleName: '开单员', roleAlias: 'clerk', sort: 8 }));
    const deptId = expectOk<{ id: string }[]>(await admin.get('/blade-system/dept/list'))[0].id;
    expectOk(await admin.post('/blade-user/submit', { account: 'clerk1', password: 'Clerk-1234', realName: '开单员甲', roleId: role.id, deptId }));
    const menus = expectOk<{ id: string; code: string }[]>(await admin.get('/blade-system/menu/list', { code: 'salesOut' }));
    const grantIds = menus.filter((m) => ['salesOut', 'salesOut_add', 'salesOut_submit'].includes(m.code)).map((m) => m.id);
    expect(grantIds.length).toBe(3);
    expectOk(await admin.call('POST', '/blade-system/role/grant', { query: { roleIds: role.id, menuIds: grantIds.join(',') } }));
    const clerk = await signedIn(server.url, '000000', 'clerk1', 'Clerk-1234');
    expectOk(await clerk.post(`${BASES.salesOut}/submit`, salesOutBody(w.goods[0], '1', '10.00')), 'clerk submits');
    const approve = await clerk.get(`${BASES.salesOut}/pass`, { id: bill.id, version: bill.version });
    expect(approve.status).toBe(403);
    expect(expectOk(await admin.get(`${BASES.salesOut}/detail`, { id: bill.id })).billStatus).toBe('1302');
  });

  test('6. post a draft, cancel a posted bill, flush twice, flush a draft: each refused with its message, nothing written', async () => {
    const g = await makeGoods(admin, w.unitId, '状态校验商品');
    await purchaseIn(g, '5', '1.00');
    const draft = expectOk(await admin.post(`${BASES.salesOut}/draft`, salesOutBody(g, '1', '2.00')));
    const posted = await approvedBill(admin, BASES.salesOut, salesOutBody(g, '1', '2.00'), { post: true });
    const rows = await ledgerCount();
    const parties = await partyCount();

    const postDraft = await admin.post(`${BASES.salesOut}/accounting`, { id: draft.id, version: draft.version });
    expect(postDraft.body.msg).toBe('单据当前状态为「草稿」，不能记账；只有「已审核」的单据可以记账');
    const cancelPosted = await admin.get(`${BASES.salesOut}/cancel`, { id: posted.id, version: posted.version, remark: '作废' });
    expect(cancelPosted.body.msg).toBe('单据当前状态为「已记账」，不能作废；只有「草稿、待审核、已审核、已驳回」的单据可以作废');
    const flushDraft = await admin.post(`${BASES.salesOut}/flush`, { id: draft.id, version: draft.version });
    expect(flushDraft.body.msg).toBe('单据当前状态为「草稿」，不能冲红；只有「已记账」的单据可以冲红');
    const once = expectOk(await admin.post(`${BASES.salesOut}/flush`, { id: posted.id, version: posted.version }));
    const twice = await admin.post(`${BASES.salesOut}/flush`, { id: posted.id, version: once.version });
    expect(twice.body.msg).toBe('单据当前状态为「已冲红」，不能冲红；只有「已记账」的单据可以冲红');
    const stale = await admin.post(`${BASES.salesOut}/flush`, { id: posted.id, version: posted.version });
    expect(stale.body.msg).toContain('请刷新后重试');
    // A posted bill is never edited, and its ledger rows are refused by the store itself.
    const editPosted = await admin.post(`${BASES.salesOut}/submit`, { ...once, remark: '改一下' });
    expect(editPosted.body.msg).toBe('单据当前状态为「已冲红」，不能提交；只有「草稿、已驳回」的单据可以提交');
    const [row] = await server.services.store.find(server.services.internal.stockLedger, '000000', { where: { billId: posted.id } });
    const actor = { tenantId: '000000', userId: '1' };
    await expect(server.services.store.update(server.services.internal.stockLedger, actor, String(row.id), { qty: '0' })).rejects.toThrow('库存流水只能新增，已写入的记录不能修改或删除');
    await expect(server.services.store.softRemove(server.services.internal.stockLedger, actor, [String(row.id)])).rejects.toThrow('只能新增');
    for (const r of [postDraft, cancelPosted, flushDraft, twice, stale, editPosted]) expect(r.status).toBe(400);
    expect(await ledgerCount()).toBe(rows + 1); // the one flush
    expect(await partyCount()).toBe(parties + 1);
    expect(expectOk(await admin.get(`${BASES.salesOut}/detail`, { id: draft.id })).version).toBe(draft.version);
  });

  test('7. stock 5, two sales-outs of 4 at once: one posts, the other is refused with the shortfall 3; stock 1', async () => {
    const g = await makeGoods(admin, w.unitId, '库存竞争商品');
    await purchaseIn(g, '5', '1.00');
    const bills = [];
    for (let i = 0; i < 2; i++) bills.push(await approvedBill(admin, BASES.salesOut, salesOutBody(g, '4', '2.00')));
    const second = await signedIn(server.url);
    const replies = await Promise.all(bills.map((b, i) => (i ? second : admin).post(`${BASES.salesOut}/accounting`, { id: b.id, version: b.version })));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = replies.find((r) => r.status !== 200)!;
    expect(refused.body.msg).toMatch(/^库存不足：第1行 商品「库存竞争商品」在仓库「仓库.*」缺少 3$/);
    expect(await stockOf(server, w.depots[0], g)).toMatchObject({ qty: '1.00', value: '1.00' });
  });

  test('8. negative stock allowed for a goods: a sale of 3 at stock 0 goes at the last cost; a purchase restores it', async () => {
    const g = await makeGoods(admin, w.unitId, '允许负库存商品', { allowNegativeStock: 2 });
    await purchaseIn(g, '2', '4.00');
    await approvedBill(admin, BASES.salesOut, salesOutBody(g, '2', '5.00'), { post: true });
    expect(await stockOf(server, w.depots[0], g)).toMatchObject({ qty: '0.00', value: '0.00' });
    const sale = await approvedBill(admin, BASES.salesOut, salesOutBody(g, '3', '5.00'), { post: true });
    expect(sale.bodyList[0]).toMatchObject({ costAmt: '12.00', costPrice: '4.00000' });
    expect(await stockOf(server, w.depots[0], g)).toMatchObject({ qty: '-3.00', value: '-12.00' });
    await purchaseIn(g, '5', '6.00');
    expect(await stockOf(server, w.depots[0], g)).toMatchObject({ qty: '2.00', value: '18.00' });
    // Without the allowance the same sale is refused (control).
    const other = await makeGoods(admin, w.unitId, '不允许负库存商品');
    const refused = await admin.post(`${BASES.salesOut}/accounting`, await approvedBill(admin, BASES.salesOut, salesOutBody(other, '3', '5.00')).then((b) => ({ id: b.id, version: b.version })));
    expect(refused.body.msg).toContain('缺少 3');
  });

  test('9. a sales return of −2 against a sale comes back at the source cost; AR −18.08; a cumulative −5 against 4 sold is refused', async () => {
    const g = await makeGoods(admin, w.unitId, '退货商品');
    await purchaseIn(g, '10', '5.00');
    await purchaseIn(g, '10', '7.00'); // average now 6.00: the return must still come back at the sale's cost
    const sale = await approvedBill(admin, BASES.salesOut, salesOutBody(g, '4', '9.04', w.customers[1]), { post: true });
    expect(sale.bodyList[0].costPrice).toBe('6.00000');
    await purchaseIn(g, '10', '9.00'); // average moves on after the sale
    const ar = await partyBalance(server, 'AR', w.customers[1]);

    const draft = expectOk(await admin.get(`${BASES.salesReturn}/generate`, { soNo: sale.billNo }));
    expect(draft.bodyList).toHaveLength(1);
    expect(draft.bodyList[0]).toMatchObject({ qty: '-4.00', sourceBodyId: sale.bodyList[0].id, totalAmt: '-36.16' });
    const returned = await approvedBill(admin, BASES.salesReturn, { ...draft, bodyList: [{ ...draft.bodyList[0], qty: '-2', totalAmt: undefined, taxAmt: undefined, salesAmt: undefined, finalAmt: undefined }] }, { post: true });
    expect(returned).toMatchObject({ totalAmt: '-18.08', finalAmt: '-18.08', billStatus: '1306' });
    expect(returned.bodyList[0]).toMatchObject({ costAmt: '-12.00', costPrice: '6.00000' });
    expect(new Dec(await partyBalance(server, 'AR', w.customers[1])).minus(ar).toFixed(2)).toBe('-18.08');
    const stock = await stockOf(server, w.depots[0], g);
    expect(stock.qty).toBe('28.00');

    const tooMuch = await admin.post(`${BASES.salesReturn}/submit`, { ...draft, bodyList: [{ ...draft.bodyList[0], qty: '-3', totalAmt: undefined, taxAmt: undefined, salesAmt: undefined, finalAmt: undefined }] });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.msg).toBe('第1行：累计退货数量不能超过源单数量（源单 4，已退 2，本次 3）');
    const left = expectOk(await admin.get(`${BASES.salesReturn}/generate`, { soNo: sale.billNo }));
    expect(left.bodyList[0].qty).toBe('-2.00');
  });

  test('10. a 1,000-line sales-out posts atomically; with one line short of stock nothing is written', async () => {
    const [a, b] = [await makeGoods(admin, w.unitId, '千行商品甲'), await makeGoods(admin, w.unitId, '千行商品乙')];
    await purchaseIn(a, '1000', '1.00', w.depots[1]);
    const many = (goodsOfLine: (i: number) => string) => ({
      customerId: w.customers[0],
      depotId: w.depots[1],
      bodyList: lines(w, Array.from({ length: 1000 }, (_, i) => ({ goods: goodsOfLine(i), qty: '1', taxPrice: '1.13' }))),
    });
    const rows = await ledgerCount();
    const short = await approvedBill(admin, BASES.salesOut, many((i) => (i === 500 ? b : a)));
    const refused = await admin.post(`${BASES.salesOut}/accounting`, { id: short.id, version: short.version });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toMatch(/第501行 商品「千行商品乙」.*缺少 1/);
    expect(await ledgerCount()).toBe(rows);
    expect(expectOk(await admin.get(`${BASES.salesOut}/detail`, { id: short.id })).billStatus).toBe('1304');

    const full = await approvedBill(admin, BASES.salesOut, many(() => a), { post: true });
    expect(full).toMatchObject({ totalQty: '1000.00', totalAmt: '1130.00', salesAmt: '1000.00', costAmt: '1000.00' });
    expect(await ledgerCount()).toBe(rows + 1000);
    expect(await stockOf(server, w.depots[1], a)).toMatchObject({ qty: '0.00', value: '0.00' });
  });

  test('a purchase order pulled into an inbound takes only what is not yet received; the submitted figures are recomputed', async () => {
    const order = await approvedBill(admin, BASES.purchaseOrder, {
      supplierId: w.supplierId,
      depotId: w.depots[0],
      bodyList: lines(w, [
        { goods: w.goods[1], qty: '3', purchasePrice: '3.33' },
        { goods: w.goods[2], qty: '2', purchasePrice: '0', isGift: 2 },
      ]),
    });
    expect(order.billStatus).toBe('1304');
    expect(expectOk(await admin.get(`${BASES.purchaseIn}/checkPullOrderById`, { id: order.id }))).toBe(true);
    const pulled = expectOk(await admin.get(`${BASES.purchaseIn}/pullOrderById`, { id: order.id }));
    expect(pulled).toMatchObject({ supplierId: w.supplierId, sourceBillId: order.id, sourceBillNo: order.billNo });
    expect(pulled.bodyList.map((l: { qty: string }) => l.qty)).toEqual(['3.00', '2.00']);
    const partial = { ...pulled, bodyList: [{ ...pulled.bodyList[0], qty: '1', purchaseAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined }, pulled.bodyList[1]] };
    await approvedBill(admin, BASES.purchaseIn, partial, { post: true });
    const rest = expectOk(await admin.get(`${BASES.purchaseIn}/pullOrderById`, { id: order.id }));
    expect(rest.bodyList.map((l: { qty: string }) => l.qty)).toEqual(['2.00']);
    const over = await admin.post(`${BASES.purchaseIn}/submit`, { ...rest, bodyList: [{ ...rest.bodyList[0], qty: '3', purchaseAmt: undefined, totalAmt: undefined, taxAmt: undefined, finalAmt: undefined }] });
    expect(over.body.msg).toBe('第1行：数量超过源单未完成数量（源单 3，已生成 1，本次 3）；如需超量入库，请先登记超量入库或在系统参数中允许超量入库');
    const wrongFigure = await admin.post(`${BASES.purchaseIn}/submit`, { ...rest, bodyList: [{ ...rest.bodyList[0], totalAmt: '7.00' }] });
    expect(wrongFigure.status).toBe(400);
    expect(wrongFigure.body.msg).toMatch(/^第1行：价税合计应为 7\.53，提交的是 7\.00/);
    expect(wrongFigure.body.data.lineErrors[0]).toMatchObject({ index: 0, field: 'totalAmt' });
    // 单据关联: the order's chain shows the order and its inbound, upstream first, from either end.
    const chain = expectOk(await admin.get('/blade-desk/billrelation/purchase', { id: order.id, billType: '0811' }));
    expect(chain.map((b: { billTypeName: string; level: number; current: boolean }) => [b.billTypeName, b.level, b.current])).toEqual([
      ['采购订单', 0, true],
      ['采购入库单', 1, false],
    ]);
    const inbound = chain[1];
    const fromInbound = expectOk(await admin.get('/blade-desk/billrelation/purchase', { id: inbound.id, billType: '0812' }));
    expect(fromInbound.map((b: { billNo: string; level: number }) => [b.billNo, b.level])).toEqual([
      [order.billNo, -1],
      [inbound.billNo, 0],
    ]);
  });
});
