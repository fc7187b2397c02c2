/** Web storage in memory: client modules read localStorage / sessionStorage when imported. */
class MemoryStorage {
  private items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

/** The few browser globals client modules touch at import time, for unit tests under Node. */
export function installBrowserGlobals(): void {
  const g = globalThis as Record<string, unknown>;
  g.window ??= { localStorage: new MemoryStorage(), sessionStorage: new MemoryStorage(), innerWidth: 1440 };
  g.document ??= { cookie: '', documentElement: { dataset: {}, style: {} } };
}
