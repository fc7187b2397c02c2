import { useCallback } from 'react';
import { create } from 'zustand';
import type { FastMenu, MenuNode } from '../../../api/types.ts';
import { useSession } from '../../../store/session.ts';
import { allNodesOf } from '../../menu/menuTree.ts';
import { useOpenLocation, useOpenMenu } from '../../menu/useMenus.ts';

/** Whether the favourites dialog is open (it is shared by the top bar and the sidebar). */
export const useFavouritesEditor = create<{ open: boolean; show: () => void; hide: () => void }>((set) => ({
  open: false,
  show: () => set({ open: true }),
  hide: () => set({ open: false }),
}));

/** The menu a favourite points to, looked up by id, else by path. */
export function menuOfFavourite(item: FastMenu, menuAll: MenuNode[]): MenuNode | undefined {
  const nodes = allNodesOf(menuAll);
  return nodes.find((m) => m.id === String(item.menuId)) ?? nodes.find((m) => m.path === item.path);
}

/** Opens a favourite like the menu it points to (frame, new window, tab limit included). */
export function useOpenFavourite(): (item: FastMenu) => void {
  const openMenu = useOpenMenu();
  const openLocation = useOpenLocation();
  return useCallback(
    (item: FastMenu) => {
      const menu = menuOfFavourite(item, useSession.getState().menuAll);
      if (menu) openMenu(menu);
      else if (item.path) openLocation(item.path);
    },
    [openMenu, openLocation],
  );
}
