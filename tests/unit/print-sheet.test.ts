import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import Decimal from 'decimal.js';
import { amountInWords } from '../../src/client/bespoke/print/amountWords.ts';
import { buildSheet, type SheetInput } from '../../src/client/bespoke/print/sheet.ts';
import type { FieldSchema } from '../../src/shared/resource.ts';

describe('amount in words (人民币大写)', () => {
  test.each([
    ['1234.5', '壹仟贰佰叁拾肆元伍角'],
    ['100', '壹佰元整'],
    ['10.00', '壹拾元整'],
    ['0.05', '伍分'],
    ['1000000.01', '壹佰万元零壹分'],
    ['-12.30', '负壹拾贰元叁角'],
    ['0', '零元整'],
    // Rounded half up to the fen first: 2.005 → 2.01.
    ['2.005', '贰元零壹分'],
  ])('%s → %s', (value, words) => expect(amountInWords(value)).toBe(words));

  test('blank or not a number prints nothing', () => {
    expect(amountInWords('')).toBe('');
    expect(amountInWords(null)).toBe('');
    expect(amountInWords('abc')).toBe('');
  });

  test('every amount to the fen reads back to itself', () => {
    const digit = '零壹贰叁肆伍陆柒捌玖';
    // Reads the words back: units 元 角 分 and the multipliers 拾 佰 仟 万 亿.
    const readBack = (words: string): Decimal => {
      const [yuanPart, fenPart = ''] = words.replace('整', '').split('元');
      const section = (text: string) => {
        let total = 0n;
        let n = 0n;
        for (const ch of text) {
          const d = digit.indexOf(ch);
          if (d >= 0) n = BigInt(d);
          else if (ch === '拾') (total += (n || 1n) * 10n), (n = 0n);
          else if (ch === '佰') (total += n * 100n), (n = 0n);
          else if (ch === '仟') (total += n * 1000n), (n = 0n);
        }
        return total + n;
      };
      const bigUnits = (text: string) => {
        let rest = text;
        let total = 0n;
        const yi = rest.split('亿');
        if (yi.length > 1) (total += section(yi[0]) * 100000000n), (rest = yi[1]);
        const wan = rest.split('万');
        if (wan.length > 1) (total += section(wan[0]) * 10000n), (rest = wan[1]);
        return total + section(rest);
      };
      const yuan = words.includes('元') ? bigUnits(yuanPart) : 0n;
      const small = words.includes('元') ? fenPart : words;
      const jiao = /(.)角/.exec(small)?.[1];
      const fen = /(.)分/.exec(small)?.[1];
      const cents = (jiao ? digit.indexOf(jiao) * 10 : 0) + (fen ? digit.indexOf(fen) : 0);
      return new Decimal(yuan.toString()).plus(new Decimal(cents).div(100));
    };
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 99_999_999_999n }), (cents) => {
        const value = new Decimal(cents.toString()).div(100);
        expect(readBack(amountInWords(value.toFixed(2))).toFixed(2)).toBe(value.toFixed(2));
      }),
      { numRuns: 500 },
    );
  });
});

const field = (title: string, extra: Partial<FieldSchema> = {}): FieldSchema => ({ type: 'string', title, ...extra }) as FieldSchema;

function input(overrides: Partial<SheetInput> = {}): SheetInput {
  return {
    template: {
      billType: '0803',
      headFields: 'billNo,bartererName,unknownField,auditUser,remark',
      lineFields: 'commInfoName,qty,taxPrice,totalAmt',
      amountField: 'finalAmt',
      headColumns: 2,
      signatures: '制单人,审核人,客户签收',
      footer: '白联存根 红联客户',
    },
    billTitle: '销售出库单',
    bill: { billNo: 'XS0001', bartererName: '华东商贸', auditUser: '42', remark: '', finalAmt: '1234.50', createUserName: '管理员' },
    lines: [
      { commInfoName: '大米', qty: '2', taxPrice: '100.10', totalAmt: '200.20' },
      { commInfoName: '面粉', qty: '3.5', taxPrice: '294.40', totalAmt: '1030.40' },
      { commInfoName: '赠品', qty: '1', taxPrice: '0', totalAmt: null },
    ],
    headFields: {
      billNo: field('单据编号'),
      bartererName: field('客户'),
      auditUser: field('审核人'),
      remark: field('备注'),
      finalAmt: field('价税合计', { 'x-decimal': 'amount' }),
      createUserName: field('制单人'),
    },
    lineFields: {
      commInfoName: field('商品名称'),
      qty: field('数量', { 'x-decimal': 'quantity' }),
      taxPrice: field('含税单价', { 'x-decimal': 'price' }),
      totalAmt: field('价税合计', { 'x-decimal': 'amount' }),
    },
    text: (f, v) => (v === null || v === undefined ? '' : f?.['x-decimal'] ? new Decimal(String(v)).toFixed(2) : String(v)),
    title: (f, name) => String(f?.title ?? name),
    labels: { index: '序号', totals: '合计', amountWords: '合计金额（大写）', printedAt: '打印时间' },
    company: '演示商贸有限公司',
    users: { '42': '王审核' },
    now: '打印时间：2026-11-26 10:00:00',
    ...overrides,
  };
}

describe('print sheet', () => {
  test('head fields in the template order, unknown fields dropped, user ids as names', () => {
    const sheet = buildSheet(input());
    expect(sheet.head).toEqual([
      { label: '单据编号', text: 'XS0001' },
      { label: '客户', text: '华东商贸' },
      { label: '审核人', text: '王审核' },
      { label: '备注', text: '' },
    ]);
    expect(sheet.headColumns).toBe(2);
    expect(sheet.company).toBe('演示商贸有限公司');
    expect(sheet.title).toBe('销售出库单');
  });

  test('lines numbered, quantities and amounts totalled exactly, prices not', () => {
    const sheet = buildSheet(input());
    expect(sheet.columns.map((c) => c.label)).toEqual(['序号', '商品名称', '数量', '含税单价', '价税合计']);
    expect(sheet.rows[1]).toEqual(['2', '面粉', '3.50', '294.40', '1030.40']);
    expect(sheet.totals).toEqual(['合计', '', '6.50', '', '1230.60']);
    expect(sheet.amountInWords).toEqual({ label: '合计金额（大写）', words: '壹仟贰佰叁拾肆元伍角', figure: '1234.50' });
  });

  test('signatures: 制单人 and 审核人 from the bill, the rest blank to sign by hand', () => {
    expect(buildSheet(input()).signatures).toEqual([
      { label: '制单人', text: '管理员' },
      { label: '审核人', text: '王审核' },
      { label: '客户签收', text: '' },
    ]);
  });

  test('switches off: totals, company, print time, words; bounds on columns and font size', () => {
    const sheet = buildSheet(input({ template: { billType: '0803', lineFields: 'qty', showTotals: 1, showCompany: 1, showPrintTime: 1, headColumns: 9, fontSize: 40, title: '出库单（客户联）' } }));
    expect(sheet.totals).toBeUndefined();
    expect(sheet.company).toBeUndefined();
    expect(sheet.printedAt).toBeUndefined();
    expect(sheet.amountInWords).toBeUndefined();
    expect(sheet.headColumns).toBe(4);
    expect(sheet.fontSize).toBe(16);
    expect(sheet.title).toBe('出库单（客户联）');
  });
});
