/**
 * The view blocks of a resource file, typed by the meta-schema (schemas/meta/resource.schema.json)
 * through src/generated/meta.ts (`npm run gen:types`); the names the renderer uses alias them.
 */
import type * as Meta from '../../../generated/meta.ts';
import type { EndpointDef, FieldSchema, Op, ResourceFile } from '../../../shared/resource.ts';

export type ColumnDef = Meta.Column;
export type ColumnFormat = NonNullable<ColumnDef['format']>;

export type Widget = Meta.Widget;

/** The object form of a search field (meta-schema `searchField`). */
export type SearchFieldDef = Exclude<Meta.SearchField, string>;
export type SearchOp = NonNullable<SearchFieldDef['op']>;

export type UploadDef = Meta.Upload;
export type LinesDef = Meta.Lines;

/** The object form of a form field (meta-schema `formField`), every option spelled out. */
export type FormFieldObject = Exclude<Meta.FormField, string>;
export type AreaDef = NonNullable<FormFieldObject['area']>;

/** A form field as the meta-schema's `formField`: a name, or an object. */
export type FormFieldDef = Meta.FormField;

export type ActionDef = Meta.Action;
export type ListBlock = Meta.List;
export type ChartDef = Meta.Chart;
export type DetailTabDef = Meta.DetailTab;
export type CardBlock = Meta.Card;
/** The object form of a card section's field. */
export type CardFieldDef = Exclude<CardBlock['sections'][number]['fields'][number], string>;

export type PageKind = NonNullable<Meta.ResourceFileSchema['page']>;

/** The resource file's view blocks. */
export type ResourceViews = Pick<ResourceFile, 'list' | 'search' | 'actions' | 'detailTabs' | 'page' | 'card'>;

export function viewsOf(resource: ResourceFile): ResourceViews {
  return resource;
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
  const form = resource.form;
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

/**
 * The resource as another menu page lists it (list.views[menu path]: 待签事务 over the tasks): the
 * view's title, endpoint, columns and actions on a copy of the schema; undefined for other pages.
 */
export function menuViewOf(resource: ResourceFile, menuPath: string): ResourceFile | undefined {
  const view = resource.list?.views?.[menuPath];
  if (!view) return undefined;
  return {
    ...resource,
    title: view.title,
    titleEn: view.titleEn ?? resource.titleEn,
    list: { ...resource.list, endpoint: view.endpoint, columns: view.columns ?? resource.list?.columns, add: view.add ?? resource.list?.add, views: undefined },
    actions: view.actions ?? [],
  };
}

/** An action's route with $row.<field> segments filled from the row (each one URI-encoded). */
export function actionRoute(route: string, row: Record<string, unknown> | undefined): string {
  return route.replace(/\$row\.([A-Za-z0-9_]+)/g, (_, field: string) => encodeURIComponent(String(row?.[field] ?? '')));
}
