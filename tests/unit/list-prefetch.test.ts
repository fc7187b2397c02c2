import { afterEach, describe, expect, test, vi } from 'vitest';
import { listCallKey, prefetchList, takePrefetchedList } from '../../src/client/renderer/list/prefetchedCalls.ts';

// The first page requested with the route (issue 17) is handed to the list page's own first call.
describe('prefetched list calls', () => {
  afterEach(() => vi.useRealTimers());

  test('the key ignores parameter order and empty values', () => {
    expect(listCallKey('/api/x/list', { size: 10, current: 1, descs: undefined, ascs: '', name: null })).toBe('/api/x/list?current=1&size=10');
    expect(listCallKey('/api/x/list', { current: 1, size: 10 })).not.toBe(listCallKey('/api/x/list', { current: 1, size: 20 }));
    expect(listCallKey('/api/x/list', { current: 1 })).not.toBe(listCallKey('/api/y/list', { current: 1 }));
  });

  test('a prefetched answer is taken once, by exactly the same call', async () => {
    const request = vi.fn(() => Promise.resolve({ records: [{ id: '1' }], total: 1 }));
    prefetchList('/api/a/list', { current: 1, size: 10 }, request);
    // A page rendered twice asks twice: one request.
    prefetchList('/api/a/list', { size: 10, current: 1 }, request);
    expect(request).toHaveBeenCalledTimes(1);
    expect(takePrefetchedList('/api/a/list', { current: 1, size: 20 })).toBeUndefined();
    const taken = takePrefetchedList('/api/a/list', { current: 1, size: 10, descs: undefined });
    await expect(taken).resolves.toEqual({ records: [{ id: '1' }], total: 1 });
    // Taken: the next call of the page (a refresh) goes to the server.
    expect(takePrefetchedList('/api/a/list', { current: 1, size: 10 })).toBeUndefined();
  });

  test('a call the page has just made is not prefetched again (it would wait, stale, for the next refresh)', () => {
    vi.useFakeTimers();
    const request = vi.fn(() => Promise.resolve({ records: [], total: 0 }));
    prefetchList('/api/d/list', { current: 1, size: 10 }, request);
    void takePrefetchedList('/api/d/list', { current: 1, size: 10 });
    // The menu's prefetch, arriving after the page's first call (its code was already loaded).
    prefetchList('/api/d/list', { current: 1, size: 10 }, request);
    expect(request).toHaveBeenCalledTimes(1);
    expect(takePrefetchedList('/api/d/list', { current: 1, size: 10 })).toBeUndefined();
    // Later (another visit of the page), prefetching is useful again.
    vi.advanceTimersByTime(5_001);
    prefetchList('/api/d/list', { current: 1, size: 10 }, request);
    expect(request).toHaveBeenCalledTimes(2);
  });

  test('an answer nobody took within five seconds is never used', () => {
    vi.useFakeTimers();
    const request = vi.fn(() => Promise.resolve([]));
    prefetchList('/api/b/list', { current: 1, size: 10 }, request);
    vi.advanceTimersByTime(5_001);
    expect(takePrefetchedList('/api/b/list', { current: 1, size: 10 })).toBeUndefined();
  });

  test('a failed prefetch is not an unhandled rejection and still reaches the page', async () => {
    prefetchList('/api/c/list', { current: 1, size: 10 }, () => Promise.reject(new Error('403')));
    await new Promise((resolve) => setTimeout(resolve, 0));
    await expect(takePrefetchedList('/api/c/list', { current: 1, size: 10 })).rejects.toThrow('403');
  });
});
