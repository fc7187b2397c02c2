/**
 * Shapes on the wire that both sides name: the tree nodes every tree call answers (pickers, menus,
 * departments) and the menu routes the shell draws. One copy, so the server's answer and the
 * client's reading cannot drift apart.
 */
import type { MenuSeed } from './resource.ts';

/** A node of a tree call (`…/tree`, `…/lazy-tree`): BladeX's TreeNode. */
export interface TreeNode {
  id: string;
  parentId: string;
  title: string;
  key: string;
  value: string;
  hasChildren?: boolean;
  children?: TreeNode[];
  [extra: string]: unknown;
}

/** A node of `GET /blade-system/menu/routes`: a menu as schemas/menus.json seeds it (isOpen 2 opens `path` in a new window, isHidden 2 keeps it out of the sidebar, isDisplayHistory 2 adds a History tag opening `historyPath`), with its ids. */
export interface MenuNode extends Omit<MenuSeed, 'children'> {
  id: string;
  parentId?: string;
  category?: number;
  /** 2: render as a group heading. */
  level?: number;
  meta?: { roles?: string[]; [key: string]: unknown };
  children?: MenuNode[];
}

export interface TopMenu {
  id: string;
  code?: string;
  name: string;
  nameEn?: string;
  source?: string;
  path?: string;
  sort?: number;
}
