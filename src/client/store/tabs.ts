import { create } from 'zustand';
import { en } from '../app/i18n/en.ts';
import { zh, type MessageKey } from '../app/i18n/zh.ts';
import { website } from '../app/website.ts';
import { getStore, removeStore, setStore } from './storage.ts';

/** One open page in the tab bar; `key` is the full location (path + query). */
export interface Tab {
  key: string;
  path: string;
  title: string;
  titleEn?: string;
  /** Fixed shell pages carry a translation key instead of a menu name. */
  i18nKey?: MessageKey;
}

export type OpenResult = 'opened' | 'exists' | 'full';

interface TabsState {
  tabs: Tab[];
  activeKey: string;
  /** Adds (or re-activates) a tab; refuses a new one beyond the limit. */
  open: (tab: Tab) => OpenResult;
  activate: (key: string) => void;
  /** Closes a tab and returns the key to show next when the active one was closed. */
  close: (key: string) => string | undefined;
  closeOthers: (key: string) => void;
  /** Leaves only the welcome tab and returns its key. */
  closeAll: () => string;
  updateTitle: (key: string, title: string, titleEn?: string) => void;
  reset: () => void;
}

export const homeTab: Tab = {
  key: website.homePath,
  path: website.homePath,
  title: zh['tabs.home'],
  titleEn: en['tabs.home'],
  i18nKey: 'tabs.home',
};

function persist(tabs: Tab[], activeKey: string): void {
  setStore('tagList', tabs);
  setStore('tag', activeKey);
}

function initialTabs(): Tab[] {
  const stored = getStore<Tab[]>('tagList');
  return Array.isArray(stored) && stored.length > 0 ? stored : [homeTab];
}

export const useTabs = create<TabsState>((set, get) => ({
  tabs: initialTabs(),
  activeKey: getStore<string>('tag') ?? homeTab.key,
  open: (tab) => {
    const { tabs } = get();
    if (tabs.some((t) => t.key === tab.key)) {
      set({ activeKey: tab.key });
      persist(tabs, tab.key);
      return 'exists';
    }
    if (tabs.length >= website.maxTabs) return 'full';
    const next = [...tabs, tab];
    set({ tabs: next, activeKey: tab.key });
    persist(next, tab.key);
    return 'opened';
  },
  activate: (key) => {
    set({ activeKey: key });
    persist(get().tabs, key);
  },
  close: (key) => {
    const { tabs, activeKey } = get();
    const index = tabs.findIndex((t) => t.key === key);
    if (index < 0 || tabs.length <= 1) return undefined;
    const next = tabs.filter((t) => t.key !== key);
    // The previous tab, or the new first one when the first was closed.
    const nextActive = key === activeKey ? next[Math.max(0, index - 1)].key : activeKey;
    set({ tabs: next, activeKey: nextActive });
    persist(next, nextActive);
    return key === activeKey ? nextActive : undefined;
  },
  closeOthers: (key) => {
    const keep = get().tabs.filter((t) => t.key === key);
    set({ tabs: keep, activeKey: key });
    persist(keep, key);
  },
  closeAll: () => {
    set({ tabs: [homeTab], activeKey: homeTab.key });
    persist([homeTab], homeTab.key);
    return homeTab.key;
  },
  updateTitle: (key, title, titleEn) => {
    const tabs = get().tabs.map((t) => (t.key === key ? { ...t, title, titleEn } : t));
    set({ tabs });
    persist(tabs, get().activeKey);
  },
  reset: () => {
    removeStore('tagList');
    removeStore('tag');
    set({ tabs: [homeTab], activeKey: homeTab.key });
  },
}));
