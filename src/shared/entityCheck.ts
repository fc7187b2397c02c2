/**
 * One check of a record against its entity schema, run by the server on every save and by the
 * browser on blur and before saving (issue 16 §6). The JSON Schema keywords are checked by the
 * entity's compiled ajv validator — the server compiles it, and serves the browser the very same
 * generated code (GET /api/erp-meta/validator, engine/validatorModule.ts) — and this module turns
 * its errors into one Chinese (or English) message per field, then adds what JSON Schema cannot
 * say: exact decimals and the columns' range, the spec's helper checks, x-requiredIf and
 * x-differentFrom.
 */
import Decimal from 'decimal.js';
import { evaluate, isEmptyValue, type Expr } from './expr.ts';
import type { EntitySchema, FieldSchema } from './resource.ts';
import { DEFAULT_PLACES } from './money/places.ts';
import { checkRule, type Language, type RuleName } from './validators.ts';

/** An ajv error as the compiled code reports it (ajv's ErrorObject, the fields read here). */
export interface CheckError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A compiled entity validator: ajv's ValidateFunction, or its standalone module's export. */
export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: CheckError[] | null;
}

const TEXTS = {
  zh: {
    required: '请输入{title}',
    requiredSelect: '请选择{title}',
    maxLength: '{title}长度不能超过{limit}个字符',
    minLength: '{title}长度不能少于{limit}个字符',
    maxItems: '{title}最多填写{limit}条',
    minItems: '{title}至少填写{limit}条',
    pattern: '{title}格式不正确',
    integer: '{title}必须是整数',
    number: '{title}必须是数字',
    decimal: '{title}必须是数字，最多{scale}位小数',
    type: '{title}类型不正确，应为{type}',
    minimum: '{title}不能小于{limit}',
    maximum: '{title}不能大于{limit}',
    enum: '{title}的取值不在允许范围内',
    range: '{title}超出允许范围（整数部分最多{digits}位）',
    integerRange: '{title}超出允许范围',
    invalid: '{title}不正确',
  },
  en: {
    required: 'Enter {title}',
    requiredSelect: 'Select {title}',
    maxLength: '{title} must be at most {limit} characters',
    minLength: '{title} must be at least {limit} characters',
    maxItems: '{title}: at most {limit} items',
    minItems: '{title}: at least {limit} items',
    pattern: '{title} has the wrong format',
    integer: '{title} must be a whole number',
    number: '{title} must be a number',
    decimal: '{title} must be a number with at most {scale} decimals',
    type: '{title} must be {type}',
    minimum: '{title} must not be less than {limit}',
    maximum: '{title} must not be greater than {limit}',
    enum: '{title} is not an allowed value',
    range: '{title} is out of range (at most {digits} digits before the point)',
    integerRange: '{title} is out of range',
    invalid: '{title} is not valid',
  },
} as const;

export type CheckKey = keyof (typeof TEXTS)['zh'];

const TYPE_NAMES = {
  zh: { integer: '整数', number: '数字', string: '文本', boolean: '是/否', array: '列表', object: '对象' },
  en: { integer: 'a whole number', number: 'a number', string: 'text', boolean: 'yes/no', array: 'a list', object: 'an object' },
} as const;

/** A check message with its {placeholders} filled. */
export function checkText(key: CheckKey, params: Record<string, string | number>, language: Language = 'zh'): string {
  return TEXTS[language][key].replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? ''));
}

/** The field's label in the message: its title, or its English title on English screens. */
export function fieldTitle(prop: FieldSchema | undefined, field: string, language: Language = 'zh'): string {
  if (!prop) return field;
  if (language === 'en' && typeof prop['x-titleEn'] === 'string') return prop['x-titleEn'];
  return prop.title ?? field;
}

const INTEGER_TEXT = /^-?\d+$/;
const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

/**
 * The wire forms a field accepts besides its own JSON type, each lossless and each what a BladeX
 * client sends: a decimal (money, quantity: text in the schema) as a JSON number; an id reference
 * as a JSON integer (BladeX ids are Longs); a dictionary key as text or as a JSON integer, whatever
 * the field's type (an integer field takes its digits in text, a text field the number); a
 * multi-value field (x-multi) as a list of ids or keys, stored comma-joined.
 * Anything else keeps its type and fails the schema's type check.
 */
