/**
 * 打印设置 (issue 14), on SQLite and PostgreSQL: every bill type starts with a default template
 * (sales-out: its head fields without states and figures, its line columns, the final amount in
 * words, the sales signature line); fields() answers what a template may show; forBill answers
 * the saved template, the company name and the names behind user ids, and the default again once
 * an administrator removed the saved one; one template per bill type; another tenant's templates
 * are its own.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';

type Row = Record<string, unknown>;
const BASE = '/blade-system/printtemplate';

describe.each(databases())('print templates ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
  });
  afterAll(async () => server?.close());

  const templateOf = async (api: Api, billType: string) =>
    expectOk<{ records: Row[] }>(await api.get(`${BASE}/list`, { billType, current: 1, size: 10 })).records;

  test('every bill type has a default template; sales-out prints its customer, lines and final amount', async () => {
    const all = expectOk<{ records: Row[]; total: number }>(await admin.get(`${BASE}/list`, { current: 1, size: 200 }));
    const types = new Set(all.records.map((r) => String(r.billType)));
    for (const billType of ['0803', '0801', '0802', '0833', '0852', '0855']) expect(types.has(billType), billType).toBe(true);
    const [salesOut] = await templateOf(admin, '0803');
    expect(salesOut).toMatchObject({ name: '销售出库单默认模板', title: '销售出库单', paper: 'A4', headColumns: 3, amountField: 'finalAmt', showTotals: 2 });
    const head = String(salesOut.headFields).split(',');
    expect(head[0]).toBe('billNo');
    expect(head).toEqual(expect.arrayContaining(['billDate', 'bartererName', 'depotName', 'staffName']));
    expect(head.at(-1)).toBe('remark');
    // States and figures are not head fields: they are the bill's status and the totals row.
    for (const field of ['billStatus', 'invoiceStatus', 'totalAmt', 'finalAmt', 'createUserName']) expect(head).not.toContain(field);
    const lines = String(salesOut.lineFields).split(',');
    expect(lines).toEqual(expect.arrayContaining(['commInfoCode', 'commInfoName', 'unitName', 'qty', 'taxPrice', 'totalAmt']));
    expect(lines.length).toBeLessThanOrEqual(9);
    expect(String(salesOut.signatures)).toContain('客户签收');
  });

  test('fields() lists the head fields and line columns a template may show', async () => {
    const fields = expectOk<{ head: Row[]; lines: Row[]; title: string; lineResource: string }>(await admin.get(`${BASE}/fields`, { billType: '0803' }));
    expect(fields.title).toBe('销售出库单');
    expect(fields.lineResource).toBe('sales-out-body');
    expect(fields.head.find((f) => f.field === 'finalAmt')).toMatchObject({ title: expect.any(String), numeric: true });
    expect(fields.head.some((f) => f.field === 'customerId' || f.field === 'bodyList' || f.field === 'id')).toBe(false);
    expect(fields.lines.find((f) => f.field === 'commInfoName')).toMatchObject({ title: expect.any(String) });
    const unknown = await admin.get(`${BASE}/fields`, { billType: '9999' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toBe('单据类型 9999 没有可打印的单据');
    const missing = await admin.get(`${BASE}/fields`, {});
    expect(missing.body.msg).toBe('请选择单据类型');
  });

  test('forBill answers the saved template with the company and user names; the default once removed', async () => {
    const [saved] = await templateOf(admin, '0803');
    expectOk(await admin.post(`${BASE}/submit`, { ...saved, title: '出库单（客户联）', paper: '241x140', headColumns: 4 }));
    const adminId = String(expectOk<Row>(await admin.get('/blade-user/info')).id ?? '');
    const answer = expectOk<{ template: Row; company: string; users: Record<string, string> }>(await admin.get(`${BASE}/forBill`, { billType: '0803', userIds: adminId }));
    expect(answer.template).toMatchObject({ title: '出库单（客户联）', paper: '241x140', headColumns: 4 });
    expect(answer.company).not.toBe('');
    if (adminId) expect(answer.users[adminId]).toBeTruthy();

    // One template per bill type.
    const twice = await admin.post(`${BASE}/submit`, { billType: '0803', name: '第二个', paper: 'A4', headColumns: 3, lineFields: 'qty' });
    expect(twice.status).toBe(400);
    expect(twice.body.msg).toBe('该单据类型的打印模板已存在!');

    expectOk(await admin.post(`${BASE}/remove`, undefined, { ids: String(saved.id) }));
    const fallback = expectOk<{ template: Row }>(await admin.get(`${BASE}/forBill`, { billType: '0803' }));
    expect(fallback.template).toMatchObject({ title: '销售出库单', paper: 'A4', headColumns: 3, amountField: 'finalAmt' });
  });

  test('a template with a wrong paper or field count is refused with its message', async () => {
    const bad = await admin.post(`${BASE}/submit`, { billType: '0801', name: 'x', paper: 'A4', headColumns: 5, lineFields: 'qty' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('表头列数只能是 2、3 或 4');
    const noLines = await admin.post(`${BASE}/submit`, { billType: '0801', name: 'x', paper: 'A4', headColumns: 3 });
    expect(noLines.body.msg).toBe('请选择明细列');
  });
});
