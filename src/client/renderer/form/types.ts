/**
 * The `form`, `pickers`, `upload` and `lines` blocks of a resource file, typed by the meta-schema
 * (schemas/meta/resource.schema.json) through src/generated/meta.ts; the form reads them here.
 */
import type * as Meta from '../../../generated/meta.ts';
import type { ResourceFile } from '../../../shared/resource.ts';
import type { AreaDef, FormFieldDef, FormFieldObject, LinesDef, UploadDef, Widget } from '../common/views.ts';

export type { AreaDef, FormFieldDef, FormFieldObject, LinesDef, UploadDef, Widget };

export type FormSection = Meta.FormSection;
export type FormTab = NonNullable<FormBlock['tabs']>[number];
export type FormBlock = Meta.Form;
export type PickerDef = Meta.Picker;

export function formBlockOf(resource: ResourceFile): FormBlock {
  return resource.form ?? {};
}

export function pickersOf(resource: ResourceFile): Record<string, PickerDef> {
  return resource.pickers ?? {};
}

export function asFormField(def: FormFieldDef): FormFieldObject {
  return typeof def === 'string' ? { field: def } : def;
}

export type FormMode = 'add' | 'edit' | 'view';
export type Values = Record<string, unknown>;
