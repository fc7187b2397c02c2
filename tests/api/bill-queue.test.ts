/**
 * 待审单据 and 草稿单据 on SQLite and PostgreSQL: bills of any kind listed by their latest action
 * (submitted → waiting, saved as draft → draft); approving and rejecting in place go through the
 * bill's own transition (it leaves the queue, its status moves, a stale second approval is
 * refused); a clerk without the approval button sees nothing to approve and may not approve;
 * another tenant sees none of it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, lines, makeWorld, type World } from '../support/bills.ts';

const PENDING = '/blade-desk/pendingbill';
const DRAFTS = '/blade-desk/draftbill/list';

interface QueueRow {
  resource: string;
  billId: string;
  billNo: string;
  billType: string;
  userName: string;
  actionTime: string;
}

describe.each(databases())('bill queues ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1, customers: 1 });
  });
  afterAll(async () => server?.close());

  const rows = async (api: Api, path: string, query: Record<string, string> = {}) => expectOk(await api.get(path, { current: 1, size: 50, ...query })).records as QueueRow[];
  const inbound = () => ({ supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '2', purchasePrice: '5.00' }]) });

  test('a submitted inbound waits, a saved sales-out is a draft; each listed once with its kind, number and who', async () => {
    const submitted = expectOk(await admin.post(`${BASES.purchaseIn}/submit`, inbound()));
    const draft = expectOk(await admin.post(`${BASES.salesOut}/draft`, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '1', taxPrice: '11.30' }]) }));
    const waiting = await rows(admin, `${PENDING}/list`);
    expect(waiting.filter((r) => r.billId === submitted.id)).toMatchObject([{ resource: 'purchase-in', billNo: submitted.billNo, billType: '0812', userName: expect.any(String) }]);
    expect(waiting.some((r) => r.billId === draft.id)).toBe(false);
    const drafts = await rows(admin, DRAFTS);
    expect(drafts.filter((r) => r.billId === draft.id)).toMatchObject([{ resource: 'sales-out', billNo: draft.billNo, billType: '0803' }]);
    // Filters: by kind and by number.
    expect((await rows(admin, `${PENDING}/list`, { billType: '0803' })).some((r) => r.billId === submitted.id)).toBe(false);
    expect((await rows(admin, `${PENDING}/list`, { billNo: submitted.billNo })).map((r) => r.billId)).toEqual([submitted.id]);
  });

  test('审核通过 in place: the inbound is approved through its own transition and leaves the queue; again is refused', async () => {
    const submitted = expectOk(await admin.post(`${BASES.purchaseIn}/submit`, inbound()));
    const done = expectOk(await admin.get(`${PENDING}/pass`, { resource: 'purchase-in', id: submitted.id }));
    expect(done.billStatus).toBe('1304');
    expect(expectOk(await admin.get(`${BASES.purchaseIn}/detail`, { id: submitted.id })).billStatus).toBe('1304');
    expect((await rows(admin, `${PENDING}/list`)).some((r) => r.billId === submitted.id)).toBe(false);
    const again = await admin.get(`${PENDING}/pass`, { resource: 'purchase-in', id: submitted.id });
    expect(again.body.success).toBe(false);
    expect(again.body.msg).toContain('不能审核通过');
  });

  test('驳回 in place needs a remark; with one the bill is 已驳回 and in neither queue', async () => {
    const submitted = expectOk(await admin.post(`${BASES.purchaseIn}/submit`, inbound()));
    const bare = await admin.get(`${PENDING}/reject`, { resource: 'purchase-in', id: submitted.id });
    expect(bare.body.success).toBe(false);
    expect(bare.body.msg).toMatch(/[\u4e00-\u9fff]/);
    expect(expectOk(await admin.get(`${PENDING}/reject`, { resource: 'purchase-in', id: submitted.id, auditRemark: '单价有误' })).billStatus).toBe('1305');
    expect((await rows(admin, `${PENDING}/list`)).some((r) => r.billId === submitted.id)).toBe(false);
    expect((await rows(admin, DRAFTS)).some((r) => r.billId === submitted.id)).toBe(false);
  });

  test('a clerk without the approval button sees nothing to approve and may not approve; another tenant sees nothing', async () => {
    const submitted = expectOk(await admin.post(`${BASES.purchaseIn}/submit`, inbound()));
    const role = expectOk(await admin.post('/blade-system/role/submit', { parentId: '0', roleName: `录单员${databaseUrl ? 'p' : 's'}`, roleAlias: 'clerk', sort: 9 }));
    const deptId = expectOk<{ id: string }[]>(await admin.get('/blade-system/dept/list'))[0].id;
    expectOk(await admin.post('/blade-user/submit', { account: 'queue1', password: 'Queue-1234', realName: '录单员甲', roleId: String(role.id), deptId }));
    const clerk = await signedIn(server.url, '000000', 'queue1', 'Queue-1234');
    expect(await rows(clerk, `${PENDING}/list`)).toEqual([]);
    const refused = await clerk.get(`${PENDING}/pass`, { resource: 'purchase-in', id: submitted.id });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toContain('purchaseIn_audit');
    const other = await signedIn(server.url, '100001');
    expect(await rows(other, `${PENDING}/list`)).toEqual([]);
    expect(await rows(other, DRAFTS)).toEqual([]);
    expect((await other.get(`${PENDING}/pass`, { resource: 'purchase-in', id: submitted.id })).body.success).toBe(false);
  });
});
