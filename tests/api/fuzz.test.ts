/**
 * Issue 16 §2: a bounded, seeded fuzz over every submit and list call of the OpenAPI document
 * (/api/docs/json), on SQLite and PostgreSQL. Each submit call gets bodies that are valid but for
 * one field holding a value that field can never take (the wrong JSON type, text over its length,
 * a number beyond what the column holds, a value outside its choices or dictionary, a reference
 * to no row, lines
 * that are not a list of objects), as a new row and as an edit of a stored one; each list call
 * gets hostile query parameters. Asserted on every answer: no 5xx; a refusal carries a Chinese
 * message; a refusal of a one-bad-field body names that field; nothing is written for it (the
 * table's row count, the edited row's version).
 *
 * Reproduce a failure with its seed: FUZZ_SEED=<n> npx vitest run tests/api/fuzz.test.ts.
 * FUZZ_RUNS sets the bodies per submit call and the queries per list call (default 3).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api, type Reply } from '../support/client.ts';
import { BodyFactory, loadResources, typeOf, writableFields, writtenElsewhere, type Field, type Resource } from '../support/resources.ts';

type Row = Record<string, unknown>;
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
const RUNS = Number(process.env.FUZZ_RUNS ?? 3);
const CJK = /[\u4e00-\u9fa5]/;

interface Call {
  method: 'GET' | 'POST';
  path: string;
  resource?: Resource;
  /** The endpoint's operation in its schema (submit, update, …). */
  op?: string;
  query: string[];
  body?: Record<string, { type?: string }>;
}

/** The resource behind each /api path, by the schemas' own endpoint list. */
function resourcesByPath(): Map<string, { resource: Resource; op: string }> {
  const out = new Map<string, { resource: Resource; op: string }>();
  for (const r of loadResources()) {
    for (const e of r.api.endpoints) out.set(`${e.method} /api${e.path.startsWith('/') ? e.path : `${r.api.base}/${e.path}`}`, { resource: r, op: e.op });
  }
  return out;
}

function callsOf(doc: { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, { type?: string }> } }> } }>> }): Call[] {
  const byPath = resourcesByPath();
  const calls: Call[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [verb, op] of Object.entries(ops)) {
      const method = verb.toUpperCase() as 'GET' | 'POST';
      const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      const body = op.requestBody?.content?.['application/json']?.schema?.properties;
      const known = byPath.get(`${method} ${path}`);
      calls.push({ method, path, resource: known?.resource, op: known?.op, query, body });
    }
  }
  return calls;
}

/** Values the field can never take, each with what the refusal is about. */
function hostileValues(r: Resource, name: string, f: Field): unknown[] {
  const type = typeOf(f);
  const out: unknown[] = [{ nested: { deeper: [1, 2] } }];
  const choices = (f.enum ?? f.oneOf?.map((o) => o.const)) as unknown[] | undefined;
  if (type === 'array') return [...out, 'abc', 42, ['not an object']];
  if (type === 'boolean') return [...out, 'yes', 2, []];
  if (type === 'integer' || type === 'number') {
    out.push('abc', true, [1], 1.5, 2 ** 60, '9'.repeat(25));
    if (choices?.length) out.push(Math.max(...choices.map(Number).filter(Number.isFinite), 0) + 1000);
    else if (f['x-dict'] || f['x-dictBiz']) out.push(987_654);
    else if (f.maximum !== undefined) out.push(f.maximum + 1);
    return out;
  }
  if (type !== 'string') return out;
  out.push(true, f['x-multi'] ? [{ id: 1 }] : ['a', 'b']);
  if (f['x-decimal'] !== undefined) return [...out, 'abc', '9'.repeat(30)];
  if (f['x-ref'] && f['x-ref'] !== r.resource) return [...out, 9_876_543_210, `nx${SEED}`];
  out.push(12345);
  if (f.maxLength !== undefined) out.push('长'.repeat(f.maxLength + 1));
  if (choices?.length || f['x-dict'] || f['x-dictBiz']) out.push(`不在选项${SEED}`);
  return out;
}

/** What a refusal names: its field errors (line errors as `lines.i.field`) and its message. */
function named(reply: Reply, field: string, title: string): boolean {
  const keys = Object.keys((reply.body?.data as { fieldErrors?: Row } | null)?.fieldErrors ?? {});
  return keys.some((k) => k === field || k.startsWith(`${field}.`)) || String(reply.body?.msg ?? '').includes(title);
}

