import { pageByCode, pageByPath, resourceNames } from '../../../generated/pages.ts';
import type { PageMenu } from '../../app/pages.ts';

export type DictionaryLayout = 'horizontal' | 'vertical';

/** Fixed dictionary routes of spec §2: the system dictionary, side by side or stacked. */
const DICTIONARY_ROUTES: Record<string, { resource: string; layout: DictionaryLayout }> = {
  '/dict-horizontal/index': { resource: 'dict', layout: 'horizontal' },
  '/dict-vertical/index': { resource: 'dict', layout: 'vertical' },
};

export interface PageTarget {
  resource: string | undefined;
  layout?: DictionaryLayout;
  /** The menu's bill type: picks the kind of a bill with variants (收支单: 费用单 or 其他收入单). */
  billType?: string;
}

/** The resource a menu shows: by path, then by code; a history route shows its menu's resource. */
export function pageTargetOf(menu: PageMenu): PageTarget {
  const target = menu.historyOf ?? menu;
  const fixed = DICTIONARY_ROUTES[target.path];
  if (fixed) return fixed;
  const named = target.resource ? target.resource.split('/').pop() : undefined;
  return {
    billType: target.billType || undefined,
    resource:
      pageByPath[target.path] ?? pageByCode[target.code] ?? (named && resourceNames.has(named) ? named : undefined),
  };
}
