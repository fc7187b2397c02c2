import { useMemo, useRef, useState } from 'react';
import { AutoComplete, Flex, type InputRef } from 'antd';
import Input from 'antd/es/input/Input';
import SearchOutlined from '@ant-design/icons/es/icons/SearchOutlined';
import { useLocalizedLabel, useT } from '../../i18n/index.ts';
import { MenuIcon } from '../../menu/MenuIcon.tsx';
import { allNodesOf, searchLeaves } from '../../menu/menuTree.ts';
import { useOpenMenu, useVisibleMenus } from '../../menu/useMenus.ts';

const MAX_RESULTS = 30;

/**
 * Menu search: leaves whose name, English name, code or pinyin initials start with the typed
 * text (ignoring case). Picking a result opens it; Esc clears and closes the search.
 */
export function MenuSearch({ variant, onClose }: { variant: 'sidebar' | 'top'; onClose?: () => void }) {
  const t = useT();
  const label = useLocalizedLabel();
  const menus = useVisibleMenus();
  const openMenu = useOpenMenu();
  const inputRef = useRef<InputRef>(null);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const byId = useMemo(() => new Map(allNodesOf(menus).map((m) => [m.id, m])), [menus]);
  const results = useMemo(() => (text.trim() ? searchLeaves(menus, text).slice(0, MAX_RESULTS) : []), [menus, text]);

  const close = () => {
    setText('');
    setOpen(false);
    inputRef.current?.blur();
    onClose?.();
  };

  const options = results.map((menu) => ({
    value: menu.id,
    label: (
      <Flex align="center" gap={8} data-testid="menu-search-result" data-menu-code={menu.code}>
        <MenuIcon name={menu.source} />
        <span style={{ flex: 1 }}>{label(menu.name, menu.nameEn)}</span>
        <span style={{ fontSize: 12, color: 'var(--ant-color-text-secondary)' }}>{menu.path}</span>
      </Flex>
    ),
  }));

  return (
    <AutoComplete
      value={text}
      options={options}
      open={open && text.trim().length > 0}
      onSearch={(value) => {
        setText(value);
        setOpen(true);
      }}
      onSelect={(id: string) => {
        const menu = byId.get(id);
        close();
        if (menu) openMenu(menu);
      }}
      onFocus={() => setOpen(true)}
      onBlur={() => setOpen(false)}
      notFoundContent={text.trim() ? t('menu.noMatch') : null}
      popupMatchSelectWidth={variant === 'sidebar' ? 320 : 360}
      // At most 30 results: all rendered (a virtual list would leave the ones below the fold out of the page).
      virtual={false}
      listHeight={320}
      style={{ width: variant === 'sidebar' ? '100%' : 240 }}
    >
      <Input
        ref={inputRef}
        data-testid={`menu-search-${variant}`}
        prefix={<SearchOutlined />}
        placeholder={t('menu.search')}
        title={t('menu.searchHint')}
        autoFocus={variant === 'top'}
        onKeyDown={(event) => {
          if (event.key === 'Escape') close();
        }}
      />
    </AutoComplete>
  );
}
