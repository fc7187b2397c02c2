import { describe, expect, it } from 'vitest';
import { buildModel, fromDb, toDb } from '../../src/server/engine/model.ts';
import { parseFilters, parsePaging, parseSort } from '../../src/server/engine/query.ts';
import { validateEntity } from '../../src/server/engine/validate.ts';
import { ApiError } from '../../src/server/http/envelope.ts';
import type { ResourceFile } from '../../src/shared/resource.ts';

const resource: ResourceFile = {
  resource: 'demo',
  title: '演示',
  module: 'base',
  table: { name: 'demo', defaultSort: 'create_time desc' },
  api: { base: '/blade-base/demo', endpoints: [{ path: 'list', method: 'GET', op: 'page' }] },
  entity: {
    type: 'object',
    properties: {
      demoName: { type: 'string', title: '名称', maxLength: 5, errorMessage: { maxLength: '名称不能超过5个字符' } },
      qty: { type: 'integer', title: '数量' },
      price: { type: 'string', title: '单价', 'x-decimal': 5 },
      phone: { type: 'string', title: '手机', pattern: '^1\\d{10}$', errorMessage: { pattern: '请输入正确的手机号码' } },
      kind: { type: 'string', title: '类型' },
      code: { type: 'string', title: '编码', 'x-requiredIf': { eq: [{ var: 'kind' }, 'coded'] } },
    },
    required: ['demoName'],
    errorMessage: { required: { demoName: '请输入名称', code: '请输入编码' } },
  },
};
const model = buildModel(resource);

describe('decimal storage', () => {
  const price = model.fields.get('price')!;
  it('keeps exact decimals as scaled integers on SQLite and as text on PostgreSQL', () => {
    expect(toDb(price, '12.34567', 'sqlite')).toBe(1234567n);
    expect(fromDb(price, 1234567n, 'sqlite')).toBe('12.34567');
    expect(toDb(price, '0.1', 'postgres')).toBe('0.1');
    // 0.1 + 0.2 stays exact through the scaled form
    const sum = (toDb(price, '0.1', 'sqlite') as bigint) + (toDb(price, '0.2', 'sqlite') as bigint);
    expect(fromDb(price, sum, 'sqlite')).toBe('0.3');
  });
  it('rounds half up beyond the scale', () => {
    expect(fromDb(price, toDb(price, '1.000005', 'sqlite'), 'sqlite')).toBe('1.00001');
    expect(fromDb(price, toDb(price, '-1.000005', 'sqlite'), 'sqlite')).toBe('-1.00001');
  });
});

describe('map-style filters', () => {
  it('maps suffixes to operators and ignores unknown and reserved keys', () => {
    const conditions = parseFilters(model, { demoName: 'a', qty_ge: '3', createTime_datege: '2026-01-01', bogus: 'x', current: '2', code_ignore: 'z' }, 'map');
    expect(conditions.map((c) => [c.field.name, c.op])).toEqual([
      ['demoName', '_like'],
      ['qty', '_ge'],
      ['createTime', '_datege'],
    ]);
  });
  it('compares numbers exactly even without a suffix', () => {
    expect(parseFilters(model, { qty: '3' }, 'map')[0].op).toBe('_equal');
  });
  it('entity style means equality', () => {
    expect(parseFilters(model, { demoName: 'a' }, 'entity')[0].op).toBe('_equal');
  });
});

describe('paging and sorting', () => {
  it('defaults to page 1 of 10 and caps huge sizes', () => {
    expect(parsePaging({})).toEqual({ current: 1, size: 10 });
    expect(parsePaging({ current: '3', size: '30' })).toEqual({ current: 3, size: 30 });
    expect(parsePaging({ size: '-1' }).size).toBe(10);
    expect(parsePaging({ size: '999999' }).size).toBe(2000);
  });
  it('accepts snake_case columns and refuses unknown ones', () => {
    expect(parseSort(model, { descs: 'demo_name', ascs: 'qty' })).toEqual([
      { column: 'qty', dir: 'asc' },
      { column: 'demo_name', dir: 'desc' },
      { column: 'id', dir: 'desc' },
    ]);
    expect(() => parseSort(model, { ascs: 'drop table' })).toThrow(ApiError);
    expect(parseSort(model, {})[0]).toEqual({ column: 'create_time', dir: 'desc' });
  });
});