export function wireForm(prop: FieldSchema | undefined, value: unknown): unknown {
  if (!prop) return value;
  if (Array.isArray(value)) {
    if (prop['x-multi'] && value.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v)))) return value.join(',');
    return value;
  }
  const type = Array.isArray(prop.type) ? prop.type.find((t) => t !== 'null') : prop.type;
  if (type === 'string' && typeof value === 'number') {
    if (prop['x-decimal'] !== undefined) return Number.isFinite(value) ? String(value) : 'Infinity';
    if ((prop['x-ref'] || prop['x-dict'] || prop['x-dictBiz']) && Number.isSafeInteger(value)) return String(value);
  }
  if (type === 'integer' && typeof value === 'string' && INTEGER_TEXT.test(value.trim())) return Number(value);
  return value;
}

/** Which of a field's failures is named: lower first (helper check, required, type, length, pattern, format, choices, bounds). */
const RANK = { helper: 0, required: 1, type: 2, maxLength: 3, minLength: 4, pattern: 5, format: 6, enum: 7, maximum: 8, other: 9 } as const;
const KEYWORD_RANK: Record<string, number> = {
  ...RANK,
  oneOf: RANK.enum,
  const: RANK.enum,
  minimum: RANK.maximum,
  exclusiveMinimum: RANK.maximum,
  exclusiveMaximum: RANK.maximum,
  minItems: RANK.minLength,
  maxItems: RANK.maxLength,
};

export interface CheckOptions {
  /** Messages in English ignore the schema's own (Chinese) messages. Default zh. */
  language?: Language;
  /** The spec's helper checks per field (`rules` of the form's fields). */
  rules?: ReadonlyMap<string, readonly RuleName[]>;
  /** The required message of a field the user picks rather than types (请选择…). */
  requiredKey?: (field: string) => 'required' | 'requiredSelect';
  /** Check this one field only (the browser on blur); the others are read by the rules that need them. */
  only?: string;
  /** The field's label where the form names it otherwise than the entity's title. */
  titleOf?: (field: string) => string | undefined;
  /** Places of a decimal field of a configured kind (price, amount, quantity: the tenant's settings). */
  scaleOf?: (prop: FieldSchema) => number | undefined;
}

/**
 * The record as checked: empty text counts as missing (so `required` catches "" too), fields the
 * entity does not have are left out, wire forms are taken as their field's own type.
 */
export function checkedRecord(schema: EntitySchema, data: Record<string, unknown>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (value === '' || value === null || value === undefined) continue;
    const prop = schema.properties[key];
    if (!prop) continue;
    record[key] = wireForm(prop, value);
  }
  return record;
}

function fieldOf(error: CheckError): string {
  if (error.keyword === 'required') return String(error.params.missingProperty ?? '');
  return error.instancePath.split('/')[1] ?? '';
}

/**
 * Every failing field of a record with one message each: of several failures, the first by RANK,
 * so a field reads the same on blur and after 保存. `validate` may be missing (its module could
 * not load): the checks written here still run, and the server checks the rest on save.
 */
