/**
 * 资金流水 (/blade-report/cashflow list, sumtotal, daily) on SQLite and PostgreSQL: a prepayment
 * and a receipt in cash, a payment and other income through the bank, an expense paid in cash, an
 * expense on account (no money moves) and a prepayment flushed today. Every row's amounts, partner
 * and running balance per settlement method, the period's totals with opening and closing balance
 * and the daily series are recomputed here from the seeded amounts; Σ of the rows equals the cash
 * accounts of the general ledger. Another tenant sees nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { approvedBill, BASES, lines, makeWorld, type World } from '../support/bills.ts';
import { Dec, fixed, type Decimal } from '../../src/shared/money/index.ts';
import { formatDate } from '../../src/shared/dates.ts';

type Row = Record<string, any>;
const FLOW = '/blade-report/cashflow';
const EXIN = '/blade-finance/exinhead';

/** One expected movement: day, bill, settlement method, signed amount (in positive), partner name. */
interface Move {
  day: string;
  billNo: string;
  entry: 'post' | 'reverse';
  settlementId: string;
  amount: Decimal;
  partner: string | null;
}

describe.each(databases())('资金流水 ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  let cash: string;
  let bank: string;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1, customers: 1 });
    const listed = expectOk(await admin.get('/blade-base/settlement/list', { current: 1, size: 20 }));
    const methods = (Array.isArray(listed) ? listed : listed.records) as Row[];
    cash = String(methods.find((m) => m.settlementName === '现金')!.id);
    bank = String(methods.find((m) => m.settlementName === '银行转账')!.id);
  });
  afterAll(async () => server?.close());

  const exin = async (body: Row) => {
    const bill = expectOk(await admin.post(`${EXIN}/submit`, body), 'exin submit');
    const audited = expectOk(await admin.post(`${EXIN}/audit`, { id: bill.id, version: bill.version, remark: '同意' }), 'exin audit');
    return expectOk(await admin.post(`${EXIN}/accounting`, { id: audited.id, version: audited.version }), 'exin accounting');
  };

  test('every posted money movement with its running balance; totals, opening and closing balance, the daily series', async () => {
    const items = expectOk(await admin.get('/blade-base/exinitem/select', { current: 1, size: 100 })).records as Row[];
    const item = (name: string) => items.find((i) => i.expendName === name)!.id;
    const customerName = expectOk(await admin.get('/blade-base/customer/detail', { id: w.customers[0] })).bartererName;
    const supplierName = expectOk(await admin.get('/blade-base/supplier/detail', { id: w.supplierId })).bartererName;
    const moves: Move[] = [];
    const money = (day: string, bill: Row, settlementId: string, amount: string, partner: string | null, entry: Move['entry'] = 'post') =>
      moves.push({ day, billNo: bill.billNo, entry, settlementId, amount: new Dec(amount), partner });

    const inbound = await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], billDate: '2024-01-05', bodyList: lines(w, [{ goods: w.goods[0], qty: '10', purchasePrice: '10.00' }]) }, { post: true });
    const pre = await approvedBill(admin, '/blade-finance/prepayment', { bartererId: w.customers[0], settlementId: cash, billDate: '2024-02-03', precpAmt: '100' }, { post: true });
    money('2024-02-03', pre, cash, '100', customerName);
    const pay = await approvedBill(admin, '/blade-finance/payment', { bartererId: w.supplierId, settlementId: bank, billDate: '2024-02-20', precpAmt: '50', bodyList: [{ sourceBillId: inbound.id, settleAmt: '50' }] }, { post: true });
    money('2024-02-20', pay, bank, '-50', supplierName);
    const rent = await exin({ expendType: 6002, settlementId: cash, billDate: '2024-02-25', bodyList: [{ expendId: item('房租'), amount: '30' }] });
    money('2024-02-25', rent, cash, '-30', null);
    await exin({ expendType: 6002, onAccount: 2, supplierId: w.supplierId, billDate: '2024-02-26', bodyList: [{ expendId: item('水电费'), amount: '8.8' }] }); // on account: no money
    const interest = await exin({ expendType: 6001, settlementId: bank, billDate: '2024-03-01', bodyList: [{ expendId: item('利息收入'), amount: '12.34' }] });
    money('2024-03-01', interest, bank, '12.34', null);
    const late = await approvedBill(admin, '/blade-finance/prepayment', { bartererId: w.customers[0], settlementId: cash, billDate: '2024-03-10', precpAmt: '20' }, { post: true });
    money('2024-03-10', late, cash, '20', customerName);
    expectOk(await admin.post('/blade-finance/prepayment/flush', { id: late.id, version: late.version }));
    money(formatDate(), late, cash, '-20', customerName, 'reverse');

    // Running balance per settlement method, in date order (stable for equal days: the seeding order).
    const ordered = moves.map((m, i) => ({ ...m, i })).sort((x, y) => (x.day === y.day ? x.i - y.i : x.day < y.day ? -1 : 1));
    const running = new Map<string, Decimal>();
    const expectedRows = ordered.map((m) => {
      const balance = (running.get(m.settlementId) ?? new Dec(0)).plus(m.amount);
      running.set(m.settlementId, balance);
      return [m.day, m.billNo, m.entry, m.settlementId, fixed(Dec.max(m.amount, 0), 2), fixed(Dec.max(m.amount.neg(), 0), 2), fixed(balance, 2), m.partner];
    });
    const shown = (rows: Row[]) => rows.map((r) => [r.flowDate, r.billNo, r.entry, r.settlementId, r.inAmt, r.outAmt, r.balance, r.bartererName ?? null]);
    const all = expectOk(await admin.get(`${FLOW}/list`, { current: 1, size: 50 }));
    expect(shown(all.records)).toEqual(expectedRows);
    expect(all.records.find((r: Row) => r.billNo === pay.billNo)).toMatchObject({ settlementName: '银行转账', accountName: '银行存款', entryName: '记账', billType: '0854' });
    expect(all.records.find((r: Row) => r.entry === 'reverse')).toMatchObject({ entryName: '冲红', billType: '0886' });

    // Σ of every row = the general ledger's cash accounts.
    const gl = await server.services.store.find(server.services.internal.glEntry, '000000', { where: { account: ['1001', '1002'] } });
    const glNet = gl.reduce((s, r) => s.plus(String(r.amount)), new Dec(0));
    const everything = expectOk(await admin.get(`${FLOW}/sumtotal`));
    expect(everything.netAmt).toBe(fixed(glNet, 2));
    expect(everything).toMatchObject({ count: moves.length, netAmt: fixed(moves.reduce((s, m) => s.plus(m.amount), new Dec(0)), 2), beginBalance: '0.00' });

    // February: its rows keep their true balances; totals with opening and closing balance.
    const inFeb = (m: Move) => m.day >= '2024-02-01' && m.day <= '2024-02-29';
    const feb = expectOk(await admin.get(`${FLOW}/list`, { billDate_datege: '2024-02-01', billDate_datele: '2024-02-29', current: 1, size: 50 }));
    expect(shown(feb.records)).toEqual(expectedRows.filter((_, i) => inFeb(ordered[i])));
    const totals = (of: Move[]) => ({
      count: of.length,
      inAmt: fixed(of.reduce((s, m) => s.plus(Dec.max(m.amount, 0)), new Dec(0)), 2),
      outAmt: fixed(of.reduce((s, m) => s.plus(Dec.max(m.amount.neg(), 0)), new Dec(0)), 2),
      netAmt: fixed(of.reduce((s, m) => s.plus(m.amount), new Dec(0)), 2),
    });
    const before = (day: string, of: Move[]) => of.filter((m) => m.day < day).reduce((s, m) => s.plus(m.amount), new Dec(0));
    expect(expectOk(await admin.get(`${FLOW}/sumtotal`, { billDate_datege: '2024-02-01', billDate_datele: '2024-02-29' }))).toMatchObject({
      ...totals(moves.filter(inFeb)),
      beginBalance: '0.00',
      endBalance: fixed(before('2024-03-01', moves), 2),
    });
    // March by queryDate, cash only: opening = February's cash.
    const cashMoves = moves.filter((m) => m.settlementId === cash);
    const inMarch = (m: Move) => m.day.startsWith('2024-03');
    expect(expectOk(await admin.get(`${FLOW}/sumtotal`, { queryDate: '2024-03', dateType: 2, settlementId_equal: cash }))).toMatchObject({
      ...totals(cashMoves.filter(inMarch)),
      beginBalance: fixed(before('2024-03-01', cashMoves), 2),
      endBalance: fixed(before('2024-04-01', cashMoves), 2),
    });
    expect(shown(expectOk(await admin.get(`${FLOW}/list`, { bartererName: supplierName, current: 1, size: 50 })).records)).toEqual(expectedRows.filter((r) => r[7] === supplierName));

    // Daily: every day of February, zero days included, with the running balance.
    const daily = expectOk(await admin.get(`${FLOW}/daily`, { billDate_datege: '2024-02-01', billDate_datele: '2024-02-29' })) as Row[];
    expect(daily.length).toBe(29);
    for (const d of daily) {
      const that = moves.filter((m) => m.day === d.flowDate);
      expect(d).toEqual({ flowDate: d.flowDate, ...totals(that), count: undefined, balance: fixed(before(d.flowDate, moves).plus(totals(that).netAmt), 2) } as Row);
    }

    // Another tenant sees nothing.
    const other = await signedIn(server.url, '100001');
    expect(expectOk(await other.get(`${FLOW}/list`, { current: 1, size: 10 })).total).toBe(0);
    expect(expectOk(await other.get(`${FLOW}/sumtotal`))).toMatchObject({ count: 0, inAmt: '0.00', outAmt: '0.00' });
    expect((await admin.get(`${FLOW}/list`, { billDate_datege: '2024-02-30' })).body.msg).toBe('开始日期格式应为 yyyy-MM-dd');
  });
});
