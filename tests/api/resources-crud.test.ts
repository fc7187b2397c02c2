/**
 * Acceptance 3 (API part): for EVERY resource file under schemas/, each generic call it declares
 * does what its op says. Resources and calls are read from the files by op — none is hand-picked,
 * and a call a resource lacks is skipped:
 *  - page/list/select/parentList: the created row is found by an id filter (a call with fixed
 *    filters shows it exactly when the row matches them);
 *  - submit (add): detail returns every value sent; detail-op calls all show the row;
 *  - submit (edit with the current version): the version moves on by one and the new value reads
 *    back; the old version again is refused with HTTP 400 and 数据已被他人修改，请刷新后重试, and
 *    the row is exactly as it was;
 *  - enable/disable: status 2, then 1, read back;
 *  - remove: the row is gone from detail and every list;
 *  - trees: tree, lazyTree, lazyList, childList and the unfiltered list show a child under its parent;
 *  - code/timeStampCode: non-empty and distinct on two calls;
 *  - setFields calls (audit pass/refuse, shelves, range, period …) set their fixed `set` values and
 *    the `fields` the request carries (or, when the call's `from` state check does not allow the
 *    new row's state, are refused and change nothing).
 * Resources without a submit call hold rows the server writes itself: the test writes one through
 * the server's store and runs the reads, status calls and remove on it.
 * Bad input per required field is validation.test.ts's job and is not repeated here.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn, type Reply } from '../support/client.ts';
import { BodyFactory, changed, loadResources, pathOf, rowsOf, same, uniqueToken, writtenElsewhere, type Endpoint, type Resource } from '../support/resources.ts';

type Row = Record<string, unknown>;

/** Views, source-bound bills and one-step bills are written elsewhere (writtenElsewhere says where). */
const all = loadResources().filter((r) => !writtenElsewhere(r));
const ops = (r: Resource, ...names: string[]) => r.api.endpoints.filter((e) => names.includes(e.op));
const one = (r: Resource, op: string) => ops(r, op)[0] as Endpoint | undefined;
/** Add/edit: the generic submit op, or a hand-written handler at path submit (user, tenant). */
const submitOf = (r: Resource) =>
  r.api.endpoints.find((e) => e.op === 'submit' || (e.op === 'custom' && e.path === 'submit')) ??
  // A bill is written and edited as a draft (a submitted bill waits for approval and is not editable).
  r.api.endpoints.find((e) => e.op === 'document' && e.params?.action === 'draft');
/** Calls that list rows and take filters. */
const LIST_OPS = ['page', 'list', 'select', 'parentList'];
/** Calls that show a row's children. */
const TREE_OPS = ['tree', 'lazyTree', 'lazyList', 'childList'];
const TESTED_OPS = [...LIST_OPS, ...TREE_OPS, 'detail', 'submit', 'update', 'remove', 'enable', 'disable', 'code', 'timeStampCode', 'setFields'];

/**
 * Resources with at least one call this suite checks. A hand-written submit alone is not enough:
 * what it wrote must be readable by a generic read (协同消息 is sent and read only through its own
 * handlers, each user seeing their own: messages.test.ts).
 */
const covered = all.filter((r) => r.api.endpoints.some((e) => TESTED_OPS.includes(e.op)) || (submitOf(r) && ops(r, 'detail', ...LIST_OPS).length));
const trees = covered.filter((r) => r.table.tree && submitOf(r) && ops(r, ...TREE_OPS, 'list').length);
const coded = covered.filter((r) => ops(r, 'code', 'timeStampCode').length);
const setters = covered.filter((r) => submitOf(r) && ops(r, 'setFields').length);

const CONFLICT = '数据已被他人修改，请刷新后重试';

/** Does a row satisfy a call's fixed filters (a value, or a list of allowed values)? */
function matches(row: Row, params: Record<string, unknown> | undefined): boolean {
  return Object.entries(params ?? {}).every(([k, v]) => (Array.isArray(v) ? v : [v]).some((x) => same(undefined, x, row[k])));
}

