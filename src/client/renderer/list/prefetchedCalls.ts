/**
 * First-page answers requested before their list page mounted (listPrefetch.ts), each waiting
 * for the page's own first request of exactly the same call.
 */
import type { QueryValue } from '../../api/http.ts';

/** A prefetched answer is used only by a page opened right away, never as a cache. */
const FRESH_MS = 5_000;

interface Prefetched {
  at: number;
  answer: Promise<unknown>;
}

const waiting = new Map<string, Prefetched>();
/** Calls a page took (key → when): a prefetch of the same call arriving later is not made. */
const taken = new Map<string, number>();

/** The key of one list call: its URL and its parameters in a stable order, empty ones dropped. */
export function listCallKey(url: string, params: Record<string, QueryValue>): string {
  const entries = Object.entries(params)
    .filter(([, value]) => value !== undefined && value !== null && value !== '')
    .sort(([a], [b]) => a.localeCompare(b));
  return `${url}?${entries.map(([name, value]) => `${name}=${String(value)}`).join('&')}`;
}

/** The prefetched answer of exactly this call, once; undefined when none is waiting. */
export function takePrefetchedList(url: string, params: Record<string, QueryValue>): Promise<unknown> | undefined {
  const key = listCallKey(url, params);
  const found = waiting.get(key);
  waiting.delete(key);
  taken.set(key, Date.now());
  return found && Date.now() - found.at <= FRESH_MS ? found.answer : undefined;
}

/**
 * Makes the call unless the same one is already waiting (a page rendered twice asks twice) or the
 * page has just made it itself: a prefetch arriving after the page's first call (the menu's, when
 * start-up had the page's code ready) would only wait, stale, for the page's next refresh.
 */
export function prefetchList(url: string, params: Record<string, QueryValue>, request: () => Promise<unknown>): void {
  const now = Date.now();
  for (const [key, entry] of waiting) if (now - entry.at > FRESH_MS) waiting.delete(key);
  for (const [key, at] of taken) if (now - at > FRESH_MS) taken.delete(key);
  const key = listCallKey(url, params);
  if (waiting.has(key) || taken.has(key)) return;
  const answer = request();
  // A failure is shown by the HTTP layer when the page takes the answer; never unhandled here.
  answer.catch(() => undefined);
  waiting.set(key, { at: now, answer });
}
