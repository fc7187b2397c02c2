import { lazy, Suspense } from 'react';
import { Avatar, Card, Col, Descriptions, Empty, Flex, Row, Typography, theme } from 'antd';
import UserOutlined from '@ant-design/icons/es/icons/UserOutlined';
import { useFavourites } from '../../store/favourites.ts';
import { useSession } from '../../store/session.ts';
import { useLocalizedLabel, useT } from '../i18n/index.ts';
import { MenuIcon } from '../menu/MenuIcon.tsx';
import { leavesOf } from '../menu/menuTree.ts';
import { useOpenMenu, useVisibleMenus } from '../menu/useMenus.ts';
import { useOpenFavourite } from '../layout/favourites/useFavouriteActions.ts';
import { useResource } from '../../renderer/common/useResource.ts';

// The dashboard (schemas/desk/dashboard.json) and its charts load after the welcome card.
const DashboardView = lazy(() => import('../../renderer/page/DashboardView.tsx'));

/**
 * Home page (/wel/home/index): who is signed in, the dashboard of the spec (figure cards, top-10
 * lists, twelve months of sales and purchases, recent business; schemas/desk/dashboard.json), their
 * favourites and the modules they can open.
 */
export default function HomePage() {
  const t = useT();
  const label = useLocalizedLabel();
  const { token } = theme.useToken();
  const user = useSession((s) => s.user);
  const tenantId = useSession((s) => s.tenantId);
  const menus = useVisibleMenus();
  const favourites = useFavourites((s) => s.items);
  const openMenu = useOpenMenu();
  const openFavourite = useOpenFavourite();
  const dashboard = useResource('dashboard').resource;
  const name = user?.realName || user?.real_name || user?.account || '';

  return (
    <Flex vertical gap={12}>
      <Card>
        <Flex align="center" gap={16} wrap>
          <Avatar size={64} src={user?.avatar || undefined} icon={<UserOutlined />} />
          <div style={{ flex: 1, minWidth: 240 }}>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {t('home.welcome', { name })}
            </Typography.Title>
            <Typography.Text type="secondary">{t('home.intro')}</Typography.Text>
          </div>
          <Descriptions
            size="small"
            column={2}
            style={{ maxWidth: 480 }}
            items={[
              { key: 'account', label: t('home.account'), children: user?.account ?? '-' },
              { key: 'tenant', label: t('home.tenant'), children: user?.tenantId ?? user?.tenant_id ?? tenantId },
              { key: 'role', label: t('home.role'), children: user?.roleName ?? user?.role_name ?? '-' },
              { key: 'dept', label: t('home.dept'), children: user?.deptName ?? '-' },
            ]}
          />
        </Flex>
      </Card>
      {dashboard?.dashboard && (
        <Suspense fallback={null}>
          <DashboardView resource={dashboard} />
        </Suspense>
      )}
      <Card title={t('home.favourites')} size="small">
        {favourites.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('fav.empty')} />
        ) : (
          <Flex gap={12} wrap>
            {favourites.map((item) => (
              <Card.Grid
                key={item.menuId}
                hoverable
                onClick={() => openFavourite(item)}
                style={{ width: 160, padding: 16, textAlign: 'center', cursor: 'pointer' }}
              >
                <MenuIcon name={item.source} style={{ fontSize: 22, color: token.colorPrimary }} />
                <div style={{ marginTop: 6 }}>{item.name || item.menuName}</div>
              </Card.Grid>
            ))}
          </Flex>
        )}
      </Card>
      <Card title={t('home.modules')} size="small">
        <Row gutter={[12, 12]}>
          {menus.map((menu) => {
            const first = leavesOf([menu])[0];
            return (
              <Col key={menu.id} xs={12} sm={8} md={6} xl={4}>
                <Card size="small" hoverable onClick={() => first && openMenu(first)}>
                  <Flex align="center" gap={10}>
                    <MenuIcon name={menu.source} style={{ fontSize: 20, color: token.colorPrimary }} />
                    <div>
                      <div>{label(menu.name, menu.nameEn)}</div>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {leavesOf([menu]).length}
                      </Typography.Text>
                    </div>
                  </Flex>
                </Card>
              </Col>
            );
          })}
        </Row>
      </Card>
    </Flex>
  );
}
