import { useEffect, useMemo, useState, type Key } from 'react';
import { Flex, Input, Modal, Tag, Tree, Typography, type TreeDataNode } from 'antd';
import SearchOutlined from '@ant-design/icons/es/icons/SearchOutlined';
import type { MenuNode } from '../../../api/types.ts';
import { useFavourites } from '../../../store/favourites.ts';
import { useSession } from '../../../store/session.ts';
import { useLocalizedLabel, useT } from '../../i18n/index.ts';
import { allNodesOf, hasChildren, menuMatches } from '../../menu/menuTree.ts';
import { useVisibleMenus } from '../../menu/useMenus.ts';
import { website } from '../../website.ts';
import { menuOfFavourite, useFavouritesEditor } from './useFavouriteActions.ts';
import { useFeedback } from '../../../feedback/FeedbackProvider.tsx';

/** Keeps only branches that lead to a leaf matching the filter. */
function filterTree(nodes: MenuNode[], query: string): MenuNode[] {
  if (!query.trim()) return nodes;
  const out: MenuNode[] = [];
  for (const node of nodes) {
    if (hasChildren(node)) {
      const children = filterTree(node.children ?? [], query);
      if (children.length > 0) out.push({ ...node, children });
    } else if (menuMatches(node, query)) out.push(node);
  }
  return out;
}

/** The favourites dialog: tick up to 5 menus; the choice replaces the server-side list. */
export function FavouritesEditor() {
  const t = useT();
  const label = useLocalizedLabel();
  const { message } = useFeedback();
  const open = useFavouritesEditor((s) => s.open);
  const hide = useFavouritesEditor((s) => s.hide);
  const items = useFavourites((s) => s.items);
  const save = useFavourites((s) => s.save);
  const menuAll = useSession((s) => s.menuAll);
  const menus = useVisibleMenus();
  const [selected, setSelected] = useState<string[]>([]);
  const [query, setQuery] = useState('');
  const [saving, setSaving] = useState(false);
  const [expanded, setExpanded] = useState<Key[]>([]);
  const byId = useMemo(() => new Map(allNodesOf(menus).map((m) => [m.id, m])), [menus]);

  useEffect(() => {
    if (!open) return;
    setQuery('');
    setSelected(items.map((item) => menuOfFavourite(item, menuAll)?.id).filter((id): id is string => Boolean(id)));
  }, [open, items, menuAll]);

  const treeData = useMemo(() => {
    const toNode = (menu: MenuNode): TreeDataNode => ({
      key: menu.id,
      title: <span data-menu-code={menu.code}>{label(menu.name, menu.nameEn)}</span>,
      children: hasChildren(menu) ? (menu.children ?? []).map(toNode) : undefined,
      checkable: !hasChildren(menu),
      selectable: false,
    });
    return filterTree(menus, query).map(toNode);
  }, [menus, query, label]);

  // Filtering unfolds every branch that still has a match.
  useEffect(() => {
    if (query.trim()) setExpanded(allNodesOf(filterTree(menus, query)).map((m) => m.id));
  }, [menus, query]);

  const onCheck = (checked: Key[] | { checked: Key[] }) => {
    const keys = (Array.isArray(checked) ? checked : checked.checked).map(String);
    const leaves = keys.filter((key) => {
      const menu = byId.get(key);
      return menu && !hasChildren(menu);
    });
    if (leaves.length > website.maxFavourites) {
      void message.warning(t('fav.tooMany', { max: website.maxFavourites }));
      return;
    }
    setSelected(leaves);
  };

  const submit = async () => {
    setSaving(true);
    try {
      await save(selected);
      void message.success(t('fav.saved'));
      hide();
    } catch {
      // The server's message (e.g. 最多设置5个常用菜单！) was shown by the HTTP client.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('fav.edit')}
      onCancel={hide}
      onOk={submit}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      width={560}
      destroyOnHidden
    >
      <Flex vertical gap={10}>
        <Flex wrap gap={6} align="center" data-testid="favourites-selected" style={{ minHeight: 30 }}>
          <Typography.Text type="secondary">
            {t('fav.selected', { count: selected.length, max: website.maxFavourites })}
          </Typography.Text>
          {selected.map((id) => {
            const menu = byId.get(id);
            return (
              <Tag key={id} closable onClose={() => setSelected((keys) => keys.filter((k) => k !== id))}>
                {menu ? label(menu.name, menu.nameEn) : id}
              </Tag>
            );
          })}
        </Flex>
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t('fav.filter')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          data-testid="favourites-filter"
        />
        <div style={{ maxHeight: 420, overflow: 'auto' }}>
          <Tree
            checkable
            checkStrictly
            expandedKeys={expanded}
            onExpand={setExpanded}
            checkedKeys={selected}
            onCheck={onCheck}
            treeData={treeData}
          />
        </div>
      </Flex>
    </Modal>
  );
}
