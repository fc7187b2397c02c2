/**
 * 采购费用分摊单 (issue: purchasing, sales and retail complete), on SQLite and PostgreSQL: a fee
 * that arrives after the goods is allocated over posted inbound lines by COST_ALLOCATION_MODEL
 * (gifts take shares), and posting raises the goods' stock value, not their quantity, and owes
 * the fee to the carrier; a flush takes both back. Lines refer to whole inbound lines, which any
 * number of fee bills may share; a draft inbound or a changed quantity is refused.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, approvedBill, lines, makeWorld, partyBalance, stockOf, setConfig, type World } from '../support/bills.ts';

const FEE = '/blade-purchase/purchasefeehead';

describe.each(databases())('purchase fee allocation ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let carrier: string;
  let freight: string;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 2 });
    const supplier = expectOk(await admin.get('/blade-base/supplier/detail', { id: w.supplierId }));
    const token = Date.now().toString().slice(-6);
    const made = expectOk(await admin.post('/blade-base/supplier/submit', { natureId: supplier.natureId, bartererCode: `C${token}`, bartererName: `承运商${token}` }));
    carrier = String(made.id);
    const item = expectOk(await admin.post('/blade-base/expenditem/submit', { expendCode: `F${Date.now().toString().slice(-6)}`, expendName: '运费', expendType: '6002' }));
    freight = String(item.id);
  });
  afterAll(async () => server?.close());

  /** A posted inbound: goods A 10 @ 5.00 and goods B 2 as a gift, or (paid) 3 @ 2.00. */
  async function postedInbound(paidB = false) {
    const [a, b] = w.goods;
    return approvedBill(
      admin,
      BASES.purchaseIn,
      {
        supplierId: w.supplierId,
        depotId: w.depots[0],
        bodyList: lines(w, [{ goods: a, qty: '10', purchasePrice: '5.00' }, paidB ? { goods: b, qty: '3', purchasePrice: '2.00' } : { goods: b, qty: '2', isGift: 2 }]),
      },
      { post: true },
    );
  }

  test('pulled from a posted inbound, a fee of 6.00 by quantity share raises A by 5.00 and the gift B by 1.00, owed to the carrier; flush takes it back', async () => {
    const inbound = await postedInbound();
    const [a, b] = w.goods;
    const before = [await stockOf(server, w.depots[0], a), await stockOf(server, w.depots[0], b)];
    expect(before.map((s) => [s.qty, s.value])).toEqual([
      ['10.00', '50.00'],
      ['2.00', '0.00'],
    ]);
    const draft = expectOk(await admin.get(`${FEE}/pullById`, { id: inbound.id }));
    expect(draft.supplierId, 'the inbound supplier is the default payee').toBe(w.supplierId);
    expect(draft.bodyList.map((l: { qty: string; depotId: string }) => [l.qty, l.depotId])).toEqual([
      ['10.00', w.depots[0]],
      ['2.00', w.depots[0]],
    ]);
    const apBefore = await partyBalance(server, 'AP', carrier);
    const fee = await approvedBill(admin, FEE, { ...draft, supplierId: carrier, expendId: freight, feeAmt: '6' }, { post: true });
    expect(fee.bodyList.map((l: { feeAmt: string }) => l.feeAmt)).toEqual(['5.00', '1.00']);
    expect(fee).toMatchObject({ feeAmt: '6.00', finalAmt: '6.00', costAmt: '6.00', expendName: '运费', billType: '0815' });

    const after = [await stockOf(server, w.depots[0], a), await stockOf(server, w.depots[0], b)];
    expect(after.map((s) => [s.qty, s.value]), 'value rises, quantity does not').toEqual([
      ['10.00', '55.00'],
      ['2.00', '1.00'],
    ]);
    const unitCost = async (goods: string) => String((await server.services.store.find(server.services.internal.stockBalance, '000000', { where: { depotId: w.depots[0], commInfoId: goods } }))[0].unitCost);
    expect(Number(await unitCost(a))).toBe(5.5);
    expect(Number(await unitCost(b))).toBe(0.5);
    expect(await partyBalance(server, 'AP', carrier)).toBe((Number(apBefore) + 6).toFixed(2));

    const flushed = expectOk(await admin.post(`${FEE}/flush`, { id: fee.id, version: fee.version }));
    expect(flushed.billStatus).toBe('1308');
    expect((await stockOf(server, w.depots[0], a)).value).toBe('50.00');
    expect((await stockOf(server, w.depots[0], b)).value).toBe('0.00');
    expect(await partyBalance(server, 'AP', carrier)).toBe(apBefore);
  });

  test('by amount share (model 0) the split follows line amounts; a second fee on the same lines adds to the first', async () => {
    const inbound = await postedInbound(true);
    await setConfig(admin, 'COST_ALLOCATION_MODEL', '0');
    try {
      const draft = expectOk(await admin.get(`${FEE}/pullById`, { id: inbound.id }));
      const first = await approvedBill(admin, FEE, { ...draft, expendId: freight, feeAmt: '6.00' }, { post: true });
      // A: 10 × 5.65 = 56.50; B: 3 × 2.26 = 6.78 → 6.00 × 56.50 / 63.28 = 5.357… → 5.36, B takes the rest 0.64.
      expect(first.bodyList.map((l: { feeAmt: string }) => l.feeAmt)).toEqual(['5.36', '0.64']);
      const again = await approvedBill(admin, FEE, { ...draft, expendId: freight, feeAmt: '1.00' }, { post: true });
      expect(again.bodyList.map((l: { feeAmt: string }) => l.feeAmt)).toEqual(['0.89', '0.11']);
      const ledger = await server.services.store.find(server.services.internal.stockLedger, '000000', { where: { billId: [first.id, again.id] } });
      expect(ledger.every((r) => Number(r.qty) === 0)).toBe(true);
      expect(ledger.map((r) => String(r.value)).sort()).toEqual(['0.11', '0.64', '0.89', '5.36']);
    } finally {
      await setConfig(admin, 'COST_ALLOCATION_MODEL', '1');
    }
  });

  test('refusals: a draft inbound, a changed quantity, no fee type, a negative fee', async () => {
    const [a] = w.goods;
    const draftIn = expectOk(await admin.post(`${BASES.purchaseIn}/draft`, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: a, qty: '3', purchasePrice: '5.00' }]) }));
    const line = (l: { id: string; commInfoId: string; unitId: string; qty: string }, qty = l.qty) => ({ sourceBodyId: l.id, commInfoId: l.commInfoId, unitId: l.unitId, qty, purchasePrice: '5.00', taxRate: '13', taxRateId: w.taxRateId });
    let reply = await admin.post(`${FEE}/submit`, { supplierId: carrier, expendId: freight, feeAmt: '2', bodyList: [line(draftIn.bodyList[0])] });
    expect(reply.body.msg).toContain('只能选择「已记账」的单据');

    const posted = await postedInbound();
    reply = await admin.post(`${FEE}/submit`, { supplierId: carrier, expendId: freight, feeAmt: '2', bodyList: [line(posted.bodyList[0], '4')] });
    expect(reply.body.msg).toBe('第1行：数量应等于采购入库单的数量 10');
    reply = await admin.post(`${FEE}/submit`, { supplierId: carrier, feeAmt: '2', bodyList: [line(posted.bodyList[0])] });
    expect(reply.body.msg).toContain('请选择费用类型');
    reply = await admin.post(`${FEE}/submit`, { supplierId: carrier, expendId: freight, feeAmt: '-2', bodyList: [line(posted.bodyList[0])] });
    expect(reply.body.msg).toContain('费用金额必须是不小于0的数字');
    reply = await admin.post(`${FEE}/submit`, { supplierId: carrier, expendId: freight, feeAmt: '2', bodyList: [{ commInfoId: a, unitId: w.unitId, qty: '1', purchasePrice: '1', taxRate: '13' }] });
    expect(reply.body.msg).toContain('请从采购入库单选择明细');
  });
});
