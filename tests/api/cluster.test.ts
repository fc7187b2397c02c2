/**
 * Issue 16 §3: two API nodes on one PostgreSQL database behave as one server. Node A runs in this
 * process, node B as `npm start` does in its own (same database, same secret); both hand out ids
 * under their own node numbers, bill numbers stay unique when both number bills at once, and what
 * one node changes — a disabled user, a role taken away — is refused on the other at once, not
 * when its caches expire (seconds later). PostgreSQL only (SQLite is one process).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';
import { spawnServer, type ChildServer } from '../support/process.ts';
import { BASES, lines, makeWorld } from '../support/bills.ts';

type Row = Record<string, unknown>;
const PROTECTED = '/blade-system/param/list';
const nodeOf = (id: unknown) => Number((BigInt(String(id)) >> 12n) & 0x3ffn);

describe.skipIf(!process.env.DATABASE_URL)('two API nodes on one PostgreSQL database', () => {
  let a: TestServer;
  let b: ChildServer;
  let adminA: Api;
  let adminB: Api;

  beforeAll(async () => {
    a = await startTestServer({ databaseUrl: process.env.DATABASE_URL });
    b = await spawnServer({ DATABASE_URL: a.databaseUrl!, ERP_DATA_DIR: a.dataDir });
    adminA = await signedIn(a.url);
    adminB = await signedIn(b.url);
  }, 120_000);
  afterAll(async () => {
    await b?.stop();
    await a?.close();
  });

  test("a token of one node is good on the other; each node's ids carry its own node number", async () => {
    expect((await new Api(b.url).call('GET', PROTECTED, { token: adminA.token })).status).toBe(200);
    const onA = expectOk<Row>(await adminA.post('/blade-system/param/submit', { paramName: '节点A', paramKey: 'cluster.a', paramValue: '1' }));
    const onB = expectOk<Row>(await adminB.post('/blade-system/param/submit', { paramName: '节点B', paramKey: 'cluster.b', paramValue: '1' }));
    expect(nodeOf(onA.id)).not.toBe(nodeOf(onB.id));
    // Each sees what the other wrote.
    expect(expectOk<Row>(await adminA.get('/blade-system/param/detail', { id: onB.id })).paramKey).toBe('cluster.b');
  });

  test('bill numbers stay unique when both nodes number bills at the same moment', async () => {
    const w = await makeWorld(adminA, { goods: 1, customers: 1 });
    const order = (api: Api) => api.post(`${BASES.salesOrder}/submit`, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '1', taxPrice: '10' }]) });
    const replies = await Promise.all(Array.from({ length: 16 }, (_, i) => order(i % 2 ? adminB : adminA)));
    const numbers = replies.map((r) => expectOk<Row>(r).billNo);
    expect(new Set(numbers).size).toBe(16);
    expect(new Set(replies.map((r) => nodeOf(expectOk<Row>(r).id))).size).toBe(2);
  });

  /** Polls until the call is refused; how long it took, in ms. */
  async function refusedWithin(api: Api, path: string, method: 'GET' | 'POST' = 'GET', body?: unknown): Promise<number> {
    const started = Date.now();
    for (;;) {
      const reply = method === 'GET' ? await api.get(path) : await api.post(path, body);
      if (reply.status === 401 || reply.status === 403) return Date.now() - started;
      if (Date.now() - started > 5000) throw new Error(`${path} still answered ${reply.status} after 5 s`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  test('a user disabled on one node is refused on the other at once', async () => {
    const roleId = String(expectOk<Row[]>(await adminA.get('/blade-system/role/list')).find((r) => r.roleAlias === 'administrator')!.id);
    const deptId = expectOk<Row[]>(await adminA.get('/blade-system/dept/list'))[0].id;
    const user = expectOk<Row>(await adminA.post('/blade-user/submit', { account: 'twonodes', password: 'Two-Nodes1', realName: '两节点', roleId, deptId }));
    const onB = await signedIn(b.url, '000000', 'twonodes', 'Two-Nodes1');
    // Node B has the user's rights in its cache now.
    expect((await onB.get(PROTECTED)).status).toBe(200);
    expectOk(await adminA.call('POST', '/blade-user/disable', { query: { ids: String(user.id) } }));
    // Caches last 2 s (users) and 5 s (permissions): refused well before either expires.
    expect(await refusedWithin(onB, PROTECTED)).toBeLessThan(1000);
  });

  test('a role taken away on one node takes its rights on the other at once', async () => {
    const roles = expectOk<Row[]>(await adminA.get('/blade-system/role/list'));
    const adminRole = String(roles.find((r) => r.roleAlias === 'administrator')!.id);
    const userRole = String(roles.find((r) => r.roleAlias === 'user')!.id);
    const deptId = expectOk<Row[]>(await adminA.get('/blade-system/dept/list'))[0].id;
    const user = expectOk<Row>(await adminA.post('/blade-user/submit', { account: 'demoted', password: 'Two-Nodes2', realName: '降级', roleId: adminRole, deptId }));
    const onB = await signedIn(b.url, '000000', 'demoted', 'Two-Nodes2');
    const body = { paramName: '降级前', paramKey: 'cluster.demoted', paramValue: '1' };
    expectOk(await onB.post('/blade-system/param/submit', body));
    expectOk(await adminA.call('POST', '/blade-user/grant', { query: { userIds: String(user.id), roleIds: userRole } }));
    expect(await refusedWithin(onB, '/blade-system/param/submit', 'POST', { ...body, paramKey: 'cluster.demoted2' })).toBeLessThan(1000);
  });
});
