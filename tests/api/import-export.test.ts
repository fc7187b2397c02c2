/**
 * Acceptance 5: 10,000 customers imported from an xlsx come back identical from the export, and a
 * file with one bad row is refused with that row's number (第N行) and writes nothing.
 *
 * The file is made the way a user makes one: the export of the (still empty) customer list gives
 * the header row, the rows are filled under those titles. Lookup columns (分类名称, 级别名称 …)
 * hold the names of existing rows, as the export shows them; columns the server owns (应收余额)
 * may hold anything and are never taken from the file.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';
import { multipart } from '../support/files.ts';
import { BodyFactory, loadResources, pathOf, same, typeOf, type Field, type Resource } from '../support/resources.ts';

type Row = Record<string, unknown>;

const N = 10_000;
const BAD_ROW = 5_000; // sheet row number of the bad row (row 1 holds the titles)

const customer = loadResources().find((r) => r.resource === 'customer')!;
const opPath = (r: Resource, op: string) => {
  const e = r.api.endpoints.find((x) => x.op === op);
  if (!e) throw new Error(`${r.resource} declares no ${op} call`);
  return pathOf(r, e.path);
};

async function readSheet(bytes: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow({ includeEmpty: false }, (row, n) => {
    rows[n - 1] = (row.values as unknown[]).slice(1);
  });
  return rows;
}

async function writeSheet(titles: string[], rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('客户');
  sheet.addRow(titles);
  for (const row of rows) sheet.addRow(row.map((v) => (v === undefined ? null : v)));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe.each(databases())('customer xlsx import and export ($name)', ({ name, databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let bodies: BodyFactory;
  let titles: string[];
  /** Field of each column, from the entity's titles. */
  let fields: string[];
  const sent = new Map<string, Row>();
  const timing: string[] = [];

  const props = customer.entity.properties;
  const lookups = customer.lookups ?? [];
  const required = new Set(customer.entity.required ?? []);
  const uniqueFields = new Set((customer.table.unique ?? []).flatMap((u) => u.fields));
  const codeField = customer.table.unique![0].fields[0];

  const total = async () => expectOk<{ total: number }>(await admin.get(opPath(customer, 'page'), { size: 1 }), 'customer list').total;
  const exportSheet = async () => {
    const reply = await admin.call<Buffer>('GET', opPath(customer, 'export'), { raw: true });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('spreadsheetml');
    return readSheet(reply.body);
  };
  const importFile = async (bytes: Buffer) => {
    const { body, contentType } = multipart('file', 'customers.xlsx', bytes, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    return admin.call('POST', opPath(customer, 'import'), { body, headers: { 'content-type': contentType } });
  };

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    bodies = new BodyFactory(admin);
  });
  afterAll(async () => {
    if (timing.length) console.log(`[import-export ${name}] ${timing.join(', ')}`);
    await server?.close();
  });

  test('the export of the empty list gives the column titles, each naming a customer field', async () => {
    expect(await total()).toBe(0);
    const sheet = await exportSheet();
    expect(sheet).toHaveLength(1);
    titles = sheet[0].map(String);
    console.log(`[import-export ${name}] export titles: ${titles.join(' | ')}`);
    const byTitle = new Map<string, string>();
    for (const [field, f] of Object.entries(props)) if (!byTitle.has(f.title) && typeOf(f) !== 'array') byTitle.set(f.title, field);
    fields = titles.map((t) => {
      const field = byTitle.get(t);
      if (!field) throw new Error(`export title ${t} names no customer field`);
      return field;
    });
    // What import needs is in the export: every required field, or the lookup column standing for it.
    for (const field of required) {
      const shown = fields.includes(field) || lookups.some((l) => l.from === field && fields.includes(l.field));
      expect(shown, `required ${field} (${props[field].title}) is in the export`).toBe(true);
    }
    expect(fields).toContain(codeField);
  });

  /** Values of one row, by column; `i` varies them. Optional columns are left blank on some rows. */
  async function rowValues(i: number, names: Map<string, string[]>, prefix: string): Promise<Row> {
    const row: Row = {};
    for (const field of fields) {
      const f: Field = props[field];
      const lookup = lookups.find((l) => l.field === field);
      if (lookup && !required.has(lookup.from) && i % 10 === 3) continue;
      if (lookup) {
        const choices = names.get(field)!;
        row[field] = choices[i % choices.length];
        continue;
      }
      if (f['x-readonly']) {
        row[field] = '12345.67'; // never imported
        continue;
      }
      if (uniqueFields.has(field)) {
        row[field] = `${prefix}${String(i).padStart(6, '0')}`;
        continue;
      }
      if (!required.has(field) && i % 10 === 3) continue;
      const type = typeOf(f);
      if (f['x-dict']) {
        const keys = await bodies.dictKeys(f['x-dict']);
        const key = keys[i % keys.length];
        row[field] = type === 'integer' || type === 'number' ? Number(key) : key;
      } else if (type === 'integer' || type === 'number') {
        row[field] = Math.min(f.maximum ?? Infinity, (f.minimum ?? 0) + (i % 97));
      } else if (f['x-decimal'] !== undefined) {
        row[field] = `${i % 30}.${String(i % 100).padStart(2, '0')}`;
      } else {
        const text = i % 1000 === 7 ? `${f.title}<&>"'${i}` : i % 500 === 11 ? `00${i}` : `${f.title}${i}号`;
        row[field] = text.slice(0, f.maxLength ?? 255);
      }
      if (f.pattern && !new RegExp(f.pattern).test(String(row[field]))) row[field] = await bodies.value(customer, field, f, `${prefix}${i}`);
    }
    return row;
  }

  /** Two live rows per lookup target, by the name the export shows. */
  async function lookupNames(): Promise<Map<string, string[]>> {
    const names = new Map<string, string[]>();
    for (const lookup of lookups.filter((l) => fields.includes(l.field))) {
      const target = loadResources().find((r) => r.resource === lookup.resource)!;
      const list: string[] = [];
      for (let k = 0; k < 2; k++) {
        const created = expectOk<Row>(await admin.post(opPath(target, 'submit'), await bodies.validBody(target)), `${lookup.resource} submit`);
        list.push(String(created[lookup.take]));
      }
      names.set(lookup.field, list);
    }
    return names;
  }

  test(`${N} customers imported, then exported back identical`, async () => {
    const names = await lookupNames();
    const rows: Row[] = [];
    for (let i = 1; i <= N; i++) rows.push(await rowValues(i, names, 'IMP'));
    for (const row of rows) sent.set(String(row[codeField]), row);
    const file = await writeSheet(titles, rows.map((row) => fields.map((f) => row[f])));

    let t = Date.now();
    const reply = await importFile(file);
    timing.push(`import ${N} rows ${Date.now() - t} ms (${(file.length / 1024).toFixed(0)} KB)`);
    expect(expectOk<{ count: number }>(reply, 'import').count).toBe(N);
    expect(await total()).toBe(N);

    t = Date.now();
    const sheet = await exportSheet();
    timing.push(`export ${Date.now() - t} ms`);
    expect(sheet[0].map(String)).toEqual(titles);
    expect(sheet.length - 1).toBe(N);
    const codeAt = fields.indexOf(codeField);
    const mismatches: string[] = [];
    const seen = new Set<string>();
    for (const cells of sheet.slice(1)) {
      const code = String(cells[codeAt]);
      const row = sent.get(code);
      if (!row) {
        mismatches.push(`exported ${code} was not imported`);
        continue;
      }
      seen.add(code);
      fields.forEach((field, c) => {
        // A blank cell takes the field's default, as a blank form field does.
        const want = props[field]['x-readonly'] ? '' : (row[field] ?? props[field].default);
        if (!same(props[field], want, cells[c])) mismatches.push(`${code} ${props[field].title}: imported ${JSON.stringify(want)}, exported ${JSON.stringify(cells[c])}`);
      });
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
    expect(seen.size).toBe(N);
  });

  test(`a file with one bad row (${BAD_ROW}) is refused with its row number and writes nothing`, async () => {
    const names = await lookupNames();
    const rows: Row[] = [];
    for (let i = 1; i <= N; i++) rows.push(await rowValues(i, names, 'BAD'));
    const nameField = [...required].find((f) => typeOf(props[f]) === 'string' && !props[f]['x-ref'] && fields.includes(f))!;
    delete rows[BAD_ROW - 2][nameField]; // data row k sits on sheet row k + 1
    const before = await total();
    const t = Date.now();
    const reply = await importFile(await writeSheet(titles, rows.map((row) => fields.map((f) => row[f]))));
    timing.push(`refused import ${Date.now() - t} ms`);
    expect(reply.status, JSON.stringify(reply.body).slice(0, 300)).toBe(400);
    expect(reply.body.success).toBe(false);
    expect(reply.body.msg).toContain(`第${BAD_ROW}行`);
    expect(reply.body.msg).toContain(customer.entity.errorMessage?.required?.[nameField] ?? props[nameField].title);
    expect(reply.body.msg.match(/第\d+行/g)).toEqual([`第${BAD_ROW}行`]);
    expect(await total()).toBe(before);
    const firstCode = String(rows[0][codeField]);
    const probe = expectOk<{ total: number }>(await admin.get(opPath(customer, 'page'), { [`${codeField}_equal`]: firstCode }), 'list by code');
    expect(probe.total, 'no row of the refused file was written').toBe(0);
  });

  test('the import template (export with template=1) is the title row alone, whatever the table holds', async () => {
    expect(await total()).toBeGreaterThan(0);
    const reply = await admin.call<Buffer>('GET', opPath(customer, 'export'), { raw: true, query: { template: 1 } });
    expect(reply.status).toBe(200);
    expect(decodeURIComponent(reply.headers.get('content-disposition') ?? '')).toContain('导入模板.xlsx');
    const sheet = await readSheet(reply.body);
    expect(sheet).toHaveLength(1);
    expect(sheet[0].map(String)).toEqual(titles);
  });
});
