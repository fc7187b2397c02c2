import { useEffect, useState } from 'react';
import { fetchDictionary } from '../api/shell.ts';
import type { DictItem } from '../api/types.ts';

/**
 * Dictionary cache: each code is fetched once per session (system `dict` or tenant `dict-biz`)
 * and shared by every caller; "clear cache" empties it.
 */
const cache = new Map<string, Promise<DictItem[]>>();

function cacheKey(code: string, business: boolean): string {
  return `${business ? 'biz' : 'sys'}:${code}`;
}

export function loadDictionary(code: string, options: { business?: boolean } = {}): Promise<DictItem[]> {
  const business = Boolean(options.business);
  const key = cacheKey(code, business);
  let pending = cache.get(key);
  if (!pending) {
    pending = fetchDictionary(code, business).then((items) => (Array.isArray(items) ? items : []));
    // A failed fetch is not cached, so the next caller tries again.
    pending.catch(() => cache.delete(key));
    cache.set(key, pending);
  }
  return pending;
}

export function clearDictionaryCache(): void {
  cache.clear();
}

/** Items of a dictionary for a component; empty while loading. */
export function useDictionary(code: string, options: { business?: boolean } = {}): DictItem[] {
  const [items, setItems] = useState<DictItem[]>([]);
  const business = Boolean(options.business);
  useEffect(() => {
    let active = true;
    loadDictionary(code, { business }).then(
      (loaded) => active && setItems(loaded),
      () => active && setItems([]),
    );
    return () => {
      active = false;
    };
  }, [code, business]);
  return items;
}
