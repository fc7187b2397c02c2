import { ConfigProvider, Flex } from 'antd';
import { useNavigate } from 'react-router';
import { useSettings } from '../../../store/settings.ts';
import { useT } from '../../i18n/index.ts';
import { siderThemeOf } from '../../theme/antdTheme.ts';
import { palettes } from '../../theme/palette.ts';
import { website } from '../../website.ts';
import { MenuSearch } from '../search/MenuSearch.tsx';
import { SideMenu } from './SideMenu.tsx';
import { SidebarFavourites } from './SidebarFavourites.tsx';

function Logo({ collapsed }: { collapsed: boolean }) {
  const t = useT();
  const navigate = useNavigate();
  const palette = palettes[useSettings((s) => s.theme)];
  return (
    <Flex
      align="center"
      justify="center"
      gap={10}
      onClick={() => navigate(website.homePath)}
      style={{
        height: 52,
        flex: 'none',
        cursor: 'pointer',
        background: palette.logoBg,
        color: palette.logoColor,
        fontSize: 16,
        fontWeight: 600,
        whiteSpace: 'nowrap',
        overflow: 'hidden',
      }}
    >
      <img src="/logo.svg" alt="" width={28} height={28} />
      {!collapsed && <span data-testid="logo-title">{t('app.name')}</span>}
    </Flex>
  );
}

/** Left column: logo, menu search, the nested menu, and favourites at the bottom. */
export function Sidebar({ collapsed }: { collapsed: boolean }) {
  const palette = palettes[useSettings((s) => s.theme)];
  return (
    <Flex vertical style={{ height: '100%' }} data-testid="sidebar">
      <Logo collapsed={collapsed} />
      {!collapsed && (
        <ConfigProvider theme={siderThemeOf(palette)}>
          <div style={{ padding: '10px 12px 6px' }}>
            <MenuSearch variant="sidebar" />
          </div>
        </ConfigProvider>
      )}
      <div style={{ flex: 1, overflowY: 'auto', overflowX: 'hidden' }}>
        <SideMenu collapsed={collapsed} />
      </div>
      <ConfigProvider theme={siderThemeOf(palette)}>
        <SidebarFavourites collapsed={collapsed} />
      </ConfigProvider>
    </Flex>
  );
}
