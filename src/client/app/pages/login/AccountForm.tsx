import { useState, type FormEvent } from 'react';
import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';
import { md5 } from 'js-md5';
import { loginByPassword } from '../../../api/auth.ts';
import { ApiError } from '../../../api/http.ts';
import { useSession } from '../../../store/session.ts';
import { useT } from '../../i18n/index.ts';
import { website } from '../../website.ts';
import { CaptchaInput, type CaptchaValue } from './CaptchaInput.tsx';
import { SubmitButton } from './SubmitButton.tsx';
import { TextField } from './TextField.tsx';
import { required, useFields } from './useFields.ts';
import { useFinishSignIn } from './useFinishSignIn.ts';

/** Username + password sign-in (password sent as md5 hex), with a captcha row when configured or asked for. */
export function AccountForm({ tenantId }: { tenantId: () => string | undefined }) {
  const t = useT();
  const fields = useFields(
    { username: '', password: '' },
    { username: [required(t('login.usernameRequired'))], password: [(v) => (v ? undefined : t('login.passwordRequired'))] },
  );
  const configured = useSession((s) => s.config.captchaMode ?? website.captchaMode);
  // After repeated failures on an account the server asks for the captcha (answer `captcha: true`).
  const [asked, setAsked] = useState(false);
  const captchaMode = configured || asked;
  const [captcha, setCaptcha] = useState<CaptchaValue>({ key: '', code: '' });
  const [captchaError, setCaptchaError] = useState<string>();
  const [captchaRound, setCaptchaRound] = useState(0);
  const finish = useFinishSignIn();
  const [busy, setBusy] = useState(false);

  const changeCaptcha = (value: CaptchaValue) => {
    setCaptcha(value);
    if (captchaError && value.code) setCaptchaError(undefined);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const values = fields.validate();
    const captchaMissing = captchaMode && !captcha.code;
    setCaptchaError(captchaMissing ? t('login.captchaRequired') : undefined);
    const tenant = tenantId();
    if (!values || captchaMissing || !tenant) return;
    setBusy(true);
    try {
      const token = await loginByPassword({
        tenantId: tenant,
        username: values.username.trim(),
        passwordMd5: md5(values.password),
        captcha: captchaMode ? captcha : undefined,
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
    <form id="account-login" onSubmit={(e) => void submit(e)} autoComplete="on" noValidate>
      <TextField
        icon={UserOutlined}
        placeholder={t('login.username')}
        autoComplete="username"
        value={fields.values.username}
        error={fields.errors.username}
        onChange={(v) => fields.set('username', v)}
      />
      <TextField
        icon={LockOutlined}
        placeholder={t('login.password')}
        autoComplete="current-password"
        secret
        revealLabels={[t('login.showPassword'), t('login.hidePassword')]}
        value={fields.values.password}
        error={fields.errors.password}
        onChange={(v) => fields.set('password', v)}
      />
      {captchaMode && (
        <CaptchaInput value={captcha} onChange={changeCaptcha} error={captchaError} refreshKey={captchaRound} />
      )}
      <SubmitButton busy={busy} />
    </form>
  );
}
