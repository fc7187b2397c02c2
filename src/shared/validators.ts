/**
 * Helper checks of spec 000 §5 ("Helper checks"). They run in the browser (form rules on blur)
 * and on the server, so both sides answer the same text. Every check that can fail returns the
 * message to show, or undefined when the value passes; empty values pass every format rule
 * (whether a field must be filled is the `required` rule's business), except `checkMobile`,
 * which the spec gives its own "empty" message.
 */
import { isEmptyValue } from './expr.ts';

export type Language = 'zh' | 'en';

/** Names usable in a form field's `rules` list (schemas/meta/resource.schema.json). */
export type RuleName = 'mobile' | 'email' | 'url' | 'taxNo' | 'bankAccount' | 'code' | 'phoneUniqueInLines';

const messages = {
  mobileEmpty: { zh: '手机号码不能为空', en: 'Mobile number is required' },
  mobileLength: { zh: '手机号码长度不为11位', en: 'Mobile number must have 11 digits' },
  mobileInvalid: { zh: '请输入正确的手机号码', en: 'Enter a valid mobile number' },
  email: { zh: '请输入正确的邮箱地址', en: 'Enter a valid email address' },
  url: { zh: '请输入正确的网址(以http://或https://开头)', en: 'Enter a URL starting with http:// or https://' },
  taxNo: { zh: '税号应为10位或12位数字', en: 'Tax number must have 10 or 12 digits' },
  bankAccount8: { zh: '银行账号应为8位数字', en: 'Bank account must have 8 digits' },
  bankAccount20: { zh: '银行账号应为20位数字', en: 'Bank account must have 20 digits' },
  code: { zh: '编码应为8到15位字母或数字', en: 'Code must be 8 to 15 letters or digits' },
} as const;

export type ValidatorMessage = keyof typeof messages;

export function validatorMessage(key: ValidatorMessage, language: Language = 'zh'): string {
  return messages[key][language];
}

/** null, undefined, '', [] and {} are empty. */
export function isEmpty(value: unknown): boolean {
  return isEmptyValue(value);
}

const EMAIL = /^[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;
const MOBILE = /^1\d{10}$/;
const URL_PATTERN = /^https?:\/\/[^\s/?#]+[^\s]*$/i;
const TAX_NUMBER = /^(\d{10}|\d{12})$/;
const CODE = /^[A-Za-z0-9]{8,15}$/;

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const DATE_TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[T ]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * The JSON Schema `format`s the entity schemas use, as the compiled validators check them on both
 * sides (regular expressions, so the browser's validator module carries them as code).
 */
export const FORMAT_PATTERNS: Readonly<Record<string, RegExp>> = {
  email: EMAIL,
  uri: URL_PATTERN,
  url: URL_PATTERN,
  date: DATE,
  'date-time': DATE_TIME,
};

export function isEmail(value: string): boolean {
  return EMAIL.test(value);
}

/** Mobile: 1 followed by ten digits. */
export function isMobile(value: string): boolean {
  return MOBILE.test(value);
}

/** URL: http or https, then a host. */
export function isUrl(value: string): boolean {
  return URL_PATTERN.test(value);
}

/** Tax number: 10 or 12 digits (as the spec states). */
export function isTaxNumber(value: string): boolean {
  return TAX_NUMBER.test(value);
}

/** Bank types whose accounts have 20 digits; every other type has 8. */
export const LONG_ACCOUNT_BANK_TYPES = ['2503', '2504'] as const;

export function bankAccountLength(bankType?: string | number | null): 8 | 20 {
  return LONG_ACCOUNT_BANK_TYPES.includes(String(bankType ?? '') as '2503') ? 20 : 8;
}

export function isBankAccount(value: string, bankType?: string | number | null): boolean {
  return new RegExp(`^\\d{${bankAccountLength(bankType)}}$`).test(value);
}

/** Code: 8 to 15 letters or digits. */
export function isCode(value: string): boolean {
  return CODE.test(value);
}

/** Keeps the first 3 and the last 4 digits: 13812345678 → 138****5678. Short text is returned as is. */
export function maskPhone(phone: string | null | undefined): string {
  const text = String(phone ?? '');
  if (text.length < 8) return text;
  return `${text.slice(0, 3)}${'*'.repeat(text.length - 7)}${text.slice(-4)}`;
}

/** The spec's three mobile messages: empty, wrong length, wrong digits. */
export function checkMobile(value: unknown, language: Language = 'zh'): string | undefined {
  if (isEmptyValue(value)) return validatorMessage('mobileEmpty', language);
  const text = String(value).trim();
  if (text.length !== 11) return validatorMessage('mobileLength', language);
  return isMobile(text) ? undefined : validatorMessage('mobileInvalid', language);
}

/** Where the bank type of a bank-account rule is read from, in that order. */
const BANK_TYPE_FIELDS = ['bankTypeId', 'bankType'];

/**
 * Applies one named rule to a non-empty value. `values` is the whole record (the bank-account
 * rule reads the bank type from it). `phoneUniqueInLines` is checked by the lines editor, which
 * sees every row, so it passes here.
 */
export function checkRule(
  rule: RuleName,
  value: unknown,
  values: Record<string, unknown> = {},
  language: Language = 'zh',
): string | undefined {
  if (isEmptyValue(value)) return undefined;
  const text = String(value).trim();
  switch (rule) {
    case 'mobile':
      return checkMobile(text, language);
    case 'email':
      return isEmail(text) ? undefined : validatorMessage('email', language);
    case 'url':
      return isUrl(text) ? undefined : validatorMessage('url', language);
    case 'taxNo':
      return isTaxNumber(text) ? undefined : validatorMessage('taxNo', language);
    case 'bankAccount': {
      const typeField = BANK_TYPE_FIELDS.find((field) => !isEmptyValue(values[field]));
      const bankType = typeField ? (values[typeField] as string | number) : undefined;
      if (isBankAccount(text, bankType)) return undefined;
      return validatorMessage(bankAccountLength(bankType) === 20 ? 'bankAccount20' : 'bankAccount8', language);
    }
    case 'code':
      return isCode(text) ? undefined : validatorMessage('code', language);
    case 'phoneUniqueInLines':
      return undefined;
  }
}

/**
 * Row numbers (1-based) of the first earlier row holding the same value, per row: used for
 * '手机号码与第N条重复' where N is the other row's number. Empty values never clash.
 */
export function duplicateRows(values: unknown[]): (number | undefined)[] {
  const firstSeen = new Map<string, number>();
  return values.map((value, index) => {
    if (isEmptyValue(value)) return undefined;
    const key = String(value).trim();
    const earlier = firstSeen.get(key);
    if (earlier !== undefined) return earlier + 1;
    firstSeen.set(key, index);
    return undefined;
  });
}

/** Fills a "…第N条…" pattern with the other row's number. */
export function duplicateMessage(pattern: string, otherRow: number): string {
  return pattern.replace(/(?<![A-Za-z])N(?![A-Za-z])/g, String(otherRow));
}

/**
 * The helper checks a resource's form names per field (`rules` of a form field, at any depth of
 * tabs and groups): what the browser runs on blur, and the server on save.
 */
export function formRuleFields(form: unknown): Map<string, RuleName[]> {
  const rules = new Map<string, RuleName[]>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const { field, rules: named } = node as { field?: unknown; rules?: unknown };
      if (typeof field === 'string' && Array.isArray(named)) rules.set(field, [...(rules.get(field) ?? []), ...(named as RuleName[])]);
      Object.values(node).forEach(walk);
    }
  };
  walk(form);
  return rules;
}
