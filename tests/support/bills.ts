/**
 * Master data and bill helpers for the document-engine tests: a goods item, warehouses and
 * partners made through the API, bills written and moved through their lifecycle through the API,
 * and the ledgers read in-process (no inventory screen exists yet to read them from).
 */
import { expect } from 'vitest';
import type { Api } from './client.ts';
import { expectOk } from './client.ts';
import type { TestServer } from './server.ts';
import { uniqueToken } from './resources.ts';
import { Dec, fixed } from '../../src/shared/money/index.ts';

export const BASES = {
  purchaseOrder: '/blade-purchase/purchaseorderhead',
  purchaseIn: '/blade-purchase/purchaseinhead',
  purchaseReturn: '/blade-purchase/purchasereturnorderhead',
  salesOrder: '/blade-sales/salesorderhead',
  salesOut: '/blade-sales/salesouthead',
  salesReturn: '/blade-sales/salesreturnorderhead',
} as const;

export interface World {
  unitId: string;
  goods: string[];
  depots: string[];
  supplierId: string;
  customers: string[];
  taxRateId: string;
}

async function first(api: Api, path: string, query: Record<string, unknown> = {}) {
  const data = expectOk(await api.get(path, { current: 1, size: 1, ...query }), path);
  const rows = Array.isArray(data) ? data : data.records;
  return rows[0];
}

async function make(api: Api, path: string, body: Record<string, unknown>) {
  return expectOk(await api.post(path, body), path);
}

export async function makeGoods(api: Api, unitId: string, name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const classify = await first(api, '/blade-base/commclassifyshop/list');
  const code = `G${uniqueToken().slice(-8)}`;
  const goods = await make(api, '/blade-base/comminfo/submit', {
    commInfoCode: code,
    commInfoName: name,
    classifyId: classify?.id ?? '0',
    unitId,
    unitList: [{ unitId, rate: '1', isBasic: 2 }],
    ...extra,
  });
  return String(goods.id);
}

/** n goods, m warehouses, one supplier, k customers, the 13% tax rate. */
export async function makeWorld(api: Api, opts: { goods?: number; depots?: number; customers?: number } = {}): Promise<World> {
  const token = uniqueToken().slice(-6);
  const unit = await make(api, '/blade-base/unit/submit', { unitName: `个${token}`, mnCode: `G${token}` });
  const goods = [];
  for (let i = 0; i < (opts.goods ?? 1); i++) goods.push(await makeGoods(api, String(unit.id), `商品${token}-${i + 1}`));
  const depots = [];
  for (let i = 0; i < (opts.depots ?? 1); i++) {
    depots.push(String((await make(api, '/blade-system/depot/submit', { depotName: `仓库${token}-${i + 1}`, depotCode: `D${token}${i}` })).id));
  }
  const supplierNature = await first(api, '/blade-base/suppliernature/list');
  const supplier = await make(api, '/blade-base/supplier/submit', { bartererCode: `S${token}`, bartererName: `供应商${token}`, natureId: supplierNature?.id ?? '0' });
  const customerNature = await first(api, '/blade-base/customernature/list');
  const level = await first(api, '/blade-base/commcustomerlevel/list');
  const customers = [];
  for (let i = 0; i < (opts.customers ?? 1); i++) {
    customers.push(String((await make(api, '/blade-base/customer/submit', { bartererName: `客户${token}-${i + 1}`, natureId: customerNature?.id ?? '0', levelId: level?.id })).id));
  }
  const rate = await first(api, '/blade-base/taxrate/list', { taxRate: '13' });
  return { unitId: String(unit.id), goods, depots, supplierId: String(supplier.id), customers, taxRateId: String(rate?.id ?? '') };
}

export interface LineSpec {
  goods: string;
  qty: string;
  taxPrice?: string;
  purchasePrice?: string;
  taxRate?: string;
  isGift?: 1 | 2;
  sourceBodyId?: string;
  depotId?: string;
}

export function lines(world: World, specs: LineSpec[]) {
  return specs.map((s) => ({
    commInfoId: s.goods,
    unitId: world.unitId,
    qty: s.qty,
    taxRate: s.taxRate ?? '13',
    taxRateId: world.taxRateId,
    ...(s.taxPrice !== undefined ? { taxPrice: s.taxPrice } : {}),
    ...(s.purchasePrice !== undefined ? { purchasePrice: s.purchasePrice } : {}),
    ...(s.isGift ? { isGift: s.isGift } : {}),
    ...(s.sourceBodyId ? { sourceBodyId: s.sourceBodyId } : {}),
    ...(s.depotId ? { depotId: s.depotId } : {}),
  }));
}

/** Writes, submits and approves a bill; with post, also posts it. Answers the bill as the API shows it. */
export async function approvedBill(api: Api, base: string, head: Record<string, unknown>, opts: { post?: boolean } = {}) {
  let bill = expectOk(await api.post(`${base}/submit`, head), `${base}/submit`);
  bill = expectOk(await api.get(`${base}/pass`, { id: bill.id, version: bill.version, remark: '同意' }), `${base}/pass`);
  if (opts.post) bill = expectOk(await api.post(`${base}/accounting`, { id: bill.id, version: bill.version }), `${base}/accounting`);
  return bill;
}

/** The stock balance (quantity and value) of a goods item in a warehouse, and whether it equals Σ its ledger. */
export async function stockOf(server: TestServer, depotId: string, commInfoId: string) {
  const { store, internal } = server.services;
  const balance = (await store.find(internal.stockBalance, '000000', { where: { depotId, commInfoId } }))[0];
  const ledger = await store.find(internal.stockLedger, '000000', { where: { depotId, commInfoId } });
  const sum = (field: string) => ledger.reduce((a, r) => a.plus(String(r[field])), new Dec(0));
  const qty = new Dec(String(balance?.qty ?? '0'));
  const value = new Dec(String(balance?.value ?? '0'));
  expect(qty.toFixed(6), 'balance qty = Σ ledger').toBe(sum('qty').toFixed(6));
  expect(value.toFixed(6), 'balance value = Σ ledger').toBe(sum('value').toFixed(6));
  return { qty: fixed(qty, 2), value: fixed(value, 2), rows: ledger.length };
}

export async function partyBalance(server: TestServer, kind: 'AR' | 'AP', partyId: string): Promise<string> {
  const { store, internal } = server.services;
  const row = (await store.find(internal.partyBalance, '000000', { where: { kind, partyId } }))[0];
  return fixed(String(row?.amount ?? '0'), 2);
}

/** Sets a system parameter (系统参数) through the API, as an administrator does. */
export async function setConfig(api: Api, key: string, value: string) {
  const row = expectOk(await api.get('/blade-sys-config/sysconfig/list', { configKey: key, current: 1, size: 10 })).records.find((r: { configKey: string }) => r.configKey === key);
  expectOk(await api.post('/blade-sys-config/sysconfig/submit', { ...row, configValue: value }), `config ${key}`);
}
