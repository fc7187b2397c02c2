import type { MenuNode } from '../../api/types.ts';
import type { PermissionMap } from '../../store/session.ts';

/** Button forest → permission map: the code of every node without children (contract §5.3). */
export function permissionMapOf(buttons: MenuNode[] | undefined): PermissionMap {
  const map: PermissionMap = {};
  const walk = (nodes: MenuNode[]) => {
    for (const node of nodes) {
      if (node.children && node.children.length > 0) walk(node.children);
      else if (node.code) map[node.code] = true;
    }
  };
  walk(Array.isArray(buttons) ? buttons : []);
  return map;
}

/** Sorts a menu forest by `sort` at every level (the server usually does; be tolerant). */
export function sortMenus(nodes: MenuNode[]): MenuNode[] {
  return [...nodes]
    .sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0))
    .map((node) => (node.children?.length ? { ...node, children: sortMenus(node.children) } : node));
}
