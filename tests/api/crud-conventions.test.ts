/**
 * The list/detail/submit/remove conventions of the contract, on the param resource: pages
 * `{records,total,size,current,pages}` (current 1-based, size 10 by default), ascs/descs with
 * snake_case columns (unknown ones refused), map filter suffixes, the optimistic lock on update,
 * and remove with comma-joined ids.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';

const LIST = '/blade-system/param/list';
const N = 23;

interface Param {
  id: string;
  paramName: string;
  paramKey: string;
  paramValue: string;
  version: number;
  createTime: string;
}

describe.each(databases())('list, filter, update and remove conventions ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  const created: Param[] = [];

  const page = async (query: Record<string, unknown>) =>
    expectOk<{ records: Param[]; total: number; size: number; current: number; pages: number }>(await admin.get(LIST, query), 'list');

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    // Keys in a known order; names share a marker that sits in the middle of the text.
    for (let i = 0; i < N; i++) {
      const n = String(i).padStart(2, '0');
      created.push(expectOk(await admin.post('/blade-system/param/submit', { paramName: `甲conv乙-${n}`, paramKey: `conv.k${n}`, paramValue: `v${n}` })));
    }
    // Three rows made "old" straight in the database, to give the date filters something to separate.
    await server.services.store.db
      .updateTable('blade_param')
      .set({ create_time: '2020-01-15 10:00:00' })
      .where('id', 'in', created.slice(0, 3).map((p) => p.id))
      .execute();
  });
  afterAll(async () => server?.close());

  test('ids are strings and dates are yyyy-MM-dd HH:mm:ss', () => {
    for (const p of created) {
      expect(typeof p.id).toBe('string');
      expect(p.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    }
  });

  test('paging: size defaults to 10, current is 1-based, pages and total are right', async () => {
    const first = await page({ paramName: 'conv乙' });
    expect(first).toMatchObject({ total: N, size: 10, current: 1, pages: 3 });
    expect(first.records).toHaveLength(10);
    const third = await page({ paramName: 'conv乙', current: 3 });
    expect(third).toMatchObject({ total: N, current: 3, pages: 3 });
    expect(third.records).toHaveLength(3);
    const all = [...first.records, ...(await page({ paramName: 'conv乙', current: 2 })).records, ...third.records].map((p) => p.id);
    expect(new Set(all).size).toBe(N);
    const five = await page({ paramName: 'conv乙', size: 5 });
    expect(five).toMatchObject({ size: 5, pages: 5 });
    expect(five.records).toHaveLength(5);
    const beyond = await page({ paramName: 'conv乙', current: 9 });
    expect(beyond.records).toEqual([]);
    expect(beyond.total).toBe(N);
  });

  test('ascs/descs take snake_case column names; an unknown column is refused', async () => {
    const asc = await page({ paramName: 'conv乙', ascs: 'param_key', size: 100 });
    expect(asc.records.map((p) => p.paramKey)).toEqual(created.map((p) => p.paramKey));
    const desc = await page({ paramName: 'conv乙', descs: 'param_key', size: 100 });
    expect(desc.records.map((p) => p.paramKey)).toEqual(created.map((p) => p.paramKey).reverse());
    for (const bad of ['no_such_column', 'param_key;drop table blade_param', 'password']) {
      const reply = await admin.get(LIST, { ascs: bad });
      expect(reply.status, bad).toBe(400);
      expect(reply.body.code).toBe(400);
      expect(reply.body.msg).toMatch(/排序/);
    }
  });

  test('map filters: bare key is like, _equal is exact, _datege/_datele bound createTime', async () => {
    // Bare key: contains.
    expect((await page({ paramName: 'onv乙-1' })).total).toBe(10);
    // _equal: whole value only.
    const eq = await page({ paramKey_equal: 'conv.k07' });
    expect(eq.records.map((p) => p.paramKey)).toEqual(['conv.k07']);
    expect((await page({ paramKey_equal: 'conv.k0' })).total).toBe(0);
    // LIKE wildcards in the value are literal.
    expect((await page({ paramName: 'conv%' })).total).toBe(0);
    // Dates.
    const old = await page({ paramName: 'conv乙', createTime_datele: '2020-01-31 23:59:59', size: 100 });
    expect(old.records.map((p) => p.id).sort()).toEqual(created.slice(0, 3).map((p) => p.id).sort());
    const recent = await page({ paramName: 'conv乙', createTime_datege: '2020-02-01 00:00:00', size: 100 });
    expect(recent.total).toBe(N - 3);
    const window = await page({ paramName: 'conv乙', createTime_datege: '2020-01-15 00:00:00', createTime_datele: '2020-01-15 23:59:59' });
    expect(window.total).toBe(3);
    // A date filter that is not a date is refused, not ignored.
    expect((await admin.get(LIST, { createTime_datege: 'yesterday' })).status).toBe(400);
  });

  test('detail by id; update with the current version; a stale version is refused and nothing is written', async () => {
    const target = created[10];
    const detail = expectOk<Param>(await admin.get('/blade-system/param/detail', { id: target.id }));
    expect(detail).toMatchObject({ id: target.id, paramKey: target.paramKey, version: 1 });
    const updated = expectOk<Param>(await admin.post('/blade-system/param/submit', { ...detail, paramValue: 'first-edit' }), 'update');
    expect(updated.version).toBe(2);
    expect(updated.paramValue).toBe('first-edit');
    const stale = await admin.post('/blade-system/param/submit', { ...detail, paramValue: 'lost-edit' });
    expect(stale.status).toBe(400);
    expect(stale.body.code).toBe(400);
    expect(stale.body.msg).toMatch(/[\u4e00-\u9fa5]/);
    expect(stale.body.msg).toMatch(/修改|刷新/);
    const after = expectOk<Param>(await admin.get('/blade-system/param/detail', { id: target.id }));
    expect(after.paramValue).toBe('first-edit');
    expect(after.version).toBe(2);
    // An update without a version is refused as well.
    const { version: _v, ...noVersion } = after;
    expect((await admin.post('/blade-system/param/submit', { ...noVersion, paramValue: 'x' })).status).toBe(400);
    expect(expectOk<Param>(await admin.get('/blade-system/param/detail', { id: target.id })).paramValue).toBe('first-edit');
  });

  test('two concurrent updates with the same version: exactly one wins', async () => {
    const target = expectOk<Param>(await admin.get('/blade-system/param/detail', { id: created[11].id }));
    const replies = await Promise.all(
      ['a', 'b', 'c', 'd'].map((v) => admin.post('/blade-system/param/submit', { ...target, paramValue: `race-${v}` })),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    const winner = replies.find((r) => r.status === 200)!.body.data.paramValue;
    expect(expectOk<Param>(await admin.get('/blade-system/param/detail', { id: target.id }))).toMatchObject({ paramValue: winner, version: target.version + 1 });
  });

  test('remove with comma-joined ids removes exactly those rows', async () => {
    const [x, y] = [created[20], created[21]];
    const before = (await page({ paramName: 'conv乙' })).total;
    expectOk(await admin.call('POST', '/blade-system/param/remove', { query: { ids: `${x.id},${y.id}` } }), 'remove');
    expect((await page({ paramName: 'conv乙' })).total).toBe(before - 2);
    for (const p of [x, y]) expect(expectOk(await admin.get('/blade-system/param/detail', { id: p.id }))).toBeNull();
    expect(expectOk<Param>(await admin.get('/blade-system/param/detail', { id: created[22].id })).id).toBe(created[22].id);
    // Removing them again finds nothing to remove.
    const again = await admin.call('POST', '/blade-system/param/remove', { query: { ids: `${x.id},${y.id}` } });
    expect(again.status).toBe(400);
    // A removed row's key is free again (uniqueness counts live rows only).
    expectOk(await admin.post('/blade-system/param/submit', { paramName: '复用键', paramKey: x.paramKey, paramValue: 'again' }));
  });

  test('a duplicate unique key is refused with the schema message', async () => {
    const reply = await admin.post('/blade-system/param/submit', { paramName: '重复', paramKey: created[5].paramKey, paramValue: '1' });
    expect(reply.status).toBe(400);
    expect(reply.body.msg).toBe('参数键名已存在');
  });

  test('the gateway path without /api pages the same way', async () => {
    const viaApi = await admin.call('GET', LIST, { query: { paramName: 'conv乙', ascs: 'param_key' } });
    const viaGateway = await admin.call('GET', LIST, { query: { paramName: 'conv乙', ascs: 'param_key' }, prefix: '' });
    expect(viaGateway.status).toBe(200);
    expect(viaGateway.body).toEqual(viaApi.body);
  });
  test('a repeated search is answered from its kept matches, yet every write shows at once', async () => {
    const search = { paramName: 'conv乙', descs: 'param_key' };
    const before = await page(search);
    const second = await page({ ...search, current: 2 });
    expect(second.total).toBe(before.total);
    expect(second.records.map((r) => r.id)).not.toContain(before.records[0].id);
    // A write through the API.
    const added = expectOk<Param>(await admin.post('/blade-system/param/submit', { paramName: '甲conv乙-zz', paramKey: 'conv.kzz', paramValue: 'z' }));
    const after = await page(search);
    expect(after.total).toBe(before.total + 1);
    expect(after.records[0].id).toBe(added.id);
    // A write straight to the table, past the engine (as hand-written handlers do): seen at once too.
    await server.services.store.db.updateTable('blade_param').set({ param_name: '不再匹配' }).where('id', '=', added.id).execute();
    const renamed = await page(search);
    expect(renamed.total).toBe(before.total);
    expect(renamed.records.map((r) => r.id)).not.toContain(added.id);
    // A removed row leaves the kept matches as well.
    expectOk(await admin.call('POST', '/blade-system/param/remove', { query: { ids: before.records[0].id } }), 'remove');
    expect((await page(search)).total).toBe(before.total - 1);
  });
  test('a read while another call holds a transaction never sees its uncommitted rows', async () => {
    const { store } = server.services;
    const model = server.services.m('param');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let id: string | undefined;
    const tx = store
      .transaction(async () => {
        id = String((await store.insert(model, { tenantId: '000000', userId: '1' }, { paramName: '未提交', paramKey: 'tx.uncommitted', paramValue: '1' })).id);
        await gate;
        throw new Error('rolled back on purpose');
      })
      .catch(() => undefined);
    while (!id) await new Promise((resolve) => setTimeout(resolve, 5));
    // Started outside the transaction's call chain, while it is still open.
    const read = store.find(model, '000000', { where: { id } });
    release();
    await tx;
    expect(await read).toEqual([]);
    expect(await store.find(model, '000000', { where: { id } })).toEqual([]);
  });
});
