import { useMemo } from 'react';
import type { FieldSchema } from '../../../shared/resource.ts';
import { useDictionary } from '../common/useDictionary.ts';
import { useSettings } from '../../store/settings.ts';

export interface ChoiceOption {
  label: string;
  value: string | number;
}

/** A dictionary key in the field's own type: integer fields hold numbers, others strings. */
export function typedKey(prop: FieldSchema, key: unknown): string | number {
  if ((prop.type === 'integer' || prop.type === 'number') && /^-?\d+(\.\d+)?$/.test(String(key))) return Number(key);
  return String(key);
}

/** Options of a choice field: its dictionary (x-dict / x-dictBiz) or its enum. */
export function useChoiceOptions(prop: FieldSchema): ChoiceOption[] {
  const items = useDictionary(prop);
  const language = useSettings((s) => s.language);
  return useMemo(() => {
    if (items.length) {
      return items.map((item) => ({
        label: language === 'en' && item.valueEn ? item.valueEn : item.dictValue,
        value: typedKey(prop, item.dictKey),
      }));
    }
    if (Array.isArray(prop.enum))
      return prop.enum.map((value) => ({ label: String(value), value: value as string | number }));
    return [];
  }, [items, language, prop]);
}

/** Comma-joined multi values ↔ arrays. */
export function splitMulti(prop: FieldSchema, value: unknown): (string | number)[] {
  if (value === null || value === undefined || value === '') return [];
  const parts = Array.isArray(value) ? value : String(value).split(',');
  return parts.filter((part) => part !== '').map((part) => typedKey(prop, part));
}
