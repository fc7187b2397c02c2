/**
 * Retail (issue: purchasing, sales and retail complete, acceptance 4), on SQLite and PostgreSQL:
 * a counter sale saved, posted and paid in one call; its return generated from its number comes
 * back at the sale's cost and is refunded the same way.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, approvedBill, lines, makeWorld, partyBalance, stockOf, type World } from '../support/bills.ts';

const RETAIL = '/blade-sales/lsdsalesorderhead';
const RETURN = '/blade-sales/lsthdsalesorderhead';

describe.each(databases())('retail ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let cash: string;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 3 });
    // 10 of each at 2.00, 3.00, 4.00 a unit.
    await approvedBill(
      admin,
      BASES.purchaseIn,
      { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, w.goods.map((g, i) => ({ goods: g, qty: '10', purchasePrice: `${i + 2}.00` }))) },
      { post: true },
    );
    const methods = expectOk(await admin.get('/blade-base/settlement/retail'));
    cash = String(methods.find((m: { settlementName: string }) => m.settlementName === '现金').id);
  });
  afterAll(async () => server?.close());

  const ledger = async (billId: string) => (await server.services.store.find(server.services.internal.partyLedger, '000000', { where: { billId } })).map((r) => [r.entry, r.amount]);

  test('a barcode sale of 3 lines posts stock and its receipt in one call; its return comes back at the sale cost', async () => {
    // Each goods gets a barcode; the clerk scans it and the goods and unit come from selectByBarCode.
    const scanned: { commInfoId: string; unitId: string }[] = [];
    for (const [i, id] of w.goods.entries()) {
      const barCode = `69${Date.now().toString().slice(-9)}${i}`;
      expectOk(await admin.post('/blade-base/barcode/submit', { commInfoId: id, unitId: w.unitId, barCode, isMain: 2 }));
      const hit = expectOk(await admin.get('/blade-base/comminfo/selectByBarCode', { barCode }));
      scanned.push((Array.isArray(hit) ? hit : hit.records)[0]);
    }
    expect(scanned.map((s) => [s.commInfoId, s.unitId])).toEqual(w.goods.map((g) => [g, w.unitId]));
    const arBefore = await partyBalance(server, 'AR', w.customers[0]);
    const sale = expectOk(
      await admin.post(`${RETAIL}/account`, {
        customerId: w.customers[0],
        depotId: w.depots[0],
        settlementId: cash,
        receivedAmt: '50',
        bodyList: lines(w, [
          { goods: scanned[0].commInfoId, qty: '2', taxPrice: '5.65' },
          { goods: scanned[1].commInfoId, qty: '1', taxPrice: '11.30' },
          { goods: scanned[2].commInfoId, qty: '3', taxPrice: '6.78' },
        ]),
      }),
    );
    expect(sale).toMatchObject({ billStatus: '1306', totalQty: '6.00', finalAmt: '42.94', receivedAmt: '50.00', changeAmt: '7.06', costAmt: '19.00', settlementName: '现金' });
    expect(await stockOf(server, w.depots[0], w.goods[0])).toMatchObject({ qty: '8.00', value: '16.00' });
    expect(await stockOf(server, w.depots[0], w.goods[2])).toMatchObject({ qty: '7.00', value: '28.00' });
    expect(await ledger(sale.id)).toEqual(expect.arrayContaining([['post', '42.94'], ['receipt', '-42.94']]));
    expect(await partyBalance(server, 'AR', w.customers[0]), 'paid at the counter: nothing owed').toBe(arBefore);

    const draft = expectOk(await admin.get(`${RETURN}/generate`, { soNo: sale.billNo }));
    expect(draft.bodyList.map((l: { qty: string }) => l.qty)).toEqual(['-2.00', '-1.00', '-3.00']);
    const back = expectOk(await admin.post(`${RETURN}/account`, { ...draft, settlementId: cash, bodyList: [draft.bodyList[2]] }));
    expect(back).toMatchObject({ billStatus: '1306', totalQty: '-3.00', finalAmt: '-20.34', costAmt: '-12.00' });
    expect(await stockOf(server, w.depots[0], w.goods[2])).toMatchObject({ qty: '10.00', value: '40.00' });
    expect(await ledger(back.id)).toEqual(expect.arrayContaining([['post', '-20.34'], ['receipt', '20.34']]));
    expect(await partyBalance(server, 'AR', w.customers[0])).toBe(arBefore);
    const again = await admin.get(`${RETURN}/generate`, { soNo: sale.billNo });
    expect(expectOk(again).bodyList.map((l: { qty: string }) => l.qty)).toEqual(['-2.00', '-1.00']);
  });

  test('a walk-in sale needs no customer and writes no open item; paying less than due is refused and writes nothing', async () => {
    const body = (received: string) => ({ depotId: w.depots[0], settlementId: cash, receivedAmt: received, bodyList: lines(w, [{ goods: w.goods[1], qty: '1', taxPrice: '11.30' }]) });
    const short = await admin.post(`${RETAIL}/account`, body('11'));
    expect(short.body.msg).toBe('实收金额不能少于应收金额 11.30');
    expect(await stockOf(server, w.depots[0], w.goods[1])).toMatchObject({ qty: '9.00' });
    const sale = expectOk(await admin.post(`${RETAIL}/account`, body('20')));
    expect(sale).toMatchObject({ billStatus: '1306', changeAmt: '8.70' });
    expect(await ledger(sale.id)).toEqual([]);
    expect(await stockOf(server, w.depots[0], w.goods[1])).toMatchObject({ qty: '8.00' });
    const flushed = expectOk(await admin.post(`${RETAIL}/flush`, { id: sale.id, version: sale.version }));
    expect(flushed.billStatus).toBe('1308');
    expect(await stockOf(server, w.depots[0], w.goods[1])).toMatchObject({ qty: '9.00' });
  });

  test('another tenant can neither read nor flush a sale', async () => {
    const sale = expectOk(await admin.post(`${RETAIL}/account`, { depotId: w.depots[0], settlementId: cash, bodyList: lines(w, [{ goods: w.goods[0], qty: '1', taxPrice: '5.65' }]) }));
    const before = await stockOf(server, w.depots[0], w.goods[0]);
    const b = await signedIn(server.url, '100001');
    expect(expectOk(await b.get(`${RETAIL}/list`, { current: 1, size: 50 })).records).toEqual([]);
    expect((await b.get(`${RETAIL}/detail`, { id: sale.id })).body.data ?? null).toBeNull();
    const flush = await b.post(`${RETAIL}/flush`, { id: sale.id, version: sale.version });
    expect(flush.body.success).toBe(false);
    expect(await stockOf(server, w.depots[0], w.goods[0])).toEqual(before);
    expect(expectOk(await admin.get(`${RETAIL}/detail`, { id: sale.id })).billStatus).toBe('1306');
  });
});
