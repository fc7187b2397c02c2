import { website } from '../app/website.ts';

/**
 * Saber-compatible web storage: key `saber-<name>`, value
 * `{dataType, content, type, datetime}`; `type` set means sessionStorage.
 */
export interface StoredEntry<T> {
  dataType: string;
  content: T;
  type?: string;
  datetime: number;
}

export function storageKey(name: string): string {
  return `${website.storageKey}-${name}`;
}

function area(session: boolean): Storage {
  return session ? window.sessionStorage : window.localStorage;
}

export function setStore<T>(name: string, content: T, options: { session?: boolean } = {}): void {
  const entry: StoredEntry<T> = {
    dataType: typeof content,
    content,
    type: options.session ? 'session' : undefined,
    datetime: Date.now(),
  };
  try {
    area(Boolean(options.session)).setItem(storageKey(name), JSON.stringify(entry));
  } catch {
    // Quota or privacy mode: the shell keeps working from memory.
  }
}

/** Reads an entry from sessionStorage first, then localStorage. */
export function getStoreEntry<T>(name: string): StoredEntry<T> | undefined {
  const key = storageKey(name);
  const raw = window.sessionStorage.getItem(key) ?? window.localStorage.getItem(key);
  if (raw == null) return undefined;
  try {
    const parsed = JSON.parse(raw) as StoredEntry<T>;
    if (parsed && typeof parsed === 'object' && 'content' in parsed) return parsed;
  } catch {
    // A foreign or corrupt value is treated as absent.
  }
  return undefined;
}

export function getStore<T>(name: string): T | undefined {
  return getStoreEntry<T>(name)?.content;
}

export function removeStore(name: string): void {
  const key = storageKey(name);
  window.sessionStorage.removeItem(key);
  window.localStorage.removeItem(key);
}
