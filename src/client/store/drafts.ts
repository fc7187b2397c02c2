import { getStore, removeStore, setStore } from './storage.ts';

/**
 * Unsaved form input that must survive a forced sign-out (401). Forms register a getter;
 * when the session is lost every getter is read into storage, and after signing in again
 * the form takes its draft back once.
 */
type DraftSource = () => unknown;

const sources = new Map<string, DraftSource>();
const INDEX = 'draftKeys';

function draftName(key: string): string {
  return `draft:${key}`;
}

/** Registers a form's draft getter; returns the unregister function. */
export function registerDraft(key: string, source: DraftSource): () => void {
  sources.set(key, source);
  return () => {
    if (sources.get(key) === source) sources.delete(key);
  };
}

/** Writes every registered form's current values to storage. */
export function persistDrafts(): void {
  const keys = new Set(getStore<string[]>(INDEX) ?? []);
  for (const [key, source] of sources) {
    try {
      const value = source();
      if (value === undefined) continue;
      setStore(draftName(key), value);
      keys.add(key);
    } catch {
      // A broken getter must not stop the sign-out.
    }
  }
  setStore(INDEX, [...keys]);
}

/** Returns and forgets the saved draft of a form. */
export function takeDraft<T>(key: string): T | undefined {
  const value = getStore<T>(draftName(key));
  if (value === undefined) return undefined;
  removeStore(draftName(key));
  setStore(
    INDEX,
    (getStore<string[]>(INDEX) ?? []).filter((k) => k !== key),
  );
  return value;
}

export function hasDraft(key: string): boolean {
  return getStore<unknown>(draftName(key)) !== undefined;
}

/** Forgets every saved draft (another user signed in). */
export function clearDrafts(): void {
  for (const key of getStore<string[]>(INDEX) ?? []) removeStore(draftName(key));
  removeStore(INDEX);
}
