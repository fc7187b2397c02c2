import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { App as AntdApp, ConfigProvider } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { BrowserRouter, useNavigate } from 'react-router';
import { bindMessageApi } from '../api/notify.ts';
import { useSettings, screenClassOf } from '../store/settings.ts';
import { AppRoutes } from './AppRoutes.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { ProgressBar, RouteProgress } from './ProgressBar.tsx';
import { bindNavigate } from './session/navigation.ts';
import { antdThemeOf } from './theme/antdTheme.ts';
import { palettes } from './theme/palette.ts';
import './session/signIn.ts';

/** Gives the HTTP client the themed message API of the antd <App> context. */
function MessageBinder() {
  const { message } = AntdApp.useApp();
  useEffect(() => {
    bindMessageApi(message);
    return () => bindMessageApi(undefined);
  }, [message]);
  return null;
}

function NavigateBinder() {
  const navigate = useNavigate();
  useEffect(() => {
    bindNavigate((to, options) => navigate(to, options));
    return () => bindNavigate(undefined);
  }, [navigate]);
  return null;
}

/** Screen-size class from the window width, debounced 500 ms; narrow screens collapse the sidebar. */
function ScreenWatcher() {
  const setScreen = useSettings((s) => s.setScreen);
  useEffect(() => {
    let timer: number | undefined;
    const onResize = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        const screen = screenClassOf(window.innerWidth);
        if (screen !== useSettings.getState().screen) setScreen(screen);
      }, 500);
    };
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      window.clearTimeout(timer);
    };
  }, [setScreen]);
  return null;
}

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

export function App() {
  const themeName = useSettings((s) => s.theme);
  const language = useSettings((s) => s.language);
  const reducedMotion = useReducedMotion();
  const themeConfig = useMemo(() => {
    const config = antdThemeOf(themeName);
    return reducedMotion ? { ...config, token: { ...config.token, motion: false } } : config;
  }, [themeName, reducedMotion]);

  useEffect(() => {
    dayjs.locale(language === 'zh' ? 'zh-cn' : 'en');
    document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
  }, [language]);

  useEffect(() => {
    const palette = palettes[themeName];
    const root = document.documentElement;
    root.dataset.theme = themeName;
    root.style.background = palette.bodyBg;
    root.style.colorScheme = palette.dark ? 'dark' : 'light';
  }, [themeName]);

  return (
    <ConfigProvider
      theme={themeConfig}
      locale={language === 'zh' ? zhCN : enUS}
      // Keep 登录 as typed (antd would render it as 登 录).
      button={{ autoInsertSpace: false }}
    >
      <AntdApp>
        <MessageBinder />
        <ScreenWatcher />
        <ProgressBar />
        <BrowserRouter>
          <NavigateBinder />
          <RouteProgress />
          <ErrorBoundary>
            <AppRoutes />
          </ErrorBoundary>
        </BrowserRouter>
      </AntdApp>
    </ConfigProvider>
  );
}
