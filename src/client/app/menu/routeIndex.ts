import { matchPath } from 'react-router';
import type { MenuNode } from '../../api/types.ts';
import { en } from '../i18n/en.ts';
import { zh, type MessageKey } from '../i18n/zh.ts';
import type { PageMenu } from '../pages.ts';
import type { Tab } from '../../store/tabs.ts';
import { homeTab } from '../../store/tabs.ts';
import { website } from '../website.ts';
import { IFRAME_ROUTE_PREFIX, allNodesOf, hasChildren, isFramedPath } from './menuTree.ts';

/** Route lookup built from the full menu tree: in-app pages by path, framed menus by code. */
export interface RouteIndex {
  pages: Map<string, PageMenu>;
  framed: Map<string, MenuNode>;
}

export function historyMenuOf(menu: MenuNode): PageMenu {
  return {
    ...menu,
    id: `${menu.id}-history`,
    code: `${menu.code}History`,
    name: `${menu.name}${zh['menu.historySuffix']}`,
    nameEn: menu.nameEn ? `${menu.nameEn}${en['menu.historySuffix']}` : undefined,
    path: menu.historyPath ?? menu.path,
    isDisplayHistory: undefined,
    historyOf: menu,
  };
}

export function buildRouteIndex(menuAll: MenuNode[]): RouteIndex {
  const pages = new Map<string, PageMenu>();
  const framed = new Map<string, MenuNode>();
  for (const menu of allNodesOf(menuAll)) {
    if (hasChildren(menu) || !menu.path) continue;
    if (isFramedPath(menu.path)) {
      framed.set(menu.code || menu.id, menu);
      continue;
    }
    pages.set(menu.path, menu);
    if (menu.isDisplayHistory === 2 && menu.historyPath) pages.set(menu.historyPath, historyMenuOf(menu));
  }
  return { pages, framed };
}

/** Fixed authenticated routes that are not menus (spec §2); tab titles come from the i18n maps. */
export interface FixedRoute {
  path: string;
  code: string;
  i18nKey: MessageKey;
}

export const infoRoute: FixedRoute = { path: '/info/index', code: 'info', i18nKey: 'tabs.info' };

/** The workflow's screens: the leave's own, and the generic process page for every other process. */
export const leaveRoutes: FixedRoute[] = [
  { path: '/work/process/leave/form/:processDefinitionId', code: 'leaveForm', i18nKey: 'tabs.leaveForm' },
  {
    path: '/work/process/leave/handle/:taskId/:processInstanceId/:businessId',
    code: 'leaveHandle',
    i18nKey: 'tabs.leaveHandle',
  },
  {
    path: '/work/process/leave/detail/:processInstanceId/:businessId',
    code: 'leaveDetail',
    i18nKey: 'tabs.leaveDetail',
  },
  // Any other process (单据审批): its instance, the bill, history and diagram; handling its task.
  { path: '/work/process/handle/:taskId/:processInstanceId', code: 'flowHandle', i18nKey: 'tabs.flowHandle' },
  { path: '/work/process/detail/:processInstanceId', code: 'flowDetail', i18nKey: 'tabs.flowDetail' },
];

const fixedRoutes = [infoRoute, ...leaveRoutes];

/** The tab for a location, or undefined when the location is not a page (unknown, redirects). */
export function describeLocation(pathname: string, search: string, index: RouteIndex): Tab | undefined {
  const key = `${pathname}${search}`;
  if (pathname === website.homePath) return { ...homeTab, key };
  const fixed = fixedRoutes.find((route) => matchPath(route.path, pathname));
  if (fixed)
    return { key, path: pathname, title: zh[fixed.i18nKey], titleEn: en[fixed.i18nKey], i18nKey: fixed.i18nKey };
  if (pathname.startsWith(IFRAME_ROUTE_PREFIX)) {
    const code = decodeURIComponent(pathname.slice(IFRAME_ROUTE_PREFIX.length));
    const menu = index.framed.get(code);
    const src = new URLSearchParams(search).get('src') ?? code;
    return { key, path: pathname, title: menu?.name ?? src, titleEn: menu?.nameEn };
  }
  const menu = index.pages.get(pathname);
  if (menu) return { key, path: pathname, title: menu.name, titleEn: menu.nameEn };
  return undefined;
}
