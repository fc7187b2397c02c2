import Decimal from 'decimal.js';
import type { FieldSchema, ResourceFile, TableDef, TreeDef } from '../../shared/resource.ts';
import { toColumn } from '../../shared/resource.ts';
import { registerHelperRules } from './validate.ts';

export type FieldKind = 'string' | 'text' | 'integer' | 'decimal' | 'boolean' | 'json';

export interface FieldModel {
  name: string;
  column: string;
  kind: FieldKind;
  /** decimal places, or a configured kind resolved at run time */
  scale?: number;
  maxLength?: number;
  secret: boolean;
  readonly: boolean;
  schema: FieldSchema;
}

export interface Model {
  name: string;
  title: string;
  table: string;
  def: TableDef;
  platform: boolean;
  softDelete: boolean;
  insertOnly: boolean;
  tree?: TreeDef & { keyField: string; rootValue: string };
  /** stored entity fields (base columns excluded) */
  fields: Map<string, FieldModel>;
  /** every stored field by name, base columns included, for filters and sorting */
  filterable: Map<string, FieldModel>;
  resource?: ResourceFile;
}

/** Columns every table has, in key order: tenant first, as the design requires. */
export const BASE_FIELDS: FieldModel[] = [
  base('id', 'id', 'string', 32),
  base('tenantId', 'tenant_id', 'string', 12),
  base('createUser', 'create_user', 'string', 32),
  base('createDept', 'create_dept', 'string', 32),
  base('createTime', 'create_time', 'string', 19),
  base('updateUser', 'update_user', 'string', 32),
  base('updateTime', 'update_time', 'string', 19),
  base('status', 'status', 'integer'),
  base('isDeleted', 'is_deleted', 'integer'),
  base('version', 'version', 'integer'),
];
const BASE_NAMES = new Set(BASE_FIELDS.map((f) => f.name));

function base(name: string, column: string, kind: FieldKind, maxLength?: number): FieldModel {
  return { name, column, kind, maxLength, secret: false, readonly: true, schema: { title: name } };
}

/** Price, amount and quantity scales (system config: UNIT/AMT/NUMBER_DECIMAL_PLACES). Storage keeps 6 places. */
export const STORAGE_SCALE = 6;

function fieldKind(schema: FieldSchema): FieldKind {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (schema['x-decimal'] !== undefined) return 'decimal';
  if (type === 'integer') return 'integer';
  if (type === 'number') return 'decimal';
  if (type === 'boolean') return 'boolean';
  if (type === 'array' || type === 'object') return 'json';
  if (schema.maxLength !== undefined && schema.maxLength <= 4000) return 'string';
  return 'text';
}

export function buildModel(resource: ResourceFile): Model {
  registerHelperRules(resource);
  const fields = new Map<string, FieldModel>();
  for (const [name, schema] of Object.entries(resource.entity.properties)) {
    // A base name is only a stored field of its own when it names another column (tenant.tenantId).
    if ((BASE_NAMES.has(name) && !schema['x-column']) || schema['x-virtual'] || schema['x-lines']) continue;
    const kind = fieldKind(schema);
    const decimal = schema['x-decimal'];
    fields.set(name, {
      name,
      column: schema['x-column'] ?? toColumn(name),
      kind,
      scale: kind === 'decimal' ? (typeof decimal === 'number' ? decimal : STORAGE_SCALE) : undefined,
      maxLength: schema.maxLength,
      secret: Boolean(schema['x-secret']),
      readonly: Boolean(schema['x-readonly']),
      schema,
    });
  }
  return modelFromParts(resource.resource, resource.title, resource.table, fields, resource);
}

export function modelFromParts(
  name: string,
  title: string,
  def: TableDef,
  fields: Map<string, FieldModel>,
  resource?: ResourceFile,
): Model {
  const filterable = new Map<string, FieldModel>();
  for (const f of BASE_FIELDS) filterable.set(f.name, f);
  for (const f of fields.values()) filterable.set(f.name, f);
  return {
    name,
    title,
    table: def.name,
    def,
    platform: def.scope === 'platform',
    softDelete: def.softDelete !== false,
    insertOnly: Boolean(def.insertOnly),
    tree: def.tree ? { keyField: 'id', rootValue: '0', ...def.tree } : undefined,
    fields,
    filterable,
    resource,
  };
}

