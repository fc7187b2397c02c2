import { useCallback } from 'react';
import { useLocation } from 'react-router';
import { useOpenLocation } from '../../app/menu/useMenus.ts';
import { useTabs } from '../../store/tabs.ts';

/** After a workflow page's one action: open the list the user goes on from and close this page's tab. */
export function useCloseAndOpen(): (to: string) => void {
  const openLocation = useOpenLocation();
  const location = useLocation();
  return useCallback(
    (to: string) => {
      const here = `${location.pathname}${location.search}`;
      if (openLocation(to)) useTabs.getState().close(here);
    },
    [openLocation, location.pathname, location.search],
  );
}
