/**
 * Typed `form`, `pickers`, `upload` and `lines` blocks of a resource file
 * (schemas/meta/resource.schema.json). ResourceFile keeps them loose; the form reads them here.
 */
import type { ResourceFile } from '../../../shared/resource.ts';
import type { AreaDef, ColumnDef, FormFieldDef, FormFieldObject, LinesDef, SearchFieldDef, UploadDef, Widget } from '../common/views.ts';

export type { AreaDef, FormFieldDef, FormFieldObject, LinesDef, UploadDef, Widget };

export interface FormSection {
  title: string;
  titleEn?: string;
  fields: FormFieldDef[];
}

export interface FormTab {
  title: string;
  titleEn?: string;
  fields?: FormFieldDef[];
  groups?: FormSection[];
}

export interface FormBlock {
  width?: number;
  labelWidth?: number;
  span?: number;
  mode?: 'dialog' | 'drawer';
  fields?: FormFieldDef[];
  groups?: FormSection[];
  tabs?: FormTab[];
  detailEndpoint?: string;
  submitEndpoint?: string;
}

export interface PickerDef {
  title: string;
  kind?: 'table' | 'tree' | 'autocomplete';
  endpoint?: string;
  columns?: (string | ColumnDef)[];
  search?: (string | SearchFieldDef)[];
  label?: string;
  value?: string;
  multiple?: boolean;
  max?: number;
  pageSize?: number;
  keywordSearch?: boolean;
  lastLevelOnly?: boolean;
  /** The tree is this key of an object answer (grant-tree: menu, dataScope, apiScope). */
  answerKey?: string;
  rootTitle?: string;
  emptyMessage?: string;
  requires?: { field?: string; message?: string };
}

export function formBlockOf(resource: ResourceFile): FormBlock {
  return (resource.form ?? {}) as FormBlock;
}

export function pickersOf(resource: ResourceFile): Record<string, PickerDef> {
  return (resource.pickers ?? {}) as Record<string, PickerDef>;
}

export function asFormField(def: FormFieldDef): FormFieldObject {
  return (typeof def === 'string' ? { field: def } : def) as FormFieldObject;
}

export type FormMode = 'add' | 'edit' | 'view';
export type Values = Record<string, unknown>;
