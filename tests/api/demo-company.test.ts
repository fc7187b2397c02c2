/**
 * The demo company (issue 16 §5), on SQLite and PostgreSQL: a fresh database started as `npm start`
 * starts shows a small grocery wholesaler in tenant 000000 — goods with units, barcodes and prices,
 * warehouses, staff, suppliers, customers with contacts, opening stock and posted purchases and
 * sales whose ledgers agree, a mall with campaigns, a coupon, a buyer account and orders placed through
 * the storefront — and tenant 100001 stays empty; a second start adds nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { DEMO_BUYER } from '../../src/server/db/demo.ts';

type Row = Record<string, unknown>;

describe.each(databases())('the demo company ($name)', ({ databaseUrl }) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-demo-'));
  let server: TestServer;
  let admin: Api;
  beforeAll(async () => {
    server = await startTestServer({ databaseUrl, demo: true, dataDir });
    admin = await signedIn(server.url);
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const total = async (api: Api, url: string, query: Row = {}) => Number(expectOk<{ total: number }>(await api.get(url, { current: 1, size: 1, ...query })).total);

  test('goods with barcodes and prices, warehouses, staff, suppliers, customers with contacts', async () => {
    const goods = expectOk<{ records: Row[]; total: number }>(await admin.get('/blade-base/comminfo/list', { current: 1, size: 50 }));
    expect(goods.total).toBe(8);
    const rice = goods.records.find((g) => g.commInfoName === '五常稻花香大米10kg')!;
    const detail = expectOk<Row>(await admin.get('/blade-base/comminfo/detail', { id: rice.id }));
    const [barcode] = detail.barCodeList as Row[];
    expect(String(barcode.barCode)).toMatch(/^69\d{11}$/);
    expect(Number((detail.priceList as Row[])[0].retailPrice)).toBe(109);
    expect(detail.classifyName).toBe('粮油调味');
    // The default warehouse every tenant starts with, and the two of the demo.
    expect(await total(admin, '/blade-system/depot/list')).toBe(3);
    expect(await total(admin, '/blade-base/supplier/list')).toBe(2);
    const customers = expectOk<{ records: Row[]; total: number }>(await admin.get('/blade-base/customer/list', { current: 1, size: 10 }));
    expect(customers.total).toBe(4);
    const contacts = expectOk<Row>(await admin.get('/blade-base/customer/detail', { id: customers.records[0].id })).customerContactsVOs as Row[];
    expect(contacts[0]).toMatchObject({ phone: expect.stringMatching(/^1\d{10}$/) });
  });

  test('opening stock and posted bills: stock and receivables agree with what was sold', async () => {
    const outs = expectOk<{ records: Row[]; total: number }>(await admin.get('/blade-sales/salesouthead/list', { current: 1, size: 10 }));
    // Four sales of the clerk and the shipment of a mall order.
    expect(outs.total).toBe(5);
    expect(outs.records.every((b) => b.billStatus === '1306')).toBe(true);
    expect(await total(admin, '/blade-purchase/purchaseinhead/list', { billStatus: '1306' })).toBe(1);
    // Every stock balance equals the sum of its ledger rows, and none is negative.
    const { store, internal } = server.services;
    const balances = await store.find(internal.stockBalance, '000000');
    expect(balances.length).toBeGreaterThanOrEqual(8);
    for (const b of balances) {
      const rows = await store.find(internal.stockLedger, '000000', { where: { depotId: b.depotId, commInfoId: b.commInfoId } });
      const qty = rows.reduce((acc, r) => acc + Number(r.qty), 0);
      expect(Number(b.qty)).toBeCloseTo(qty, 6);
      expect(Number(b.qty)).toBeGreaterThan(0);
    }
    // The customers owe what the sales outs came to.
    const owed = (await store.find(internal.partyBalance, '000000', { where: { kind: 'AR' } })).reduce((acc, r) => acc + Number(r.amount), 0);
    const sold = outs.records.reduce((acc, b) => acc + Number(String(b.finalAmt).replace(/,/g, '')), 0);
    expect(owed).toBeCloseTo(sold, 2);
  });

  test('the mall: campaigns, a coupon, a buyer account and orders placed through the storefront, one shipped', async () => {
    expect(await total(admin, '/blade-market/marketing/list')).toBe(2);
    const orders = expectOk<{ records: Row[]; total: number }>(await admin.get('/blade-sales/scddsalesorderhead/list', { current: 1, size: 10 }));
    expect(orders.total).toBe(2);
    expect(orders.records.map((o) => o.mallStatus).sort()).toEqual(['6202', '6203']);
    const [coupon] = expectOk<{ records: Row[] }>(await admin.get('/blade-market/coupon/list', { couponName: '新客满100减10' })).records;
    expect(coupon).toMatchObject({ sendNum: 1, usedNum: 1 });
    const buyer = await signedIn(server.url, '000000', DEMO_BUYER.phone, DEMO_BUYER.password);
    const [line] = expectOk<Row>(await admin.get('/blade-sales/salesorderhead/detail', { id: orders.records[0].id })).bodyList as Row[];
    expect(expectOk<Row>(await buyer.post('/blade-mall/order/quote', { lines: [{ commInfoId: line.commInfoId, qty: '1' }] })).problems).toEqual([]);
  });

  test('tenant 100001 stays empty, and a second start adds nothing', async () => {
    const other = await signedIn(server.url, '100001', 'admin', 'admin');
    expect(await total(other, '/blade-base/comminfo/list')).toBe(0);
    if (databaseUrl) return; // the PostgreSQL copy is dropped with its server; the SQLite file stays
    await server.close();
    server = await startTestServer({ databaseUrl, demo: true, dataDir });
    admin = await signedIn(server.url);
    expect(await total(admin, '/blade-base/comminfo/list')).toBe(8);
  });
});
