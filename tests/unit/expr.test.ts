import { describe, expect, it } from 'vitest';
import { checkExpression, evaluate, isEmptyValue } from '../../src/shared/expr.ts';

describe('linkage expressions', () => {
  const data = { parentId: '0', qty: 5, tags: [], name: 'x', nested: { a: 2 } };

  it('reads vars, including dot paths', () => {
    expect(evaluate({ var: 'qty' }, data)).toBe(5);
    expect(evaluate({ var: 'nested.a' }, data)).toBe(2);
    expect(evaluate({ var: 'missing.deep' }, data)).toBeUndefined();
  });

  it('compares numbers and numeric strings loosely, other values strictly', () => {
    expect(evaluate({ eq: [{ var: 'parentId' }, 0] }, data)).toBe(true);
    expect(evaluate({ ne: [{ var: 'parentId' }, '0'] }, data)).toBe(false);
    expect(evaluate({ eq: [{ var: 'name' }, 'y'] }, data)).toBe(false);
    expect(evaluate({ gt: [{ var: 'qty' }, '10'] }, data)).toBe(false);
    expect(evaluate({ ge: [{ var: 'qty' }, 5] }, data)).toBe(true);
  });

  it('combines with and/or/not/in/empty', () => {
    expect(evaluate({ and: [{ notEmpty: { var: 'name' } }, { empty: { var: 'tags' } }] }, data)).toBe(true);
    expect(evaluate({ or: [{ eq: [1, 2] }, { in: [{ var: 'qty' }, [1, 5]] }] }, data)).toBe(true);
    expect(evaluate({ not: { in: [{ var: 'qty' }, ['1', '2']] } }, data)).toBe(true);
  });

  it('treats null, empty text, empty arrays and objects as empty', () => {
    for (const v of [null, undefined, '', [], {}]) expect(isEmptyValue(v)).toBe(true);
    for (const v of [0, 'a', [1], { a: 1 }, false]) expect(isEmptyValue(v)).toBe(false);
  });

  it('refuses unknown operators instead of ignoring them', () => {
    expect(() => evaluate({ eval: ['1'] } as never, data)).toThrow(/unknown expression operator/);
    expect(checkExpression({ and: [{ eq: [1, 1] }, { bogus: 1 }] } as never)).toEqual(['unknown operator bogus']);
    expect(checkExpression({ ne: [{ var: 'a' }, '0'] })).toEqual([]);
  });
});
