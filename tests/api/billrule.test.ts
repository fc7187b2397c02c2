/**
 * Bill numbers: billrule/generate gives increasing numbers from the rule of a bill type, never the
 * same number twice (also under concurrent calls); mallgenerate numbers from the same rule without
 * colliding with it; an unknown bill type is refused.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';

const GENERATE = '/blade-base/billrule/generate';

describe.each(databases())('bill numbers ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
  });
  afterAll(async () => server?.close());

  const generate = async (billType: string, path = GENERATE) => expectOk<string>(await admin.get(path, { billType }), `generate ${billType}`);
  const serial = (no: string) => Number(no.match(/(\d{4})$/)![1]);

  test('each call gives the next number: prefix + date + zero-padded serial', async () => {
    const rule = expectOk(await admin.get('/blade-base/billrule/list', { billType_equal: '0819' })).records[0];
    expect(rule, 'seeded rule for bill type 0819').toBeTruthy();
    const a = await generate('0819');
    const b = await generate('0819');
    const c = await generate('0819');
    expect(typeof a).toBe('string');
    const ymd = new Date();
    const date = `${ymd.getFullYear()}${String(ymd.getMonth() + 1).padStart(2, '0')}${String(ymd.getDate()).padStart(2, '0')}`;
    expect(a).toBe(`${rule.prefix}${date}0001`);
    expect([serial(a), serial(b), serial(c)]).toEqual([1, 2, 3]);
    expect(b > a && c > b).toBe(true);
  });

  test('concurrent calls never hand out the same number', async () => {
    const numbers = await Promise.all(Array.from({ length: 12 }, () => generate('0823')));
    expect(new Set(numbers).size).toBe(12);
    expect(numbers.map(serial).sort((x, y) => x - y)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  test('mallgenerate uses the same rule with an M after the prefix', async () => {
    const rule = expectOk(await admin.get('/blade-base/billrule/list', { billType_equal: '0886' })).records[0];
    const mall = await generate('0886', '/blade-base/billrule/mallgenerate');
    expect(mall.startsWith(`${rule.prefix}M`)).toBe(true);
    expect(await generate('0886')).not.toBe(mall);
  });

  test('rules are per tenant: tenant 100001 starts its own count', async () => {
    const other = await signedIn(server.url, '100001');
    const no = expectOk<string>(await other.get(GENERATE, { billType: '0819' }));
    expect(serial(no)).toBe(1);
  });

  test('an unknown bill type or a missing one is refused', async () => {
    const unknown = await admin.get(GENERATE, { billType: '9999' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toContain('9999');
    expect((await admin.get(GENERATE)).status).toBe(400);
  });
});
