import { Button, Flex, Tooltip } from 'antd';
import EditOutlined from '@ant-design/icons/es/icons/EditOutlined';
import PlusOutlined from '@ant-design/icons/es/icons/PlusOutlined';
import { useFavourites } from '../../../store/favourites.ts';
import { useT } from '../../i18n/index.ts';
import { MenuIcon } from '../../menu/MenuIcon.tsx';
import { website } from '../../website.ts';
import { useFavouritesEditor, useOpenFavourite } from '../favourites/useFavouriteActions.ts';

/** Top-bar strip of up to 5 favourite menus, plus the button that opens the edit/add dialog. */
export function QuickMenu() {
  const t = useT();
  const items = useFavourites((s) => s.items);
  const openFavourite = useOpenFavourite();
  const showEditor = useFavouritesEditor((s) => s.show);
  const shown = items.slice(0, website.maxFavourites);

  return (
    <Flex align="center" gap={2} data-testid="quick-menu" style={{ minWidth: 0, overflow: 'hidden' }}>
      {shown.map((item) => (
        <Button
          key={item.menuId}
          type="text"
          size="small"
          icon={<MenuIcon name={item.source} />}
          onClick={() => openFavourite(item)}
          data-testid="quick-menu-item"
        >
          {item.name || item.menuName || item.path}
        </Button>
      ))}
      <Tooltip title={shown.length > 0 ? t('fav.edit') : t('fav.set')}>
        <Button
          type="text"
          size="small"
          icon={shown.length > 0 ? <EditOutlined /> : <PlusOutlined />}
          onClick={showEditor}
          aria-label={t('fav.edit')}
          data-testid="quick-menu-edit"
        >
          {shown.length === 0 ? t('fav.add') : null}
        </Button>
      </Tooltip>
    </Flex>
  );
}
