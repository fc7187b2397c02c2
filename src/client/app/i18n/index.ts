import { useCallback } from 'react';
import { useSettings, type Language } from '../../store/settings.ts';
import { en } from './en.ts';
import { zh, type MessageKey } from './zh.ts';

export type { MessageKey };
export type MessageParams = Record<string, string | number>;

const dictionaries: Record<Language, Record<MessageKey, string>> = { zh, en };

function format(template: string, params?: MessageParams): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** Translates outside React (HTTP client, stores) with the current language. */
export function translate(key: MessageKey, params?: MessageParams): string {
  const language = useSettings.getState().language;
  return format(dictionaries[language][key] ?? zh[key], params);
}

export type Translate = (key: MessageKey, params?: MessageParams) => string;

/** Translation hook: re-renders the caller when the language changes. */
export function useT(): Translate {
  const language = useSettings((s) => s.language);
  return useCallback(
    (key: MessageKey, params?: MessageParams) => format(dictionaries[language][key] ?? zh[key], params),
    [language],
  );
}

/** A label in the current language: the English variant when present and English is active. */
export function useLocalizedLabel(): (zhLabel: string, enLabel?: string) => string {
  const language = useSettings((s) => s.language);
  return useCallback(
    (zhLabel: string, enLabel?: string) => (language === 'en' && enLabel ? enLabel : zhLabel),
    [language],
  );
}
