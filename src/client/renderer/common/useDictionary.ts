import { useEffect, useMemo, useState } from 'react';
import type { DictItem } from '../../api/types.ts';
import { loadDictionary } from '../../store/dicts.ts';
import type { FieldSchema } from '../../../shared/resource.ts';

/** A dictionary item as `/dictionary` answers it (colour and icon drive tags and ticks). */
export interface DictEntry extends DictItem {
  valueEn?: string;
  color?: string;
  icon?: string;
}

export interface DictSource {
  code: string;
  business: boolean;
}

/** The dictionary a field's values come from (`x-dict` system, `x-dictBiz` tenant), if any. */
export function dictSourceOf(field: FieldSchema | undefined): DictSource | undefined {
  if (!field) return undefined;
  if (field['x-dict']) return { code: field['x-dict'], business: false };
  if (field['x-dictBiz']) return { code: field['x-dictBiz'], business: true };
  return undefined;
}

export function loadFieldDictionary(field: FieldSchema | undefined): Promise<DictEntry[]> {
  const source = dictSourceOf(field);
  if (!source) return Promise.resolve([]);
  return loadDictionary(source.code, { business: source.business }) as Promise<DictEntry[]>;
}

/** Items of the field's dictionary; empty while loading or when the field has none. */
export function useDictionary(field: FieldSchema | undefined): DictEntry[] {
  const source = dictSourceOf(field);
  const code = source?.code;
  const business = source?.business ?? false;
  const [items, setItems] = useState<DictEntry[]>([]);
  useEffect(() => {
    if (!code) {
      setItems([]);
      return;
    }
    let active = true;
    loadDictionary(code, { business }).then(
      (loaded) => active && setItems(loaded as DictEntry[]),
      () => active && setItems([]),
    );
    return () => {
      active = false;
    };
  }, [code, business]);
  return items;
}

/** Dictionaries of several fields at once (a list's columns), keyed by field name. */
/** The dictionaries of several fields, and whether they have all arrived (`ready`). */
export function useDictionariesState(fields: Record<string, FieldSchema | undefined>): { maps: Record<string, DictEntry[]>; ready: boolean } {
  const wanted = useMemo(
    () =>
      Object.entries(fields)
        .map(([name, field]) => [name, dictSourceOf(field)] as const)
        .filter((entry): entry is readonly [string, DictSource] => Boolean(entry[1])),
    [fields],
  );
  const signature = wanted.map(([name, s]) => `${name}=${s.business ? 'biz' : 'sys'}:${s.code}`).join('|');
  const [state, setState] = useState<{ signature: string; maps: Record<string, DictEntry[]> }>({ signature: '', maps: {} });
  useEffect(() => {
    let active = true;
    Promise.all(
      wanted.map(([name, s]) =>
        loadDictionary(s.code, { business: s.business }).then(
          (items) => [name, items as DictEntry[]] as const,
          () => [name, [] as DictEntry[]] as const,
        ),
      ),
    ).then((entries) => active && setState({ signature, maps: Object.fromEntries(entries) }));
    return () => {
      active = false;
    };
    // The signature captures every input of `wanted`.
  }, [signature]);
  return { maps: state.maps, ready: state.signature === signature };
}

export function useDictionaries(fields: Record<string, FieldSchema | undefined>): Record<string, DictEntry[]> {
  return useDictionariesState(fields).maps;
}

export function dictItemOf(items: DictEntry[] | undefined, value: unknown): DictEntry | undefined {
  if (!items?.length || value === null || value === undefined || value === '') return undefined;
  const key = String(value);
  return items.find((item) => String(item.dictKey) === key);
}