describe.each(databases())('every resource: list, add, edit, view, status, remove ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let bodies: BodyFactory;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    bodies = new BodyFactory(admin);
  });
  afterAll(async () => server?.close());

  const call = (r: Resource, e: Endpoint, query: Row, json?: unknown) =>
    admin.call(e.method, pathOf(r, e.path), { query, json: e.method === 'POST' ? json : undefined });

  /** A new row: through the resource's submit, else written by the server's store (system-written rows). */
  async function create(r: Resource, patch: Row = {}): Promise<Row & { sent: Row }> {
    const sent = { ...(await bodies.validBody(r)), ...patch };
    const submit = submitOf(r);
    if (submit) {
      const saved = expectOk<Row>(await admin.post(pathOf(r, submit.path), sent), `${r.resource} submit (add)`);
      expect(typeof saved.id, `${r.resource}: submit answers the saved row`).toBe('string');
      return { ...sent, ...saved, sent };
    }
    const saved = await server.services.store.insert(server.services.m(r.resource), { tenantId: '000000', userId: '0' }, sent);
    return { ...sent, ...saved, sent };
  }

  /** The row as the resource's own reads show it: detail, else a list call filtered by id. */
  async function read(r: Resource, id: string): Promise<Row | null> {
    const detail = r.api.endpoints.find((e) => e.op === 'detail' && e.path === 'detail') ?? one(r, 'detail');
    if (detail) return expectOk<Row | null>(await call(r, detail, { id }), `${r.resource} ${detail.path}`);
    const list = ops(r, ...LIST_OPS).find((e) => !e.params)!;
    return rowsOf(expectOk(await call(r, list, { id }), `${r.resource} ${list.path}`)).find((row) => String(row.id) === id) ?? null;
  }

  /** Each list call, filtered by id: the row is there exactly when it is live and matches the call's fixed filters. */
  async function expectListed(r: Resource, id: string, row: Row | null) {
    await Promise.all(
      ops(r, ...LIST_OPS).map(async (e) => {
        const found = rowsOf(expectOk(await call(r, e, { id }), `${r.resource} ${e.path}`)).filter((x) => String(x.id) === id);
        const root = r.table.tree?.rootValue ?? '0';
        const shown = row !== null && matches(row, e.params) && (e.op !== 'parentList' || same(undefined, '', row[r.table.tree!.parentField]) || String(row[r.table.tree!.parentField]) === root);
        expect(found.length, `${r.resource} ${e.path}?id=: ${shown ? 'lists' : 'does not list'} the row`).toBe(shown ? 1 : 0);
      }),
    );
  }

  test('the enumeration covers every resource by op', () => {
    const names = covered.map((r) => r.resource);
    for (const name of ['param', 'user', 'tenant', 'customer', 'supplier', 'goods', 'staff', 'log-login', 'project']) expect(names).toContain(name);
    expect(trees.map((r) => r.resource)).toEqual(expect.arrayContaining(['dept', 'menu', 'region', 'customer-nature', 'bank-type', 'dict']));
    expect(coded.map((r) => r.resource)).toEqual(expect.arrayContaining(['customer', 'supplier', 'barcode']));
    expect(setters.map((r) => r.resource)).toEqual(expect.arrayContaining(['customer-audit', 'supplier-audit', 'brand', 'goods']));
    // Whatever is left declares none of the generic calls (hand-written handlers only).
    for (const r of all.filter((x) => !covered.includes(x))) expect(r.api.endpoints.every((e) => e.op === 'custom'), r.resource).toBe(true);
  });

  test.each(covered.map((r) => [r.resource, r] as const))('%s: list, add, view, edit (stale refused), disable/enable, remove', async (_name, r) => {
    const submit = submitOf(r);
    const created = await create(r);
    const id = String(created.id);

    // View: every detail call shows the row, with every value sent.
    const saved = await read(r, id);
    expect(saved, `${r.resource}: the new row reads back`).toBeTruthy();
    await Promise.all(
      ops(r, 'detail').map(async (e) => expect(expectOk<Row>(await call(r, e, { id }), `${r.resource} ${e.path}`)?.id, `${r.resource} ${e.path}`).toBe(id)),
    );
    for (const [name, value] of Object.entries(created.sent)) {
      const f = r.entity.properties[name];
      if (!f || f['x-secret']) continue;
      expect(same(f, value, saved![name]), `${r.resource}.${name}: sent ${JSON.stringify(value)}, read ${JSON.stringify(saved![name])}`).toBe(true);
    }

    // List: found by id in every list call.
    await expectListed(r, id, saved);

    // Edit with the current version, then with the old one.
    const edits = [submit, ...ops(r, 'update')].filter((e): e is Endpoint => Boolean(e));
    let current = saved!;
    for (const edit of edits) {
      const before = current;
      const version = Number(before.version);
      const body = changed(r, before);
      const field = Object.keys(body).find((k) => body[k] !== before[k]);
      const reply = expectOk<Row>(await admin.post(pathOf(r, edit.path), body), `${r.resource} ${edit.path} (edit)`);
      expect(Number(reply.version), `${r.resource} ${edit.path}: version moves on`).toBe(version + 1);
      const after = (await read(r, id))!;
      expect(Number(after.version)).toBe(version + 1);
      if (field) expect(after[field], `${r.resource}.${field} edited`).toBe(body[field]);
      const stale: Reply = await admin.post(pathOf(r, edit.path), { ...changed(r, after), version });
      expect(stale.status, `${r.resource} ${edit.path} with a stale version: ${JSON.stringify(stale.body)}`).toBe(400);
      expect(stale.body.code).toBe(400);
      // A bill's refusal also says who changed it and when.
      if (r.document) expect(stale.body.msg).toMatch(/^单据已被.+于.+修改（当前状态：.+），请刷新后重试$/);
      else expect(stale.body.msg).toBe(CONFLICT);
      expect(await read(r, id), `${r.resource}: a refused edit writes nothing`).toEqual(after);
      current = after;
    }

    // Disable, then enable.
    for (const [op, status] of [['disable', 2], ['enable', 1]] as const) {
      const e = one(r, op);
      if (!e) continue;
      expectOk(await call(r, e, { id }), `${r.resource} ${e.path}`);
      expect(Number((await read(r, id))?.status), `${r.resource} ${e.path}: status`).toBe(status);
    }

    // Remove: gone from detail and every list.
    const remove = one(r, 'remove');
    if (remove) {
      expectOk(await call(r, remove, { ids: id }), `${r.resource} ${remove.path}`);
      expect(await read(r, id), `${r.resource}: removed`).toBeNull();
      await expectListed(r, id, null);
    }
  });

  test.each(trees.map((r) => [r.resource, r] as const))('%s: the tree calls show a child under its parent', async (_name, r) => {
    const tree = r.table.tree!;
    const keyOf = (row: Row) => String(row[tree.keyField ?? 'id']);
    const parent = await create(r);
    const child = await create(r, { [tree.parentField]: keyOf(parent) });
    const [parentKey, childKey] = [keyOf(parent), keyOf(child)];
    const childRow = (await read(r, String(child.id)))!;
    expect(String(childRow[tree.parentField])).toBe(parentKey);

    /** The children under the node whose key is parentKey, anywhere in a nested answer. */
    const childrenIn = (nodes: Row[]): Row[] | undefined => {
      for (const n of nodes) {
        if (String(n.key ?? n[tree.keyField ?? 'id'] ?? n.id) === parentKey) return (n.children as Row[] | undefined) ?? [];
        const deeper = Array.isArray(n.children) ? childrenIn(n.children as Row[]) : undefined;
        if (deeper) return deeper;
      }
      return undefined;
    };
    const keyOfNode = (n: Row) => String(n.key ?? n[tree.keyField ?? 'id'] ?? n.id);
    const checks = ops(r, ...TREE_OPS, 'list').map(async (e) => {
      const what = `${r.resource} ${e.path}`;
      const shown = matches(childRow, e.params);
      if (e.op === 'tree' || e.op === 'list') {
        if (e.op === 'list' && e.params) return; // a filtered list is flat; the list test covers it
        const data = expectOk<Row[]>(await call(r, e, {}), what);
        const kids = childrenIn(data);
        expect(kids, `${what}: the parent is in the tree`).toBeDefined();
        expect(kids!.map(keyOfNode).includes(childKey), `${what}: the child is under its parent`).toBe(shown);
      } else {
        const data = rowsOf(expectOk(await call(r, e, { parentId: parentKey }), what));
        expect(data.map(keyOfNode).includes(childKey), `${what}?parentId=: the child is listed`).toBe(shown);
        if (e.op === 'lazyTree' || e.op === 'lazyList') {
          const top = rowsOf(expectOk(await call(r, e, { parentId: tree.rootValue ?? '0' }), what));
          const node = top.find((n) => keyOfNode(n) === parentKey);
          if (matches(parent, e.params)) expect(node?.hasChildren, `${what}: the parent has children`).toBe(true);
        }
      }
    });
    await Promise.all(checks);

    const remove = one(r, 'remove');
    if (remove) {
      // A parent with a live child stays; both together go.
      const refused = await call(r, remove, { ids: String(parent.id) });
      expect(refused.status, `${r.resource}: parent with a child`).toBe(400);
      expectOk(await call(r, remove, { ids: `${parent.id},${child.id}` }), `${r.resource} remove both`);
      expect(await read(r, String(parent.id))).toBeNull();
      expect(await read(r, String(child.id))).toBeNull();
    }
  });

  test.each(trees.map((r) => [r.resource, r] as const))('%s: a blank parent is stored as the root', async (_name, r) => {
    const tree = r.table.tree!;
    if (r.entity.required?.includes(tree.parentField)) return;
    const row = await create(r, { [tree.parentField]: '' });
    const saved = (await read(r, String(row.id)))!;
    expect(String(saved[tree.parentField])).toBe(tree.rootValue ?? '0');
  });

  test.each(coded.map((r) => [r.resource, r] as const))('%s: code calls give non-empty, distinct values', async (_name, r) => {
    for (const e of ops(r, 'code', 'timeStampCode')) {
      const [a, b] = await Promise.all([call(r, e, {}), call(r, e, {})]).then((replies) => replies.map((x) => expectOk<string>(x, `${r.resource} ${e.path}`)));
      expect(typeof a, `${r.resource} ${e.path}`).toBe('string');
      expect(a.length, `${r.resource} ${e.path}`).toBeGreaterThan(0);
      expect(b, `${r.resource} ${e.path}: two calls, two codes`).not.toBe(a);
      const prefix = String(e.params?.prefix ?? '');
      expect(a.startsWith(prefix) && b.startsWith(prefix), `${r.resource} ${e.path}: prefix ${prefix}`).toBe(true);
    }
  });

  test.each(setters.map((r) => [r.resource, r] as const))('%s: setFields calls change their fields', async (_name, r) => {
    await Promise.all(
      ops(r, 'setFields').map(async (e) => {
        const what = `${r.resource} ${e.path}`;
        const created = await create(r);
        const id = String(created.id);
        const before = (await read(r, id))!;
        const idParam = String(e.params?.idParam ?? 'id');
        // The values the call takes from the request, then the fixed ones it sets.
        const token = uniqueToken();
        const sent: Row = {};
        for (const name of (e.params?.fields as string[] | undefined) ?? []) {
          const f = r.entity.properties[name];
          if (f) sent[name] = await bodies.value(r, name, f, token);
        }
        const expected: Row = { ...sent, ...((e.params?.set as Row | undefined) ?? {}) };
        const allowed = Object.entries((e.params?.from ?? {}) as Record<string, unknown[]>).every(([k, values]) => values.some((v) => same(undefined, v, before[k])));
        const args = { ...sent, [idParam]: id, version: before.version };
        const reply = await call(r, e, e.method === 'GET' ? args : { [idParam]: id }, args);
        const after = (await read(r, id))!;
        if (!allowed) {
          expect(reply.status, `${what}: state check refuses ${JSON.stringify(reply.body)}`).toBe(400);
          expect(after).toEqual(before);
          return;
        }
        expectOk(reply, what);
        for (const [k, v] of Object.entries(expected)) {
          expect(same(r.entity.properties[k], v, after[k]), `${what}: ${k} = ${JSON.stringify(v)}, read ${JSON.stringify(after[k])}`).toBe(true);
        }
        expect(Number(after.version)).toBe(Number(before.version) + 1);
      }),
    );
  });
});
