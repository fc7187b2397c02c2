import { Avatar, Dropdown, Flex, type MenuProps } from 'antd';
import DashboardOutlined from '@ant-design/icons/es/icons/DashboardOutlined';
import LogoutOutlined from '@ant-design/icons/es/icons/LogoutOutlined';
import UserOutlined from '@ant-design/icons/es/icons/UserOutlined';
import { useSession } from '../../../store/session.ts';
import { useT } from '../../i18n/index.ts';
import { useOpenLocation } from '../../menu/useMenus.ts';
import { signOut } from '../../session/signIn.ts';
import { website } from '../../website.ts';
import { useFeedback } from '../../../feedback/FeedbackProvider.tsx';

/** Avatar and name with the dashboard, personal info (not for `admin`) and sign-out items. */
export function UserMenu() {
  const t = useT();
  const { modal } = useFeedback();
  const openLocation = useOpenLocation();
  const user = useSession((s) => s.user);
  const account = user?.account ?? '';
  const name = user?.realName || user?.real_name || user?.name || account;

  const items: MenuProps['items'] = [
    { key: 'dashboard', icon: <DashboardOutlined />, label: t('top.dashboard') },
    ...(account === 'admin' ? [] : [{ key: 'info', icon: <UserOutlined />, label: t('top.userInfo') }]),
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: t('top.logout'), danger: true },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'dashboard') openLocation(website.homePath);
    else if (key === 'info') openLocation('/info/index');
    else if (key === 'logout') {
      modal.confirm({
        title: t('common.tip'),
        content: t('top.logoutConfirm'),
        okText: t('common.ok'),
        cancelText: t('common.cancel'),
        onOk: () => signOut(),
      });
    }
  };

  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight">
      <Flex
        align="center"
        gap={8}
        style={{ cursor: 'pointer', padding: '0 4px', whiteSpace: 'nowrap' }}
        data-testid="user-menu"
      >
        <Avatar size={30} src={user?.avatar || undefined} icon={<UserOutlined />} />
        <span>{name}</span>
      </Flex>
    </Dropdown>
  );
}
