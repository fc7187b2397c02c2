/// <reference types="vite/client" />
/**
 * ag-grid set-up of the bill's line grid (lists draw their own grid, DataGrid.tsx): only the community modules we use
 * (keeps the lazily loaded chunk small), a theme built from the active antd tokens, zh text.
 */
import { useMemo } from 'react';
import { theme as antdTheme } from 'antd';
import {
  CellStyleModule,
  ClientSideRowModelModule,
  ColumnApiModule,
  LocaleModule,
  ModuleRegistry,
  PinnedRowModule,
  RenderApiModule,
  RowApiModule,
  RowSelectionModule,
  RowStyleModule,
  TooltipModule,
  ValidationModule,
  themeQuartz,
  type Theme,
} from 'ag-grid-community';
import { useSettings } from '../../store/settings.ts';
import { gridLocaleZh } from './gridLocale.ts';
import { HEADER_HEIGHT, ROW_HEIGHT } from './columnLayout.ts';

ModuleRegistry.registerModules([
  ClientSideRowModelModule,
  RowSelectionModule,
  PinnedRowModule,
  ColumnApiModule,
  CellStyleModule,
  RowStyleModule,
  LocaleModule,
  TooltipModule,
  RenderApiModule,
  RowApiModule,
  // Explains a misconfigured grid in development; left out of production bundles.
  ...(import.meta.env.DEV ? [ValidationModule] : []),
]);

// The list grid's sizes (spec §9: row height 30), shared by the bill's line grid.
export { HEADER_HEIGHT, ROW_HEIGHT };

/** The grid theme for the current antd theme (colours, font, radius follow the 11 shell themes). */
export function useGridTheme(): Theme {
  const { token } = antdTheme.useToken();
  return useMemo(
    () =>
      themeQuartz.withParams({
        accentColor: token.colorPrimary,
        backgroundColor: token.colorBgContainer,
        foregroundColor: token.colorText,
        borderColor: token.colorBorderSecondary,
        chromeBackgroundColor: token.colorFillAlter,
        headerBackgroundColor: token.colorFillAlter,
        headerTextColor: token.colorTextHeading,
        headerFontWeight: 600,
        oddRowBackgroundColor: token.colorBgContainer,
        // Selected and hovered rows derive from accentColor (a light tint of the theme's primary).
        pinnedRowBackgroundColor: token.colorFillAlter,
        fontFamily: token.fontFamily,
        fontSize: token.fontSize,
        headerFontSize: token.fontSize,
        rowHeight: ROW_HEIGHT,
        headerHeight: HEADER_HEIGHT,
        spacing: 6,
        cellHorizontalPadding: 8,
        borderRadius: token.borderRadiusSM,
        wrapperBorderRadius: token.borderRadius,
        checkboxBorderRadius: token.borderRadiusSM,
        columnBorder: true,
      }),
    [token],
  );
}

export function useGridLocale(): Record<string, string> | undefined {
  const language = useSettings((s) => s.language);
  return language === 'zh' ? gridLocaleZh : undefined;
}
