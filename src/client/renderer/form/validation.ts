/**
 * Per-field checks on blur and before saving. A field's value is checked as the server checks a
 * save (src/shared/entityCheck.ts): the entity's compiled validator (entityValidators.ts) for the
 * JSON Schema keywords, then exact decimals, the columns' range, the spec's helper `rules`,
 * x-requiredIf and x-differentFrom — with the schema's own errorMessage texts. What only a form
 * knows is added here: 请选择 for fields the user picks, the places of the tenant's price, amount
 * and quantity settings, JSON text and lists of texts. No whole-form validation runs while the
 * user types.
 */
import { evaluate, isEmptyValue, type Expr } from '../../../shared/expr.ts';
import { checkText, entityMessages, type CheckKey } from '../../../shared/entityCheck.ts';
import type { EntitySchema, FieldSchema } from '../../../shared/resource.ts';
import { decimalPlaces, type DecimalKind } from '../common/format.ts';
import { currentLanguage, ft } from './i18n.ts';
import { validatorOf } from './entityValidators.ts';
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

function text(spec: FieldSpec, key: CheckKey, params: Record<string, string | number> = {}): string {
  return checkText(key, { title: label(spec), ...params }, currentLanguage());
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
  return custom ?? text(spec, CHOICE_WIDGETS.has(spec.widget) ? 'requiredSelect' : 'required');
}

/** Places of a price, amount or quantity field: the tenant's settings (spec 000 §9). */
function configuredScale(prop: FieldSchema): number | undefined {
  const kind = prop['x-decimal'];
  return typeof kind === 'string' ? decimalPlaces(kind as DecimalKind) : undefined;
}

/** A list of texts: required, then minItems / maxItems counted over the filled items, then each item's length. */
function checkList(entity: EntitySchema, spec: FieldSpec, value: unknown, values: Values): string | undefined {
  const items = Array.isArray(value) ? value.map((item) => String(item ?? '').trim()).filter(Boolean) : [];
  if (!items.length) return isRequired(spec, values) ? requiredMessage(entity, spec) : undefined;
  const { minItems, maxItems } = spec.prop;
  if (typeof minItems === 'number' && items.length < minItems) {
    return schemaMessage(spec.prop, 'minItems') ?? text(spec, 'minItems', { limit: minItems });
  }
  if (typeof maxItems === 'number' && items.length > maxItems) {
    return schemaMessage(spec.prop, 'maxItems') ?? text(spec, 'maxItems', { limit: maxItems });
  }
  const item = spec.prop.items as FieldSchema | undefined;
  const tooLong = typeof item?.maxLength === 'number' ? items.find((entry) => entry.length > (item.maxLength as number)) : undefined;
  if (item && tooLong !== undefined) return schemaMessage(item, 'maxLength') ?? text(spec, 'maxLength', { limit: item.maxLength as number });
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
      return ft('form.json', { title: label(spec) });
    }
  }
  const messages = entityMessages(validatorOf(entity), entity, { ...values, [spec.name]: value }, {
    language: currentLanguage(),
    only: spec.name,
    rules: spec.def.rules?.length ? new Map([[spec.name, spec.def.rules]]) : undefined,
    titleOf: (field) => (field === spec.name ? label(spec) : undefined),
    scaleOf: configuredScale,
  });
  return messages.get(spec.name);
}
