import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { databases, startTestServer } from '../support/server.ts';
import { signedIn } from '../support/client.ts';
import { makeWorld } from '../support/bills.ts';

const root = path.resolve(import.meta.dirname, '../..');

function schemasCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-mig-'));
  fs.cpSync(path.join(root, 'schemas'), dir, { recursive: true });
  return dir;
}

function editParam(dir: string, edit: (props: Record<string, Record<string, unknown>>) => void) {
  const file = path.join(dir, 'system/param.json');
  const data = JSON.parse(fs.readFileSync(file, 'utf8'));
  edit(data.entity.properties);
  fs.writeFileSync(file, JSON.stringify(data, null, 2));
}

/** SQLite only: PostgreSQL test servers get a fresh database per start, so a restart cannot share one. */
describe.each(databases().filter((d) => d.name === 'sqlite'))('schema migration ($name)', () => {
  it('adds a new optional field on restart and keeps every row', async () => {
    const schemas = schemasCopy();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-mig-data-'));
    let server = await startTestServer({ dataDir, schemasDir: schemas });
    let api = await signedIn(server.url);
    const saved = await api.post('/blade-system/param/submit', { paramName: '迁移', paramKey: 'mig.k', paramValue: '1' });
    expect(saved.body.code).toBe(200);
    await server.close();
    editParam(schemas, (p) => {
      p.wechat = { type: 'string', title: '微信号', maxLength: 64 };
    });
    server = await startTestServer({ dataDir, schemasDir: schemas });
    api = await signedIn(server.url);
    const id = saved.body.data.id;
    const before = await api.get('/blade-system/param/detail', { id });
    expect(before.body.data).toMatchObject({ paramKey: 'mig.k', wechat: null });
    const updated = await api.post('/blade-system/param/submit', { id, version: before.body.data.version, wechat: 'wx-1' });
    expect(updated.body.code).toBe(200);
    expect((await api.get('/blade-system/param/detail', { id })).body.data.wechat).toBe('wx-1');
    await server.close();
  });

  it('refuses to start when a field was removed or changed type, saying what to do, and writes nothing', async () => {
    const schemas = schemasCopy();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-mig-data-'));
    const server = await startTestServer({ dataDir, schemasDir: schemas });
    await server.close();
    editParam(schemas, (p) => {
      delete p.remark;
    });
    await expect(startTestServer({ dataDir, schemasDir: schemas })).rejects.toThrow(/列 remark 已从 schema 中删除.*请把字段加回 schema/s);
    editParam(schemas, (p) => {
      p.remark = { type: 'string', title: '备注', maxLength: 255 };
      p.paramValue = { type: 'integer', title: '参数键值' };
    });
    await expect(startTestServer({ dataDir, schemasDir: schemas })).rejects.toThrow(/列 param_value 类型由 string 改为 integer/);
    // Back to the original schema: the data directory still opens.
    fs.cpSync(path.join(root, 'schemas/system/param.json'), path.join(schemas, 'system/param.json'));
    const again = await startTestServer({ dataDir, schemasDir: schemas });
    await again.close();
  });
  it('a bill gaining kinds (document.variants): its existing bills become the default kind and stay listed', async () => {
    const schemas = schemasCopy();
    const file = path.join(schemas, 'finance/prepayment.json');
    const full = fs.readFileSync(file, 'utf8');
    const data = JSON.parse(full);
    delete data.entity.properties.precpKind;
    delete data.document.variants;
    fs.writeFileSync(file, JSON.stringify(data, null, 2));
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-mig-data-'));
    let server = await startTestServer({ dataDir, schemasDir: schemas });
    let api = await signedIn(server.url);
    const w = await makeWorld(api, { customers: 1 });
    const methods = (await api.get('/blade-base/settlement/retail')).body.data as { id: string; settlementName: string }[];
    const cash = methods.find((m) => m.settlementName === '现金')!.id;
    const old = await api.post('/blade-finance/prepayment/draft', { bartererId: w.customers[0], settlementId: cash, precpAmt: '100' });
    expect(old.body.code).toBe(200);
    await server.close();
    fs.writeFileSync(file, full);
    server = await startTestServer({ dataDir, schemasDir: schemas });
    api = await signedIn(server.url);
    const after = (await api.get('/blade-finance/prepayment/detail', { id: old.body.data.id })).body.data;
    expect(after).toMatchObject({ precpKind: 1, billType: '0886' });
    const listed = (await api.get('/blade-finance/prepayment/list', { precpKind: 1 })).body.data.records;
    expect(listed.map((r: { id: string }) => r.id)).toContain(old.body.data.id);
    await server.close();
  });
});
