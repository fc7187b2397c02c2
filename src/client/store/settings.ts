import { create } from 'zustand';
import { getStore, setStore } from './storage.ts';
import { isThemeName, type ThemeName } from '../app/theme/palette.ts';

export type Language = 'zh' | 'en';
/** 3: ≥1200 px, 2: ≥992, 1: ≥768, 0: narrower. */
export type ScreenClass = 0 | 1 | 2 | 3;

interface SettingsState {
  theme: ThemeName;
  language: Language;
  collapsed: boolean;
  screen: ScreenClass;
  setTheme: (theme: ThemeName) => void;
  setLanguage: (language: Language) => void;
  setCollapsed: (collapsed: boolean) => void;
  setScreen: (screen: ScreenClass) => void;
}

export function screenClassOf(width: number): ScreenClass {
  if (width >= 1200) return 3;
  if (width >= 992) return 2;
  if (width >= 768) return 1;
  return 0;
}

function initialTheme(): ThemeName {
  const stored = getStore<string>('themeName');
  return stored && isThemeName(stored) ? stored : 'default';
}

function initialLanguage(): Language {
  return getStore<string>('language') === 'en' ? 'en' : 'zh';
}

export const useSettings = create<SettingsState>((set) => ({
  theme: initialTheme(),
  language: initialLanguage(),
  collapsed: getStore<boolean>('isCollapse') ?? false,
  screen: screenClassOf(window.innerWidth),
  setTheme: (theme) => {
    setStore('themeName', theme);
    document.documentElement.dataset.theme = theme;
    set({ theme });
  },
  setLanguage: (language) => {
    setStore('language', language);
    document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
    set({ language });
  },
  setCollapsed: (collapsed) => {
    setStore('isCollapse', collapsed);
    set({ collapsed });
  },
  setScreen: (screen) => set({ screen }),
}));
