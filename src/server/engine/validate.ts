import { Ajv, _, type ValidateFunction } from 'ajv';
import ajvErrorsModule from 'ajv-errors';
import standaloneModule from 'ajv/dist/standalone/index.js';
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';
import type { EntitySchema, ResourceFile } from '../../shared/resource.ts';
import { entityMessages, wireForm, type CompiledValidator } from '../../shared/entityCheck.ts';
import { badRequest } from '../errors.ts';
import { FORMAT_PATTERNS, formRuleFields, type RuleName } from '../../shared/validators.ts';

// CommonJS default exports seen through ESM
const ajvErrors = (ajvErrorsModule as unknown as { default?: typeof ajvErrorsModule }).default ?? ajvErrorsModule;
const standaloneCode = (standaloneModule as unknown as { default?: typeof standaloneModule }).default ?? standaloneModule;
const ucs2length = (ucs2lengthModule as unknown as { default?: typeof ucs2lengthModule }).default ?? ucs2lengthModule;

// No coercion: a value of the wrong JSON type is refused with the field's message (it used to be
// stored as text: true → "true", 5 → "5"). The few lossless wire forms are accepted by `wireForm`.
// `code.source` keeps each compiled function's code, which the browser gets as a module
// (`validatorModule`): one validator, run on both sides.
const ajv = new Ajv({
  allErrors: true,
  strict: false,
  coerceTypes: false,
  useDefaults: false,
  code: { source: true, esm: true, formats: _`formats` },
});
for (const [name, pattern] of Object.entries(FORMAT_PATTERNS)) ajv.addFormat(name, pattern);
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

/** Keywords that only describe (titles, notes, our x- extensions): left out of the compiled code. */
function validationOnly(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(validationOnly);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'title' || key === 'description' || key === 'default' || key === 'examples' || key.startsWith('x-')) continue;
    // `properties` maps field names (which may look like keywords) to schemas.
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, validationOnly(v)])) : validationOnly(value);
  }
  return out;
}

/**
 * Compiled functions by the schema's text: a server made again in the same process (a test
 * suite's many servers, a reload) gets equal schemas as new objects, and compiling is the costly
 * part of building a resource's model.
 */
const compiledByText = new Map<string, ValidateFunction>();

function validatorFor(schema: EntitySchema): ValidateFunction {
  let fn = compiled.get(schema);
  if (!fn) {
    const checked = validationOnly(schema) as object;
    const text = JSON.stringify(checked);
    fn = compiledByText.get(text);
    if (!fn) {
      fn = ajv.compile(checked);
      compiledByText.set(text, fn);
    }
    compiled.set(schema, fn);
  }
  return fn;
}

/**
 * The entity's compiled validator as an ES module for the browser (served at
 * /validators/<resource>.js, and written into the client build for servers that lack that call):
 * ajv's standalone code of the very function the server runs, with the formats and ajv's one
 * runtime helper written in, so the module imports nothing.
 */
export function validatorModule(schema: EntitySchema): string {
  const code = standaloneCode(ajv, validatorFor(schema))
    .replace(/^"use strict";/, '')
    .replaceAll('require("ajv/dist/runtime/ucs2length").default', 'ucs2length');
  const formats = Object.entries(FORMAT_PATTERNS)
    .map(([name, pattern]) => `${JSON.stringify(name)}: ${pattern.toString()}`)
    .join(', ');
  return `/* Generated from the entity schema by ajv (server engine/validate.ts). */\nconst formats = { ${formats} };\nconst ucs2length = ${ucs2length.toString()};\n${code}\n`;
}

/**
 * Validates a whole entity (for updates: the stored row merged with the patch) with the schema's
 * own Chinese messages, plus the checks of src/shared/entityCheck.ts. Throws a 400 naming every bad field.
 */
export function validateEntity(schema: EntitySchema, data: Record<string, unknown>): void {
  const messages = entityMessages(validatorFor(schema) as unknown as CompiledValidator, schema, data, { rules: helperRules.get(schema) });
  if (messages.size) {
    const fieldErrors = Object.fromEntries(messages);
    throw badRequest([...messages.values()].join('; '), { fieldErrors });
  }
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