/** Internal tables (sessions, grants, captchas) are declared in code with the same vocabulary. */
export function internalModel(
  table: string,
  columns: Record<string, FieldKind | [FieldKind, number]>,
  unique: TableDef['unique'] = undefined,
  opts: { insertOnly?: boolean; indexes?: string[][]; title?: string } = {},
): Model {
  const fields = new Map<string, FieldModel>();
  for (const [name, spec] of Object.entries(columns)) {
    const [kind, maxLength] = Array.isArray(spec) ? spec : [spec, undefined];
    fields.set(name, {
      name,
      column: toColumn(name),
      kind,
      maxLength,
      scale: kind === 'decimal' ? STORAGE_SCALE : undefined,
      secret: false,
      readonly: false,
      schema: { title: name },
    });
  }
  return modelFromParts(table, opts.title ?? table, { name: table, softDelete: false, unique, insertOnly: opts.insertOnly, indexes: opts.indexes }, fields);
}

const SCALE_FACTORS = new Map<number, Decimal>();
function factor(scale: number): Decimal {
  let f = SCALE_FACTORS.get(scale);
  if (!f) SCALE_FACTORS.set(scale, (f = new Decimal(10).pow(scale)));
  return f;
}

/** JS value of a stored column, by field kind. Decimals travel as exact strings. */
export function fromDb(field: FieldModel, value: unknown, dialect: 'sqlite' | 'postgres'): unknown {
  if (value === null || value === undefined) return value ?? null;
  switch (field.kind) {
    case 'integer':
      return typeof value === 'bigint' || typeof value === 'string' ? Number(value) : value;
    case 'boolean':
      return value === true || value === 1 || value === 1n || value === '1' || value === 't';
    case 'decimal':
      if (dialect === 'sqlite') return new Decimal(String(value)).div(factor(field.scale ?? STORAGE_SCALE)).toFixed();
      return new Decimal(String(value)).toFixed();
    case 'json':
      if (typeof value !== 'string') return value;
      try {
        return JSON.parse(value);
      } catch {
        return value;
      }
    default:
      return typeof value === 'bigint' ? value.toString() : value;
  }
}

/** Stored value of a JS value. SQLite keeps decimals as scaled integers so SUM stays exact. */
export function toDb(field: FieldModel, value: unknown, dialect: 'sqlite' | 'postgres'): unknown {
  if (value === undefined) return undefined;
  if (value === null || value === '') {
    return field.kind === 'string' || field.kind === 'text' ? (value ?? null) : null;
  }
  switch (field.kind) {
    case 'integer':
      return Number(value);
    case 'boolean':
      return value === true || value === 'true' || value === 1 || value === '1' ? 1 : 0;
    case 'decimal': {
      const d = new Decimal(String(value));
      if (dialect === 'sqlite') {
        return BigInt(d.mul(factor(field.scale ?? STORAGE_SCALE)).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed());
      }
      return d.toFixed();
    }
    case 'json':
      return typeof value === 'string' ? value : JSON.stringify(value);
    default:
      return Array.isArray(value) ? value.join(',') : String(value);
  }
}

/** Fields a read returns, per model (secrets never leave the server); computed once. */
const READABLE = new WeakMap<Model, FieldModel[]>();

function readableFields(model: Model): FieldModel[] {
  let readable = READABLE.get(model);
  if (!readable) READABLE.set(model, (readable = [...model.filterable.values()].filter((f) => !f.secret)));
  return readable;
}

function fieldValue(f: FieldModel, value: unknown, dialect: 'sqlite' | 'postgres'): unknown {
  // Text columns come back as they are stored: no conversion call for most of a row.
  if (value === null) return null;
  if (f.kind === 'string' || f.kind === 'text') return typeof value === 'bigint' ? value.toString() : value;
  return fromDb(f, value, dialect);
}

export function rowFromDb(model: Model, row: Record<string, unknown>, dialect: 'sqlite' | 'postgres'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of readableFields(model)) {
    const value = row[f.column];
    if (value !== undefined) out[f.name] = fieldValue(f, value, dialect);
  }
  return out;
}

/** Rows read as arrays (SQLite fast path), in the column order the statement gives. */
export function rowsFromArrays(model: Model, columns: string[], rows: unknown[][]): Record<string, unknown>[] {
  const byColumn = new Map(readableFields(model).map((f) => [f.column, f]));
  const slots = columns.map((c) => byColumn.get(c));
  return rows.map((raw) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < slots.length; i++) {
      const f = slots[i];
      if (f) out[f.name] = fieldValue(f, raw[i], 'sqlite');
    }
    return out;
  });
}
