/**
 * The general ledger on SQLite and PostgreSQL: each posting writes a balanced voucher by its schema's
 * rules; 资产负债表 and 利润表 read it (figures computed by hand below); the ledger's 库存商品 equals the
 * stock balances and 应收/应付 the partners' balances; 推送凭证 (pushap) copies a bill's voucher to the
 * outbox once per posting and once per reversal; another tenant sees none of it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api, type Reply } from '../support/client.ts';
import { approvedBill, BASES, lines, makeWorld, partyBalance, type World } from '../support/bills.ts';
import { Dec, fixed, type Decimal } from '../../src/shared/money/index.ts';
import { formatDate } from '../../src/shared/dates.ts';

const RECEIPT = '/blade-finance/receipt';
const MOVE = '/blade-warehouse/moveinventory';
const SHEET = '/blade-finance/balancesheet/list';
const PROFIT = '/blade-finance/profitstatement/list';

type Line = { id: string; itemName: string; endAmt?: string; beginAmt?: string; periodAmt?: string; yearAmt?: string };
/** A refusal: the envelope's success is false and its message is the given Chinese one. */
function expectRefused(reply: Reply, msg: string) {
  expect(reply.body.success).toBe(false);
  expect(reply.body.msg).toBe(msg);
}
const byKey = (rows: Line[], field: keyof Line) => Object.fromEntries(rows.map((r) => [r.id, r[field]]));

