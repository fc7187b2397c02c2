/**
 * Typed view blocks of a resource file (schemas/meta/resource.schema.json). `ResourceFile`
 * keeps them loose (lint owns their shape); the renderer reads them through these accessors.
 */
import type { RuleName } from '../../../shared/validators.ts';
import type { Expr } from '../../../shared/expr.ts';
import type { EndpointDef, FieldSchema, Op, ResourceFile } from '../../../shared/resource.ts';

export type ColumnFormat =
  | 'text'
  | 'money'
  | 'price'
  | 'quantity'
  | 'percent'
  | 'date'
  | 'datetime'
  | 'boolean'
  | 'image'
  | 'link'
  | 'phone-masked';

export interface ColumnDef {
  field: string;
  title?: string;
  titleEn?: string;
  width?: number;
  fixed?: 'left' | 'right';
  align?: 'left' | 'center' | 'right';
  format?: ColumnFormat;
  tag?: boolean;
  summable?: boolean;
  hidden?: boolean;
  sortable?: boolean;
  ellipsis?: boolean;
}

export type Widget =
  | 'input'
  | 'textarea'
  | 'number'
  | 'money'
  | 'select'
  | 'radio'
  | 'checkbox'
  | 'switch'
  | 'date'
  | 'datetime'
  | 'daterange'
  | 'picker'
  | 'treePicker'
  | 'area'
  | 'upload'
  | 'image'
  | 'password'
  | 'icon'
  | 'color'
  | 'json'
  | 'textList'
  | 'lines';

export type SearchOp = 'like' | 'equal' | 'ge' | 'le' | 'range' | 'daterange' | 'in';

export interface SearchFieldDef {
  field: string;
  op?: SearchOp;
  param?: string;
  title?: string;
  widget?: Widget;
  span?: number;
  default?: unknown;
}

export interface UploadDef {
  accept?: string[];
  maxSizeKb?: number;
  maxCount?: number;
  warnAt?: number;
  warnMessage?: string;
  width?: number;
  height?: number;
  sizeMessage?: string;
  typeMessage?: string;
}

export interface LinesDef {
  fields: FormFieldDef[];
  min?: number;
  max?: number;
  uniqueBy?: { field?: string; message?: string; check?: { endpoint: string; valueParam: string; idParam?: string } };
}

export interface AreaDef {
  nameField?: string;
  levels?: number;
}

/** The object form of a form field (meta-schema `formField`), every option spelled out. */
export interface FormFieldObject {
  field: string;
  title?: string;
  span?: number;
  widget?: Widget;
  placeholder?: string;
  placeholderEn?: string;
  picker?: string;
  fill?: Record<string, string>;
  addOnly?: boolean;
  editOnly?: boolean;
  readonly?: boolean;
  visibleIf?: Expr;
  disabledIf?: Expr;
  upload?: UploadDef;
  lines?: LinesDef;
  area?: AreaDef;
  rules?: RuleName[];
}

/** A form field as the meta-schema's `formField`: a name, or an object. */
export type FormFieldDef = string | FormFieldObject;

export interface ActionDef {
  key: string;
  label: string;
  labelEn?: string;
  endpoint: string;
  /** Another resource whose endpoint this is (its entity gives the prompt's titles and rules). */
  resource?: string;
  /** Current values the prompt opens with, read from a GET call when one row is chosen. */
  prefill?: { endpoint: string; params?: Record<string, unknown>; fields: Record<string, string> };
  perm?: string;
  placement?: 'toolbar' | 'row' | 'both';
  batch?: boolean;
  confirm?: string;
  params?: Record<string, unknown>;
  prompt?: FormFieldDef[];
  visibleIf?: Expr;
  success?: string;
  danger?: boolean;
}

export interface ListBlock {
  columns?: (string | ColumnDef)[];
  endpoint?: string;
  index?: boolean;
  selection?: boolean;
  summary?: boolean;
  pageSize?: number;
  pageSizes?: number[];
  rowActionsWidth?: number;
  add?: boolean;
  edit?: boolean;
  remove?: boolean;
  view?: boolean;
  exportEndpoint?: string;
  importEndpoint?: string;
  lazyTree?: boolean;
}

export interface DetailTabDef {
  title: string;
  titleEn?: string;
  endpoint: string;
  params?: Record<string, unknown>;
  columns?: (string | ColumnDef)[];
  titles?: Record<string, string>;
  summary?: boolean;
}

export interface CardFieldDef {
  field: string;
  title?: string;
  format?: string;
  copy?: boolean;
  visibleIf?: Expr;
}

export interface CardBlock {
  endpoint?: string;
  title?: string;
  /** Shown when the endpoint returns no row. */
  emptyText?: string;
  emptyTextEn?: string;
  sections: { title?: string; fields: (string | CardFieldDef)[] }[];
  actions?: ActionDef[];
}

export type PageKind = 'list' | 'tree' | 'card' | 'dictionary';

