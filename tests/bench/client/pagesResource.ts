/**
 * The resources of the client bench pages (issue 17), in our schema language:
 *  - form200: 200 fields (120 text, 30 number, 30 select of 5 options, 20 date; labels 字段1…字段200;
 *    every 4th required), interleaved in blocks of 20 (12 text, 3 number, 3 select, 2 date);
 *  - crud: 20 text columns 列1…列20, a 5-field search form (列1…列5, contains), static rows.
 */
import type { FieldSchema, ResourceFile } from '../../../src/shared/resource.ts';
import type { FormFieldDef } from '../../../src/client/renderer/form/types.ts';

export const FORM_FIELDS = 200;
export const CRUD_COLUMNS = 20;

type Kind = 'text' | 'number' | 'select' | 'date';

/** Kind of the N-th field (1-based). */
export function kindOf(position: number): Kind {
  const slot = (position - 1) % 20;
  if (slot < 12) return 'text';
  if (slot < 15) return 'number';
  if (slot < 18) return 'select';
  return 'date';
}

const fieldName = (position: number) => `f${String(position).padStart(3, '0')}`;

function propertyOf(position: number): FieldSchema {
  const title = `字段${position}`;
  switch (kindOf(position)) {
    case 'number':
      return { title, type: 'integer' };
    case 'select':
      return { title, type: 'string', enum: ['选项1', '选项2', '选项3', '选项4', '选项5'] };
    case 'date':
      return { title, type: 'string', format: 'date' };
    default:
      return { title, type: 'string', maxLength: 64 };
  }
}

export function form200Resource(): ResourceFile {
  const properties: Record<string, FieldSchema> = {};
  const fields: FormFieldDef[] = [];
  const required: string[] = [];
  for (let position = 1; position <= FORM_FIELDS; position += 1) {
    const name = fieldName(position);
    properties[name] = propertyOf(position);
    fields.push({ field: name, span: 12 });
    if (position % 4 === 0) required.push(name);
  }
  return {
    resource: 'form200',
    title: '表单基准',
    module: 'system',
    table: { name: 'form200' },
    entity: { type: 'object', title: '表单基准', properties, required },
    api: { base: '/bench/form200', endpoints: [{ path: 'submit', method: 'POST', op: 'submit' }] },
    form: { width: 1000, fields },
  };
}

const columnName = (position: number) => `c${String(position).padStart(2, '0')}`;

export function crudResource(rows: number): ResourceFile {
  const properties: Record<string, FieldSchema> = { id: { title: 'ID', type: 'string' } };
  for (let position = 1; position <= CRUD_COLUMNS; position += 1) properties[columnName(position)] = { title: `列${position}`, type: 'string' };
  return {
    resource: `crud${rows}`,
    title: '列表基准',
    module: 'system',
    table: { name: `crud${rows}` },
    entity: { type: 'object', title: '列表基准', properties },
    api: { base: '/bench/crud', endpoints: [{ path: 'list', method: 'GET', op: 'page' }] },
    list: {
      columns: Array.from({ length: CRUD_COLUMNS }, (_, i) => ({ field: columnName(i + 1), width: 120 })),
      index: true,
      // Every row on one page, as a static CRUD shows its rows.
      pageSize: rows,
      pageSizes: [rows],
    },
    search: Array.from({ length: 5 }, (_, i) => ({ field: columnName(i + 1), op: 'like' })),
  } as ResourceFile;
}

/** Row `index` (0-based) of the static data: text made from the row and column numbers. */
export function crudRow(index: number): Record<string, string> {
  const row: Record<string, string> = { id: String(index + 1) };
  for (let position = 1; position <= CRUD_COLUMNS; position += 1) row[columnName(position)] = `行${index + 1}列${position}`;
  return row;
}
