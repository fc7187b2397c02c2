import { useEffect, useState } from 'react';
import { Avatar, Button, Card, Flex, Form, Input, Typography } from 'antd';
import { md5 } from 'js-md5';
import LockOutlined from '@ant-design/icons/es/icons/LockOutlined';
import UnlockOutlined from '@ant-design/icons/es/icons/UnlockOutlined';
import UserOutlined from '@ant-design/icons/es/icons/UserOutlined';
import { Navigate, useNavigate } from 'react-router';
import { getAccessToken } from '../../store/cookies.ts';
import { useLock } from '../../store/lock.ts';
import { useSession } from '../../store/session.ts';
import { useSettings } from '../../store/settings.ts';
import { useTabs } from '../../store/tabs.ts';
import { useT } from '../i18n/index.ts';
import { signOut } from '../session/signIn.ts';
import { palettes } from '../theme/palette.ts';
import { website } from '../website.ts';

/** /lock: the stored lock flag keeps this screen up across reloads until the password is given. */
export default function LockPage() {
  const t = useT();
  const navigate = useNavigate();
  const locked = useLock((s) => s.locked);
  const unlock = useLock((s) => s.unlock);
  const user = useSession((s) => s.user);
  const palette = palettes[useSettings((s) => s.theme)];
  const [error, setError] = useState<string>();

  useEffect(() => {
    document.title = `${t('lock.title')} - ${t('app.name')}`;
  }, [t]);

  if (!getAccessToken()) return <Navigate to={website.loginPath} replace />;
  if (!locked) return <Navigate to={useTabs.getState().activeKey || website.homePath} replace />;

  const submit = ({ password }: { password: string }) => {
    if (unlock(md5(password))) navigate(useTabs.getState().activeKey || website.homePath, { replace: true });
    else setError(t('lock.wrongPassword'));
  };

  return (
    <Flex
      align="center"
      justify="center"
      data-testid="lock-page"
      style={{ minHeight: '100vh', background: `linear-gradient(160deg, ${palette.siderBg}, ${palette.primary})` }}
    >
      <Card style={{ width: 360, textAlign: 'center' }}>
        <Flex vertical align="center" gap={8} style={{ marginBottom: 16 }}>
          <Avatar size={72} src={user?.avatar || undefined} icon={<UserOutlined />} />
          <Typography.Title level={4} style={{ margin: 0 }}>
            {user?.realName || user?.real_name || user?.account}
          </Typography.Title>
          <Typography.Text type="secondary">
            <LockOutlined /> {t('lock.locked')}
          </Typography.Text>
        </Flex>
        <Form onFinish={submit} onValuesChange={() => setError(undefined)}>
          <Form.Item
            name="password"
            rules={[{ required: true, message: t('lock.passwordRequired') }]}
            validateStatus={error ? 'error' : undefined}
            help={error}
          >
            <Input.Password autoFocus placeholder={t('lock.password')} data-testid="unlock-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block icon={<UnlockOutlined />}>
            {t('lock.unlock')}
          </Button>
        </Form>
        <Button type="link" onClick={() => void signOut()} style={{ marginTop: 8 }}>
          {t('lock.signOut')}
        </Button>
      </Card>
    </Flex>
  );
}
