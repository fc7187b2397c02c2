import { useEffect } from 'react';
import { BrowserRouter, useNavigate } from 'react-router';
import { useSettings, screenClassOf } from '../store/settings.ts';
import { AppRoutes } from './AppRoutes.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { ProgressBar, RouteProgress } from './ProgressBar.tsx';
import { bindNavigate } from './session/navigation.ts';
import { palettes, plainThemeVars } from './theme/palette.ts';
import './session/signIn.ts';

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

/**
 * The shell every route shares: router, progress bar, crash notice, theme background and language.
 * No antd here: the sign-in page works before antd loads; the other routes get antd's theme and
 * context from `AntdFrame`.
 */
export function App() {
  const themeName = useSettings((s) => s.theme);
  const language = useSettings((s) => s.language);

  useEffect(() => {
    document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
  }, [language]);

  useEffect(() => {
    const palette = palettes[themeName];
    const root = document.documentElement;
    root.dataset.theme = themeName;
    root.style.background = palette.bodyBg;
    root.style.colorScheme = palette.dark ? 'dark' : 'light';
    for (const [name, value] of Object.entries(plainThemeVars(palette))) root.style.setProperty(name, value);
  }, [themeName]);

  return (
    <>
      <ScreenWatcher />
      <ProgressBar />
      <BrowserRouter>
        <NavigateBinder />
        <RouteProgress />
        <ErrorBoundary>
          <AppRoutes />
        </ErrorBoundary>
      </BrowserRouter>
    </>
  );
}
