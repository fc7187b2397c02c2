import { useEffect } from 'react';

import { useLocation, useNavigate } from 'react-router';
import { useTabs, type Tab } from '../../../store/tabs.ts';
import { useT, type Translate } from '../../i18n/index.ts';
import { describeLocation } from '../../menu/routeIndex.ts';
import { useRouteIndex } from '../../menu/useMenus.ts';
import { website } from '../../website.ts';
import { useSettings } from '../../../store/settings.ts';
import { useFeedback } from '../../../feedback/FeedbackProvider.tsx';

export function tabLabel(tab: Tab, t: Translate, language: 'zh' | 'en'): string {
  if (tab.i18nKey) return t(tab.i18nKey);
  return language === 'en' && tab.titleEn ? tab.titleEn : tab.title;
}

/**
 * Keeps the tab bar in step with the location: every page visited opens (or activates) its
 * tab; a 16th tab is refused and the user stays on the current one. Also sets the page title.
 */
export function useTabSync(): string {
  const location = useLocation();
  const navigate = useNavigate();
  const index = useRouteIndex();
  const { message } = useFeedback();
  const t = useT();
  const language = useSettings((s) => s.language);
  const activeKey = useTabs((s) => s.activeKey);
  const activeTab = useTabs((s) => s.tabs.find((tab) => tab.key === s.activeKey));

  useEffect(() => {
    const tab = describeLocation(location.pathname, location.search, index);
    if (!tab) return;
    const result = useTabs.getState().open(tab);
    if (result === 'full') {
      void message.warning(t('tabs.tooMany', { max: website.maxTabs }));
      navigate(useTabs.getState().activeKey, { replace: true });
    }
  }, [location.pathname, location.search, index, message, navigate, t]);

  useEffect(() => {
    if (activeTab) document.title = `${tabLabel(activeTab, t, language)} - ${t('app.name')}`;
  }, [activeTab, t, language]);

  return activeKey;
}
