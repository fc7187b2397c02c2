import { useCallback, useMemo } from 'react';

import { useNavigate } from 'react-router';
import type { MenuNode } from '../../api/types.ts';
import { useSession } from '../../store/session.ts';
import { useTabs } from '../../store/tabs.ts';
import { useT } from '../i18n/index.ts';
import { website } from '../website.ts';
import { menuTarget, visibleMenus } from './menuTree.ts';
import { buildRouteIndex, describeLocation, type RouteIndex } from './routeIndex.ts';
import { useFeedback } from '../../feedback/FeedbackProvider.tsx';

/** The route index of the full menu tree, rebuilt only when the tree changes. */
export function useRouteIndex(): RouteIndex {
  const menuAll = useSession((s) => s.menuAll);
  return useMemo(() => buildRouteIndex(menuAll), [menuAll]);
}

/** Sidebar menus after role, isHidden and hide-list filtering. */
export function useVisibleMenus(): MenuNode[] {
  const menus = useSession((s) => s.menus);
  // Token role aliases plus the user-info alias/name: meta roles may use either.
  const roleName = useSession((s) =>
    [s.user?.role_name, s.user?.roleAlias, s.user?.roleName].filter(Boolean).join(','),
  );
  return useMemo(() => visibleMenus(menus, roleName), [menus, roleName]);
}

/**
 * Navigates to an in-app location, opening its tab right away (so quick successive clicks each
 * get their tab); refuses when that would be a 16th tab.
 */
export function useOpenLocation(): (to: string) => boolean {
  const navigate = useNavigate();
  const { message } = useFeedback();
  const t = useT();
  const index = useRouteIndex();
  return useCallback(
    (to: string) => {
      const url = new URL(to, window.location.origin);
      const tab = describeLocation(url.pathname, url.search, index);
      if (tab && useTabs.getState().open(tab) === 'full') {
        void message.warning(t('tabs.tooMany', { max: website.maxTabs }));
        return false;
      }
      navigate(to);
      return true;
    },
    [navigate, message, t, index],
  );
}

/** Opens a menu: its page, its history page, the embedded frame, or a new window. */
export function useOpenMenu(): (menu: MenuNode, options?: { history?: boolean }) => void {
  const openLocation = useOpenLocation();
  return useCallback(
    (menu: MenuNode, options: { history?: boolean } = {}) => {
      if (options.history && menu.historyPath) {
        openLocation(menu.historyPath);
        return;
      }
      const target = menuTarget(menu);
      if (target.kind === 'window') window.open(target.url, '_blank', 'noopener');
      else openLocation(target.to);
    },
    [openLocation],
  );
}
