import { beforeAll, describe, expect, test } from 'vitest';
import type { ResourceFile } from '../../src/shared/resource.ts';
import { installBrowserGlobals } from '../support/browser-globals.ts';

type Modules = {
  format: typeof import('../../src/client/renderer/common/format.ts');
  params: typeof import('../../src/client/renderer/common/params.ts');
  endpoint: typeof import('../../src/client/renderer/common/endpoint.ts');
  views: typeof import('../../src/client/renderer/common/views.ts');
  search: typeof import('../../src/client/renderer/list/searchParams.ts');
  summary: typeof import('../../src/client/renderer/list/summary.ts');
  session: typeof import('../../src/client/store/session.ts');
  target: typeof import('../../src/client/renderer/page/pageTarget.ts');
};
let m: Modules;

beforeAll(async () => {
  installBrowserGlobals();
  m = {
    format: await import('../../src/client/renderer/common/format.ts'),
    params: await import('../../src/client/renderer/common/params.ts'),
    endpoint: await import('../../src/client/renderer/common/endpoint.ts'),
    views: await import('../../src/client/renderer/common/views.ts'),
    search: await import('../../src/client/renderer/list/searchParams.ts'),
    summary: await import('../../src/client/renderer/list/summary.ts'),
    session: await import('../../src/client/store/session.ts'),
    target: await import('../../src/client/renderer/page/pageTarget.ts'),
  };
});

