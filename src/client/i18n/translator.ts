import { useCallback } from 'react';
import { useSettings, type Language } from '../store/settings.ts';

/**
 * The one translation helper: each area of the client (shell, list renderer, form, bill page,
 * workflow, printing) keeps its own zh/en string map beside its code and gets its `text` (outside
 * React: grid callbacks, validation, printing) and `useText` (re-renders on a language change)
 * from here. `{name}` in a string is replaced by the parameter of that name.
 */
export type TextParams = Record<string, string | number>;
export type Translate<K extends string> = (key: K, params?: TextParams) => string;

export function formatText(template: string, params?: TextParams): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export function translator<K extends string>(zh: Record<K, string>, en: Record<K, string>): { text: Translate<K>; useText: () => Translate<K> } {
  const maps: Record<Language, Record<K, string>> = { zh, en };
  const lookup = (language: Language, key: K, params?: TextParams) => formatText(maps[language][key] ?? zh[key], params);
  return {
    text: (key, params) => lookup(useSettings.getState().language, key, params),
    useText: () => {
      const language = useSettings((s) => s.language);
      return useCallback((key: K, params?: TextParams) => lookup(language, key, params), [language]);
    },
  };
}

/** A map in the language of the moment, for code that reads many strings at once (a printed receipt). */
export function inLanguage<T>(zh: T, en: T): T {
  return useSettings.getState().language === 'en' ? en : zh;
}

/** A label in the current language: the English variant when present and English is active. */
export function useLocalizedLabel(): (zhLabel: string, enLabel?: string) => string {
  const language = useSettings((s) => s.language);
  return useCallback((zhLabel: string, enLabel?: string) => (language === 'en' && enLabel ? enLabel : zhLabel), [language]);
}
