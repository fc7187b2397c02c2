import { useMemo, type CSSProperties } from 'react';
import { theme as antdTheme } from 'antd';
import { HEADER_HEIGHT, ROW_HEIGHT } from './columnLayout.ts';

/** The theme's colours, font and radius as the grid stylesheet's variables (follows the 11 shell themes). */
export function useGridVars(): CSSProperties {
  const { token } = antdTheme.useToken();
  return useMemo(
    () =>
      ({
        '--grid-bg': token.colorBgContainer,
        '--grid-fg': token.colorText,
        '--grid-heading': token.colorTextHeading,
        '--grid-border': token.colorBorderSecondary,
        '--grid-chrome': token.colorFillAlter,
        '--grid-hover': token.controlItemBgHover,
        '--grid-selected': token.controlItemBgActive,
        '--grid-accent': token.colorPrimary,
        '--grid-radius': `${token.borderRadius}px`,
        '--grid-row-height': `${ROW_HEIGHT}px`,
        '--grid-header-height': `${HEADER_HEIGHT}px`,
        fontFamily: token.fontFamily,
        fontSize: token.fontSize,
      }) as CSSProperties,
    [token],
  );
}
