/**
 * Per-field checks on blur and before saving, from the entity schema itself: required and
 * x-requiredIf (the shared expression evaluator), lengths, patterns, formats, numbers, exact
 * decimals and the helper `rules`, each with the schema's own errorMessage text when it has one.
 * No whole-form validation runs while the user types.
 */
import Decimal from 'decimal.js';
import { evaluate, isEmptyValue, type Expr } from '../../../shared/expr.ts';
import type { EntitySchema, FieldSchema } from '../../../shared/resource.ts';
import { checkRule, isEmail, isUrl } from '../../../shared/validators.ts';
import { decimalPlaces } from '../common/format.ts';
import { currentLanguage, ft, type FormKey } from './i18n.ts';
import type { FieldSpec } from './layout.ts';
import type { Values, Widget } from './types.ts';

const CHOICE_WIDGETS = new Set<Widget>([
  'select',
  'radio',
  'checkbox',
  'switch',
  'date',
  'datetime',
  'daterange',
  'picker',
  'treePicker',
  'area',
  'upload',
  'image',
  'icon',
  'color',
]);

/** The schema's own message for a keyword (`errorMessage` as a string or a keyword map). */
function schemaMessage(prop: FieldSchema, keyword: string): string | undefined {
  // Schema messages are Chinese; English screens use the generic English texts.
  if (currentLanguage() === 'en') return undefined;
  const custom = prop.errorMessage;
  if (typeof custom === 'string') return custom;
  if (custom && typeof custom === 'object') {
    const text = (custom as Record<string, unknown>)[keyword];
    if (typeof text === 'string') return text;
  }
  return undefined;
}

function label(spec: Pick<FieldSpec, 'title' | 'titleEn'>): string {
  return currentLanguage() === 'en' && spec.titleEn ? spec.titleEn : spec.title;
}

function fallback(spec: FieldSpec, key: FormKey, params: Record<string, string | number> = {}): string {
  return ft(key, { title: label(spec), ...params });
}

/** True when the field must be filled: the entity's `required`, or its x-requiredIf holds. */
export function isRequired(spec: FieldSpec, values: Values): boolean {
  if (spec.required) return true;
  const rule = spec.prop['x-requiredIf'];
  if (rule === undefined) return false;
  try {
    return Boolean(evaluate(rule as Expr, values));
  } catch {
    return false;
  }
}

export function requiredMessage(entity: EntitySchema, spec: FieldSpec): string {
  const custom =
    currentLanguage() === 'en' ? undefined : (entity.errorMessage?.required?.[spec.name] ?? schemaMessage(spec.prop, 'required'));
  if (custom) return custom;
  return fallback(spec, CHOICE_WIDGETS.has(spec.widget) ? 'form.requiredSelect' : 'form.required');
}

function decimalScale(prop: FieldSchema): number {
  const kind = prop['x-decimal'];
  if (typeof kind === 'number') return kind;
  return kind ? decimalPlaces(kind) : 2;
}

function checkNumber(spec: FieldSpec, value: unknown): string | undefined {
  const { prop } = spec;
  const text = String(value).trim();
  let number: Decimal;
  if (prop['x-decimal'] !== undefined) {
    const scale = decimalScale(prop);
    const pattern = scale > 0 ? new RegExp(`^-?\\d+(\\.\\d{1,${scale}})?$`) : /^-?\d+$/;
    if (!pattern.test(text)) return schemaMessage(prop, 'pattern') ?? fallback(spec, 'form.decimal', { scale });
    number = new Decimal(text);
  } else if (prop.type === 'integer') {
    if (!/^-?\d+$/.test(text)) return schemaMessage(prop, 'type') ?? fallback(spec, 'form.integer');
    number = new Decimal(text);
  } else if (prop.type === 'number') {
    if (!/^-?\d+(\.\d+)?$/.test(text)) return schemaMessage(prop, 'type') ?? fallback(spec, 'form.number');
    number = new Decimal(text);
  } else {
    return undefined;
  }
  // The schema's own pattern (a coefficient's digits), as the server checks it.
  if (typeof prop.pattern === 'string' && !new RegExp(prop.pattern).test(text)) return schemaMessage(prop, 'pattern') ?? fallback(spec, 'form.pattern');
  // Choices of a number field (是/否 as 2/1), as the server checks them.
  const choices = prop.enum ?? (prop.oneOf as { const?: unknown }[] | undefined)?.map((option) => option.const);
  if (Array.isArray(choices) && choices.length && !choices.some((choice) => String(choice) === number.toFixed())) {
    return schemaMessage(prop, prop.enum ? 'enum' : 'oneOf') ?? fallback(spec, 'form.enum');
  }
  // What the column holds exactly (the server refuses the rest): 18 − scale digits before the point.
  if (prop['x-decimal'] !== undefined || prop.type === 'number') {
    const digits = 18 - (typeof prop['x-decimal'] === 'number' ? prop['x-decimal'] : 6);
    if (number.abs().trunc().toFixed().length > digits) return fallback(spec, 'form.range', { digits });
  } else if (!Number.isSafeInteger(number.toNumber())) {
    return fallback(spec, 'form.integerRange');
  }
  if (typeof prop.minimum === 'number' && number.lessThan(prop.minimum)) {
    return schemaMessage(prop, 'minimum') ?? fallback(spec, 'form.minimum', { limit: prop.minimum });
  }
  if (typeof prop.maximum === 'number' && number.greaterThan(prop.maximum)) {
    return schemaMessage(prop, 'maximum') ?? fallback(spec, 'form.maximum', { limit: prop.maximum });
  }
  return undefined;
}

