import { lazy, Suspense, useEffect, useRef } from 'react';
import { ConfigProvider, Layout } from 'antd';
import { useSettings } from '../../store/settings.ts';
import { ErrorBoundary } from '../ErrorBoundary.tsx';
import { headerThemeOf } from '../theme/antdTheme.ts';
import { palettes } from '../theme/palette.ts';
import { KeepAliveOutlet } from './KeepAliveOutlet.tsx';
import { Sidebar } from './sidebar/Sidebar.tsx';
import { TabBar } from './tabs/TabBar.tsx';
import { useTabSync } from './tabs/useTabSync.ts';
import { TopBar } from './topbar/TopBar.tsx';
import { useFavouritesEditor } from './favourites/useFavouriteActions.ts';

// The favourites editor (a menu tree) loads the first time it is opened.
const FavouritesEditor = lazy(() => import('./favourites/FavouritesEditor.tsx').then((mod) => ({ default: mod.FavouritesEditor })));

const SIDER_WIDTH = 224;

/** The signed-in frame: sidebar, top bar, tab bar and the kept-alive pages of the open tabs. */
export default function MainLayout() {
  const themeName = useSettings((s) => s.theme);
  const palette = palettes[themeName];
  const screen = useSettings((s) => s.screen);
  const collapsed = useSettings((s) => s.collapsed);
  const setCollapsed = useSettings((s) => s.setCollapsed);
  const activeKey = useTabSync();
  const editingFavourites = useFavouritesEditor((s) => s.open);

  // Narrowing below 992 px collapses the sidebar; widening past it opens it again.
  const previousScreen = useRef(screen);
  useEffect(() => {
    const before = previousScreen.current;
    previousScreen.current = screen;
    if (screen <= 1) setCollapsed(true);
    else if (before <= 1) setCollapsed(false);
  }, [screen, setCollapsed]);

  return (
    <Layout className={`screen-${screen}`} data-screen={screen} style={{ height: '100vh', overflow: 'hidden' }}>
      <Layout.Sider
        width={SIDER_WIDTH}
        collapsedWidth={screen === 0 ? 0 : 64}
        collapsed={collapsed}
        trigger={null}
        theme={palette.siderMenu}
        style={{ height: '100vh', overflow: 'hidden' }}
      >
        <Sidebar collapsed={collapsed} />
      </Layout.Sider>
      <Layout style={{ minWidth: 0 }}>
        <ConfigProvider theme={headerThemeOf(palette)}>
          <Layout.Header style={{ display: 'flex', alignItems: 'center', gap: 8, lineHeight: 'normal' }}>
            <TopBar />
          </Layout.Header>
        </ConfigProvider>
        <TabBar />
        <Layout.Content style={{ overflow: 'auto', padding: 12, position: 'relative' }}>
          <ErrorBoundary resetKey={activeKey}>
            <KeepAliveOutlet />
          </ErrorBoundary>
        </Layout.Content>
      </Layout>
      {editingFavourites && (
        <Suspense fallback={null}>
          <FavouritesEditor />
        </Suspense>
      )}
    </Layout>
  );
}
