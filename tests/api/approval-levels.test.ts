/**
 * Finance approval levels (acceptance 5 of the inventory and finance issue), on SQLite and
 * PostgreSQL: a prepayment approved by the boss (老板审批: 待审核 → 审核中) and then the cashier (出纳审批:
 * 审核中 → 已审核), each level refused without its own button and out of order; the level reached is
 * on the bill; normal approval stays one step; the batch variants approve several bills at once
 * and report each one's outcome; 按单付款 has the same levels.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';
import { approvedBill, BASES, lines, makeWorld, partyBalance, type World } from '../support/bills.ts';
import { Dec } from '../../src/shared/money/index.ts';

const PREPAYMENT = '/blade-finance/prepayment';

interface Outcome {
  id: string;
  billNo: string;
  success: boolean;
  msg: string;
}

describe.each(databases())('finance approval levels ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let boss: Api;
  let cashier: Api;
  let w: World;
  let cash: string;

  /** A user whose only role holds the prepayment menu and the given buttons. */
  async function userWith(account: string, buttons: string[]): Promise<Api> {
    const role = expectOk(await admin.post('/blade-system/role/submit', { parentId: '0', roleName: `审批${account}`, roleAlias: account, sort: 9 }));
    const ids: string[] = [];
    for (const code of buttons) {
      const [button] = expectOk<{ id: string; parentId: string }[]>(await admin.get('/blade-system/menu/list', { code_equal: code }));
      ids.push(String(button.id), String(button.parentId));
    }
    expectOk(await admin.call('POST', '/blade-system/role/grant', { query: { roleIds: String(role.id), menuIds: [...new Set(ids)].join(',') } }));
    const deptId = expectOk<{ id: string }[]>(await admin.get('/blade-system/dept/list'))[0].id;
    expectOk(await admin.post('/blade-user/submit', { account, password: 'Appr-1234', realName: account, roleId: String(role.id), deptId }));
    return signedIn(server.url, '000000', account, 'Appr-1234');
  }

  const submitted = async (amount: string) =>
    expectOk(await admin.post(`${PREPAYMENT}/submit`, { bartererId: w.customers[0], settlementId: cash, precpAmt: amount }));
  const detail = async (id: string) => expectOk(await admin.get(`${PREPAYMENT}/detail`, { id }));

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1, customers: 1 });
    const methods = expectOk(await admin.get('/blade-base/settlement/retail'));
    cash = String(methods.find((m: { settlementName: string }) => m.settlementName === '现金').id);
    boss = await userWith('boss1', ['prepayment_bossAudit']);
    cashier = await userWith('cashier1', ['prepayment_cashierAudit']);
  });
  afterAll(async () => server?.close());

  test('boss then cashier, each with its own button and in order; the level is recorded; posted, the customer has 50.00 credit', async () => {
    const bill = await submitted('50');
    expect(bill.billStatus).toBe('1302');

    // The cashier may not skip the boss, and may not approve as the boss.
    const early = await cashier.post(`${PREPAYMENT}/cashierAudit`, { id: bill.id, version: bill.version, remark: '先出纳' });
    expect(early.status).toBe(400);
    expect(early.body.msg).toContain('待审核');
    const notBoss = await cashier.post(`${PREPAYMENT}/bossAudit`, { id: bill.id, version: bill.version, remark: '越权' });
    expect(notBoss.status).toBe(403);
    expect((await detail(bill.id)).billStatus).toBe('1302');

    const bossed = expectOk(await boss.post(`${PREPAYMENT}/bossAudit`, { id: bill.id, version: bill.version, remark: '同意' }));
    expect(bossed).toMatchObject({ billStatus: '1303', approvalLevel: '3803', auditRemark: '同意' });
    const notCashier = await boss.post(`${PREPAYMENT}/cashierAudit`, { id: bill.id, version: bossed.version, remark: '越权' });
    expect(notCashier.status).toBe(403);
    const cashed = expectOk(await cashier.post(`${PREPAYMENT}/cashierAudit`, { id: bill.id, version: bossed.version, remark: '款已到账' }));
    expect(cashed).toMatchObject({ billStatus: '1304', approvalLevel: '3804' });

    const history = expectOk(await admin.get(`${PREPAYMENT}/history`, { id: bill.id })) as { action: string; toStatusName: string; userName: string }[];
    expect(history.map((h) => [h.action, h.toStatusName, h.userName])).toEqual([
      ['submit', '待审核', expect.any(String)],
      ['bossAudit', '审核中', 'boss1'],
      ['cashierAudit', '已审核', 'cashier1'],
    ]);
    const before = await partyBalance(server, 'AR', w.customers[0]);
    expectOk(await admin.post(`${PREPAYMENT}/accounting`, { id: bill.id, version: cashed.version }));
    expect(await partyBalance(server, 'AR', w.customers[0])).toBe(new Dec(before).minus(50).toFixed(2));
  });

  test('normal approval is one step (普通审批); a bill under review may still be rejected', async () => {
    const one = await submitted('10');
    expect(expectOk(await admin.get(`${PREPAYMENT}/audit`, { id: one.id, version: one.version, remark: '同意' }))).toMatchObject({ billStatus: '1304', approvalLevel: '3801' });
    const two = await submitted('11');
    const bossed = expectOk(await admin.post(`${PREPAYMENT}/bossAudit`, { id: two.id, version: two.version }));
    const rejected = expectOk(await admin.get(`${PREPAYMENT}/reject`, { id: two.id, version: bossed.version, remark: '金额有误' }));
    expect(rejected.billStatus).toBe('1305');
  });

  test('batch boss and cashier approval: several bills at once, each outcome reported; the batch needs the level button', async () => {
    const a = await submitted('1');
    const b = await submitted('2');
    const draft = expectOk(await admin.post(`${PREPAYMENT}/draft`, { bartererId: w.customers[0], settlementId: cash, precpAmt: '3' }));
    const ids = [a.id, b.id, draft.id].join(',');

    expect((await cashier.post(`${PREPAYMENT}/batchBossAudit`, { ids })).status).toBe(403);
    const bossed = expectOk(await boss.post(`${PREPAYMENT}/batchBossAudit`, { ids, remark: '批量同意' })) as { total: number; passed: number; results: Outcome[] };
    expect([bossed.total, bossed.passed]).toEqual([3, 2]);
    expect(bossed.results.map((r) => [r.billNo, r.success])).toEqual([
      [a.billNo, true],
      [b.billNo, true],
      [draft.billNo, false],
    ]);
    expect(bossed.results[2].msg).toContain('草稿');

    const cashed = expectOk(await cashier.post(`${PREPAYMENT}/batchCashierAudit`, { ids: [a.id, b.id].join(',') })) as { passed: number; results: Outcome[] };
    expect(cashed.passed).toBe(2);
    for (const id of [a.id, b.id]) expect(await detail(id)).toMatchObject({ billStatus: '1304', approvalLevel: '3804' });
    expect((await detail(draft.id)).billStatus).toBe('1301');
  });

  test('按单付款 has the same two levels', async () => {
    const APSETTLE = '/blade-finance/apsettle';
    const inbound = await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '4', purchasePrice: '5.00' }]) }, { post: true });
    const bill = expectOk(await admin.post(`${APSETTLE}/submit`, { bartererId: w.supplierId, settlementId: cash, bodyList: [{ sourceBillId: inbound.id, settleAmt: '22.60' }] }));
    const bossed = expectOk(await admin.post(`${APSETTLE}/bossAudit`, { id: bill.id, version: bill.version }));
    expect(bossed).toMatchObject({ billStatus: '1303', approvalLevel: '3803' });
    expect(expectOk(await admin.post(`${APSETTLE}/cashierAudit`, { id: bill.id, version: bossed.version }))).toMatchObject({ billStatus: '1304', approvalLevel: '3804' });
  });
});
