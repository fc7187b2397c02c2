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
 * The one place that maps a menu to the component rendering its path: the workflow's leave
 * screens by their route's code, else the generic schema page, which finds the menu's resource
 * in the generated manifest (by path, then by menu code) and shows the "not yet built"
 * placeholder itself when no schema serves the menu.
 */
const schemaPage: PageComponent = lazy(() => import('../renderer/page/SchemaPage.tsx'));

/** The workflow's hand-written screens (DESIGN: bespoke/workflow), by the fixed route's code. */
const bespokePages: Record<string, PageComponent> = {
  leaveForm: lazy(() => import('../bespoke/workflow/LeaveFormPage.tsx')),
  leaveHandle: lazy(() => import('../bespoke/workflow/LeaveHandlePage.tsx')),
  leaveDetail: lazy(() => import('../bespoke/workflow/LeaveDetailPage.tsx')),
  flowHandle: lazy(() => import('../bespoke/workflow/FlowPage.tsx')),
  flowDetail: lazy(() => import('../bespoke/workflow/FlowPage.tsx')),
};

export function resolvePage(menu: PageMenu): PageComponent {
  return bespokePages[menu.code] ?? schemaPage;
}
