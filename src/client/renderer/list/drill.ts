/**
 * Drill-down between report pages (column.drill): a figure opens another menu page with its search
 * preset from the row (and from the search in force, for `$name` sources). The preset travels in
 * the target's URL, so it has its own tab and survives a reload; `_drill` carries what was drilled
 * into, for the notice above the target's rows.
 */
import { useCallback } from 'react';
import type { QueryValue } from '../../api/http.ts';
import type { ColumnDef } from '../common/views.ts';
import type { Row } from '../common/params.ts';
import { leavesOf } from '../../app/menu/menuTree.ts';
import { useOpenLocation, useVisibleMenus } from '../../app/menu/useMenus.ts';

export const DRILL_LABEL = '_drill';

const present = (value: unknown) => value !== undefined && value !== null && value !== '';

/**
 * Whether a row's figure drills down: at least one of its row-sourced parameters has a value (a
 * report grouped by goods carries commInfoId, by customer customerId; a grouping the target page
 * cannot filter by, such as by month, shows plain figures).
 */
export function drillable(column: ColumnDef, row: Row): boolean {
  return Object.values(column.drill?.params ?? {}).some((source) => !source.startsWith('$') && present(row[source]));
}

/** The target URL of a drill: the menu's path with the preset parameters and the label. */
export function drillUrl(path: string, column: ColumnDef, row: Row, filters: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [target, source] of Object.entries(column.drill?.params ?? {})) {
    const value = source.startsWith('$') ? filters[source.slice(1)] : row[source];
    if (present(value)) params.set(target, String(value));
  }
  const label = column.drill?.label ? row[column.drill.label] : undefined;
  if (present(label)) params.set(DRILL_LABEL, String(label));
  return `${path}?${params.toString()}`;
}

/** The API parameters a drilled-into page starts with (its URL's search, without the label). */
export function drillPreset(search: string): { params: Record<string, string>; label?: string } {
  const query = new URLSearchParams(search);
  const params: Record<string, string> = {};
  for (const [key, value] of query) if (key !== DRILL_LABEL) params[key] = value;
  return { params, label: query.get(DRILL_LABEL) ?? undefined };
}

export function useDrill(filters: Record<string, QueryValue>): (column: ColumnDef, row: Row) => void {
  const menus = useVisibleMenus();
  const openLocation = useOpenLocation();
  return useCallback(
    (column, row) => {
      const menu = leavesOf(menus).find((m) => m.code === column.drill?.menu);
      if (menu) openLocation(drillUrl(menu.path, column, row, filters));
    },
    [menus, openLocation, filters],
  );
}
