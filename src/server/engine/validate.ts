import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import ajvErrorsModule from 'ajv-errors';
import type { EntitySchema, FieldSchema, ResourceFile } from '../../shared/resource.ts';
import { evaluate, isEmptyValue } from '../../shared/expr.ts';
import { badRequest } from '../errors.ts';
import { checkRule, formRuleFields, type RuleName } from '../../shared/validators.ts';
import Decimal from 'decimal.js';

// CommonJS default exports seen through ESM
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
const ajvErrors = (ajvErrorsModule as unknown as { default?: typeof ajvErrorsModule }).default ?? ajvErrorsModule;

export interface FieldError {
  field: string;
  message: string;
}

// No coercion: a value of the wrong JSON type is refused with the field's message (it used to be
// stored as text: true → "true", 5 → "5"). The few lossless wire forms are accepted by `wireForm`.
const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false });
(addFormats as unknown as (a: Ajv) => void)(ajv);
(ajvErrors as unknown as (a: Ajv) => void)(ajv);

const compiled = new WeakMap<EntitySchema, ValidateFunction>();

/** The helper checks of spec 000 §5 (mobile, tax number, bank account, code, url) per field, from the resource's form. */
const helperRules = new WeakMap<EntitySchema, Map<string, RuleName[]>>();

/**
 * Makes the server run the helper checks the form names (`rules` of a form field), which the
 * browser runs on blur: the same functions (src/shared/validators.ts), the same messages. Called
 * once per resource when its model is built.
 */
export function registerHelperRules(resource: ResourceFile): void {
  const rules = formRuleFields(resource.form);
  if (rules.size) helperRules.set(resource.entity, rules);
}

function validatorFor(schema: EntitySchema): ValidateFunction {
  let fn = compiled.get(schema);
  if (!fn) {
    fn = ajv.compile(schema);
    compiled.set(schema, fn);
  }
  return fn;
}

function fallbackMessage(schema: EntitySchema, field: string, error: ErrorObject): string {
  const title = schema.properties[field]?.title ?? field;
  switch (error.keyword) {
    case 'required':
      return `请输入${title}`;
    case 'maxLength':
      return `${title}长度不能超过${(error.params as { limit: number }).limit}个字符`;
    case 'minLength':
      return `${title}长度不能少于${(error.params as { limit: number }).limit}个字符`;
    case 'type':
      return `${title}类型不正确，应为${typeName((error.params as { type: string }).type)}`;
    case 'format':
    case 'pattern':
      return `${title}格式不正确`;
    case 'enum':
      return `${title}的取值不在允许范围内`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `${title}不能小于${(error.params as { limit: number }).limit}`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `${title}不能大于${(error.params as { limit: number }).limit}`;
    default:
      return `${title}不正确`;
  }
}

function typeName(type: string): string {
  return ({ integer: '整数', number: '数字', string: '文本', boolean: '是/否', array: '列表', object: '对象' } as Record<string, string>)[type] ?? type;
}

const INTEGER_TEXT = /^-?\d+$/;

/** Which of a field's failures is named: lower first (the browser's order, form/validation.ts). */
const RANK = { helper: 0, required: 1, type: 2, maxLength: 3, minLength: 4, pattern: 5, format: 6, enum: 7, maximum: 8, other: 9 } as const;
const KEYWORD_RANK: Record<string, number> = { ...RANK, minimum: RANK.maximum, exclusiveMinimum: RANK.maximum, exclusiveMaximum: RANK.maximum, minItems: RANK.minLength, maxItems: RANK.maxLength };

function rankOf(keyword: string): number {
  return KEYWORD_RANK[keyword] ?? RANK.other;
}

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
  if (type === 'integer' && typeof value === 'string' && INTEGER_TEXT.test(value)) return Number(value);
  return value;
}

/**
 * Multi-value fields (x-multi) may arrive as lists; BladeX stores them comma-joined. A list in any
 * other text field stays a list, and the schema's type check refuses it.
 */
export function joinMultiValues(schema: EntitySchema | undefined, data: Record<string, unknown>): void {
  if (!schema) return;
  for (const [name, value] of Object.entries(data)) {
    if (Array.isArray(value) && schema.properties[name]?.['x-multi']) data[name] = wireForm(schema.properties[name], value);
  }
}

function fieldOf(error: ErrorObject): string {
  if (error.keyword === 'required') return (error.params as { missingProperty: string }).missingProperty;
  return error.instancePath.split('/')[1] ?? '';
}

