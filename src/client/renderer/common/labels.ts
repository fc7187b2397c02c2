import type { ResourceFile } from '../../../shared/resource.ts';
import { fieldOf, type ColumnDef } from './views.ts';

/** Column or field title in the active language: the column's own, else the entity's. */
export function columnTitle(
  resource: ResourceFile,
  column: Pick<ColumnDef, 'field' | 'title' | 'titleEn'>,
  language: 'zh' | 'en',
  extraTitles?: Record<string, string>,
): string {
  const field = fieldOf(resource, column.field);
  if (language === 'en') {
    const en = column.titleEn ?? (column.title ? undefined : field?.['x-titleEn']);
    if (en) return en;
  }
  return column.title ?? extraTitles?.[column.field] ?? field?.title ?? column.field;
}

export function resourceTitle(resource: ResourceFile, language: 'zh' | 'en'): string {
  return language === 'en' && resource.titleEn ? resource.titleEn : resource.title;
}
