import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import TeamOutlined from '@ant-design/icons-svg/es/asn/TeamOutlined';
import { useSearchParams } from 'react-router';
import { loginBySocial } from '../../../api/auth.ts';
import { getStore } from '../../../store/storage.ts';
import { useSession } from '../../../store/session.ts';
import { useSettings } from '../../../store/settings.ts';
import { useT } from '../../i18n/index.ts';
import { loadFrontConfig } from '../../session/signIn.ts';
import { palettes } from '../../theme/palette.ts';
import { website } from '../../website.ts';
import { AccountForm } from './AccountForm.tsx';
import { LoginLanguage } from './LoginLanguage.tsx';
import { PhoneForm } from './PhoneForm.tsx';
import { TextField } from './TextField.tsx';
import { useFinishSignIn } from './useFinishSignIn.ts';
import '../../plain/plain.css';
import './login.css';

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

type Method = 'account' | 'phone';

/** Only when the server reports providers: their icons are not worth shipping otherwise. */
const SocialButtons = lazy(() => import('./SocialButtons.tsx'));

/**
 * The sign-in page. Plain elements styled by the theme's colours, no antd (issue 17: the page
 * works after ~100 KiB); antd and the signed-in frame load in idle time while the user types.
 */
export default function LoginPage() {
  const t = useT();
  const palette = palettes[useSettings((s) => s.theme)];
  const providers = useSession((s) => s.config.socialProviders) ?? [];
  const socialWorking = useSocialReturn();
  const [method, setMethod] = useState<Method>('account');
  // A form mounts when its tab is first opened and then stays (what was typed survives a switch).
  const [opened, setOpened] = useState<Method[]>(['account']);
  const open = (key: Method) => {
    setMethod(key);
    setOpened((list) => (list.includes(key) ? list : [...list, key]));
  };
  const [tenant, setTenant] = useState(() => getStore<string>('tenantId') ?? website.defaultTenantId);
  const [tenantError, setTenantError] = useState<string>();
  const tenantRef = useRef(tenant);
  tenantRef.current = tenant;

  useEffect(() => {
    document.title = `${t('login.title')} - ${t('app.name')}`;
  }, [t]);

  useEffect(() => {
    void loadFrontConfig();
    // Fetch the signed-in frame while the user types, so the menus show right after 登录.
    const idle = window.setTimeout(() => {
      void import('../../AntdFrame.tsx');
      void import('../../layout/MainLayout.tsx');
      void import('../HomePage.tsx');
    }, 1500);
    return () => window.clearTimeout(idle);
  }, []);

  const changeTenant = (value: string) => {
    setTenant(value);
    setTenantError(value.trim() ? undefined : t('login.tenantIdRequired'));
  };

  /** The tenant id shared by all sign-in methods; undefined (with the field's message) when empty. */
  const tenantId = useCallback((): string | undefined => {
    if (!website.tenantMode) return website.defaultTenantId;
    const value = tenantRef.current.trim();
    setTenantError(value ? undefined : t('login.tenantIdRequired'));
    return value || undefined;
  }, [t]);

  const methods: { key: Method; label: string }[] = [
    { key: 'account', label: t('login.tabAccount') },
    { key: 'phone', label: t('login.tabPhone') },
  ];

  return (
    <div className="login-page" style={{ background: `linear-gradient(135deg, ${palette.siderBg} 0%, ${palette.primary} 100%)` }}>
      <LoginLanguage />
      <main className="login-card">
        <div className="login-brand" style={{ background: palette.primary }}>
          <img src="/logo.svg" alt="" width={56} height={56} />
          <h2>{t('app.name')}</h2>
          <p>{t('login.subtitle')}</p>
        </div>
        <div className="login-main" aria-busy={socialWorking}>
          <h3>{t('login.welcome')}</h3>
          {website.tenantMode && (
            <TextField
              icon={TeamOutlined}
              placeholder={t('login.tenantId')}
              value={tenant}
              error={tenantError}
              onChange={changeTenant}
            />
          )}
          <div role="tablist" className="login-tabs">
            {methods.map(({ key, label }) => (
              <button
                key={key}
                type="button"
                role="tab"
                id={`login-tab-${key}`}
                aria-selected={method === key}
                aria-controls={`login-pane-${key}`}
                onClick={() => open(key)}
              >
                {label}
              </button>
            ))}
          </div>
          {opened.map((key) => (
            <div key={key} role="tabpanel" id={`login-pane-${key}`} aria-labelledby={`login-tab-${key}`} hidden={method !== key}>
              {key === 'account' ? <AccountForm tenantId={tenantId} /> : <PhoneForm tenantId={tenantId} />}
            </div>
          ))}
          {providers.length > 0 && (
            <Suspense>
              <SocialButtons providers={providers} tenantId={tenantId} />
            </Suspense>
          )}
          {socialWorking && (
            <div className="login-busy" role="status">
              <span className="plain-spin" aria-hidden="true" />
              {t('login.signingIn')}
            </div>
          )}
        </div>
      </main>
    </div>
  );
}
