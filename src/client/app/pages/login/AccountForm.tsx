import { useState } from 'react';
import { Button, Form, Input } from 'antd';
import LockOutlined from '@ant-design/icons/es/icons/LockOutlined';
import UserOutlined from '@ant-design/icons/es/icons/UserOutlined';
import { loginByPassword } from '../../../api/auth.ts';
import { ApiError } from '../../../api/http.ts';
import { useSession } from '../../../store/session.ts';
import { useT } from '../../i18n/index.ts';
import { website } from '../../website.ts';
import { CaptchaInput, type CaptchaValue } from './CaptchaInput.tsx';
import { useFinishSignIn } from './useFinishSignIn.ts';

interface AccountFields {
  username: string;
  password: string;
  captcha?: CaptchaValue;
}

/** Username + password sign-in (password sent as md5 hex), with a captcha row when configured or asked for. */
export function AccountForm({ tenantId }: { tenantId: () => Promise<string | undefined> }) {
  const t = useT();
  const [form] = Form.useForm<AccountFields>();
  const configured = useSession((s) => s.config.captchaMode ?? website.captchaMode);
  // After repeated failures on an account the server asks for the captcha (answer `captcha: true`).
  const [asked, setAsked] = useState(false);
  const captchaMode = configured || asked;
  const finish = useFinishSignIn();
  const [busy, setBusy] = useState(false);
  const [captchaRound, setCaptchaRound] = useState(0);

  const submit = async (values: AccountFields) => {
    const tenant = await tenantId();
    if (!tenant) return;
    setBusy(true);
    try {
      const token = await loginByPassword({
        tenantId: tenant,
        username: values.username.trim(),
        password: values.password,
        captcha: captchaMode && values.captcha ? values.captcha : undefined,
      });
      await finish(token, tenant);
    } catch (error) {
      // The HTTP client already showed the server's message (e.g. 用户名或密码错误).
      if (error instanceof ApiError && (error.body as { captcha?: unknown } | undefined)?.captcha === true) setAsked(true);
      setCaptchaRound((n) => n + 1);
      setBusy(false);
    }
  };

  return (
    <Form form={form} name="account-login" size="large" onFinish={submit} autoComplete="on">
      <Form.Item name="username" rules={[{ required: true, whitespace: true, message: t('login.usernameRequired') }]}>
        <Input prefix={<UserOutlined />} placeholder={t('login.username')} autoComplete="username" />
      </Form.Item>
      <Form.Item name="password" rules={[{ required: true, message: t('login.passwordRequired') }]}>
        <Input.Password prefix={<LockOutlined />} placeholder={t('login.password')} autoComplete="current-password" />
      </Form.Item>
      {captchaMode && (
        <Form.Item
          name="captcha"
          rules={[
            {
              validator: (_, value?: CaptchaValue) =>
                value?.code ? Promise.resolve() : Promise.reject(new Error(t('login.captchaRequired'))),
            },
          ]}
        >
          <CaptchaInput refreshKey={captchaRound} />
        </Form.Item>
      )}
      <Form.Item style={{ marginBottom: 0 }}>
        <Button type="primary" htmlType="submit" block loading={busy}>
          {busy ? t('login.signingIn') : t('login.submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}