/**
 * Validates a whole entity (for updates: the stored row merged with the patch) with the schema's
 * own Chinese messages, plus x-requiredIf and x-differentFrom rules. Throws a 400 naming every bad field.
 */
export function validateEntity(schema: EntitySchema, data: Record<string, unknown>): void {
  // Empty text counts as missing, so `required` catches "" as well as absent keys.
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (value === '' || value === null || value === undefined) continue;
    if (!(key in schema.properties)) continue;
    copy[key] = wireForm(schema.properties[key], value);
  }
  // One message per field: of several failures, the one the browser names first (its checkField:
  // the spec's helper checks, then type, length, pattern, format, choices, bounds), so a field
  // reads the same on blur and after 保存.
  const chosen = new Map<string, { rank: number; message: string }>();
  const offer = (field: string, rank: number, message: string) => {
    const held = chosen.get(field);
    if (!held || rank < held.rank) chosen.set(field, { rank, message });
  };
  const validate = validatorFor(schema);
  if (!validate(copy)) {
    for (const error of validate.errors ?? []) {
      if (error.keyword === 'errorMessage') {
        for (const inner of (error.params as { errors: ErrorObject[] }).errors) offer(fieldOf(inner), rankOf(inner.keyword), error.message ?? '');
      } else {
        const field = fieldOf(error);
        offer(field, rankOf(error.keyword), fallbackMessage(schema, field, error));
      }
    }
  }
  // Numbers the columns can hold exactly on both databases (PostgreSQL refused 1e20 with a 500,
  // SQLite kept a rounded 1e20): integers within ±(2^53−1), decimals with at most 18 − scale
  // digits before the point (the scale the column stores: the field's own, else 6).
  for (const [field, value] of Object.entries(copy)) {
    const prop = schema.properties[field];
    if (!prop || (typeof value !== 'number' && typeof value !== 'string')) continue;
    const title = prop.title ?? field;
    if (prop.type === 'integer' && typeof value === 'number' && !Number.isSafeInteger(value)) {
      offer(field, RANK.maximum, `${title}超出允许范围`);
      continue;
    }
    const kind = prop['x-decimal'];
    if (kind === undefined && prop.type !== 'number') continue;
    let amount: Decimal;
    try {
      amount = new Decimal(value);
    } catch {
      continue;
    }
    const digits = 18 - (typeof kind === 'number' ? kind : 6);
    if (!amount.isFinite() || amount.abs().trunc().toFixed().length > digits) offer(field, RANK.maximum, `${title}超出允许范围（整数部分最多${digits}位）`);
    // A field of fixed places (x-decimal 4) takes no more, as the browser says on blur. Places of
    // the configured kinds (price, amount, quantity) are the tenant's settings: not checked here.
    else if (typeof kind === 'number' && amount.decimalPlaces() > kind) {
      const custom = prop.errorMessage && typeof prop.errorMessage === 'object' ? (prop.errorMessage as Record<string, string>).pattern : undefined;
      offer(field, RANK.pattern, custom ?? `${title}必须是数字，最多${kind}位小数`);
    }
  }
  for (const [field, names] of helperRules.get(schema) ?? []) {
    if (isEmptyValue(copy[field])) continue;
    for (const name of names) {
      const message = checkRule(name, copy[field], data);
      if (message) {
        offer(field, RANK.helper, message);
        break;
      }
    }
  }
  for (const [field, prop] of Object.entries(schema.properties)) {
    const rule = prop['x-requiredIf'];
    if (rule === undefined || !isEmptyValue(data[field])) continue;
    if (evaluate(rule, data)) {
      const custom = schema.errorMessage?.required?.[field];
      offer(field, RANK.required, custom ?? `请输入${prop.title}`);
    }
  }
  // A field that must differ from another (a transfer's two warehouses), compared when both are filled.
  for (const [field, prop] of Object.entries(schema.properties)) {
    const rule = prop['x-differentFrom'];
    if (!rule || isEmptyValue(data[field]) || isEmptyValue(data[rule.field])) continue;
    if (String(data[field]) === String(data[rule.field])) offer(field, RANK.other, rule.message);
  }
  const errors: FieldError[] = [...chosen].map(([field, { message }]) => ({ field, message }));
  if (errors.length) {
    const fieldErrors = Object.fromEntries(errors.map((e) => [e.field, e.message]));
    throw badRequest(errors.map((e) => e.message).join('; '), { fieldErrors });
  }
}
