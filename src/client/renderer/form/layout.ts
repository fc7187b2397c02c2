/**
 * Normalises a resource's `form` block (fields / groups / tabs, spans, mode flags) into the
 * field specs the form renders, and derives each field's widget from the entity when the
 * schema does not name one.
 */
import type { FieldSchema, ResourceFile } from '../../../shared/resource.ts';
import { fieldOf } from '../common/views.ts';
import {
  asFormField,
  formBlockOf,
  type FormBlock,
  type FormFieldDef,
  type FormFieldObject,
  type FormMode,
  type Widget,
} from './types.ts';

export interface FieldSpec {
  name: string;
  prop: FieldSchema;
  def: FormFieldObject;
  widget: Widget;
  span: number;
  title: string;
  titleEn?: string;
  /** Required by the entity's `required` list (x-requiredIf is evaluated with the values). */
  required: boolean;
  /** Shown but not editable (view mode, `readonly`, server-owned fields). */
  readonly: boolean;
  /** Resource a picker field picks from: its x-ref, or the form's own resource for a field naming one of its pickers. */
  ref?: string;
  /** Display field a picker fills from the picked row (entity lookups: roleId → roleName). */
  lookup?: { field: string; take: string };
  /** Every lookup reading from this id (goodsId → code, name, unit), all filled on a pick. */
  lookups?: { field: string; take: string }[];
}

export interface LayoutSection {
  title?: string;
  titleEn?: string;
  fields: string[];
}

export interface LayoutTab {
  key: string;
  title: string;
  titleEn?: string;
  sections: LayoutSection[];
}

export interface FormLayout {
  /** Tabs when the form declares them; otherwise one unnamed tab holds every section. */
  tabs: LayoutTab[] | undefined;
  sections: LayoutSection[];
  specs: Map<string, FieldSpec>;
  /** Field names in layout order (validation order, first error focus). */
  order: string[];
  width: number;
  labelWidth: number;
  container: 'dialog' | 'drawer';
}

const FULL_ROW_WIDGETS = new Set<Widget>(['textarea', 'lines', 'upload', 'json']);

/** The widget a field gets when the form does not name one. */
export function deriveWidget(name: string, prop: FieldSchema): Widget {
  if (prop['x-lines']) return 'lines';
  if (prop['x-ref']) return 'picker';
  if (prop['x-dict'] || prop['x-dictBiz'] || Array.isArray(prop.enum)) return 'select';
  if (prop.type === 'array') return (prop.items as { type?: unknown } | undefined)?.type === 'string' ? 'textList' : 'upload';
  if (prop['x-decimal'] !== undefined) return 'money';
  if (prop.type === 'integer' || prop.type === 'number') return 'number';
  if (prop.type === 'boolean') return 'switch';
  if (prop.format === 'date') return 'date';
  if (prop.format === 'date-time') return 'datetime';
  if (typeof prop.pattern === 'string' && prop.pattern.includes('\\d{4}-\\d{2}-\\d{2}')) {
    // A time part (even optional) means the value travels as yyyy-MM-dd HH:mm:ss.
    return prop.pattern.includes(':') ? 'datetime' : 'date';
  }
  if (prop['x-secret'] || /password/i.test(name)) return 'password';
  if (typeof prop.maxLength === 'number' && prop.maxLength > 500) return 'textarea';
  return 'input';
}

/** Fields a form shows when the schema declares none: stored, user-owned ones. */
function defaultFields(resource: ResourceFile, mode: FormMode): FormFieldDef[] {
  return Object.entries(resource.entity.properties)
    .filter(([name, prop]) => name !== 'id' && !prop['x-virtual'])
    .filter(([, prop]) => mode === 'view' || !prop['x-readonly'])
    .filter(([, prop]) => !prop['x-secret'] || mode === 'add')
    .map(([name]) => name);
}

function visibleInMode(def: FormFieldObject, mode: FormMode): boolean {
  if (def.addOnly && mode !== 'add') return false;
  if (def.editOnly && mode === 'add') return false;
  return true;
}

function specOf(resource: ResourceFile, def: FormFieldObject, mode: FormMode, defaultSpan: number): FieldSpec {
  const prop = fieldOf(resource, def.field) ?? { title: def.field };
  const widget = def.widget ?? (def.picker && !prop['x-ref'] ? 'picker' : deriveWidget(def.field, prop));
  // Several lookups may read from one id (goods → code, name, unit): the input shows the name.
  const lookups = (resource.lookups ?? []).flatMap((entry) => (entry.from === def.field && entry.take ? [{ field: entry.field, take: entry.take }] : []));
  const lookup = lookups.find((entry) => /name$/i.test(entry.field)) ?? lookups[0];
  return {
    name: def.field,
    prop,
    def,
    widget,
    span: def.span ?? (FULL_ROW_WIDGETS.has(widget) ? 24 : defaultSpan),
    title: def.title ?? prop.title,
    titleEn: def.title ? undefined : prop['x-titleEn'],
    required: Boolean(resource.entity.required?.includes(def.field)),
    readonly: mode === 'view' || Boolean(def.readonly) || Boolean(prop['x-readonly']),
    ref: typeof prop['x-ref'] === 'string' ? prop['x-ref'] : def.picker ? resource.resource : undefined,
    lookup: lookup ? { field: lookup.field, take: lookup.take } : undefined,
    lookups: lookups.length ? lookups.map((entry) => ({ field: entry.field, take: entry.take })) : undefined,
  };
}

/** Specs of a list of fields (the columns of a lines editor), in the given mode. */
export function buildFieldSpecs(resource: ResourceFile, defs: FormFieldDef[], mode: FormMode): FieldSpec[] {
  return defs
    .map(asFormField)
    .filter((def) => visibleInMode(def, mode))
    .map((def) => specOf(resource, def, mode, 24));
}

/** Builds the layout of a resource's form for one mode (add-only / edit-only fields filtered). */
export function buildLayout(resource: ResourceFile, mode: FormMode, override?: FormBlock): FormLayout {
  const block = override ?? formBlockOf(resource);
  const defaultSpan = block.span ?? 12;
  const specs = new Map<string, FieldSpec>();
  const order: string[] = [];

  const section = (title: string | undefined, titleEn: string | undefined, defs: FormFieldDef[]): LayoutSection => {
    const fields: string[] = [];
    for (const raw of defs) {
      const def = asFormField(raw);
      if (!visibleInMode(def, mode) || specs.has(def.field)) continue;
      specs.set(def.field, specOf(resource, def, mode, defaultSpan));
      fields.push(def.field);
      order.push(def.field);
    }
    return { title, titleEn, fields };
  };

  let tabs: LayoutTab[] | undefined;
  const sections: LayoutSection[] = [];
  if (block.tabs?.length) {
    tabs = block.tabs.map((tab, index) => ({
      key: String(index),
      title: tab.title,
      titleEn: tab.titleEn,
      sections: [
        ...(tab.fields?.length ? [section(undefined, undefined, tab.fields)] : []),
        ...(tab.groups ?? []).map((group) => section(group.title, group.titleEn, group.fields)),
      ],
    }));
  } else {
    if (block.fields?.length) sections.push(section(undefined, undefined, block.fields));
    for (const group of block.groups ?? []) sections.push(section(group.title, group.titleEn, group.fields));
    if (!sections.length) sections.push(section(undefined, undefined, defaultFields(resource, mode)));
  }

  return {
    tabs,
    sections,
    specs,
    order,
    width: block.width ?? 800,
    labelWidth: block.labelWidth ?? 100,
    container: block.mode ?? 'dialog',
  };
}
