/**
 * The 11 shell themes as plain data. No antd import here: vite.config.ts reads this file to
 * inject the pre-paint boot script, so the page background is right before React starts.
 */
export const themeNames = [
  'default',
  'white',
  'dark',
  'colourful',
  'smart',
  'iview',
  'vip',
  'cool',
  'd2',
  'hey',
  'lte',
] as const;

export type ThemeName = (typeof themeNames)[number];

export interface ThemePalette {
  /** antd colorPrimary. */
  primary: string;
  /** antd darkAlgorithm for the whole page. */
  dark: boolean;
  /** antd compactAlgorithm (denser controls). */
  compact: boolean;
  borderRadius: number;
  siderBg: string;
  /** antd Menu theme inside the sidebar. */
  siderMenu: 'dark' | 'light';
  /** Selected menu item background (dark menus). */
  siderSelectedBg: string;
  headerBg: string;
  headerColor: string;
  /** Selected item colour in the header (the primary colour unless the header is coloured). */
  headerAccent: string;
  /** Content area background; also the pre-paint page background. */
  bodyBg: string;
  logoBg: string;
  logoColor: string;
}

export const palettes: Record<ThemeName, ThemePalette> = {
  default: {
    primary: '#28375A',
    dark: false,
    compact: false,
    borderRadius: 4,
    siderBg: '#28375A',
    siderMenu: 'dark',
    siderSelectedBg: '#3d5387',
    headerBg: '#ffffff',
    headerColor: '#1f2a44',
    headerAccent: '#28375A',
    bodyBg: '#f0f2f5',
    logoBg: '#1f2b47',
    logoColor: '#ffffff',
  },
  white: {
    primary: '#409EFF',
    dark: false,
    compact: false,
    borderRadius: 4,
    siderBg: '#ffffff',
    siderMenu: 'light',
    siderSelectedBg: '#ecf5ff',
    headerBg: '#ffffff',
    headerColor: '#303133',
    headerAccent: '#409EFF',
    bodyBg: '#f5f7fa',
    logoBg: '#ffffff',
    logoColor: '#409EFF',
  },
  dark: {
    primary: '#3c89e8',
    dark: true,
    compact: false,
    borderRadius: 4,
    siderBg: '#141414',
    siderMenu: 'dark',
    siderSelectedBg: '#1f3a5f',
    headerBg: '#1f1f1f',
    headerColor: '#e6e6e6',
    headerAccent: '#3c89e8',
    bodyBg: '#000000',
    logoBg: '#0a0a0a',
    logoColor: '#e6e6e6',
  },
  colourful: {
    primary: '#7c4dff',
    dark: false,
    compact: false,
    borderRadius: 8,
    siderBg: '#4a2a9e',
    siderMenu: 'dark',
    siderSelectedBg: '#e0457b',
    headerBg: '#f3edff',
    headerColor: '#3b1f7a',
    headerAccent: '#7c4dff',
    bodyBg: '#f7f3ff',
    logoBg: '#e0457b',
    logoColor: '#ffffff',
  },
  smart: {
    primary: '#00a59a',
    dark: false,
    compact: true,
    borderRadius: 2,
    siderBg: '#16323a',
    siderMenu: 'dark',
    siderSelectedBg: '#00a59a',
    headerBg: '#ffffff',
    headerColor: '#16323a',
    headerAccent: '#00a59a',
    bodyBg: '#eef4f3',
    logoBg: '#0f252b',
    logoColor: '#6fe3d6',
  },
  iview: {
    primary: '#2d8cf0',
    dark: false,
    compact: false,
    borderRadius: 4,
    siderBg: '#1c2438',
    siderMenu: 'dark',
    siderSelectedBg: '#2d8cf0',
    headerBg: '#ffffff',
    headerColor: '#17233d',
    headerAccent: '#2d8cf0',
    bodyBg: '#f5f7f9',
    logoBg: '#1c2438',
    logoColor: '#ffffff',
  },
  vip: {
    primary: '#c9a14a',
    dark: false,
    compact: false,
    borderRadius: 6,
    siderBg: '#1b1b1f',
    siderMenu: 'dark',
    siderSelectedBg: '#5a4621',
    headerBg: '#26262b',
    headerColor: '#f0d9a5',
    headerAccent: '#e5c77f',
    bodyBg: '#f6f3ec',
    logoBg: '#000000',
    logoColor: '#e5c77f',
  },
  cool: {
    primary: '#13c2c2',
    dark: true,
    compact: false,
    borderRadius: 10,
    siderBg: '#062a3a',
    siderMenu: 'dark',
    siderSelectedBg: '#0b5f73',
    headerBg: '#08354a',
    headerColor: '#b5f5ec',
    headerAccent: '#5cdbd3',
    bodyBg: '#031b26',
    logoBg: '#04202d',
    logoColor: '#5cdbd3',
  },
  d2: {
    primary: '#2f74ff',
    dark: false,
    compact: false,
    borderRadius: 4,
    siderBg: '#ebf1f6',
    siderMenu: 'light',
    siderSelectedBg: '#d5e3ff',
    headerBg: '#ebf1f6',
    headerColor: '#2f3e59',
    headerAccent: '#2f74ff',
    bodyBg: '#f8fafc',
    logoBg: '#dde6ee',
    logoColor: '#2f74ff',
  },
  hey: {
    primary: '#ff6a00',
    dark: false,
    compact: true,
    borderRadius: 3,
    siderBg: '#ffffff',
    siderMenu: 'light',
    siderSelectedBg: '#fff1e6',
    headerBg: '#ff6a00',
    headerColor: '#ffffff',
    headerAccent: '#ffffff',
    bodyBg: '#fafafa',
    logoBg: '#ff6a00',
    logoColor: '#ffffff',
  },
  lte: {
    primary: '#3c8dbc',
    dark: false,
    compact: false,
    borderRadius: 0,
    siderBg: '#222d32',
    siderMenu: 'dark',
    siderSelectedBg: '#1e282c',
    headerBg: '#3c8dbc',
    headerColor: '#ffffff',
    headerAccent: '#ffffff',
    bodyBg: '#ecf0f5',
    logoBg: '#367fa9',
    logoColor: '#ffffff',
  },
};

