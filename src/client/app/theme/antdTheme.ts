import { theme, type ThemeConfig } from 'antd';
import { palettes, type ThemeName, type ThemePalette } from './palette.ts';

const FONT_FAMILY =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Noto Sans SC', sans-serif";

/** The page-wide antd theme of a shell theme: algorithm, primary colour and layout tokens. */
export function antdThemeOf(name: ThemeName): ThemeConfig {
  const p = palettes[name];
  const algorithm = [p.dark ? theme.darkAlgorithm : theme.defaultAlgorithm];
  if (p.compact) algorithm.push(theme.compactAlgorithm);
  return {
    algorithm,
    token: {
      colorPrimary: p.primary,
      colorLink: p.primary,
      colorInfo: p.primary,
      borderRadius: p.borderRadius,
      colorBgLayout: p.bodyBg,
      fontFamily: FONT_FAMILY,
    },
    components: {
      Layout: {
        siderBg: p.siderBg,
        headerBg: p.headerBg,
        headerColor: p.headerColor,
        bodyBg: p.bodyBg,
        headerHeight: 52,
        headerPadding: '0 12px',
      },
      Menu: {
        darkItemBg: p.siderBg,
        darkSubMenuItemBg: p.siderBg,
        darkPopupBg: p.siderBg,
        darkItemSelectedBg: p.siderSelectedBg,
        itemBg: p.siderBg,
        subMenuItemBg: p.siderBg,
        itemSelectedBg: p.siderSelectedBg,
      },
    },
  };
}

/** Header contents: text and icons in the header colour (light on dark headers). */
export function headerThemeOf(p: ThemePalette): ThemeConfig {
  return {
    token: {
      colorText: p.headerColor,
      colorIcon: p.headerColor,
      colorIconHover: p.headerColor,
      colorTextSecondary: p.headerColor,
    },
    components: {
      Menu: {
        itemColor: p.headerColor,
        itemHoverColor: p.headerAccent,
        itemSelectedColor: p.headerAccent,
        horizontalItemHoverColor: p.headerAccent,
        horizontalItemSelectedColor: p.headerAccent,
        itemBg: 'transparent',
      },
    },
  };
}

/** Sidebar widgets (search box, favourites) follow the sidebar's own light/dark scheme. */
export function siderThemeOf(p: ThemePalette): ThemeConfig {
  return {
    algorithm: p.siderMenu === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: { colorPrimary: p.primary, borderRadius: p.borderRadius, fontFamily: FONT_FAMILY },
  };
}
