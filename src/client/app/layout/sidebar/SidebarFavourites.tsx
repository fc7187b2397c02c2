import { Button, Flex, Popover, Tooltip } from 'antd';
import SettingOutlined from '@ant-design/icons/es/icons/SettingOutlined';
import StarOutlined from '@ant-design/icons/es/icons/StarOutlined';
import type { FastMenu } from '../../../api/types.ts';
import { useFavourites } from '../../../store/favourites.ts';
import { useSettings } from '../../../store/settings.ts';
import { useT } from '../../i18n/index.ts';
import { MenuIcon } from '../../menu/MenuIcon.tsx';
import { palettes } from '../../theme/palette.ts';
import { useFavouritesEditor, useOpenFavourite } from '../favourites/useFavouriteActions.ts';

function favouriteName(item: FastMenu): string {
  return item.name || item.menuName || item.path;
}

function FavouriteList({ items, onPick }: { items: FastMenu[]; onPick: (item: FastMenu) => void }) {
  const t = useT();
  if (items.length === 0) return <span style={{ color: 'var(--ant-color-text-secondary)' }}>{t('fav.empty')}</span>;
  return (
    <Flex vertical gap={2} style={{ minWidth: 160 }}>
      {items.map((item) => (
        <Button
          key={item.menuId}
          type="text"
          icon={<MenuIcon name={item.source} />}
          onClick={() => onPick(item)}
          style={{ justifyContent: 'flex-start' }}
        >
          {favouriteName(item)}
        </Button>
      ))}
    </Flex>
  );
}

/** Sidebar bottom: favourite shortcuts as icons, a popover with the full list, and the set button. */
export function SidebarFavourites({ collapsed }: { collapsed: boolean }) {
  const t = useT();
  const items = useFavourites((s) => s.items);
  const openFavourite = useOpenFavourite();
  const showEditor = useFavouritesEditor((s) => s.show);
  const palette = palettes[useSettings((s) => s.theme)];
  const border = palette.siderMenu === 'dark' ? 'rgba(255,255,255,0.12)' : 'rgba(0,0,0,0.08)';

  const popover = (
    <Flex vertical gap={8}>
      <FavouriteList items={items} onPick={openFavourite} />
      <Button size="small" icon={<SettingOutlined />} onClick={showEditor}>
        {t('fav.set')}
      </Button>
    </Flex>
  );

  return (
    <Flex
      data-testid="sidebar-favourites"
      vertical={collapsed}
      align="center"
      justify="center"
      gap={4}
      wrap
      style={{ flex: 'none', padding: '8px 6px', borderTop: `1px solid ${border}` }}
    >
      <Popover content={popover} title={t('fav.title')} placement="rightBottom" trigger="click">
        <Button type="text" icon={<StarOutlined />} aria-label={t('fav.title')} data-testid="favourites-popover" />
      </Popover>
      {!collapsed &&
        items.map((item) => (
          <Tooltip key={item.menuId} title={favouriteName(item)} placement="top">
            <Button
              type="text"
              icon={<MenuIcon name={item.source} />}
              onClick={() => openFavourite(item)}
              aria-label={favouriteName(item)}
            />
          </Tooltip>
        ))}
      <Tooltip title={t('fav.set')} placement="top">
        <Button
          type="text"
          icon={<SettingOutlined />}
          aria-label={t('fav.set')}
          onClick={showEditor}
          data-testid="favourites-set"
        />
      </Tooltip>
    </Flex>
  );
}
