/**
 * 会计期间 on SQLite and PostgreSQL: a year's twelve months generated once; closed in order and
 * reopened latest first; a closed period refuses posting a bill dated in it (the bill stays
 * approved, nothing written); flushing a bill of a closed period books its mirror rows dated
 * today (the open period), the original rows untouched; and a flush is refused while today's own
 * period is closed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { approvedBill, BASES, lines, makeWorld, partyBalance, stockOf, type World } from '../support/bills.ts';
import { formatDate } from '../../src/shared/dates.ts';

const PERIODS = '/blade-finance/accountingperiod';
const OTHER_IN = '/blade-warehouse/otherinhead';

describe.each(databases())('accounting periods ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  const today = formatDate();
  const thisYear = Number(today.slice(0, 4));
  const year = thisYear - 1;

  const periods = async (periodYear: number) =>
    expectOk(await admin.get(`${PERIODS}/list`, { periodYear, current: 1, size: 20 })).records as { id: string; periodCode: string; periodStatus: number; startDate: string; endDate: string; closeUserName?: string }[];
  const byCode = async (code: string) => (await periods(Number(code.slice(0, 4)))).find((p) => p.periodCode === code)!;
  const close = (code: string) => byCode(code).then((p) => admin.post(`${PERIODS}/close`, { id: p.id }));
  const reopen = (code: string) => byCode(code).then((p) => admin.post(`${PERIODS}/reopen`, { id: p.id }));
  const receipt = (billDate: string, qty = '2') =>
    approvedBill(admin, OTHER_IN, { depotId: w.depots[0], reasonType: '1', billDate, bodyList: [{ commInfoId: w.goods[0], unitId: w.unitId, qty, costPrice: '3.00' }] });
  const ledgerOf = (billId: string) => server.services.store.find(server.services.internal.stockLedger, '000000', { where: { billId } });

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1 });
  });
  afterAll(async () => server?.close());

  test('generate makes the twelve months of a year once; a bad year is refused', async () => {
    expect(expectOk(await admin.post(`${PERIODS}/generate`, { periodYear: String(year) }))).toEqual({ created: 12 });
    const months = await periods(year);
    expect(months.map((p) => p.periodCode)).toEqual(Array.from({ length: 12 }, (_, i) => `${year}-${String(i + 1).padStart(2, '0')}`));
    const feb = months.find((p) => p.periodCode === `${year}-02`)!;
    expect(feb).toMatchObject({ startDate: `${year}-02-01`, periodStatus: 1 });
    expect(feb.endDate).toMatch(new RegExp(`^${year}-02-2[89]$`));
    expect(months.find((p) => p.periodCode === `${year}-12`)).toMatchObject({ endDate: `${year}-12-31` });

    const again = await admin.post(`${PERIODS}/generate`, { periodYear: String(year) });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe(`${year}年的会计期间已全部生成`);
    for (const bad of ['1999', 'abc', '']) {
      const refused = await admin.post(`${PERIODS}/generate`, { periodYear: bad });
      expect(refused.status).toBe(400);
      expect(refused.body.msg).toBe('会计年度应在2000至2099之间');
    }
  });

  test('periods close in order and reopen latest first; a closed period refuses posting; reopened, the bill posts', async () => {
    const feb = await receipt(`${year}-02-10`);
    const outOfOrder = await close(`${year}-02`);
    expect(outOfOrder.status).toBe(400);
    expect(outOfOrder.body.msg).toBe(`请先结账之前的会计期间${year}-01`);
    expectOk(await close(`${year}-01`));
    expectOk(await close(`${year}-02`));
    const closed = await byCode(`${year}-02`);
    expect(closed.periodStatus).toBe(2);
    expect(closed.closeUserName).toBeTruthy();
    const twice = await close(`${year}-02`);
    expect(twice.body.msg).toBe(`会计期间${year}-02已结账`);

    const before = await stockOf(server, w.depots[0], w.goods[0]);
    const refused = await admin.post(`${OTHER_IN}/accounting`, { id: feb.id, version: feb.version });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe(`单据日期${year}-02-10所在会计期间${year}-02已结账，不能记账`);
    expect(expectOk(await admin.get(`${OTHER_IN}/detail`, { id: feb.id })).billStatus).toBe('1304');
    expect(await stockOf(server, w.depots[0], w.goods[0])).toEqual(before);
    expect(await ledgerOf(feb.id)).toEqual([]);

    // Reopening goes latest first.
    const early = await reopen(`${year}-01`);
    expect(early.status).toBe(400);
    expect(early.body.msg).toBe(`请先反结账之后的会计期间${year}-02`);
    expectOk(await reopen(`${year}-02`));
    const posted = expectOk(await admin.post(`${OTHER_IN}/accounting`, { id: feb.id, version: feb.version }));
    expect(posted.billStatus).toBe('1306');
    expect((await ledgerOf(feb.id)).map((r) => r.postDate)).toEqual([`${year}-02-10`]);
  });

  test('flushing a bill of a closed period books the mirror today, the original rows untouched; flushing is refused while today is in a closed period', async () => {
    // A purchase-in dated in March: stock and the supplier's payable.
    const march = await approvedBill(
      admin,
      BASES.purchaseIn,
      { supplierId: w.supplierId, depotId: w.depots[0], billDate: `${year}-03-15`, bodyList: lines(w, [{ goods: w.goods[0], qty: '4', purchasePrice: '5.00' }]) },
      { post: true },
    );
    const party = () => server.services.store.find(server.services.internal.partyLedger, '000000', { where: { billId: march.id } });
    const original = await ledgerOf(march.id);
    expect(original.map((r) => [r.entry, r.postDate])).toEqual([['post', `${year}-03-15`]]);
    expect((await party()).map((r) => [r.entry, r.postDate])).toEqual([['post', `${year}-03-15`]]);
    const payable = await partyBalance(server, 'AP', w.supplierId);

    expectOk(await close(`${year}-02`));
    expectOk(await close(`${year}-03`));
    const flushed = expectOk(await admin.post(`${BASES.purchaseIn}/flush`, { id: march.id, version: march.version }));
    expect(flushed.billStatus).toBe('1308');
    const after = await ledgerOf(march.id);
    expect(after.filter((r) => r.entry === 'post')).toEqual(original);
    expect(after.filter((r) => r.entry === 'reverse').map((r) => r.postDate)).toEqual([today]);
    expect((await party()).map((r) => [r.entry, r.postDate])).toEqual([
      ['post', `${year}-03-15`],
      ['reverse', today],
    ]);
    // 4 × 5.00 × 1.13 = 22.60 owed, now taken back.
    expect(await partyBalance(server, 'AP', w.supplierId)).toBe((Number(payable) - 22.6).toFixed(2));

    // Close every month up to today's: a flush can no longer be dated anywhere open.
    const later = await receipt(today, '1');
    const posted = expectOk(await admin.post(`${OTHER_IN}/accounting`, { id: later.id, version: later.version }));
    for (let m = 4; m <= 12; m++) expectOk(await close(`${year}-${String(m).padStart(2, '0')}`));
    expectOk(await admin.post(`${PERIODS}/generate`, { periodYear: String(thisYear) }));
    const current = today.slice(0, 7);
    for (const p of await periods(thisYear)) if (p.periodCode <= current) expectOk(await close(p.periodCode));
    const refused = await admin.post(`${OTHER_IN}/flush`, { id: posted.id, version: posted.version });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe(`当前日期${today}所在会计期间${current}已结账，不能冲红，请先反结账`);
    expect(expectOk(await admin.get(`${OTHER_IN}/detail`, { id: posted.id })).billStatus).toBe('1306');
    expectOk(await reopen(current));
    expectOk(await admin.post(`${OTHER_IN}/flush`, { id: posted.id, version: posted.version }));
  });
});
