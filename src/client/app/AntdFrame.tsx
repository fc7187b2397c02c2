import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { ConfigProvider } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
// Before any antd component draws: antd's engine reads this file's map once, at the first.
import 'virtual:antd-styles.css';
import { FeedbackProvider } from '../feedback/FeedbackProvider.tsx';
import { useSettings } from '../store/settings.ts';
import { FrameRoutes } from './FrameRoutes.tsx';
import { antdThemeOf } from './theme/antdTheme.ts';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/** Whether the system asks for less motion (then dialogs, drawers and menus open without animating). */
function useReducedMotion(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const query = window.matchMedia(REDUCED_MOTION);
      query.addEventListener('change', changed);
      return () => query.removeEventListener('change', changed);
    },
    () => window.matchMedia(REDUCED_MOTION).matches,
  );
}

/**
 * Every route but sign-in, inside antd's theme and locale, with the toast and dialog APIs. A
 * chunk of its own: the sign-in page ships without antd (issue 17), and this loads while the user
 * types.
 */
export default function AntdFrame() {
  const themeName = useSettings((s) => s.theme);
  const language = useSettings((s) => s.language);
  const reducedMotion = useReducedMotion();
  const themeConfig = useMemo(() => {
    const config = antdThemeOf(themeName);
    return reducedMotion ? { ...config, token: { ...config.token, motion: false } } : config;
  }, [themeName, reducedMotion]);

  useEffect(() => {
    dayjs.locale(language === 'zh' ? 'zh-cn' : 'en');
  }, [language]);

  return (
    <ConfigProvider
      theme={themeConfig}
      locale={language === 'zh' ? zhCN : enUS}
      // Keep 登录 as typed (antd would render it as 登 录).
      button={{ autoInsertSpace: false }}
    >
      <FeedbackProvider>
        <FrameRoutes />
      </FeedbackProvider>
    </ConfigProvider>
  );
}
