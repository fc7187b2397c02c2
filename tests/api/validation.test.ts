/**
 * Acceptance 6: bad input on every submit is refused with a Chinese message naming the field, and
 * nothing is written. The resources, their required fields, types, lengths and formats are read
 * from schemas/, so a new resource or field is covered without touching this file.
 *
 * Contract choice (documented): the server answers bad input with HTTP 400 and body code 400 —
 * `{code: 400, success: false, msg, data: {fieldErrors}}` — as BladeX does for a ServiceException
 * (its REST exception translator maps it to HTTP 400). Saber accepts 200–500 and reads `code`/`msg`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, signedIn, type Reply } from '../support/client.ts';
import {
  BodyFactory,
  badValueFor,
  conditionallyRequired,
  endpoint,
  loadResources,
  messageFor,
  pathOf,
  typeOf,
  writableFields,
  writtenElsewhere,
  type Field,
  type Resource,
} from '../support/resources.ts';
import { checkRule, formRuleFields } from '../../src/shared/validators.ts';

/** Views, source-bound bills and one-step bills are checked by their own tests (writtenElsewhere). */
const withSubmit = loadResources().filter((r) => endpoint(r, 'submit') && !writtenElsewhere(r));

/** [resource, field, resource file] for every writable field of a kind, over every resource with submit. */
function cases(pick: (f: Field) => boolean): [string, string, Resource][] {
  return withSubmit.flatMap((r) => writableFields(r).filter(([, f]) => pick(f)).map(([name]) => [r.resource, name, r] as [string, string, Resource]));
}
const integerCases = cases((f) => typeOf(f) === 'integer' || typeOf(f) === 'number');
const lengthCases = cases((f) => typeOf(f) === 'string' && f.maxLength !== undefined && !f.pattern && !f.format && !f.oneOf && !f.enum);
const formatCases = cases((f) => typeOf(f) === 'string' && (f.format === 'email' || Boolean(f.pattern)));

function expectRefused(reply: Reply, field: string, message: string) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(400);
  expect(reply.body.code).toBe(400);
  expect(reply.body.success).toBe(false);
  expect(reply.body.msg).toMatch(/[\u4e00-\u9fa5]/);
  expect(reply.body.msg).toContain(message);
  expect(Object.keys(reply.body.data?.fieldErrors ?? {})).toContain(field);
}