describe('validation with the schema messages', () => {
  const fail = (data: Record<string, unknown>) => {
    try {
      validateEntity(resource.entity, data);
    } catch (error) {
      return (error as ApiError).data as { fieldErrors: Record<string, string> };
    }
    return undefined;
  };
  it('uses the per-field Chinese messages', () => {
    expect(fail({})?.fieldErrors).toEqual({ demoName: '请输入名称' });
    expect(fail({ demoName: '' })?.fieldErrors).toEqual({ demoName: '请输入名称' });
    expect(fail({ demoName: '123456' })?.fieldErrors).toEqual({ demoName: '名称不能超过5个字符' });
    expect(fail({ demoName: 'a', phone: '123' })?.fieldErrors).toEqual({ phone: '请输入正确的手机号码' });
  });
  it('writes a Chinese fallback for rules without a message', () => {
    expect(fail({ demoName: 'a', qty: 'abc' })?.fieldErrors.qty).toBe('数量必须是整数');
  });
  it('applies required-if expressions', () => {
    expect(fail({ demoName: 'a', kind: 'coded' })?.fieldErrors).toEqual({ code: '请输入编码' });
    expect(fail({ demoName: 'a', kind: 'plain' })).toBeUndefined();
  });
});

describe('contains-search and write tracking helpers', () => {
  it('covering trigrams cover every character, longest texts included', async () => {
    const { coveringTrigrams } = await import('../../src/server/engine/query.ts');
    expect(coveringTrigrams('abc')).toEqual(['abc']);
    expect(coveringTrigrams('01234号')).toEqual(['012', '34号']);
    expect(coveringTrigrams('商贸有限公司')).toEqual(['商贸有', '限公司']);
    expect(coveringTrigrams('abcdefg')).toEqual(['abc', 'def', 'efg']);
    for (const text of ['abcd', '一二三四五六七八', '0012345号']) {
      const covered = new Set<number>();
      for (const tri of coveringTrigrams(text)) {
        const at = [...text].join('').indexOf(tri);
        expect(at).toBeGreaterThanOrEqual(0);
        for (let i = 0; i < [...tri].length; i++) covered.add([...text.slice(0, at)].length + i);
      }
      expect(covered.size).toBe([...text].length);
    }
  });

  it('the written table is known for builder and raw writes, and reads are not writes', async () => {
    const { Kysely, SqliteDialect, sql } = await import('kysely');
    const { default: Sqlite } = await import('better-sqlite3');
    const { writtenTable } = await import('../../src/server/db/connect.ts');
    const db = new Kysely<Record<string, Record<string, unknown>>>({ dialect: new SqliteDialect({ database: new Sqlite(':memory:') }) });
    expect(writtenTable(db.insertInto('erp_a').values({ x: 1 }).toOperationNode())).toBe('erp_a');
    expect(writtenTable(db.updateTable('erp_b').set({ x: 1 }).toOperationNode())).toBe('erp_b');
    expect(writtenTable(db.deleteFrom('erp_c').where('x', '=', 1).toOperationNode())).toBe('erp_c');
    expect(writtenTable(sql`insert into erp_row_count (n) values (${1})`.toOperationNode())).toBe('erp_row_count');
    expect(writtenTable(sql`update "blade_user" set x = 1`.toOperationNode())).toBe('blade_user');
    // A table named by sql.table / sql.ref inside raw SQL (the PostgreSQL bulk insert of ledger rows).
    expect(writtenTable(sql`insert into ${sql.table('erp_stock_ledger')} (x) select * from unnest(${[1]})`.toOperationNode())).toBe('erp_stock_ledger');
    expect(writtenTable(sql`delete from ${sql.ref('erp_sales_analysis')} where bill_id = ${'1'}`.toOperationNode())).toBe('erp_sales_analysis');
    expect(writtenTable(db.selectFrom('erp_a').selectAll().toOperationNode())).toBeUndefined();
    expect(writtenTable(sql`select * from erp_a`.toOperationNode())).toBeUndefined();
    await db.destroy();
  });
});
