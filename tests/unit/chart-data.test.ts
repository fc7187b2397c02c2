/** A report's rows shaped for its chart: categories, series per field, pie slices with 其他. */
import { describe, expect, test } from 'vitest';
import { chartShape, pieSlices } from '../../src/client/renderer/list/chartData.ts';

const rows = [
  { name: '鼠标', amt: '120.50', qty: '3' },
  { name: '键盘', amt: '80.25', qty: '1' },
  { name: '', amt: '0.10', qty: null },
  { name: '网线', amt: '-5.00', qty: '-1' },
];

describe('chart data', () => {
  test('bar and line: one category per row up to the limit, one series per value field, blanks as 0 and -', () => {
    expect(chartShape(rows, 'name', ['amt', 'qty'])).toEqual({
      categories: ['鼠标', '键盘', '-', '网线'],
      series: [
        { field: 'amt', values: ['120.5', '80.25', '0.1', '-5'] },
        { field: 'qty', values: ['3', '1', '0', '-1'] },
      ],
    });
    expect(chartShape(rows, 'name', ['amt'], 2).categories).toEqual(['鼠标', '键盘']);
  });

  test('pie: the first rows as slices, the rest summed exactly into 其他, nothing non-positive drawn', () => {
    const many = Array.from({ length: 12 }, (_, i) => ({ name: `G${i}`, amt: '0.1' }));
    const slices = pieSlices(many, 'name', 'amt', 10, '其他');
    expect(slices).toHaveLength(11);
    expect(slices[10]).toEqual({ name: '其他', value: '0.2' });
    expect(pieSlices(rows, 'name', 'amt', 10, '其他').map((s) => s.name)).toEqual(['鼠标', '键盘', '-']);
  });
});