const resource = (extra: Partial<ResourceFile> & Record<string, unknown> = {}): ResourceFile =>
  ({
    resource: 'thing',
    title: '物品',
    module: 'base',
    table: { name: 'erp_thing' },
    entity: {
      type: 'object',
      properties: {
        id: { title: '主键', type: 'string' },
        name: { title: '名称', type: 'string' },
        amount: { title: '金额', type: 'string', 'x-decimal': 'amount' },
        price: { title: '单价', type: 'string', 'x-decimal': 'price' },
        qty: { title: '数量', type: 'string', 'x-decimal': 'quantity' },
        status: { title: '状态', type: 'integer', 'x-dict': 'status' },
        billDate: { title: '单据日期', type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
        natureId: { title: '分类', type: 'string', 'x-ref': 'nature' },
      },
    },
    api: { base: '/blade-base/thing', endpoints: [{ path: 'list', method: 'GET', op: 'page' }] },
    ...extra,
  }) as ResourceFile;

describe('formatCell: numbers by the configured places, grouping, 0.00 for zero', () => {
  test('amounts, prices and quantities use AMT/UNIT/NUMBER_DECIMAL_PLACES (defaults 2/5/2)', () => {
    const r = resource();
    const { formatCell } = m.format;
    expect(formatCell(r.entity.properties.amount, undefined, '1234567.891')).toBe('1,234,567.89');
    expect(formatCell(r.entity.properties.price, undefined, '12.5')).toBe('12.50000');
    expect(formatCell(r.entity.properties.qty, undefined, 3)).toBe('3.00');
    expect(formatCell(r.entity.properties.amount, undefined, '0')).toBe('0.00');
    expect(formatCell(r.entity.properties.amount, undefined, null)).toBe('');
    m.session.useSession.setState({ config: { UNIT_DECIMAL_PLACES: 3, AMT_DECIMAL_PLACES: '1' } });
    expect(formatCell(r.entity.properties.price, undefined, '12.5')).toBe('12.500');
    expect(formatCell(r.entity.properties.amount, undefined, '1234.56')).toBe('1,234.6');
    m.session.useSession.setState({ config: {} });
  });

  test('rounding is half up on the decimal text, negatives keep their sign', () => {
    const { formatDecimal } = m.format;
    expect(formatDecimal('1.005', 2)).toBe('1.01');
    expect(formatDecimal('2.345', 2)).toBe('2.35');
    expect(formatDecimal('-1234.5', 2)).toBe('-1,234.50');
    expect(formatDecimal('-0.004', 2)).toBe('0.00');
  });

  test('figures formatted again (kept from the first time) read the same, by places and by value, past the kept limit too', async () => {
    const { formatDecimal } = m.format;
    const { formatAmount } = await import('../../src/shared/money/format.ts');
    const values: unknown[] = ['1.005', 1.005, '1234567.891', -0.5, '', ' ', 'abc', 0, '0', null, undefined, '12.5', 12.5, '-1234.5'];
    for (const round of [1, 2]) {
      for (const value of values) for (const places of [0, 2, 5]) expect(formatDecimal(value, places), `${round}: ${String(value)} at ${places}`).toBe(formatAmount(value, places));
    }
    expect(formatDecimal('2.345', 2)).toBe('2.35');
    expect(formatDecimal('2.345', 1)).toBe('2.3');
    // More distinct figures than are kept: the oldest are dropped, nothing changes.
    for (let n = 0; n < 12_000; n++) expect(formatDecimal(`${n}.125`, 2)).toBe(formatAmount(`${n}.125`, 2));
    expect(formatDecimal('2.345', 2)).toBe('2.35');
  });

  test('dictionary labels (multi values too), dates, percent and masked phones', () => {
    const r = resource();
    const { formatCell } = m.format;
    const items = [
      { dictKey: '1', dictValue: '正常', color: 'success' },
      { dictKey: '2', dictValue: '停用', color: 'error' },
    ];
    expect(formatCell(r.entity.properties.status, undefined, 2, items)).toBe('停用');
    expect(formatCell({ title: 'x', 'x-dict': 'status', 'x-multi': true }, undefined, '1,2', items)).toBe('正常,停用');
    expect(formatCell(r.entity.properties.billDate, undefined, '2024-05-06 00:00:00')).toBe('2024-05-06');
    expect(formatCell(undefined, { format: 'percent' }, '13')).toBe('13.00%');
    expect(formatCell(undefined, { format: 'phone-masked' }, '13812345678')).toBe('138****5678');
  });
});

describe('parameters and URLs', () => {
  test('resolveParams reads $row.<field>, $ids and literals', () => {
    const row = { id: '7', version: 3, head: { no: 'SO1' } };
    expect(m.params.resolveParams({ id: '$row.id', version: '$row.version', no: '$row.head.no', ids: '$ids', type: 2 }, row, ['1', '2'])).toEqual({
      id: '7',
      version: 3,
      no: 'SO1',
      ids: '1,2',
      type: 2,
    });
  });

  test('endpointUrl joins /api, the base and a relative path; absolute paths skip the base', () => {
    const r = resource();
    expect(m.endpoint.endpointUrl(r, 'list')).toBe('/api/blade-base/thing/list');
    expect(m.endpoint.endpointUrl(r, '/blade-sales/salesorderhead/list')).toBe('/api/blade-sales/salesorderhead/list');
  });

  test('search values become the contract filters', () => {
    const r = resource();
    const day = (text: string) => ({
      format: () => `${text} 00:00:00`,
      startOf: () => ({ format: () => `${text} 00:00:00` }),
      endOf: () => ({ format: () => `${text} 23:59:59` }),
    });
    const defs = [
      { field: 'name' },
      { field: 'status', op: 'equal' as const },
      { field: 'amount', op: 'range' as const },
      { field: 'billDate', op: 'daterange' as const },
      { field: 'natureId', param: 'natureId' },
    ];
    const values = { name: ' 华东 ', status: 1, amount: ['10', ''], billDate: [day('2024-01-01'), day('2024-01-31')], natureId: '9' };
    expect(m.search.toFilterParams(r, defs, values)).toEqual({
      name: '华东',
      status_equal: 1,
      amount_ge: '10',
      billDate_datege: '2024-01-01 00:00:00',
      billDate_datele: '2024-01-31 23:59:59',
      natureId: '9',
    });
  });
});

describe('lists and pages', () => {
  test('the summary row adds exact decimals', () => {
    const rows = [{ amount: '0.1' }, { amount: '0.2' }, { amount: null }, { amount: 'n/a' }];
    expect(m.summary.summaryRow(rows, ['amount'])).toEqual({ amount: '0.3' });
    expect(m.summary.summaryRow(rows, [])).toBeUndefined();
  });

  test('page kind: declared, else dictionary for parent/child lists, tree for tree tables without paging', () => {
    const { pageKindOf } = m.views;
    expect(pageKindOf(resource())).toBe('list');
    expect(pageKindOf(resource({ page: 'card' }))).toBe('card');
    const dict = resource({
      api: { base: '/x', endpoints: [{ path: 'parent-list', method: 'GET', op: 'parentList' }, { path: 'child-list', method: 'GET', op: 'childList' }] },
    });
    expect(pageKindOf(dict)).toBe('dictionary');
    const tree = resource({ table: { name: 't', tree: { parentField: 'parentId', titleField: 'name' } }, api: { base: '/x', endpoints: [{ path: 'list', method: 'GET', op: 'list' }] } });
    expect(pageKindOf(tree)).toBe('tree');
  });

  test('menus find their resource by path, by code, and history routes show their menu resource', () => {
    const { pageTargetOf } = m.target;
    expect(pageTargetOf({ id: '1', code: 'param', name: '参数', path: '/system/param' }).resource).toBe('param');
    expect(pageTargetOf({ id: '1', code: 'param', name: '参数', path: '/elsewhere/param' }).resource).toBe('param');
    expect(pageTargetOf({ id: '2', code: 'nope', name: '无', path: '/nope' }).resource).toBeUndefined();
    const history = { id: '3', code: 'userHistory', name: '历史', path: '/system/user/history', historyOf: { id: '4', code: 'user', name: '用户', path: '/system/user' } };
    expect(pageTargetOf(history).resource).toBe('user');
    expect(pageTargetOf({ id: '5', code: 'dictVertical', name: '字典', path: '/dict-vertical/index' })).toEqual({ resource: 'dict', layout: 'vertical' });
  });
});
