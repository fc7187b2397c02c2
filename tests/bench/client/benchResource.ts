/**
 * A synthetic resource with 200 mixed fields for the form benchmark: text, long text, integers,
 * exact decimals, enum selects and radios, dates, switches and passwords. Nothing in it needs
 * the server (enums instead of dictionaries, no pickers), so the page measures rendering only.
 */
import type { FieldSchema, ResourceFile } from '../../../src/shared/resource.ts';
import type { FormFieldDef, Widget } from '../../../src/client/renderer/form/types.ts';

export const BENCH_FIELD_COUNT = 200;

const KINDS = ['text', 'text', 'integer', 'decimal', 'enum', 'textarea', 'date', 'switch', 'radio', 'text'] as const;
type Kind = (typeof KINDS)[number];

export function fieldName(index: number): string {
  return `f${String(index + 1).padStart(3, '0')}`;
}

export function kindOf(index: number): Kind {
  return KINDS[index % KINDS.length];
}

function propertyOf(index: number): FieldSchema {
  const title = `字段${index + 1}`;
  switch (kindOf(index)) {
    case 'integer':
      return { title, type: 'integer', minimum: 0, errorMessage: { type: `${title}必须是整数` } };
    case 'decimal':
      return { title, type: 'string', 'x-decimal': 'amount' };
    case 'enum':
      return { title, type: 'string', enum: ['甲', '乙', '丙', '丁'] };
    case 'radio':
      return { title, type: 'string', enum: ['是', '否'] };
    case 'textarea':
      return { title, type: 'string', maxLength: 2000 };
    case 'date':
      return { title, type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
    case 'switch':
      return { title, type: 'boolean' };
    default:
      return { title, type: 'string', maxLength: 64, errorMessage: { maxLength: `${title}不能超过64个字符` } };
  }
}

function widgetOf(index: number): Widget | undefined {
  const kind = kindOf(index);
  if (kind === 'radio') return 'radio';
  if (kind === 'textarea') return 'textarea';
  return undefined;
}

export function benchResource(): ResourceFile {
  const properties: Record<string, FieldSchema> = {};
  const fields: FormFieldDef[] = [];
  const required: string[] = [];
  for (let index = 0; index < BENCH_FIELD_COUNT; index += 1) {
    const name = fieldName(index);
    properties[name] = propertyOf(index);
    const widget = widgetOf(index);
    fields.push(widget ? { field: name, widget, span: widget === 'textarea' ? 24 : 12 } : { field: name, span: 12 });
    if (index % 7 === 0) required.push(name);
  }
  return {
    resource: 'form-bench',
    title: '表单基准',
    module: 'system',
    table: { name: 'form_bench' },
    entity: { type: 'object', title: '表单基准', properties, required },
    api: { base: '/form-bench', endpoints: [{ path: 'submit', method: 'POST', op: 'submit' }] },
    form: { width: 1000, fields },
  };
}

/** The same 200 fields as plain JSON Schema, for the stock @rjsf/antd comparison. */
export function benchJsonSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let index = 0; index < BENCH_FIELD_COUNT; index += 1) {
    const { title, type, enum: choices, minimum, maxLength } = propertyOf(index);
    properties[fieldName(index)] = {
      title,
      type: type === 'boolean' ? 'boolean' : type === 'integer' ? 'integer' : 'string',
      ...(choices ? { enum: choices } : {}),
      ...(minimum !== undefined ? { minimum } : {}),
      ...(maxLength !== undefined ? { maxLength } : {}),
      ...(kindOf(index) === 'date' ? { format: 'date' } : {}),
    };
  }
  return { type: 'object', properties };
}

/** Ten fields of the same kinds: opened first so antd's styles exist before the clock starts. */
export function warmUpResource(): ResourceFile {
  const full = benchResource();
  return { ...full, resource: 'form-bench-warm', form: { ...full.form, fields: full.form?.fields?.slice(0, 10) } };
}
