import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { MenuNode } from '../api/types.ts';

/** A menu as a page receives it; history routes carry the menu they belong to. */
export interface PageMenu extends MenuNode {
  /** Set on the history route of a menu with isDisplayHistory 2. */
  historyOf?: MenuNode;
}

export interface PageProps {
  menu: PageMenu;
}

export type PageComponent = LazyExoticComponent<ComponentType<PageProps>>;

/**
 * The one place that maps a menu to the component rendering its path. Until the schema
 * renderer exists every menu gets the "not yet built" placeholder; the renderer issue swaps
 * the body of `resolvePage` (e.g. look the menu up in the generated manifest).
 */
const placeholderPage: PageComponent = lazy(() => import('./pages/PagePlaceholder.tsx'));

export function resolvePage(menu: PageMenu): PageComponent {
  void menu;
  return placeholderPage;
}
