import { describe, expect, it } from 'vitest';
import {
  bankAccountLength,
  checkMobile,
  checkRule,
  duplicateMessage,
  duplicateRows,
  isBankAccount,
  isCode,
  isEmail,
  isEmpty,
  isMobile,
  isTaxNumber,
  isUrl,
  maskPhone,
} from '../../src/shared/validators.ts';

describe('helper checks (spec 000 §5)', () => {
  it('accepts ordinary email addresses and refuses broken ones', () => {
    expect(isEmail('admin@example.com')).toBe(true);
    expect(isEmail('li.si+erp@mail.example.com.cn')).toBe(true);
    expect(isEmail('admin@example')).toBe(false);
    expect(isEmail('@example.com')).toBe(false);
    expect(isEmail('a b@example.com')).toBe(false);
  });

  it('takes a mobile as 1 followed by ten digits', () => {
    expect(isMobile('13812345678')).toBe(true);
    expect(isMobile('23812345678')).toBe(false);
    expect(isMobile('1381234567')).toBe(false);
    expect(isMobile('1381234567a')).toBe(false);
  });

  it('answers the three mobile messages: empty, length, digits', () => {
    expect(checkMobile('')).toBe('手机号码不能为空');
    expect(checkMobile(null)).toBe('手机号码不能为空');
    expect(checkMobile('1381234567')).toBe('手机号码长度不为11位');
    expect(checkMobile('138123456789')).toBe('手机号码长度不为11位');
    expect(checkMobile('23812345678')).toBe('请输入正确的手机号码');
    expect(checkMobile('1381234567x')).toBe('请输入正确的手机号码');
    expect(checkMobile('13812345678')).toBeUndefined();
    expect(checkMobile('', 'en')).toBe('Mobile number is required');
  });

  it('takes only http and https URLs', () => {
    expect(isUrl('http://example.com')).toBe(true);
    expect(isUrl('https://example.com/a?b=1')).toBe(true);
    expect(isUrl('ftp://example.com')).toBe(false);
    expect(isUrl('example.com')).toBe(false);
    expect(isUrl('https://')).toBe(false);
  });

  it('treats null, empty text, empty arrays and empty objects as empty', () => {
    expect(isEmpty(null)).toBe(true);
    expect(isEmpty(undefined)).toBe(true);
    expect(isEmpty('')).toBe(true);
    expect(isEmpty([])).toBe(true);
    expect(isEmpty({})).toBe(true);
    expect(isEmpty(0)).toBe(false);
    expect(isEmpty(' ')).toBe(false);
    expect(isEmpty([0])).toBe(false);
    expect(isEmpty({ a: 1 })).toBe(false);
    expect(isEmpty(false)).toBe(false);
  });

  it('takes a tax number of 10 or 12 digits only', () => {
    expect(isTaxNumber('1234567890')).toBe(true);
    expect(isTaxNumber('123456789012')).toBe(true);
    expect(isTaxNumber('12345678901')).toBe(false);
    expect(isTaxNumber('123456789')).toBe(false);
    expect(isTaxNumber('12345678901a')).toBe(false);
  });

  it('wants 8 digits for a bank account, 20 for bank types 2503 and 2504', () => {
    expect(bankAccountLength(undefined)).toBe(8);
    expect(bankAccountLength('2501')).toBe(8);
    expect(bankAccountLength('2503')).toBe(20);
    expect(bankAccountLength(2504)).toBe(20);
    expect(isBankAccount('12345678')).toBe(true);
    expect(isBankAccount('123456789')).toBe(false);
    expect(isBankAccount('12345678901234567890', '2503')).toBe(true);
    expect(isBankAccount('12345678', '2504')).toBe(false);
  });

  it('takes a code of 8 to 15 letters or digits', () => {
    expect(isCode('ABC12345')).toBe(true);
    expect(isCode('abc123456789012')).toBe(true);
    expect(isCode('ABC1234')).toBe(false);
    expect(isCode('abc1234567890123')).toBe(false);
    expect(isCode('ABC-12345')).toBe(false);
  });

  it('masks a phone keeping the first 3 and last 4 digits', () => {
    expect(maskPhone('13812345678')).toBe('138****5678');
    expect(maskPhone('02112345678')).toBe('021****5678');
    expect(maskPhone('')).toBe('');
    expect(maskPhone(undefined)).toBe('');
    expect(maskPhone('1234')).toBe('1234');
  });
});

describe('form rules', () => {
  it('lets empty values pass every format rule (required is a separate check)', () => {
    for (const rule of ['mobile', 'email', 'url', 'taxNo', 'bankAccount', 'code'] as const) {
      expect(checkRule(rule, '')).toBeUndefined();
      expect(checkRule(rule, undefined)).toBeUndefined();
    }
  });

  it('answers each rule with its message', () => {
    expect(checkRule('mobile', '1381234')).toBe('手机号码长度不为11位');
    expect(checkRule('mobile', '33812345678')).toBe('请输入正确的手机号码');
    expect(checkRule('email', 'x@')).toBe('请输入正确的邮箱地址');
    expect(checkRule('url', 'www.example.com')).toMatch(/网址/);
    expect(checkRule('taxNo', '123')).toBe('税号应为10位或12位数字');
    expect(checkRule('code', 'ab')).toBe('编码应为8到15位字母或数字');
    expect(checkRule('email', 'x@', {}, 'en')).toBe('Enter a valid email address');
  });

  it('reads the bank type of a bank-account rule from the record', () => {
    expect(checkRule('bankAccount', '12345678', { bankTypeId: '2501' })).toBeUndefined();
    expect(checkRule('bankAccount', '12345678', { bankTypeId: '2503' })).toBe('银行账号应为20位数字');
    expect(checkRule('bankAccount', '12345678901234567890', { bankType: 2504 })).toBeUndefined();
    expect(checkRule('bankAccount', '1234', {})).toBe('银行账号应为8位数字');
  });
});

describe('duplicates among lines', () => {
  it('names the earlier row holding the same value, 1-based', () => {
    expect(duplicateRows(['13800000001', '13800000002', '13800000001', '', ''])).toEqual([
      undefined,
      undefined,
      1,
      undefined,
      undefined,
    ]);
    expect(duplicateRows(['a', 'a', 'a'])).toEqual([undefined, 1, 1]);
  });

  it('fills the message pattern with the other row number', () => {
    expect(duplicateMessage('手机号码与第N条重复', 2)).toBe('手机号码与第2条重复');
    expect(duplicateMessage('Same Number as row N', 3)).toBe('Same Number as row 3');
  });
});
