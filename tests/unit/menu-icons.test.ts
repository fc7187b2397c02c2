import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { antdIconOf, iconClassOf } from '../../src/shared/menuIcons.ts';

describe('menu icons: BladeX icon-font classes and antd names', () => {
  test.each([
    ['ShoppingCartOutlined', 'iconfont icon-shopping-cart'],
    ['PrinterOutlined', 'iconfont icon-printer'],
    ['CheckSquareOutlined', 'iconfont icon-check-square'],
    ['StarFilled', 'iconfont icon-star-filled'],
    ['HeartTwoTone', 'iconfont icon-heart-two-tone'.replace('-two-tone', '-twotone')],
  ])('%s ⇄ %s', (antd, cls) => {
    expect(iconClassOf(antd)).toBe(cls);
    expect(antdIconOf(cls)).toBe(antd);
  });

  test('an antd name passes through; anything else has no icon', () => {
    expect(antdIconOf('AppstoreOutlined')).toBe('AppstoreOutlined');
    expect(antdIconOf('')).toBeUndefined();
    expect(antdIconOf('el-icon-menu')).toBeUndefined();
  });

  test('every antd-shaped name goes there and back', () => {
    const word = fc.stringMatching(/^[A-Z][a-z]{1,8}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 3 }), fc.constantFrom('Outlined', 'Filled', 'TwoTone'), (words, kind) => {
        const name = `${words.join('')}${kind}`;
        expect(antdIconOf(iconClassOf(name))).toBe(name);
      }),
    );
  });
});