describe.each(databases())('fuzz over the OpenAPI document ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let bodies: BodyFactory;
  let calls: Call[];
  let requests = 0;
  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    bodies = new BodyFactory(admin);
    const doc = await fetch(`${server.url}/api/docs/json`).then((r) => r.json());
    calls = callsOf(doc);
  });
  afterAll(async () => server?.close());

  const count = (r: Resource) => server.services.store.count(server.services.m(r.resource), '000000');

  /** Every answer: never a 5xx; a refusal says why in Chinese. Problems are collected, so one run shows them all. */
  function sane(reply: Reply, what: string, problems: string[]) {
    requests++;
    if (reply.status >= 500) problems.push(`${what}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`);
    else if ((reply.status !== 200 || reply.body?.success === false) && !CJK.test(String(reply.body?.msg ?? reply.body?.error_description ?? ''))) {
      problems.push(`${what}: refused without a Chinese message (${JSON.stringify(reply.body).slice(0, 200)})`);
    }
  }

  test('the document lists the calls: submit calls with bodies, list calls with queries', () => {
    const submits = calls.filter((c) => c.body && c.resource);
    const lists = calls.filter((c) => c.method === 'GET' && c.query.includes('ascs'));
    expect(submits.length).toBeGreaterThan(60);
    expect(lists.length).toBeGreaterThan(200);
    expect(submits.map((c) => c.path)).toContain('/api/blade-base/customer/submit');
  });

  test('submit calls: one field the field can never take is refused with the field named; nothing is written', { timeout: 900_000 }, async () => {
    const submits = calls.filter((c) => c.body && c.resource && !c.resource.table.view);
    const problems: string[] = [];
    let index = 0;
    for (const call of submits) {
      const r = call.resource!;
      const generic = !writtenElsewhere(r);
      let base: Row = {};
      if (generic) {
        try {
          base = await bodies.validBody(r);
        } catch {
          base = {};
        }
      }
      const fields = writableFields(r).filter(([name]) => name in (call.body ?? {}));
      if (!fields.length) continue;
      // A stored row to edit, for half of the runs (generic resources whose valid body saves).
      let stored: Row | undefined;
      const submitPath = call.op === 'update' ? r.api.endpoints.find((e) => e.op === 'submit') : undefined;
      if (generic && Object.keys(base).length && (call.op !== 'update' || submitPath)) {
        const made = await admin.post(submitPath ? `${r.api.base}/${submitPath.path}` : call.path.slice(4), base);
        sane(made, `${call.path} (valid body)`, problems);
        if (made.status === 200 && made.body.data?.id) stored = made.body.data as Row;
        if (stored) base = await bodies.validBody(r);
      }
      const picks = fc.sample(
        fc.tuple(fc.constantFrom(...fields), fc.nat(), fc.boolean()),
        { seed: SEED + index++, numRuns: RUNS },
      );
      for (const [[name, f], which, edit] of picks) {
        const values = hostileValues(r, name, f);
        const value = values[which % values.length];
        // An update call edits a stored row; a submit call adds one or edits one.
        if (call.op === 'update' && !stored) continue;
        const asEdit = Boolean((edit || call.op === 'update') && stored);
        const body = asEdit ? { ...stored, [name]: value } : { ...base, [name]: value };
        const before = await count(r);
        const reply = await admin.post(call.path.slice(4), body);
        const what = `${call.path} ${name}=${JSON.stringify(value).slice(0, 40)}${asEdit ? ' (edit)' : ''} seed ${SEED}`;
        sane(reply, what, problems);
        if (reply.status === 200 && reply.body?.success !== false) {
          problems.push(`${what}: accepted`);
          continue;
        }
        if (generic && Object.keys(base).length && !named(reply, name, f.title)) problems.push(`${what}: refused without naming the field (${String(reply.body?.msg).slice(0, 80)})`);
        if ((await count(r)) !== before) problems.push(`${what}: a row was written`);
        if (asEdit) {
          const now = await server.services.store.get(server.services.m(r.resource), '000000', String(stored!.id));
          if (now && Number(now.version) !== Number(stored!.version)) problems.push(`${what}: the row was changed`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(requests).toBeGreaterThan(200);
  });

  test('list calls: hostile query parameters never break the server', { timeout: 900_000 }, async () => {
    const lists = calls.filter((c) => c.method === 'GET' && c.query.includes('ascs'));
    const junk = fc.oneof(
      fc.constantFrom('-1', '0', 'abc', '1e309', '99999999999999999999', "' or 1=1 --", '%', '_', '\\', 'null', '[]', '{}', '2026-13-45', ',,,', 'a'.repeat(5000)),
      fc.string({ maxLength: 30 }),
      fc.integer().map(String),
    );
    const problems: string[] = [];
    let index = 0;
    for (const call of lists) {
      const names = [...new Set([...call.query, 'current', 'size', 'ascs', 'descs'])];
      const queries = fc.sample(fc.dictionary(fc.constantFrom(...names), junk, { minKeys: 1, maxKeys: 4 }), { seed: SEED + 100_000 + index++, numRuns: RUNS });
      for (const query of queries) sane(await admin.get(call.path.slice(4), query), `GET ${call.path} ${JSON.stringify(query).slice(0, 120)} seed ${SEED}`, problems);
    }
    // A hostile page is still a page: the list answers with the contract's paging.
    const page = await admin.get('/blade-base/customer/list', { current: 'abc', size: '-5', descs: 'no_such_column' });
    sane(page, 'customer list, hostile paging', problems);
    expect(problems).toEqual([]);
    expect(lists.length).toBeGreaterThan(200);
    expect(requests).toBeGreaterThan(1000);
    expectOk(await admin.get('/blade-base/customer/list', { current: 1, size: 1 }));
  });
});
