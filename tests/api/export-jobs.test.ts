/**
 * Issue 13 "Exports with progress": a 100,000-row export (on both databases) runs as a server job
 * whose progress can be followed, can be cancelled, and whose file opens with exceljs holding the
 * list's rows, first and last as the list shows them (dictionary keys as their labels). Jobs are
 * the caller's own; the list's permission is checked at start; a report with a custom handler
 * exports its records; a shutdown or restart fails running jobs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';
import { BASES, approvedBill, lines, makeWorld } from '../support/bills.ts';
import { recoverExportJobs, stopExportJobs } from '../../src/server/files/export-jobs.ts';
import { formatDateTime } from '../../src/shared/dates.ts';

type Row = Record<string, unknown>;
type Job = { id: string; status: string; rows: number; total: number; fileName: string; createTime: string; error: string };

const START = '/erp-export/start';
const BRANDS = '/blade-base/commbrand/list';
const SA = '/blade-report/salesanalysis/salesAnalysis';

async function readSheet(bytes: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow({ includeEmpty: false }, (row, n) => {
    rows[n - 1] = (row.values as unknown[]).slice(1);
  });
  return rows;
}

describe.each(databases())('export jobs ($name)', ({ name, databaseUrl }) => {
  const N = 100_000;
  let server: TestServer;
  let admin: Api;
  let clerk: Api;
  let bigJob: Job;
  let listTotal = 0;
  const params = { descs: 'brand_code' };
  const seconds: Record<string, number> = {};

  /** Brand list columns as the list shows them: dictionary fields as their labels. */
  const labels = (code: string) => new Map((server.services.registry.dicts.find((d) => d.code === code)?.items ?? []).map((i) => [i.key, i.value]));
  const columns = () => {
    const resource = server.services.registry.resources.get('brand')!;
    return (resource.list!.columns!).map((c) => {
      const field = typeof c === 'string' ? c : c.field;
      const schema = resource.entity.properties[field];
      const dict = schema['x-dict'] ?? schema['x-dictBiz'];
      return { field, title: (typeof c === 'object' && c.title) || schema.title, labels: dict ? labels(String(dict)) : undefined };
    });
  };
  const shown = (cols: ReturnType<typeof columns>, record: Row) => cols.map((c) => {
    const v = record[c.field];
    if (v === null || v === undefined) return '';
    return c.labels?.get(String(v)) ?? String(v);
  });
  const cells = (row: unknown[] | undefined, width: number) => Array.from({ length: width }, (_, i) => String(row?.[i] ?? ''));

  const detail = async (api: Api, id: string) => expectOk<Job>(await api.get('/erp-export/detail', { id }), 'detail');
  const waitFor = async (id: string, until: (j: Job) => boolean, seen?: (j: Job) => void, timeoutMs = 50_000) => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const job = await detail(admin, id);
      seen?.(job);
      if (until(job)) return job;
      if (Date.now() > end) throw new Error(`job ${id} still ${job.status} at ${job.rows}/${job.total}`);
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
  };
  const jobFile = async (id: string) => {
    const row = await server.services.store.get(server.services.internal.exportJob, '000000', id);
    expect(row?.fileKey).toMatch(/^000000\/\d{8}\/[0-9a-f]{32}\.xlsx$/);
    return path.join(server.dataDir, 'exports', String(row?.fileKey));
  };

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    const { services } = server;
    const brand = services.m('brand');
    const t0 = performance.now();
    for (let from = 0; from < N; from += 5000) {
      const rows = Array.from({ length: Math.min(5000, N - from) }, (_, k) => {
        const i = from + k;
        return {
          brandCode: `EX${String(i).padStart(7, '0')}`,
          brandName: `导出品牌${i}`,
          mnCode: `DC${i}`,
          brandType: String((i % 3) + 1),
          isShelves: (i % 2) + 1,
          sort: i % 50,
          status: i % 7 === 0 ? 2 : 1,
          remark: i % 5 === 0 ? `备注${i}` : null,
        };
      });
      await services.store.insertMany(brand, { tenantId: '000000', userId: '1' }, rows);
    }
    seconds.seed = (performance.now() - t0) / 1000;
    listTotal = expectOk(await admin.get(BRANDS, { current: 1, size: 1, ...params })).total;
    expect(listTotal).toBeGreaterThanOrEqual(N);

    // A second user of the tenant, holding no grants.
    const role = expectOk(await admin.post('/blade-system/role/submit', { parentId: '0', roleName: '导出员', roleAlias: 'exporter', sort: 9 }), 'role');
    const deptId = expectOk<{ id: string }[]>(await admin.get('/blade-system/dept/list'))[0].id;
    expectOk(await admin.post('/blade-user/submit', { account: 'exporter1', password: 'Export-1234', realName: '导出员甲', roleId: role.id, deptId }), 'user');
    clerk = await signedIn(server.url, '000000', 'exporter1', 'Export-1234');
  });
  afterAll(async () => {
    if (Object.keys(seconds).length) console.log(`export jobs (${name}, ${N} rows): ${JSON.stringify(seconds)}`);
    await server?.close();
  });

  test(`a ${N}-row export runs as a job with visible progress; its file holds the list's rows`, async () => {
    const t0 = performance.now();
    bigJob = expectOk<Job>(await admin.post(START, { resource: 'brand', params, fileName: '品牌导出' }), 'start');
    expect(bigJob).toMatchObject({ status: 'running', rows: 0, fileName: '品牌导出.xlsx' });
    expect(bigJob.createTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const progress: number[] = [];
    const done = await waitFor(bigJob.id, (j) => j.status !== 'running', (j) => {
      if (j.rows > 0 && j.rows < listTotal) progress.push(j.rows);
    });
    seconds.export = (performance.now() - t0) / 1000;
    expect(done).toMatchObject({ status: 'done', rows: listTotal, total: listTotal, error: '' });
    expect(progress.length, 'at least one intermediate progress 0 < rows < total').toBeGreaterThan(0);
    expect(progress.every((n) => n % 2000 === 0)).toBe(true);

    const list = expectOk<Job[]>(await admin.get('/erp-export/list'));
    expect(list[0]).toMatchObject({ id: bigJob.id, status: 'done' });

    const file = await admin.call('GET', '/erp-export/file', { query: { id: bigJob.id }, raw: true });
    expect(file.status).toBe(200);
    expect(fs.existsSync(await jobFile(bigJob.id))).toBe(true);
    expect(file.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename*=UTF-8''${encodeURIComponent('品牌导出.xlsx')}`);
    const t1 = performance.now();
    const sheet = await readSheet(file.body as Buffer);
    seconds.read = (performance.now() - t1) / 1000;
    const cols = columns();
    expect(cells(sheet[0], cols.length)).toEqual(cols.map((c) => c.title));
    expect(sheet.length - 1, 'data rows = the list total').toBe(listTotal);
    const first = expectOk(await admin.get(BRANDS, { ...params, current: 1, size: 1 })).records[0];
    const last = expectOk(await admin.get(BRANDS, { ...params, current: listTotal, size: 1 })).records[0];
    expect(cells(sheet[1], cols.length)).toEqual(shown(cols, first));
    expect(cells(sheet[listTotal], cols.length)).toEqual(shown(cols, last));
    // Dictionary columns hold labels (状态 停用/正常, 上架状态 是/否, 品牌类型 …), not keys.
    const statusAt = cols.findIndex((c) => c.field === 'status');
    expect(new Set(sheet.slice(1).map((r) => String(r[statusAt])))).toEqual(new Set(['正常', '停用']));
  });

  test('a cancelled export stops, loses its file and refuses the download; a finished one cannot be cancelled', async () => {
    const job = expectOk<Job>(await admin.post(START, { resource: 'brand', params }), 'start');
    expect(job.fileName).toMatch(/^品牌管理-\d{4}-\d\d-\d\d\.xlsx$/);
    await waitFor(job.id, (j) => j.rows > 0 || j.status !== 'running');
    const cancelled = expectOk<Job>(await admin.call('POST', '/erp-export/cancel', { query: { id: job.id } }), 'cancel');
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.rows).toBeLessThan(listTotal);
    const later = await detail(admin, job.id);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await detail(admin, job.id)).toEqual(later);
    expect(fs.existsSync(await jobFile(job.id)), 'partial file deleted').toBe(false);
    const file = await admin.get('/erp-export/file', { id: job.id });
    expect(file.body).toMatchObject({ code: 400, success: false });
    expect(file.body.msg).toContain('已取消');

    const again = await admin.post('/erp-export/cancel', { id: bigJob.id });
    expect(again.body).toMatchObject({ code: 400, success: false });
    expect(again.body.msg).toMatch(/已完成.*不能取消/);
  });

  test("another tenant's or user's job is not found; bad requests are refused in Chinese", async () => {
    const other = await signedIn(server.url, '100001');
    for (const api of [other, clerk]) {
      for (const call of ['/erp-export/detail', '/erp-export/file']) {
        const reply = await api.get(call, { id: bigJob.id });
        expect(reply.status, call).toBe(404);
        expect(reply.body).toMatchObject({ code: 404, success: false, msg: '导出任务不存在' });
      }
      expect((await api.post('/erp-export/cancel', { id: bigJob.id })).status).toBe(404);
      expect(expectOk<Job[]>(await api.get('/erp-export/list')).map((j) => j.id)).not.toContain(bigJob.id);
    }
    expect((await admin.get('/erp-export/detail', {})).status).toBe(404);
    const unknown = await admin.post(START, { resource: 'no-such-thing' });
    expect(unknown.body).toMatchObject({ code: 400, msg: '资源 no-such-thing 不存在' });
    const noEndpoint = await admin.post(START, { resource: 'brand', endpoint: 'nothing' });
    expect(noEndpoint.body).toMatchObject({ code: 400, msg: '品牌管理没有接口 nothing' });
    expect((await admin.post(START, { resource: 'brand', endpoint: 'submit' })).body.msg).toContain('不是列表接口');
    expect((await admin.post(START, { resource: 'brand', params: { descs: 'nope' } })).body).toMatchObject({ code: 400, msg: '排序字段 nope 不存在' });
    expect((await admin.call('POST', START, { json: { resource: 'brand' }, token: null })).status).toBe(401);
  });

  test("a user the list's API scope refuses is refused at start", async () => {
    const ok = expectOk<Job>(await clerk.post(START, { resource: 'brand', params: { brandCode: 'EX000001' } }), 'clerk start');
    const mine = expectOk<Job>(await clerk.get('/erp-export/detail', { id: ok.id }));
    expect(mine.id).toBe(ok.id);
    const scopeType = expectOk<{ dictKey: string }[]>(await admin.get('/blade-system/dict/dictionary', { code: 'api_scope_type' }))[0].dictKey;
    const menuId = expectOk<{ id: string }[]>(await admin.get('/blade-system/menu/list'))[0].id;
    expectOk(await admin.post('/blade-system/api-scope/submit', {
      menuId, resourceCode: 'brand_api', scopeName: '品牌接口', scopePath: '/blade-base/commbrand/**', scopeType: Number(scopeType),
    }), 'api scope');
    expect((await clerk.get(BRANDS)).status).toBe(403);
    const refused = await clerk.post(START, { resource: 'brand' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 403, success: false });
    expect(refused.body.msg).toMatch(/[\u4e00-\u9fa5]/);
    // The administrator is not limited by scopes.
    expect((await admin.post(START, { resource: 'brand', params: { brandCode: 'EX000002' } })).status).toBe(200);
  });

  test('a report with a custom handler exports its records', async () => {
    const w = await makeWorld(admin, { goods: 2, customers: 1 });
    await approvedBill(admin, BASES.purchaseIn, { supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '20', purchasePrice: '2.00' }, { goods: w.goods[1], qty: '20', purchasePrice: '3.00' }]) }, { post: true });
    for (const [goods, qty] of [[w.goods[0], '3'], [w.goods[1], '5']]) {
      await approvedBill(admin, BASES.salesOut, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods, qty, taxPrice: '11.30' }]) }, { post: true });
    }
    const report = expectOk(await admin.get(SA, { current: 1, size: 100 }));
    expect(report.records.length).toBeGreaterThanOrEqual(2);
    const job = expectOk<Job>(await admin.post(START, { resource: 'sales-analysis', endpoint: 'salesAnalysis' }), 'start report');
    const done = await waitFor(job.id, (j) => j.status !== 'running');
    expect(done).toMatchObject({ status: 'done', rows: report.total, total: report.total });
    const file = await admin.call('GET', '/erp-export/file', { query: { id: job.id }, raw: true });
    expect(file.status).toBe(200);
    const sheet = await readSheet(file.body as Buffer);
    const resource = server.services.registry.resources.get('sales-analysis')!;
    const fields = resource.list!.columns!.map((c) => (typeof c === 'string' ? c : c.field));
    expect(cells(sheet[0], fields.length)).toEqual(fields.map((f) => resource.entity.properties[f].title));
    expect(sheet.slice(1).map((r) => cells(r, fields.length))).toEqual(report.records.map((r: Row) => fields.map((f) => String(r[f] ?? ''))));
  });

  test('at shutdown, running exports stop, drop their files and are marked failed', async () => {
    const job = expectOk<Job>(await admin.post(START, { resource: 'brand', params }), 'start');
    await waitFor(job.id, (j) => j.rows > 0 || j.status !== 'running');
    await stopExportJobs(server.services);
    expect(await detail(admin, job.id)).toMatchObject({ status: 'failed', error: '服务重启，导出已中断，请重新导出' });
    expect(fs.existsSync(await jobFile(job.id))).toBe(false);
  });

  test('at start, jobs left running are marked failed; old jobs go with their files', async () => {
    const { services } = server;
    const jobs = services.internal.exportJob;
    const node = `${os.hostname()}:${path.resolve(server.dataDir)}`;
    const actor = { tenantId: '000000', userId: '1' };
    const left = await services.store.insert(jobs, actor, { userId: '1', resource: 'brand', endpoint: 'list', params: '{}', fileName: 'x.xlsx', state: 'running', rows: 2000, total: 9000, node });
    const elsewhere = await services.store.insert(jobs, actor, { userId: '1', resource: 'brand', endpoint: 'list', params: '{}', fileName: 'y.xlsx', state: 'running', rows: 0, total: 0, node: 'other-node:/data' });
    const old = await services.store.insert(jobs, actor, { userId: '1', resource: 'brand', endpoint: 'list', params: '{}', fileName: 'z.xlsx', state: 'done', fileKey: '000000/20000101/old.xlsx', node });
    const oldFile = path.join(server.dataDir, 'exports', '000000/20000101/old.xlsx');
    fs.mkdirSync(path.dirname(oldFile), { recursive: true });
    fs.writeFileSync(oldFile, 'x');
    await services.store.db.updateTable(jobs.table).set({ create_time: formatDateTime(new Date(Date.now() - 8 * 86_400_000)) }).where('id', '=', String(old.id)).execute();

    await recoverExportJobs(services);
    const get = (id: unknown) => services.store.get(jobs, '000000', String(id));
    expect(await get(left.id)).toMatchObject({ state: 'failed', error: '服务重启，导出已中断，请重新导出' });
    expect((await get(elsewhere.id))?.state, "another node's live job is left alone").toBe('running');
    expect(await get(old.id)).toBeUndefined();
    expect(fs.existsSync(oldFile)).toBe(false);
    // The finished export of this suite is recent and kept.
    expect((await get(bigJob.id))?.state).toBe('done');
  });
});
