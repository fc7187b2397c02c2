import { useCallback, useEffect, useRef, useState } from 'react';
import { Card, Flex, Form, Input, Spin, Tabs, Typography, theme } from 'antd';
import TeamOutlined from '@ant-design/icons/es/icons/TeamOutlined';
import { useSearchParams } from 'react-router';
import { loginBySocial } from '../../../api/auth.ts';
import { getStore } from '../../../store/storage.ts';
import { useSession } from '../../../store/session.ts';
import { useSettings } from '../../../store/settings.ts';
import { useT } from '../../i18n/index.ts';
import { LanguageSwitch } from '../../layout/LanguageSwitch.tsx';
import { loadFrontConfig } from '../../session/signIn.ts';
import { palettes } from '../../theme/palette.ts';
import { website } from '../../website.ts';
import { AccountForm } from './AccountForm.tsx';
import { PhoneForm } from './PhoneForm.tsx';
import { SocialButtons } from './SocialButtons.tsx';
import { useFinishSignIn } from './useFinishSignIn.ts';

/** Finishes a social sign-in when the provider sends the browser back with ?source&code&state. */
function useSocialReturn(): boolean {
  const [params, setParams] = useSearchParams();
  const finish = useFinishSignIn();
  const source = params.get('source');
  const code = params.get('code');
  const state = params.get('state') ?? '';
  const started = useRef(false);
  const [working, setWorking] = useState(Boolean(source && code));

  useEffect(() => {
    if (!source || !code || started.current) return;
    started.current = true;
    const tenantId = getStore<string>('tenantId') ?? website.defaultTenantId;
    loginBySocial({ tenantId, source, code, state })
      .then((token) => finish(token, tenantId))
      .catch(() => {
        setWorking(false);
        const rest = new URLSearchParams(params);
        ['source', 'code', 'state'].forEach((name) => rest.delete(name));
        setParams(rest, { replace: true });
      });
  }, [source, code, state, finish, params, setParams]);

  return working;
}

export default function LoginPage() {
  const t = useT();
  const { token } = theme.useToken();
  const themeName = useSettings((s) => s.theme);
  const palette = palettes[themeName];
  const providers = useSession((s) => s.config.socialProviders) ?? [];
  const [tenantForm] = Form.useForm<{ tenantId: string }>();
  const socialWorking = useSocialReturn();

  useEffect(() => {
    document.title = `${t('login.title')} - ${t('app.name')}`;
  }, [t]);

  useEffect(() => {
    void loadFrontConfig();
    // Fetch the signed-in frame while the user types, so the menus show right after 登录.
    const idle = window.setTimeout(() => {
      void import('../../layout/MainLayout.tsx');
      void import('../HomePage.tsx');
    }, 1500);
    return () => window.clearTimeout(idle);
  }, []);

  /** The tenant id shared by all sign-in methods; undefined (with a field error) when empty. */
  const tenantId = useCallback(async () => {
    if (!website.tenantMode) return website.defaultTenantId;
    try {
      const { tenantId: value } = await tenantForm.validateFields();
      return value.trim();
    } catch {
      return undefined;
    }
  }, [tenantForm]);

  return (
    <Flex
      vertical
      align="center"
      justify="center"
      style={{
        minHeight: '100vh',
        padding: 16,
        background: `linear-gradient(135deg, ${palette.siderBg} 0%, ${palette.primary} 100%)`,
      }}
    >
      <div style={{ position: 'fixed', top: 16, right: 24 }}>
        <LanguageSwitch light />
      </div>
      <Card
        style={{ width: '100%', maxWidth: 920, overflow: 'hidden', boxShadow: token.boxShadowSecondary }}
        styles={{ body: { padding: 0 } }}
      >
        <Flex wrap>
          <Flex
            vertical
            justify="center"
            gap={12}
            style={{ flex: '1 1 360px', minHeight: 200, padding: 40, background: palette.primary, color: '#fff' }}
          >
            <img
              src="/logo.svg"
              alt=""
              width={56}
              height={56}
              style={{ borderRadius: 14, boxShadow: '0 0 0 2px rgba(255,255,255,0.55)' }}
            />
            <Typography.Title level={2} style={{ color: '#fff', margin: 0 }}>
              {t('app.name')}
            </Typography.Title>
            <Typography.Text style={{ color: 'rgba(255,255,255,0.8)', fontSize: 16 }}>
              {t('login.subtitle')}
            </Typography.Text>
          </Flex>
          <div style={{ flex: '1 1 380px', padding: '32px 40px' }}>
            <Typography.Title level={3} style={{ marginTop: 0 }}>
              {t('login.welcome')}
            </Typography.Title>
            <Spin spinning={socialWorking} description={t('login.signingIn')}>
              {website.tenantMode && (
                <Form
                  form={tenantForm}
                  name="tenant"
                  size="large"
                  initialValues={{ tenantId: getStore<string>('tenantId') ?? website.defaultTenantId }}
                >
                  <Form.Item
                    name="tenantId"
                    rules={[{ required: true, whitespace: true, message: t('login.tenantIdRequired') }]}
                    style={{ marginBottom: 8 }}
                  >
                    <Input prefix={<TeamOutlined />} placeholder={t('login.tenantId')} />
                  </Form.Item>
                </Form>
              )}
              <Tabs
                items={[
                  { key: 'account', label: t('login.tabAccount'), children: <AccountForm tenantId={tenantId} /> },
                  { key: 'phone', label: t('login.tabPhone'), children: <PhoneForm tenantId={tenantId} /> },
                ]}
              />
              <SocialButtons providers={providers} tenantId={tenantId} />
            </Spin>
          </div>
        </Flex>
      </Card>
    </Flex>
  );
}
