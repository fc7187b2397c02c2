/**
 * Typed `form`, `pickers`, `upload` and `lines` blocks of a resource file
 * (schemas/meta/resource.schema.json). ResourceFile keeps them loose; the form reads them here.
 */
import type { Expr } from '../../../shared/expr.ts';
import type { RuleName } from '../../../shared/validators.ts';
import type { ResourceFile } from '../../../shared/resource.ts';
import type { ColumnDef, FormFieldDef, SearchFieldDef, Widget } from '../common/views.ts';

export type { FormFieldDef, Widget };

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
  itemSchema?: string;
  min?: number;
  max?: number;
  uniqueBy?: { field?: string; message?: string };
}

export interface AreaDef {
  nameField?: string;
  levels?: number;
}

/** The object form of a form field, every option spelled out. */
export interface FormFieldObject {
  field: string;
  title?: string;
  span?: number;
  widget?: Widget;
  placeholder?: string;
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
