/**
 * A bill of several kinds (document.variants, 收支单) as the engine and a kind's page see it: the
 * kind's bill type, no party posting unless posting.partyIf holds, and the page's copy of the
 * schema (its title, its kind preset, fields of other kinds left out, its list filtered).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { documentFor } from '../../src/shared/document.ts';
import type { ResourceFile } from '../../src/shared/resource.ts';
import { variantPage } from '../../src/client/renderer/document/variants.ts';
import { recompute } from '../../src/client/bespoke/lines/lineModel.ts';

const exin = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../schemas/finance/exin.json'), 'utf8')) as ResourceFile;
const doc = exin.document!;
const places = { price: 5, amount: 2, quantity: 2 };
const fieldsOf = (items: unknown[] | undefined) => (items ?? []).map((i) => (typeof i === 'string' ? i : (i as { field: string }).field));

describe('收支单 kinds', () => {
  test('each kind has its bill type; an unknown or missing kind keeps the default', () => {
    expect(documentFor(doc, { expendType: 6001 }).billType).toBe('0856');
    expect(documentFor(doc, { expendType: '6002' }).billType).toBe('0855');
    expect(documentFor(doc, { expendType: 6003 }).billType).toBe('0859');
    expect(documentFor(doc, {}).billType).toBe('0855');
  });

  test('the party open item only when on account, and never for a claim', () => {
    expect(documentFor(doc, { expendType: 6002, onAccount: 2 }).posting?.partyBy?.values).toEqual({ '6001': 'AR', '6002': 'AP' });
    // Paid at once: no party row, the voucher only (expense against cash).
    expect(Object.keys(documentFor(doc, { expendType: 6002, onAccount: 1 }).posting ?? {})).toEqual(['voucher']);
    expect(Object.keys(documentFor(doc, { expendType: 6002 }).posting ?? {})).toEqual(['voucher']);
    expect(documentFor(doc, { expendType: 6003, onAccount: 2 }).posting?.partyBy).toBeUndefined();
  });

  test('the 其他收入单 page: its title, 6001 preset, no supplier or kind field, its list filtered', () => {
    const page = variantPage(exin, '0856')!;
    expect(page.resource.title).toBe('其他收入单');
    expect(page.resource.entity.properties.expendType.default).toBe(6001);
    expect(page.fixedParams).toEqual({ expendType: '6001' });
    const form = fieldsOf(page.resource.form?.fields);
    expect(form).toContain('customerId');
    expect(form).toContain('onAccount');
    expect(form).not.toContain('supplierId');
    expect(form).not.toContain('expendType');
    expect(fieldsOf(page.resource.list?.columns)).not.toContain('supplierName');
    expect(fieldsOf(page.resource.search)).toEqual(['billNo', 'customerId', 'billStatus', 'billDate']);
    expect(variantPage(exin, '0855')!.resource.title).toBe('费用单');
    expect(variantPage(exin, '0852')).toBeUndefined();
    expect(variantPage(exin, undefined)).toBeUndefined();
  });

  test('an item line needs its item and an amount above zero', () => {
    expect(recompute(doc, { expendId: '1', amount: '12.5' }, places).errors).toEqual({});
    expect(recompute(doc, { amount: '0' }, places).errors).toEqual({ expendId: '请选择项目', amount: '金额必须大于0' });
    expect(recompute(doc, { expendId: '1', amount: 'x' }, places).errors).toEqual({ amount: '金额不是有效数字' });
  });
});
