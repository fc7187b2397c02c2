import type { MenuNode } from '../../api/types.ts';
import { website } from '../website.ts';
import { pinyinInitials } from './pinyin.ts';

/** Menu-tree helpers shared by the sidebar, search, routes, favourites and tabs. */

export const IFRAME_ROUTE_PREFIX = '/myiframe/';

export function hasChildren(menu: MenuNode): boolean {
  return Array.isArray(menu.children) && menu.children.length > 0;
}

export function isExternalPath(path: string): boolean {
  return /^https?:\/\//i.test(path);
}

/** Paths that contain `html` or are absolute URLs are shown in the embedded-frame route. */
export function isFramedPath(path: string): boolean {
  return isExternalPath(path) || path.toLowerCase().includes('html');
}

export function opensNewWindow(menu: MenuNode): boolean {
  return menu.isOpen === 2 && isExternalPath(menu.path);
}

/** In-app location of a framed menu: `/myiframe/<code>?src=<url>`. */
export function iframeLocation(menu: MenuNode): string {
  return `${IFRAME_ROUTE_PREFIX}${encodeURIComponent(menu.code || menu.id)}?src=${encodeURIComponent(menu.path)}`;
}

/** Where picking a menu leads: an in-app location or a new window. */
export type MenuTarget = { kind: 'route'; to: string } | { kind: 'window'; url: string };

export function menuTarget(menu: MenuNode): MenuTarget {
  if (opensNewWindow(menu)) return { kind: 'window', url: menu.path };
  if (isFramedPath(menu.path)) return { kind: 'route', to: iframeLocation(menu) };
  return { kind: 'route', to: menu.path };
}

function roleNames(roleName: string | undefined): string[] {
  return (roleName ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
}

/** An item is shown unless hidden, on the hide list, or limited to roles the user lacks. */
export function isMenuVisible(menu: MenuNode, userRoles: string[], hiddenCodes: readonly string[]): boolean {
  if (menu.isHidden === 2) return false;
  if (hiddenCodes.includes(menu.code)) return false;
  const roles = menu.meta?.roles;
  if (Array.isArray(roles) && roles.length > 0) return roles.some((role) => userRoles.includes(role));
  return true;
}

export function visibleMenus(
  nodes: MenuNode[],
  roleName: string | undefined,
  hiddenCodes: readonly string[] = website.hiddenMenuCodes,
): MenuNode[] {
  const roles = roleNames(roleName);
  const filter = (list: MenuNode[]): MenuNode[] =>
    list
      .filter((menu) => isMenuVisible(menu, roles, hiddenCodes))
      .map((menu) => (hasChildren(menu) ? { ...menu, children: filter(menu.children ?? []) } : menu));
  return filter(nodes);
}

/** Every leaf of a forest, depth first. */
export function leavesOf(nodes: MenuNode[]): MenuNode[] {
  const out: MenuNode[] = [];
  const walk = (list: MenuNode[]) => {
    for (const node of list) {
      if (hasChildren(node)) walk(node.children ?? []);
      else out.push(node);
    }
  };
  walk(nodes);
  return out;
}

/** Every node of a forest (parents too). */
export function allNodesOf(nodes: MenuNode[]): MenuNode[] {
  const out: MenuNode[] = [];
  const walk = (list: MenuNode[]) => {
    for (const node of list) {
      out.push(node);
      if (hasChildren(node)) walk(node.children ?? []);
    }
  };
  walk(nodes);
  return out;
}

/** Ids of the ancestors of the node with `id`, root first; undefined when absent. */
export function ancestorIds(nodes: MenuNode[], id: string, trail: string[] = []): string[] | undefined {
  for (const node of nodes) {
    if (node.id === id) return trail;
    if (hasChildren(node)) {
      const found = ancestorIds(node.children ?? [], id, [...trail, node.id]);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Menu search: a leaf matches when its Chinese name, English name, code or the pinyin
 * initials of its name start with the typed text, ignoring case.
 */
export function menuMatches(menu: MenuNode, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return false;
  const candidates = [menu.name, menu.nameEn, menu.code, pinyinInitials(menu.name ?? '')];
  return candidates.some((text) => typeof text === 'string' && text.toLowerCase().startsWith(needle));
}

export function searchLeaves(nodes: MenuNode[], query: string): MenuNode[] {
  return leavesOf(nodes).filter((menu) => menuMatches(menu, query));
}
