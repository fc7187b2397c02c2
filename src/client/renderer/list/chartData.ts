/**
 * The rows of a report shaped for its chart: categories along the axis (at most `limit`), one series
 * per value field; a pie takes the first value field per category and gathers what is beyond the
 * limit into one 其他 slice. Sums are exact (decimal.js); echarts only receives the figures to draw.
 */
import Decimal from 'decimal.js';
import type { Row } from '../common/params.ts';

export interface ChartShape {
  categories: string[];
  /** Per value field, its figure per category (decimal strings). */
  series: { field: string; values: string[] }[];
}

const figure = (value: unknown): Decimal => {
  try {
    return value === null || value === undefined || value === '' ? new Decimal(0) : new Decimal(value as Decimal.Value);
  } catch {
    return new Decimal(0);
  }
};

export function chartShape(rows: Row[], category: string, values: string[], limit?: number): ChartShape {
  const shown = limit ? rows.slice(0, limit) : rows;
  return {
    categories: shown.map((r) => (r[category] === null || r[category] === undefined || r[category] === '' ? '-' : String(r[category]))),
    series: values.map((field) => ({ field, values: shown.map((r) => figure(r[field]).toString()) })),
  };
}

export interface PieSlice {
  name: string;
  value: string;
}

/** Pie slices of the first value field; beyond `limit` rows one slice named `other` holds the rest. */
export function pieSlices(rows: Row[], category: string, field: string, limit: number | undefined, other: string): PieSlice[] {
  const named = (r: Row) => (r[category] === null || r[category] === undefined || r[category] === '' ? '-' : String(r[category]));
  const head = limit ? rows.slice(0, limit) : rows;
  const slices = head.map((r) => ({ name: named(r), value: figure(r[field]).toString() }));
  if (limit && rows.length > limit) {
    const rest = rows.slice(limit).reduce((sum, r) => sum.plus(figure(r[field])), new Decimal(0));
    slices.push({ name: other, value: rest.toString() });
  }
  // A slice of nothing (or a negative one, a net return) cannot be drawn as a share.
  return slices.filter((s) => new Decimal(s.value).gt(0));
}
