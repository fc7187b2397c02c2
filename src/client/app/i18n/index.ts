import { translator } from '../../i18n/translator.ts';
import { en } from './en.ts';
import { zh, type MessageKey } from './zh.ts';

export type { MessageKey };
export type { TextParams as MessageParams } from '../../i18n/translator.ts';
export { useLocalizedLabel } from '../../i18n/translator.ts';

const shell = translator<MessageKey>(zh, en);

/** Translates outside React (HTTP client, stores) with the current language. */
export const translate = shell.text;

export type Translate = ReturnType<typeof shell.useText>;

/** Translation hook: re-renders the caller when the language changes. */
export const useT = shell.useText;
