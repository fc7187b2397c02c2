/**
 * Issue 16 §2 (numbers out of range), on SQLite and PostgreSQL: an integer beyond what both
 * databases hold exactly (99999999999999999999, 1e309) and a decimal with too many digits before
 * the point are refused with the field's message — not a 500 on PostgreSQL, not a rounded 1e20 on
 * SQLite — and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { makeGoods, makeWorld } from '../support/bills.ts';

type Row = Record<string, unknown>;

describe.each(databases())('numbers out of range ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
  });
  afterAll(async () => server?.close());

  const posts = async () => expectOk<{ total: number }>(await admin.get('/blade-system/post/list', { current: 1, size: 1 })).total;

  test('an integer beyond ±(2^53−1), as JSON or as text, is refused naming the field; nothing is written', async () => {
    const before = await posts();
    for (const sort of ['99999999999999999999', '1e309', '-1e20']) {
      // Raw JSON: 1e309 cannot be written by JSON.stringify.
      const reply = await admin.call('POST', '/blade-system/post/submit', {
        body: `{"category":1,"postCode":"p${Math.abs(sort.length)}","postName":"岗位","sort":${sort}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(reply.status, sort).toBe(400);
      expect(String(reply.body.msg), sort).toMatch(/^岗位排序/);
      expect(reply.body.data.fieldErrors.sort, sort).toBeTruthy();
    }
    const asText = await admin.post('/blade-system/post/submit', { category: 1, postCode: 'ptext', postName: '岗位', sort: '99999999999999999999' });
    expect(asText.status).toBe(400);
    expect(asText.body.msg).toBe('岗位排序超出允许范围');
    expect(await posts()).toBe(before);
    // The largest exact integer is fine.
    expectOk(await admin.post('/blade-system/post/submit', { category: 1, postCode: 'pmax', postName: '岗位', sort: Number.MAX_SAFE_INTEGER }));
  });

  test('a price with more digits before the point than the column holds is refused', async () => {
    const w = await makeWorld(admin, { goods: 0 });
    const goods = await makeGoods(admin, w.unitId, '范围测试商品');
    const huge = await admin.post('/blade-base/commprice/submit', { commInfoId: goods, unitId: w.unitId, retailPrice: '99999999999999999999' });
    expect(huge.status).toBe(400);
    expect(huge.body.msg).toBe('零售价超出允许范围（整数部分最多12位）');
    const fine = expectOk<Row>(await admin.post('/blade-base/commprice/submit', { commInfoId: goods, unitId: w.unitId, retailPrice: '999999999999.5' }));
    expect(Number(expectOk<Row>(await admin.get('/blade-base/commprice/detail', { id: fine.id })).retailPrice)).toBe(999999999999.5);
  });
});
