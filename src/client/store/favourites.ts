import { create } from 'zustand';
import { fetchFastMenus, saveFastMenus } from '../api/shell.ts';
import type { FastMenu } from '../api/types.ts';

/** The user's favourite menus, kept on the server through the fast-menu calls. */
interface FavouritesState {
  items: FastMenu[];
  loaded: boolean;
  load: () => Promise<void>;
  /** Replaces the favourites; the server answers more than 5 with an error. */
  save: (menuIds: string[]) => Promise<void>;
  reset: () => void;
}

export const useFavourites = create<FavouritesState>((set, get) => ({
  items: [],
  loaded: false,
  load: async () => {
    const items = await fetchFastMenus();
    set({ items: Array.isArray(items) ? items : [], loaded: true });
  },
  save: async (menuIds) => {
    await saveFastMenus(menuIds);
    await get().load();
  },
  reset: () => set({ items: [], loaded: false }),
}));
