import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Empty, Menu, Tag, type MenuProps } from 'antd';
import { useLocation } from 'react-router';
import type { MenuNode } from '../../../api/types.ts';
import { useSettings } from '../../../store/settings.ts';
import { useLocalizedLabel, useT } from '../../i18n/index.ts';
import { MenuIcon } from '../../menu/MenuIcon.tsx';
import { allNodesOf, ancestorIds, hasChildren, menuTarget } from '../../menu/menuTree.ts';
import { useOpenMenu, useVisibleMenus } from '../../menu/useMenus.ts';
import { palettes } from '../../theme/palette.ts';

type MenuItem = Required<MenuProps>['items'][number];

/** Maps in-app locations (menu targets and history paths) to the menu id to highlight. */
function locationIndex(menus: MenuNode[]): Map<string, string> {
  const index = new Map<string, string>();
  for (const menu of allNodesOf(menus)) {
    if (hasChildren(menu)) continue;
    const target = menuTarget(menu);
    if (target.kind === 'route') index.set(target.to, menu.id);
    if (menu.historyPath) index.set(menu.historyPath, menu.id);
  }
  return index;
}

function HistoryTag({ onOpen }: { onOpen: () => void }) {
  const t = useT();
  return (
    <Tag
      color="orange"
      data-testid="menu-history-tag"
      style={{
        marginInlineStart: 4,
        marginInlineEnd: 0,
        paddingInline: 3,
        fontSize: 11,
        lineHeight: '16px',
        cursor: 'pointer',
      }}
      onClick={(event) => {
        event.stopPropagation();
        onOpen();
      }}
    >
      {t('menu.history')}
    </Tag>
  );
}

/** The nested sidebar menu built from the visible menu tree. */
export function SideMenu({ collapsed }: { collapsed: boolean }) {
  const t = useT();
  const label = useLocalizedLabel();
  const menus = useVisibleMenus();
  const openMenu = useOpenMenu();
  const location = useLocation();
  const palette = palettes[useSettings((s) => s.theme)];
  const byId = useMemo(() => new Map(allNodesOf(menus).map((m) => [m.id, m])), [menus]);
  const byLocation = useMemo(() => locationIndex(menus), [menus]);
  const selectedId = byLocation.get(`${location.pathname}${location.search}`) ?? byLocation.get(location.pathname);
  const [openKeys, setOpenKeys] = useState<string[]>(() => (selectedId ? (ancestorIds(menus, selectedId) ?? []) : []));

  // Opening a page (from the menu, a tab, search or a favourite) shows just its branch.
  useEffect(() => {
    if (selectedId) setOpenKeys(ancestorIds(menus, selectedId) ?? []);
  }, [selectedId, menus]);

  const items = useMemo(() => {
    const toItem = (menu: MenuNode): MenuItem => {
      const text = label(menu.name, menu.nameEn);
      if (hasChildren(menu)) {
        const children = (menu.children ?? []).map(toItem);
        const title = <span data-menu-code={menu.code}>{text}</span>;
        if (menu.level === 2) return { type: 'group', key: menu.id, label: title, children };
        return { key: menu.id, icon: <MenuIcon name={menu.source} />, label: title, children };
      }
      const content: ReactNode =
        menu.isDisplayHistory === 2 && menu.historyPath ? (
          <span data-menu-code={menu.code}>
            {text}
            <HistoryTag onOpen={() => openMenu(menu, { history: true })} />
          </span>
        ) : (
          <span data-menu-code={menu.code}>{text}</span>
        );
      return { key: menu.id, icon: <MenuIcon name={menu.source} />, label: content, title: text };
    };
    return menus.map(toItem);
  }, [menus, label, openMenu]);

  if (menus.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('menu.empty')} style={{ marginTop: 24 }} />;
  }

  return (
    <Menu
      mode="inline"
      inlineIndent={16}
      theme={palette.siderMenu}
      items={items}
      selectedKeys={selectedId ? [selectedId] : []}
      {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
      onClick={({ key }) => {
        const menu = byId.get(key);
        if (menu) openMenu(menu);
      }}
      style={{ borderInlineEnd: 'none' }}
    />
  );
}