describe.each(databases())('submit validation ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let bodies: BodyFactory;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    bodies = new BodyFactory(admin);
  });
  afterAll(async () => server?.close());

  /** Rows of the resource in tenant 000000 (platform tables live there too), straight from the database. */
  const count = (r: Resource) => server.services.store.count(server.services.m(r.resource), '000000');

  /** Sends a bad body and checks the refusal and that the table did not change. */
  async function refusedWithoutWrite(r: Resource, body: Record<string, unknown>, field: string, message: string) {
    const before = await count(r);
    expectRefused(await admin.post(pathOf(r, 'submit'), body), field, message);
    expect(await count(r), `${r.resource}: nothing written`).toBe(before);
  }

  test('every resource with a submit call is covered, with its integer, length and format rules', () => {
    expect(withSubmit.map((r) => r.resource)).toEqual(expect.arrayContaining(['param', 'user', 'role', 'dept', 'menu', 'dict', 'client', 'tenant']));
    expect(integerCases.map(([r, f]) => `${r}.${f}`)).toContain('user.sex');
    expect(formatCases.map(([r, f]) => `${r}.${f}`)).toEqual(expect.arrayContaining(['user.email', 'user.phone']));
    expect(lengthCases.length).toBeGreaterThan(50);
  });

  test.each(withSubmit.map((r) => [r.resource, r] as const))('%s: the valid body is accepted (control)', async (_n, r) => {
    const before = await count(r);
    const reply = await admin.post(pathOf(r, 'submit'), await bodies.validBody(r));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.code).toBe(200);
    expect(await count(r)).toBe(before + 1);
  });

  test.each(withSubmit.map((r) => [r.resource, r] as const))('%s: each missing required field is named', async (_n, r) => {
    const valid = await bodies.validBody(r);
    // A required field with a schema default is never missing: the server fills the default (checked below).
    const props = r.entity.properties;
    // So is a code the resource's own `code` rule generates on add (KH000001…): checked below too.
    const generated = new Set(r.api.endpoints.filter((e) => e.op === 'code').map((e) => String((e as { params?: { field?: string } }).params?.field ?? 'code')));
    const required = [...(r.entity.required ?? []), ...conditionallyRequired(r, valid)].filter((f) => props[f].default === undefined && !generated.has(f));
    const defaulted = (r.entity.required ?? []).filter((f) => props[f].default !== undefined && !generated.has(f));
    for (const field of generated) {
      const body = { ...(await bodies.validBody(r)) };
      delete body[field];
      const saved = await admin.post(pathOf(r, 'submit'), body);
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(String(saved.body.data[field] ?? ''), `${r.resource}.${field} generated`).not.toBe('');
    }
    expect(required.length + generated.size).toBeGreaterThan(0);
    for (const field of defaulted) {
      const body = { ...(await bodies.validBody(r)) };
      delete body[field];
      const saved = await admin.post(pathOf(r, 'submit'), body);
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body.data[field], `${r.resource}.${field} defaulted`).toEqual(props[field].default);
    }
    for (const field of required) {
      const body = { ...valid };
      delete body[field];
      await refusedWithoutWrite(r, body, field, messageFor(r, field, 'required'));
      // Empty text is missing too.
      await refusedWithoutWrite(r, { ...valid, [field]: '' }, field, messageFor(r, field, 'required'));
    }
  });

  test.each(integerCases)('%s.%s: text into a numeric field is refused', async (_n, field, r) => {
    await refusedWithoutWrite(r, { ...(await bodies.validBody(r)), [field]: 'abc' }, field, messageFor(r, field, 'type'));
  });

  test.each(lengthCases)('%s.%s: text one character over maxLength is refused', async (_n, field, r) => {
    const max = r.entity.properties[field].maxLength!;
    await refusedWithoutWrite(r, { ...(await bodies.validBody(r)), [field]: '长'.repeat(max + 1) }, field, messageFor(r, field, 'maxLength'));
    // Exactly maxLength characters (CJK counted as one each) passes this field's check and never
    // breaks the server (on PostgreSQL every column it reaches must be wide enough); when the row
    // is accepted — a business rule may still refuse a repeated body — the value is stored whole.
    // A reference (x-ref) at its limit names no record: a submit that checks its references refuses
    // it on that ground (tests/api/strict-input.test.ts), so only the length is checked.
    // So does a dictionary field: a value at its limit is no key of the dictionary.
    const prop = r.entity.properties[field];
    if (prop['x-ref'] || ((prop['x-dict'] || prop['x-dictBiz']) && !prop['x-dictOpen'])) return;
    const atLimit = await admin.post(pathOf(r, 'submit'), { ...(await bodies.validBody(r)), [field]: '长'.repeat(max) });
    const what = `${r.resource}.${field} at its limit: ${JSON.stringify(atLimit.body).slice(0, 300)}`;
    expect(atLimit.status, what).toBeLessThan(500);
    expect(atLimit.body.data?.fieldErrors?.[field], what).toBeUndefined();
    if (atLimit.status === 200 && !r.entity.properties[field]['x-secret']) expect(atLimit.body.data[field], what).toBe('长'.repeat(max));
  });

  test.each(formatCases)('%s.%s: a bad e-mail, mobile or other patterned value is refused', async (_n, field, r) => {
    const f = r.entity.properties[field];
    const body = await bodies.validBody(r);
    // A helper check the form names (mobile, url …) speaks first, on blur and on the server alike.
    const expected = (bad: string, keyword: 'format' | 'pattern') => {
      for (const rule of formRuleFields((r as { form?: unknown }).form).get(field) ?? []) {
        const message = checkRule(rule, bad, { ...body, [field]: bad });
        if (message) return message;
      }
      return messageFor(r, field, keyword);
    };
    if (f.format === 'email') {
      await refusedWithoutWrite(r, { ...body, [field]: 'not-an-email' }, field, expected('not-an-email', 'format'));
      return;
    }
    const bad = f.pattern === '^1\\d{10}$' ? '1234567' : badValueFor(f.pattern!, f.maxLength);
    await refusedWithoutWrite(r, { ...body, [field]: bad }, field, expected(bad, 'pattern'));
  });

  test('the user form: bad e-mail and bad mobile name their fields (the acceptance example)', async () => {
    const user = withSubmit.find((r) => r.resource === 'user')!;
    const body = await bodies.validBody(user);
    await refusedWithoutWrite(user, { ...body, email: 'a@' }, 'email', '请输入正确的邮箱地址');
    await refusedWithoutWrite(user, { ...body, phone: '23800000000' }, 'phone', '请输入正确的手机号码');
    await refusedWithoutWrite(user, { ...body, phone: '138000000001' }, 'phone', '手机号码');
    // Several bad fields at once are all named.
    const before = await count(user);
    const reply = await admin.post(pathOf(user, 'submit'), { ...body, email: 'x', sex: 'abc', realName: '' });
    expect(reply.status).toBe(400);
    expect(Object.keys(reply.body.data.fieldErrors).sort()).toEqual(['email', 'realName', 'sex']);
    expect(await count(user)).toBe(before);
  });

  test('an update with bad input changes nothing', async () => {
    const param = withSubmit.find((r) => r.resource === 'param')!;
    const created = (await admin.post(pathOf(param, 'submit'), await bodies.validBody(param))).body.data;
    const reply = await admin.post(pathOf(param, 'submit'), { ...created, paramName: '', paramValue: 'changed' });
    expectRefused(reply, 'paramName', '请输入参数名称');
    const after = (await admin.get(pathOf(param, 'detail'), { id: created.id })).body.data;
    expect(after.paramValue).toBe(created.paramValue);
    expect(after.version).toBe(created.version);
  });
});