export function entityMessages(
  validate: CompiledValidator | undefined,
  schema: EntitySchema,
  data: Record<string, unknown>,
  options: CheckOptions = {},
): Map<string, string> {
  const language = options.language ?? 'zh';
  // The schema's own messages are Chinese; English screens use the generic English texts.
  const own = language === 'zh';
  const record = checkedRecord(schema, options.only === undefined ? data : { [options.only]: data[options.only] });
  const wanted = (field: string) => options.only === undefined || field === options.only;
  const chosen = new Map<string, { rank: number; message: string }>();
  const offer = (field: string, rank: number, message: string) => {
    const held = chosen.get(field);
    if (!held || rank < held.rank) chosen.set(field, { rank, message });
  };
  const text = (field: string, key: CheckKey, params: Record<string, string | number> = {}) =>
    checkText(key, { title: options.titleOf?.(field) ?? fieldTitle(schema.properties[field], field, language), ...params }, language);
  // Places checked: a fixed-scale field's own, a configured kind's where the caller knows the settings.
  const scaleOf = (prop: FieldSchema): number | undefined => {
    const kind = prop['x-decimal'];
    return typeof kind === 'number' ? kind : options.scaleOf?.(prop);
  };
  // Places named in a message: as checked, else the kind's default.
  const namedScale = (prop: FieldSchema): number => {
    const kind = prop['x-decimal'];
    return scaleOf(prop) ?? (DEFAULT_PLACES as Record<string, number>)[String(kind)] ?? 6;
  };

  const generic = (error: CheckError): string => {
    const field = fieldOf(error);
    const prop = schema.properties[field];
    const limit = error.params.limit as number;
    switch (error.keyword) {
      case 'required':
        return text(field, options.requiredKey?.(field) ?? 'required');
      case 'type': {
        const type = String(error.params.type);
        if (type === 'integer' || type === 'number') return text(field, type);
        return text(field, 'type', { type: (TYPE_NAMES[language] as Record<string, string>)[type] ?? type });
      }
      case 'maxLength':
      case 'minLength':
      case 'maxItems':
      case 'minItems':
      case 'minimum':
      case 'maximum':
        return text(field, error.keyword, { limit });
      case 'exclusiveMinimum':
        return text(field, 'minimum', { limit });
      case 'exclusiveMaximum':
        return text(field, 'maximum', { limit });
      case 'pattern':
        if (prop?.['x-decimal'] !== undefined) return text(field, 'decimal', { scale: namedScale(prop) });
        return text(field, 'pattern');
      case 'format':
        return text(field, 'pattern');
      case 'enum':
      case 'oneOf':
      case 'const':
        return text(field, 'enum');
      default:
        return text(field, 'invalid');
    }
  };

  if (validate && !validate(record)) {
    for (const error of validate.errors ?? []) {
      if (error.keyword === 'errorMessage') {
        // ajv-errors: the schema's message, standing for the errors it replaced.
        for (const inner of (error.params.errors as CheckError[]) ?? []) {
          offer(fieldOf(inner), KEYWORD_RANK[inner.keyword] ?? RANK.other, own ? (error.message ?? generic(inner)) : generic(inner));
        }
      } else {
        offer(fieldOf(error), KEYWORD_RANK[error.keyword] ?? RANK.other, generic(error));
      }
    }
  }

  // Exact decimals and what the columns hold on both databases (PostgreSQL refused 1e20 with a
  // 500, SQLite kept a rounded 1e20): integers within ±(2^53−1), decimals with at most
  // 18 − scale digits before the point (the scale the column stores: the field's own, else 6).
  for (const [field, value] of Object.entries(record)) {
    const prop = schema.properties[field];
    if (!prop || (typeof value !== 'number' && typeof value !== 'string')) continue;
    if (prop.type === 'integer' && typeof value === 'number' && !Number.isSafeInteger(value)) {
      // 1e20 and 1e309 (Infinity: ajv's integer check takes it) alike; 1.5 is the type check's.
      if (!Number.isFinite(value) || Number.isInteger(value)) offer(field, RANK.maximum, text(field, 'integerRange'));
      continue;
    }
    const kind = prop['x-decimal'];
    if (kind === undefined && prop.type !== 'number') continue;
    const custom = own && prop.errorMessage && typeof prop.errorMessage === 'object' ? (prop.errorMessage as Record<string, unknown>).pattern : undefined;
    const places = kind === undefined ? undefined : scaleOf(prop);
    if (kind !== undefined && (typeof value !== 'string' || !DECIMAL_TEXT.test(value.trim()))) {
      if (value !== 'Infinity') {
        offer(field, RANK.pattern, typeof custom === 'string' ? custom : text(field, 'decimal', { scale: namedScale(prop) }));
        continue;
      }
    }
    let amount: Decimal;
    try {
      amount = new Decimal(typeof value === 'string' ? value.trim() : value);
    } catch {
      continue;
    }
    const digits = 18 - (typeof kind === 'number' ? kind : 6);
    if (!amount.isFinite() || amount.abs().trunc().toFixed().length > digits) offer(field, RANK.maximum, text(field, 'range', { digits }));
    else if (places !== undefined && amount.decimalPlaces() > places) {
      offer(field, RANK.pattern, typeof custom === 'string' ? custom : text(field, 'decimal', { scale: places }));
    }
  }

  for (const [field, names] of options.rules ?? []) {
    if (!wanted(field) || isEmptyValue(record[field])) continue;
    for (const name of names) {
      const message = checkRule(name, record[field], data, language);
      if (message) {
        offer(field, RANK.helper, message);
        break;
      }
    }
  }

  for (const [field, prop] of Object.entries(schema.properties)) {
    const rule = prop['x-requiredIf'];
    if (rule === undefined || !wanted(field) || !isEmptyValue(data[field])) continue;
    let holds = false;
    try {
      holds = Boolean(evaluate(rule as Expr, data));
    } catch {
      holds = false;
    }
    if (holds) {
      const custom = own ? schema.errorMessage?.required?.[field] : undefined;
      offer(field, RANK.required, custom ?? text(field, options.requiredKey?.(field) ?? 'required'));
    }
  }

  // A field that must differ from another (a transfer's two warehouses), compared when both are filled.
  for (const [field, prop] of Object.entries(schema.properties)) {
    const rule = prop['x-differentFrom'];
    if (!rule || !wanted(field) || isEmptyValue(data[field]) || isEmptyValue(data[rule.field])) continue;
    if (String(data[field]) === String(data[rule.field])) offer(field, RANK.other, rule.message);
  }

  return new Map([...chosen].filter(([field]) => wanted(field)).map(([field, { message }]) => [field, message]));
}