/** The resource file with its view blocks typed. */
export interface ResourceViews {
  list?: ListBlock;
  search?: (string | SearchFieldDef)[];
  actions?: ActionDef[];
  detailTabs?: DetailTabDef[];
  page?: PageKind;
  card?: CardBlock;
}

export function viewsOf(resource: ResourceFile): ResourceViews {
  return resource as unknown as ResourceViews;
}

export const asColumn = (column: string | ColumnDef): ColumnDef =>
  typeof column === 'string' ? { field: column } : column;

export const asSearchField = (field: string | SearchFieldDef): SearchFieldDef =>
  typeof field === 'string' ? { field } : field;

export const asCardField = (field: string | CardFieldDef): CardFieldDef =>
  typeof field === 'string' ? { field } : field;

/** Base columns every table has; a column may name them without declaring them in the entity. */
const BASE_FIELDS: Record<string, FieldSchema> = {
  createTime: { title: '创建时间', 'x-titleEn': 'Created', type: 'string', format: 'date-time' },
  updateTime: { title: '修改时间', 'x-titleEn': 'Updated', type: 'string', format: 'date-time' },
  createUser: { title: '创建人', 'x-titleEn': 'Created by', type: 'string' },
  updateUser: { title: '修改人', 'x-titleEn': 'Updated by', type: 'string' },
  status: { title: '状态', 'x-titleEn': 'Status', type: 'integer', 'x-dict': 'status' },
};

export function fieldOf(resource: ResourceFile, name: string): FieldSchema | undefined {
  return resource.entity.properties[name] ?? BASE_FIELDS[name];
}

/** Fields a list shows when the schema declares no columns: plain, stored, short, non-secret ones. */
function defaultColumns(resource: ResourceFile): ColumnDef[] {
  return Object.entries(resource.entity.properties)
    .filter(
      ([name, field]) =>
        name !== 'id' && !field['x-secret'] && !field['x-lines'] && field.type !== 'array' && field.type !== 'object',
    )
    .filter(([, field]) => !(field['x-ref'] && !field['x-virtual']) && (field.maxLength ?? 0) < 1000)
    .slice(0, 16)
    .map(([name, field]) => ({
      field: name,
      // Status families carry display colours: show them as tags.
      tag: Boolean((field['x-dict'] || field['x-dictBiz']) && /status$/i.test(name)) || undefined,
    }));
}

export function listColumnsOf(resource: ResourceFile): ColumnDef[] {
  const declared = viewsOf(resource).list?.columns;
  return declared?.length ? declared.map(asColumn) : defaultColumns(resource);
}

export function endpointByOp(resource: ResourceFile, ...ops: Op[]): EndpointDef | undefined {
  for (const op of ops) {
    const found = resource.api.endpoints.find((endpoint) => endpoint.op === op);
    if (found) return found;
  }
  return undefined;
}

/**
 * The endpoint for a built-in duty: the form block's named endpoint, else by op, else a custom
 * endpoint at the conventional path (user `submit` is hand-written but still the submit call).
 */
export function dutyEndpoint(resource: ResourceFile, duty: 'submit' | 'detail' | 'remove'): EndpointDef | undefined {
  const form = resource.form as { submitEndpoint?: string; detailEndpoint?: string } | undefined;
  const named = duty === 'submit' ? form?.submitEndpoint : duty === 'detail' ? form?.detailEndpoint : undefined;
  if (named) return endpointByPath(resource, named);
  const ops: Op[] = duty === 'submit' ? ['submit', 'save'] : [duty];
  return endpointByOp(resource, ...ops) ?? endpointByPath(resource, duty);
}

export function endpointByPath(resource: ResourceFile, path: string): EndpointDef | undefined {
  return resource.api.endpoints.find((endpoint) => endpoint.path === path);
}

/** How the menu page shows the resource; inferred when the file does not say. */
export function pageKindOf(resource: ResourceFile): PageKind {
  const declared = viewsOf(resource).page;
  if (declared) return declared;
  if (viewsOf(resource).card) return 'card';
  if (endpointByOp(resource, 'parentList') && endpointByOp(resource, 'childList')) return 'dictionary';
  if (resource.table.tree && (endpointByOp(resource, 'lazyList') || !endpointByOp(resource, 'page'))) return 'tree';
  return 'list';
}

/** A tree page loads children on expand when the schema says so or when no nested list exists. */
export function isLazyTree(resource: ResourceFile): boolean {
  const declared = viewsOf(resource).list?.lazyTree;
  if (declared !== undefined) return declared && Boolean(endpointByOp(resource, 'lazyList'));
  return !endpointByOp(resource, 'list') && Boolean(endpointByOp(resource, 'lazyList'));
}

/** Button-code prefix of a resource (`<p>_add` …). */
export function permissionPrefix(resource: ResourceFile): string {
  return resource.permission ?? resource.resource.replace(/-/g, '');
}