describe.each(databases())('general ledger and statements ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let cash: string;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1, depots: 2, customers: 1 });
    const methods = expectOk(await admin.get('/blade-base/settlement/retail'));
    cash = String(methods.find((m: { settlementName: string }) => m.settlementName === '现金').id);
  });
  afterAll(async () => server?.close());

  /** Σ of the general ledger per account (debit-signed), and per account and partner. */
  async function ledger() {
    const rows = await server.services.store.find(server.services.internal.glEntry, '000000', {});
    const per = new Map<string, Decimal>();
    for (const r of rows) per.set(String(r.account), (per.get(String(r.account)) ?? new Dec(0)).plus(String(r.amount)));
    const perBill = new Map<string, Decimal>();
    for (const r of rows) perBill.set(`${r.billId}|${r.entry}`, (perBill.get(`${r.billId}|${r.entry}`) ?? new Dec(0)).plus(String(r.amount)));
    return { account: (code: string) => fixed(per.get(code) ?? new Dec(0), 2), vouchers: [...perBill.values()], rows };
  }

  test('a purchase, a sale and a part receipt: the balance sheet balances at figures computed by hand, the profit statement shows the margin', async () => {
    // 10 @ 5.00 net: stock 50.00, input tax 6.50, owed 56.50.
    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '10', purchasePrice: '5.00' }]) }, { post: true });
    // 4 @ 11.30 with tax: 45.20 owed by the customer, 40.00 revenue, 5.20 output tax, cost 4 × 5.00.
    const sale = await approvedBill(admin, BASES.salesOut, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '4', taxPrice: '11.30' }]) }, { post: true });
    await approvedBill(admin, RECEIPT, { bartererId: w.customers[0], settlementId: cash, precpAmt: '20', bodyList: [{ sourceBillId: sale.id, settleAmt: '20' }] }, { post: true });

    const sheet = expectOk(await admin.get(SHEET, { reportDate: formatDate() })).records as Line[];
    expect(byKey(sheet, 'endAmt')).toEqual({
      cash: '20.00',
      receivable: '25.20',
      prepaid: '0.00',
      otherReceivable: '0.00',
      inventory: '30.00',
      assets: '75.20',
      payable: '56.50',
      advances: '0.00',
      taxes: '-1.30', // 5.20 output less 6.50 input
      otherPayable: '0.00',
      liabilities: '55.20',
      capital: '0.00',
      retained: '20.00',
      equity: '20.00',
      liabilitiesAndEquity: '75.20',
    });
    expect(sheet.find((r) => r.id === 'inventory')!.itemName).toBe('存货');
    // Everything is this year's: nothing at the end of last year.
    expect(new Set(Object.values(byKey(sheet, 'beginAmt')))).toEqual(new Set(['0.00']));

    const profit = expectOk(await admin.get(PROFIT, { billDateStart: `${formatDate().slice(0, 7)}-01 00:00:00`, billDateEnd: `${formatDate()} 23:59:59` })).records as Line[];
    expect(byKey(profit, 'periodAmt')).toMatchObject({ revenue: '40.00', cost: '20.00', operating: '20.00', profit: '20.00' });
    expect(byKey(profit, 'yearAmt')).toMatchObject({ revenue: '40.00', profit: '20.00' });

    // Every voucher balances; the ledger's stock and partner accounts are the subledgers' balances.
    const gl = await ledger();
    expect(gl.vouchers.every((v) => v.isZero())).toBe(true);
    expect(gl.account('1405')).toBe('30.00');
    expect(gl.account('1122')).toBe(await partyBalance(server, 'AR', w.customers[0]));
    expect(gl.account('2202')).toBe(fixed(new Dec(await partyBalance(server, 'AP', w.supplierId)).neg(), 2));
  });

  test('goods called out and not yet in sit in 在途物资: 存货 is unchanged; the call-in empties it', async () => {
    const before = (await ledger()).account('1405');
    const submitted = expectOk(await admin.post(`${MOVE}/submit`, { outDepotId: w.depots[0], inDepotId: w.depots[1], bodyList: [{ commInfoId: w.goods[0], unitId: w.unitId, qty: '2' }] }));
    const passed = expectOk(await admin.get(`${MOVE}/pass`, { id: submitted.id, version: submitted.version, remark: '同意' }));
    const out = expectOk(await admin.post(`${MOVE}/callout`, { id: passed.id, version: passed.version }));
    let gl = await ledger();
    expect([gl.account('1402'), gl.account('1405')]).toEqual(['10.00', fixed(new Dec(before).minus(10), 2)]);
    const sheet = expectOk(await admin.get(SHEET)).records as Line[];
    expect(byKey(sheet, 'endAmt').inventory).toBe('30.00');
    expectOk(await admin.post(`${MOVE}/callin`, { id: out.id, version: out.version }));
    gl = await ledger();
    expect([gl.account('1402'), gl.account('1405')]).toEqual(['0.00', before]);
  });

  test('推送凭证: a posted bill pushes its voucher once (debits = credits), its reversal once after a flush; a bill not posted has none', async () => {
    const sale = await approvedBill(admin, BASES.salesOut, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '1', taxPrice: '11.30' }]) }, { post: true });
    const pushed = expectOk(await admin.get(`${BASES.salesOut}/pushap`, { id: sale.id })) as { voucherNo: string; debitAmt: string; creditAmt: string; entry: string; lines: { account: string; debit: string; credit: string }[] }[];
    expect(pushed).toHaveLength(1);
    // Dr 应收 11.30, Dr 主营业务成本 5.00 / Cr 库存商品 5.00, Cr 应交税费 1.30, Cr 主营业务收入 10.00.
    expect(pushed[0]).toMatchObject({ voucherNo: `PZ${sale.billNo}`, entry: 'post', debitAmt: '16.30', creditAmt: '16.30' });
    expect(pushed[0].lines.map((l) => [l.account, l.debit, l.credit]).sort()).toEqual([
      ['1122', '11.30', '0'],
      ['1405', '0', '5.00'],
      ['2221', '0', '1.30'],
      ['6001', '0', '10.00'],
      ['6401', '5.00', '0'],
    ]);
    expectRefused(await admin.get(`${BASES.salesOut}/pushap`, { id: sale.id }), '凭证已推送');

    const flushed = expectOk(await admin.get(`${BASES.salesOut}/detail`, { id: sale.id }));
    expectOk(await admin.post(`${BASES.salesOut}/flush`, { id: flushed.id, version: flushed.version }));
    const reversal = expectOk(await admin.get(`${BASES.salesOut}/pushap`, { id: sale.id }));
    expect(reversal).toMatchObject([{ voucherNo: `PZ${sale.billNo}-R`, entry: 'reverse', debitAmt: '16.30', creditAmt: '16.30' }]);
    const outbox = expectOk(await admin.get('/blade-finance/voucher/list', { billNo: sale.billNo, current: 1, size: 10 }));
    expect(outbox.records.map((r: { entry: string }) => r.entry).sort()).toEqual(['post', 'reverse']);

    const draft = expectOk(await admin.post(`${BASES.salesOut}/submit`, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '1', taxPrice: '11.30' }]) }));
    expectRefused(await admin.get(`${BASES.salesOut}/pushap`, { id: draft.id }), '单据未记账，没有可推送的凭证');

    // Another tenant: no statement figures, no vouchers, and not our bill.
    const other = await signedIn(server.url, '100001');
    const theirs = expectOk(await other.get(SHEET)).records as Line[];
    expect(new Set(Object.values(byKey(theirs, 'endAmt')))).toEqual(new Set(['0.00']));
    expect(expectOk(await other.get('/blade-finance/voucher/list', { current: 1, size: 10 })).total).toBe(0);
    expect((await other.get(`${BASES.salesOut}/pushap`, { id: sale.id })).body.success).toBe(false);
  });

  test('a bad date is refused with a Chinese message', async () => {
    expectRefused(await admin.get(SHEET, { reportDate: '2026-13' }), '报表日期格式应为YYYY-MM-DD');
    expectRefused(await admin.get(PROFIT, { billDateStart: '2026-05-02', billDateEnd: '2026-05-01' }), '开始日期不能晚于结束日期');
  });
});
