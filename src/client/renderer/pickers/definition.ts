/**
 * The picker a resource offers to fields of other resources: its own `pickers` block entry, or
 * one derived from the resource (tree resources get a tree picker, others a table picker on
 * their page endpoint with their list columns and search fields).
 */
import type { EndpointDef, ResourceFile } from '../../../shared/resource.ts';
import { endpointUrl } from '../common/endpoint.ts';
import {
  asColumn,
  asSearchField,
  endpointByOp,
  endpointByPath,
  listColumnsOf,
  viewsOf,
  type ColumnDef,
  type SearchFieldDef,
} from '../common/views.ts';
import { pickersOf, type PickerDef } from '../form/types.ts';

export type PickerKind = 'table' | 'tree' | 'autocomplete';

export interface ResolvedPicker extends Omit<PickerDef, 'columns' | 'search' | 'endpoint'> {
  kind: PickerKind;
  title: string;
  url: string;
  endpointDef: EndpointDef | undefined;
  valueField: string;
  labelField: string;
  columns: ColumnDef[];
  search: SearchFieldDef[];
  pageSize: number;
  /** Tree pickers on a lazy endpoint load children on expand with this parameter. */
  lazyParam?: string;
}

const MAX_COLUMNS = 6;

function labelFieldOf(resource: ResourceFile, columns: ColumnDef[]): string {
  if (resource.table.tree) return resource.table.tree.titleField;
  const named = columns.find(
    (column) => /name$/i.test(column.field) && !resource.entity.properties[column.field]?.['x-virtual'],
  );
  return named?.field ?? columns[0]?.field ?? 'id';
}

/** The title shown in messages ("最多选择N个<title>"): the dialog title without its trailing 选择. */
export function pickerSubject(picker: ResolvedPicker): string {
  return picker.title.replace(/选择$/, '').replace(/^Select /, '');
}

export function resolvePicker(resource: ResourceFile, name = 'default', forceTree = false): ResolvedPicker {
  const { endpoint: declaredPath, ...declared }: Partial<PickerDef> = pickersOf(resource)[name] ?? pickersOf(resource).default ?? {};
  const kind: PickerKind = forceTree ? 'tree' : (declared.kind ?? (resource.table.tree ? 'tree' : 'table'));
  const entityTitle = typeof resource.entity.title === 'string' ? resource.entity.title : resource.title;

  let endpoint = declaredPath ? endpointByPath(resource, declaredPath) : undefined;
  if (!endpoint) {
    endpoint =
      kind === 'tree'
        ? endpointByOp(resource, 'tree', 'lazyTree', 'list')
        : endpointByOp(resource, 'page', 'list', 'select');
  }
  const path = declaredPath ?? endpoint?.path ?? 'list';
  const columns = (declared.columns?.map(asColumn) ?? listColumnsOf(resource)).slice(0, MAX_COLUMNS);
  const searchable = declared.search ?? viewsOf(resource).search ?? [];
  const lazy = kind === 'tree' && endpoint?.op === 'lazyTree';
  const keyField = resource.table.tree?.keyField;

  return {
    ...declared,
    kind,
    title: declared.title ?? `${entityTitle}选择`,
    url: endpointUrl(resource, path),
    endpointDef: endpoint,
    // Tree endpoints answer TreeNodes: value/key and title.
    valueField: declared.value ?? (kind === 'tree' ? 'value' : 'id'),
    labelField: declared.label ?? (kind === 'tree' ? 'title' : labelFieldOf(resource, columns)),
    columns,
    search: searchable.map(asSearchField).slice(0, 3),
    pageSize: declared.pageSize ?? 10,
    lazyParam: lazy ? (keyField === 'code' ? 'parentCode' : 'parentId') : undefined,
  };
}
