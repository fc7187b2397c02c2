import { useState } from 'react';
import { Button, Divider, Flex } from 'antd';
import MenuFoldOutlined from '@ant-design/icons/es/icons/MenuFoldOutlined';
import MenuUnfoldOutlined from '@ant-design/icons/es/icons/MenuUnfoldOutlined';
import SearchOutlined from '@ant-design/icons/es/icons/SearchOutlined';
import { useSettings } from '../../../store/settings.ts';
import { useT } from '../../i18n/index.ts';
import { LanguageSwitch } from '../LanguageSwitch.tsx';
import { MenuSearch } from '../search/MenuSearch.tsx';
import { FullscreenToggle } from './FullscreenToggle.tsx';
import { LockButton } from './LockButton.tsx';
import { ExportJobsButton } from './ExportJobsButton.tsx';
import { MessageBell } from './MessageBell.tsx';
import { QuickMenu } from './QuickMenu.tsx';
import { ThemeSwitcher } from './ThemeSwitcher.tsx';
import { TopMenu } from './TopMenu.tsx';
import { UserMenu } from './UserMenu.tsx';

/** Search icon that opens a menu search box; Esc or picking a result closes it again. */
function TopSearch() {
  const t = useT();
  const [open, setOpen] = useState(false);
  if (open) return <MenuSearch variant="top" onClose={() => setOpen(false)} />;
  return (
    <Button
      type="text"
      icon={<SearchOutlined />}
      onClick={() => setOpen(true)}
      aria-label={t('top.search')}
      title={t('top.search')}
      data-testid="top-search-open"
    />
  );
}

export function TopBar() {
  const t = useT();
  const collapsed = useSettings((s) => s.collapsed);
  const setCollapsed = useSettings((s) => s.setCollapsed);
  const screen = useSettings((s) => s.screen);
  const toggleLabel = collapsed ? t('top.expand') : t('top.collapse');

  return (
    <Flex align="center" gap={4} style={{ width: '100%', minWidth: 0, height: '100%' }}>
      <Button
        type="text"
        icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        onClick={() => setCollapsed(!collapsed)}
        aria-label={toggleLabel}
        title={toggleLabel}
        data-testid="sidebar-toggle"
      />
      <TopMenu />
      {screen >= 2 && (
        <>
          <Divider orientation="vertical" />
          <QuickMenu />
        </>
      )}
      <Flex align="center" gap={2} style={{ marginLeft: 'auto', flex: 'none' }}>
        <TopSearch />
        <ThemeSwitcher />
        {screen >= 1 && <LanguageSwitch />}
        <MessageBell />
        <ExportJobsButton />
        <FullscreenToggle />
        <LockButton />
        <UserMenu />
      </Flex>
    </Flex>
  );
}
