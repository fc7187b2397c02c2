/** The line grid's columns: the form's `lines.fields` in order, each given the kind of cell it needs. */
import type { DocumentDef } from '../../../shared/document.ts';
import type { ResourceFile } from '../../../shared/resource.ts';
import type { Places } from '../../../shared/money/index.ts';
import type { LineColumn } from '../../bespoke/lines/LineGrid.tsx';
import { figureFields, priceInputField } from '../../bespoke/lines/lineModel.ts';
import { formBlockOf } from '../form/types.ts';
import type { FormFieldDef, FormFieldObject } from '../common/views.ts';

const INPUT_FIGURES = new Set(['qty', 'taxRate', 'discountRate', 'couponAmt']);

function asObject(def: FormFieldDef): FormFieldObject {
  return typeof def === 'string' ? { field: def } : def;
}

export function lineFormFields(resource: ResourceFile, linesField: string): FormFieldObject[] {
  const block = formBlockOf(resource);
  const all = [...(block.fields ?? []), ...(block.groups ?? []).flatMap((g) => g.fields)].map(asObject);
  return all.find((f) => f.field === linesField)?.lines?.fields.map(asObject) ?? [];
}

export function lineColumnsOf(resource: ResourceFile, lineResource: ResourceFile, doc: DocumentDef, places: Places, language: 'zh' | 'en'): LineColumn[] {
  const figures = figureFields(doc);
  const input = priceInputField(doc);
  const fields = lineFormFields(resource, doc.lines!).map((f) => f.field);
  // The computed tax-exclusive price and amount always show, beside what the form lists (a bill without prices has none).
  for (const [after, extra] of doc.amounts ? ([[input, input === figures.price ? 'taxPrice' : figures.price], ['totalAmt', figures.amount]] as const) : []) {
    if (fields.includes(extra)) continue;
    const at = fields.indexOf(after);
    fields.splice(at < 0 ? fields.length : at + 1, 0, extra);
  }
  const props = lineResource.entity.properties;
  const byName = new Map(lineFormFields(resource, doc.lines!).map((f) => [f.field, f]));
  return fields.map((field) => {
    const prop = props[field];
    const title = (language === 'en' ? (prop?.['x-titleEn'] as string | undefined) : undefined) ?? prop?.title ?? field;
    const decimal = prop?.['x-decimal'];
    const places_ = decimal === 'price' ? places.price : decimal === 'amount' ? places.amount : decimal === 'quantity' ? places.quantity : undefined;
    let kind: LineColumn['kind'] = 'text';
    if (field === 'commInfoId') kind = 'goods';
    else if (field === 'unitId') kind = 'unit';
    else if (field === 'isGift') kind = 'gift';
    else if (decimal !== undefined) kind = field === input || INPUT_FIGURES.has(field) || field === doc.settle?.lineAmount || field === doc.items?.amount || field === doc.lineValue?.price || field === doc.count?.counted || field === doc.posting?.valueField || Boolean(doc.lineCheck) ? 'decimal' : 'readonly';
    if (byName.get(field)?.readonly || (prop?.['x-readonly'] && field !== doc.lineValue?.price) || prop?.['x-virtual']) kind = kind === 'goods' || kind === 'unit' ? kind : 'readonly';
    // taxRate is typed as a percent with two places.
    const dict = prop?.['x-dict'] as string | undefined;
    // A read-only dictionary cell (单据类型) shows the item's name; a gift keeps its checkbox.
    return { field, title, kind, places: field === 'taxRate' || field === 'discountRate' ? 2 : places_, ...(dict && kind === 'readonly' ? { dict: prop } : {}) };
  });
}
