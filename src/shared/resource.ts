/**
 * The shape of a resource file under schemas/ (validated by schemas/meta/resource.schema.json). The
 * blocks are the meta-schema's own types, generated into src/generated/meta.ts (`npm run gen:types`);
 * only `entity`, plain JSON Schema that the meta-schema leaves open, is spelled out further here.
 */
import type * as Meta from '../generated/meta.ts';

/** An endpoint's op: every one the meta-schema lists has a case in server/engine/ops.ts runOp. */
export type Op = Meta.Endpoint['op'];

export type EndpointDef = Meta.Endpoint;
export type ApiDef = Meta.Api;

export type TreeDef = NonNullable<Meta.Table['tree']>;
export type TableDef = Meta.Table;
export type LookupDef = Meta.Lookup;

/** An entity field: the meta-schema's `field` extensions plus the JSON Schema keywords the code reads. */
export interface FieldSchema extends Meta.Field {
  type?: string | string[];
  format?: string;
  pattern?: string;
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  default?: unknown;
  items?: unknown;
  minItems?: number;
  maxItems?: number;
}

export interface EntitySchema extends Meta.Entity {
  title?: string;
  properties: Record<string, FieldSchema>;
  errorMessage?: { required?: Record<string, string>; [key: string]: unknown };
}

export interface ResourceFile extends Omit<Meta.ResourceFileSchema, 'entity' | 'api'> {
  entity: EntitySchema;
  api: ApiDef;
}

export interface MenuSeed {
  code: string;
  name: string;
  nameEn?: string;
  path: string;
  source?: string;
  sort?: number;
  billType?: string;
  resource?: string;
  isOpen?: number;
  isHidden?: number;
  isDisplayHistory?: number;
  historyPath?: string;
  alias?: string;
  children?: MenuSeed[];
}

export interface DictSeed {
  code: string;
  name: string;
  nameEn?: string;
  biz?: boolean;
  items: { key: string; value: string; valueEn?: string; color?: string; icon?: string; remark?: string }[];
}

/** camelCase field name -> snake_case column name, as BladeX maps them. */
export function toColumn(field: string): string {
  return field.replace(/([A-Z])/g, '_$1').toLowerCase();
}

export function toField(column: string): string {
  return column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
