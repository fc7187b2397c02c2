/** The shape of a resource file under schemas/ (validated by schemas/meta/resource.schema.json). */
import type { Expr } from './expr.ts';

export type Op =
  | 'page' | 'list' | 'select' | 'detail' | 'submit' | 'save' | 'update' | 'remove'
  | 'enable' | 'disable' | 'tree' | 'lazyTree' | 'lazyList' | 'childList' | 'parentList'
  | 'code' | 'timeStampCode' | 'setFields' | 'tagOn' | 'tagOff' | 'import' | 'export' | 'custom'
  | 'document' | 'documentHistory' | 'documentPull' | 'documentPullCheck' | 'documentGenerate' | 'documentPostings';

export interface EndpointDef {
  path: string;
  method: 'GET' | 'POST';
  op: Op;
  handler?: string;
  perm?: string | false;
  public?: boolean;
  addition?: boolean;
  filters?: 'map' | 'entity';
  params?: Record<string, unknown>;
}

export interface TreeDef {
  parentField: string;
  titleField: string;
  keyField?: string;
  sortField?: string;
  rootValue?: string;
  /** Extra TreeNode keys copied from the row: node key → row field. */
  nodeFields?: Record<string, string>;
}

export interface TableDef {
  name: string;
  scope?: 'tenant' | 'platform';
  softDelete?: boolean;
  insertOnly?: boolean;
  tree?: TreeDef;
  defaultSort?: string;
  unique?: { fields: string[]; message: string }[];
  indexes?: string[][];
  search?: string[];
}

export interface FieldSchema {
  title: string;
  'x-titleEn'?: string;
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
  'x-column'?: string;
  'x-virtual'?: boolean;
  'x-secret'?: boolean;
  'x-readonly'?: boolean;
  'x-decimal'?: number | 'price' | 'amount' | 'quantity';
  'x-dict'?: string;
  'x-dictBiz'?: string;
  'x-ref'?: string;
  'x-multi'?: boolean;
  /** Menu ids granted to others: the caller may grant only what they hold. */
  'x-grants'?: boolean;
  'x-requiredIf'?: Expr;
  /** Array field whose items are rows of another resource, linked by x-parentField. */
  'x-lines'?: string;
  'x-parentField'?: string;
  errorMessage?: unknown;
  [key: string]: unknown;
}

export interface EntitySchema {
  type: 'object';
  title?: string;
  properties: Record<string, FieldSchema>;
  required?: string[];
  errorMessage?: { required?: Record<string, string>; [key: string]: unknown };
  [key: string]: unknown;
}

export interface LookupDef {
  field: string;
  from: string;
  resource: string;
  take: string;
  match?: string;
  multi?: boolean;
}

export interface ResourceFile {
  resource: string;
  title: string;
  titleEn?: string;
  module: string;
  description?: string;
  table: TableDef;
  entity: EntitySchema;
  permission?: string;
  buttons?: { code: string; name: string; nameEn?: string; alias?: string; action?: number }[];
  api: { base: string; endpoints: EndpointDef[] };
  lookups?: LookupDef[];
  seed?: Record<string, unknown>[];
  list?: Record<string, unknown>;
  search?: unknown[];
  form?: Record<string, unknown>;
  pickers?: Record<string, unknown>;
  actions?: unknown[];
  document?: Record<string, unknown>;
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