export function isThemeName(value: string): value is ThemeName {
  return (themeNames as readonly string[]).includes(value);
}

/**
 * Inline script for index.html: reads `saber-themeName` and paints the background before the
 * bundle loads. Kept as a string builder so the palette stays the single source.
 */
export function themeBootScript(storageKey: string): string {
  const backgrounds = Object.fromEntries(
    themeNames.map((name) => [name, { bg: palettes[name].bodyBg, dark: palettes[name].dark }]),
  );
  return (
    `(function(){try{var m=${JSON.stringify(backgrounds)};var n='default';` +
    `var r=localStorage.getItem(${JSON.stringify(`${storageKey}-themeName`)});` +
    `if(r){var e=JSON.parse(r);if(e&&m[e.content])n=e.content;}` +
    `var d=document.documentElement;d.dataset.theme=n;d.style.background=m[n].bg;` +
    `d.style.colorScheme=m[n].dark?'dark':'light';` +
    `var l=localStorage.getItem(${JSON.stringify(`${storageKey}-language`)});` +
    `if(l&&JSON.parse(l).content==='en')d.lang='en';}catch(x){}})();`
  );
}

/**
 * CSS custom properties of a theme for the pages drawn without antd (sign-in, the crash notice):
 * the same colours and radius antd's tokens give the other pages.
 */
export function plainThemeVars(palette: ThemePalette): Record<string, string> {
  return {
    '--plain-primary': palette.primary,
    '--plain-radius': `${palette.borderRadius + 2}px`,
    '--plain-surface': palette.dark ? '#1f1f1f' : '#ffffff',
    '--plain-text': palette.dark ? 'rgba(255,255,255,0.85)' : 'rgba(0,0,0,0.88)',
    '--plain-text-secondary': palette.dark ? 'rgba(255,255,255,0.45)' : 'rgba(0,0,0,0.45)',
    '--plain-border': palette.dark ? '#424242' : '#d9d9d9',
    '--plain-split': palette.dark ? '#303030' : '#f0f0f0',
    '--plain-field': palette.dark ? '#141414' : '#ffffff',
    '--plain-error': palette.dark ? '#dc4446' : '#ff4d4f',
  };
}
