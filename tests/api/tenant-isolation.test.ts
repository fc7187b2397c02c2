/**
 * Acceptance 5: tenant isolation for EVERY resource in schemas/ — the list is read from the files,
 * not hand-picked. A row of tenant 000000 (A) is invisible and untouchable with a token of tenant
 * 100001 (B), by any of the resource's calls:
 *  - every GET call given the row's id (detail, list filtered by id, trees, selects, custom reads)
 *    answers without the row;
 *  - submit/update with the row's id and version, remove, enable and disable are refused, and every
 *    other POST call given the id leaves the row exactly as it was;
 *  - platform resources (tenant, client) refuse tenant B with 403 on every call.
 * Rows are created through the resource's own submit (custom handlers such as user.submit and
 * tenant.submit included); resources without submit hold rows the server writes itself (logs,
 * outbox, bindings, favourites, tasks), so the test writes one through the server's store.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';
import { BodyFactory, changed, endpoint, isPlatform, loadResources, pathOf, rowsOf, writtenElsewhere, type Endpoint, type Resource } from '../support/resources.ts';

const TENANT_A = '000000';
const TENANT_B = '100001';

/** Views, source-bound bills and one-step bills are written elsewhere; their isolation is checked in inquiries.test.ts and retail.test.ts. */
const all = loadResources().filter((r) => !writtenElsewhere(r));
const readable = (r: Resource) => Boolean(endpoint(r, 'detail') || endpoint(r, 'list') || endpoint(r, 'page'));
/** Rows made through the resource's own submit call. */
const withSubmit = all.filter((r) => endpoint(r, 'submit') && readable(r));
/** Rows the server writes itself: no submit, but reads by id. */
const systemWritten = all.filter((r) => !endpoint(r, 'submit') && readable(r));

/** Calls that act on the row by id and must be refused outright. */
const mustRefuse = (e: Endpoint) => e.method === 'POST' && (e.path === 'submit' || ['submit', 'update', 'remove', 'enable', 'disable'].includes(e.op));

describe.each(databases())('tenant isolation ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let a: Api;
  let b: Api;
  let bodies: BodyFactory;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    a = await signedIn(server.url, TENANT_A);
    b = await signedIn(server.url, TENANT_B);
    bodies = new BodyFactory(a);
  });
  afterAll(async () => server?.close());

  test('the enumeration covers every resource that can be addressed by id', () => {
    const names = withSubmit.map((r) => r.resource);
    for (const name of ['param', 'user', 'role', 'dept', 'menu', 'dict', 'tenant', 'client', 'region']) expect(names).toContain(name);
    for (const name of ['log-login', 'sms-outbox', 'user-oauth']) expect(systemWritten.map((r) => r.resource)).toContain(name);
    // The rest have no call that takes a row id (per-parent or per-user reads only).
    const rest = all.filter((r) => !withSubmit.includes(r) && !systemWritten.includes(r));
    for (const r of rest) expect(endpoint(r, 'remove') ?? endpoint(r, 'submit'), r.resource).toBeUndefined();
  });

  /** A's own view of the row: detail, else the list or page filtered by id. */
  async function viewA(r: Resource, id: string): Promise<Record<string, unknown> | null> {
    if (endpoint(r, 'detail')) return expectOk(await a.get(pathOf(r, 'detail'), { id }), `${r.resource} detail (A)`);
    const call = endpoint(r, 'list') ? 'list' : 'page';
    return rowsOf(expectOk(await a.get(pathOf(r, call), { id }), `${r.resource} ${call} (A)`)).find((row) => String(row.id) === id) ?? null;
  }

  /** Every non-public call of the resource, made by B with A's row id; `snapshot` must not move. */
  async function probeAsB(r: Resource, id: string, snapshot: () => Promise<unknown>, row: Record<string, unknown>) {
    const before = await snapshot();
    expect(before, 'A sees its own row').toBeTruthy();
    const platform = isPlatform(r);
    const countB = () => server.services.store.count(server.services.m(r.resource), TENANT_B);
    const rowsInB = platform ? 0 : await countB();
    for (const e of r.api.endpoints.filter((x) => !x.public)) {
      const what = `${r.resource} ${e.method} ${e.path}`;
      const query = { id, ids: id };
      const reply =
        e.method === 'GET'
          ? await b.call('GET', pathOf(r, e.path), { query })
          : await b.call('POST', pathOf(r, e.path), { query, json: e.path === 'submit' || e.op === 'update' ? changed(r, { ...row, id }) : { id, ids: id } });
      if (platform) {
        expect(reply.status, what).toBe(403);
        expect(reply.body.code, what).toBe(403);
        continue;
      }
      expect(reply.status, `${what}: no server error`).toBeLessThan(500);
      if (e.method === 'GET') {
        expect(JSON.stringify(reply.body), `${what} must not show A's row`).not.toContain(id);
      } else {
        if (mustRefuse(e)) {
          expect(reply.body?.success, `${what} refused: ${JSON.stringify(reply.body)}`).not.toBe(true);
          expect(reply.status, what).toBeGreaterThanOrEqual(400);
        }
        expect(await snapshot(), `${what} left A's row alone`).toEqual(before);
      }
    }
    if (!platform && endpoint(r, 'submit')) expect(await countB(), 'no row appeared in B').toBe(rowsInB);
  }

  test.each(withSubmit.map((r) => [r.resource, r] as const))('%s: tenant B cannot read, update or remove a row of tenant A', async (_name, r) => {
    const created = expectOk(await a.post(pathOf(r, 'submit'), await bodies.validBody(r)), `${r.resource} submit (A)`);
    const id = String(created.id);
    const row = (await viewA(r, id))!;
    await probeAsB(r, id, () => viewA(r, id), { ...row, version: row.version ?? created.version });
    // Control: A's own remove reaches the row.
    if (endpoint(r, 'remove')) {
      expectOk(await a.call('POST', pathOf(r, 'remove'), { query: { ids: id } }), `${r.resource} remove (A)`);
      expect(await viewA(r, id)).toBeNull();
    }
  });

  test.each(systemWritten.map((r) => [r.resource, r] as const))('%s: tenant B cannot read or remove a system-written row of tenant A', async (_name, r) => {
    const model = server.services.m(r.resource);
    const saved = await server.services.store.insert(model, { tenantId: TENANT_A, userId: '0' }, {});
    const id = String(saved.id);
    const raw = () => server.services.store.get(model, TENANT_A, id);
    // Control: A reads it through the resource's own calls.
    if (endpoint(r, 'detail')) expect(expectOk(await a.get(pathOf(r, 'detail'), { id }))?.id).toBe(id);
    await probeAsB(r, id, raw, { id, version: 1 });
  });

  test('B cannot give its user a role of A, nor grant menus to A’s role', async () => {
    const roleA = expectOk<{ id: string }[]>(await a.get('/blade-system/role/list'))[0].id;
    const deptB = expectOk<{ id: string }[]>(await b.get('/blade-system/dept/list'))[0].id;
    const reply = await b.post('/blade-user/submit', { account: 'sneaky', password: 'x1234567', realName: '越权', roleId: roleA, deptId: deptB });
    // Either refused, or the role does not resolve in B: the user must never sign in with A's role.
    if (reply.status === 200) {
      const login = await new Api(server.url, TENANT_B).login('sneaky', 'x1234567');
      expect(login.body.role_id ?? '').not.toContain(roleA);
    } else expect(reply.body.success).toBe(false);
    const grant = await b.call('POST', '/blade-system/role/grant', { query: { roleIds: roleA, menuIds: '' } });
    expect(grant.body.success).not.toBe(true);
  });
});