/** Text over its length speaks before any other check of its content (the server's order too). */
function checkMaxLength(spec: FieldSpec, value: unknown): string | undefined {
  const { prop } = spec;
  if (typeof value !== 'string' || typeof prop.maxLength !== 'number' || value.length <= prop.maxLength) return undefined;
  return schemaMessage(prop, 'maxLength') ?? fallback(spec, 'form.maxLength', { limit: prop.maxLength });
}

function checkText(spec: FieldSpec, value: unknown): string | undefined {
  const { prop } = spec;
  if (typeof value !== 'string') return undefined;
  if (typeof prop.minLength === 'number' && value.length < prop.minLength) {
    return schemaMessage(prop, 'minLength') ?? fallback(spec, 'form.minLength', { limit: prop.minLength });
  }
  if (typeof prop.pattern === 'string' && !new RegExp(prop.pattern).test(value)) {
    return schemaMessage(prop, 'pattern') ?? fallback(spec, 'form.pattern');
  }
  if (prop.format === 'email' && !isEmail(value))
    return schemaMessage(prop, 'format') ?? fallback(spec, 'form.pattern');
  if ((prop.format === 'uri' || prop.format === 'url') && !isUrl(value)) {
    return schemaMessage(prop, 'format') ?? fallback(spec, 'form.pattern');
  }
  const choices = prop.enum ?? (prop.oneOf as { const?: unknown }[] | undefined)?.map((option) => option.const);
  if (Array.isArray(choices) && choices.length && !choices.some((item) => String(item) === value)) {
    return schemaMessage(prop, prop.enum ? 'enum' : 'oneOf') ?? fallback(spec, 'form.enum');
  }
  return undefined;
}

/** A list of texts: required, then minItems / maxItems counted over the filled items, then each item's length. */
function checkList(entity: EntitySchema, spec: FieldSpec, value: unknown, values: Values): string | undefined {
  const items = Array.isArray(value) ? value.map((item) => String(item ?? '').trim()).filter(Boolean) : [];
  if (!items.length) return isRequired(spec, values) ? requiredMessage(entity, spec) : undefined;
  const { minItems, maxItems } = spec.prop;
  if (typeof minItems === 'number' && items.length < minItems) {
    return schemaMessage(spec.prop, 'minItems') ?? fallback(spec, 'form.minItems', { limit: minItems });
  }
  if (typeof maxItems === 'number' && items.length > maxItems) {
    return schemaMessage(spec.prop, 'maxItems') ?? fallback(spec, 'form.maxItems', { limit: maxItems });
  }
  const item = spec.prop.items as FieldSchema | undefined;
  const tooLong = typeof item?.maxLength === 'number' ? items.find((text) => text.length > (item.maxLength as number)) : undefined;
  if (item && tooLong !== undefined) return schemaMessage(item, 'maxLength') ?? fallback(spec, 'form.maxLength', { limit: item.maxLength as number });
  return undefined;
}

/**
 * The message for one field's value (undefined when it passes). `values` is the whole record,
 * read by x-requiredIf and by rules such as the bank-account length per bank type.
 */
export function checkField(entity: EntitySchema, spec: FieldSpec, value: unknown, values: Values): string | undefined {
  if (spec.widget === 'textList') return checkList(entity, spec, value, values);
  if (isEmptyValue(value)) return isRequired(spec, values) ? requiredMessage(entity, spec) : undefined;
  if (spec.widget === 'json' && typeof value === 'string') {
    try {
      JSON.parse(value);
    } catch {
      return fallback(spec, 'form.json');
    }
  }
  // The helper rules speak first: their messages are the spec's (手机号码长度不为11位 …).
  for (const rule of spec.def.rules ?? []) {
    const message = checkRule(rule, value, values, currentLanguage());
    if (message) return message;
  }
  const numeric = spec.prop['x-decimal'] !== undefined || spec.prop.type === 'integer' || spec.prop.type === 'number';
  return checkMaxLength(spec, value) ?? (numeric ? checkNumber(spec, value) : checkText(spec, value));
}
