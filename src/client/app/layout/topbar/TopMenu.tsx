import { useEffect, useState } from 'react';
import { Menu } from 'antd';
import HomeOutlined from '@ant-design/icons/es/icons/HomeOutlined';
import { fetchTopMenus } from '../../../api/shell.ts';
import type { TopMenu as TopMenuItem } from '../../../api/types.ts';
import { useSession } from '../../../store/session.ts';
import { useLocalizedLabel, useT } from '../../i18n/index.ts';
import { MenuIcon } from '../../menu/MenuIcon.tsx';
import { loadMenus } from '../../session/signIn.ts';

const HOME_KEY = 'home';

/** Top menus switch the sidebar to one module group; the home item shows every menu. */
export function TopMenu() {
  const t = useT();
  const label = useLocalizedLabel();
  const topMenuId = useSession((s) => s.topMenuId);
  const [items, setItems] = useState<TopMenuItem[]>([]);

  useEffect(() => {
    fetchTopMenus().then(
      (list) => setItems(Array.isArray(list) ? [...list].sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0)) : []),
      () => setItems([]),
    );
  }, []);

  return (
    <Menu
      mode="horizontal"
      data-testid="top-menu"
      selectedKeys={[topMenuId ?? HOME_KEY]}
      onClick={({ key }) => void loadMenus(key === HOME_KEY ? undefined : key).catch(() => undefined)}
      items={[
        { key: HOME_KEY, icon: <HomeOutlined />, label: t('menu.home') },
        ...items.map((item) => ({
          key: item.id,
          icon: <MenuIcon name={item.source} />,
          label: label(item.name, item.nameEn),
        })),
      ]}
      // A width from the item count: with an auto width antd measures the menu before it has any
      // and folds every item into "…"; this width still shrinks (and folds) on narrow screens.
      style={{ flex: '0 1 auto', width: (items.length + 1) * 116, minWidth: 96, background: 'transparent', borderBottom: 'none', lineHeight: '50px' }}
    />
  );
}
