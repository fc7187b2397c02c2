/**
 * 往来明细账 (partyledger/list) on SQLite and PostgreSQL: every party ledger row of a partner in
 * posting order, debit and credit columns, and the running balance after each row, which ends at
 * the partner's balance; a flush shows as a credit dated today; another tenant sees nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { approvedBill, BASES, lines, makeWorld, partyBalance, type World } from '../support/bills.ts';
import { formatDate } from '../../src/shared/dates.ts';

const LEDGER = '/blade-finance/partyledger/list';

interface LedgerRow {
  kind: string;
  partyId: string;
  bartererName: string;
  billNo: string;
  billType: string;
  postDate: string;
  entry: string;
  debitAmt: string;
  creditAmt: string;
  balance: string;
}

describe.each(databases())('partner ledger ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1, customers: 1 });
  });
  afterAll(async () => server?.close());

  test('a customer: two sales, a return and a flush, with the running balance after each row', async () => {
    const customer = w.customers[0];
    const name = expectOk(await admin.get('/blade-base/customer/detail', { id: customer })).bartererName;
    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '20', purchasePrice: '3.00' }]) }, { post: true });
    const sale = (billDate: string, qty: string) =>
      approvedBill(admin, BASES.salesOut, { customerId: customer, depotId: w.depots[0], billDate, bodyList: lines(w, [{ goods: w.goods[0], qty, taxPrice: '11.30' }]) }, { post: true });
    // 3 × 11.30 = 33.90 on the 2nd, 2 × 11.30 = 22.60 on the 5th.
    const first = await sale('2026-01-02', '3');
    const second = await sale('2026-01-05', '2');
    const back = await admin.get(`${BASES.salesReturn}/generate`, { soNo: first.billNo });
    const draft = expectOk(back);
    const ret = await approvedBill(admin, BASES.salesReturn, { ...draft, billDate: '2026-01-06', bodyList: draft.bodyList.map((l: Record<string, unknown>) => ({ ...l, qty: '-1', salesAmt: null, taxAmt: null, totalAmt: null, finalAmt: null })) }, { post: true });
    expectOk(await admin.post(`${BASES.salesOut}/flush`, { id: second.id, version: second.version }));

    const rows = expectOk(await admin.get(LEDGER, { partyId: customer, current: 1, size: 20 })).records as LedgerRow[];
    expect(rows.map((r) => [r.billNo, r.postDate, r.entry, r.debitAmt, r.creditAmt, r.balance])).toEqual([
      [first.billNo, '2026-01-02', 'post', '33.90', '0.00', '33.90'],
      [second.billNo, '2026-01-05', 'post', '22.60', '0.00', '56.50'],
      [ret.billNo, '2026-01-06', 'post', '0.00', '11.30', '45.20'],
      [second.billNo, formatDate(), 'reverse', '0.00', '22.60', '22.60'],
    ]);
    expect(rows.every((r) => r.kind === 'AR' && r.bartererName === name)).toBe(true);
    expect(rows[0].billType).toBe('0803');
    expect(await partyBalance(server, 'AR', customer)).toBe(rows[rows.length - 1].balance);

    // A date filter keeps the balance carried from before it.
    const later = expectOk(await admin.get(LEDGER, { partyId: customer, postDate_datege: '2026-01-05', postDate_datele: '2026-01-06', current: 1, size: 20 })).records as LedgerRow[];
    expect(later.map((r) => [r.billNo, r.balance])).toEqual([
      [second.billNo, '56.50'],
      [ret.billNo, '45.20'],
    ]);
    // The supplier's side is AP, listed under its own name.
    const payable = expectOk(await admin.get(LEDGER, { kind: 'AP', partyId: w.supplierId, current: 1, size: 20 })).records as LedgerRow[];
    expect(payable.map((r) => [r.entry, r.debitAmt, r.balance])).toEqual([['post', '67.80', '67.80']]);

    // Another tenant sees none of it.
    const other = await signedIn(server.url, '100001');
    expect(expectOk(await other.get(LEDGER, { partyId: customer, current: 1, size: 20 })).total).toBe(0);
  });
});
