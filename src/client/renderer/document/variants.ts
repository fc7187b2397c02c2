/**
 * A bill of several kinds (document.variants, 收支单) as one kind's menu page shows it: the menu
 * leaf's bill type picks the kind (费用单 0855 → expendType 6002). The page works on a copy of the
 * schema: the kind's title, its value as the field's default (a new bill takes it), and neither
 * the kind field nor fields of other kinds (x-variants) in the form, list and search; its list
 * asks only for bills of that kind.
 */
import { variantByBillType } from '../../../shared/document.ts';
import type { ResourceFile } from '../../../shared/resource.ts';

export interface VariantPage {
  resource: ResourceFile;
  /** Sent with every list call: the kind's value. */
  fixedParams: Record<string, string>;
}

type Named = string | { field: string; variants?: (string | number)[]; lines?: { fields: Named[] } };
const nameOf = (item: Named) => (typeof item === 'string' ? item : item.field);

export function variantPage(resource: ResourceFile, billType: string | undefined): VariantPage | undefined {
  const doc = resource.document;
  const variant = variantByBillType(doc, billType);
  if (!doc?.variants || !variant) return undefined;
  const field = doc.variants.field;
  const props = resource.entity.properties;
  const belongs = (name: string) => {
    const kinds = props[name]?.['x-variants'] as (string | number)[] | undefined;
    return name !== field && (!kinds || kinds.some((k) => String(k) === String(variant.value)));
  };
  // A form field or line column may name its kinds itself (营销活动: 折扣 only on 商品促销).
  const shown = (item: Named) => typeof item === 'string' || !item.variants || item.variants.some((k) => String(k) === String(variant.value));
  const keep = <T extends Named>(items: T[] | undefined): T[] | undefined =>
    items?.filter((item) => belongs(nameOf(item)) && shown(item)).map((item) => (typeof item === 'object' && item.lines ? { ...item, lines: { ...item.lines, fields: item.lines.fields.filter(shown) } } : item));
  const form = resource.form;
  return {
    fixedParams: { [field]: String(variant.value) },
    resource: {
      ...resource,
      title: variant.title,
      titleEn: variant.titleEn ?? resource.titleEn,
      entity: { ...resource.entity, properties: { ...props, [field]: { ...props[field], default: variant.value } } },
      form: form && {
        ...form,
        fields: keep(form.fields),
        groups: form.groups?.map((g) => ({ ...g, fields: keep(g.fields)! })),
        tabs: form.tabs?.map((t) => ({ ...t, fields: keep(t.fields), groups: t.groups?.map((g) => ({ ...g, fields: keep(g.fields)! })) })),
      },
      list: resource.list && { ...resource.list, columns: keep(resource.list.columns) },
      search: keep(resource.search),
    },
  };
}
