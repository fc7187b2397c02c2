import { useEffect, useState, type FormEvent } from 'react';
import MailOutlined from '@ant-design/icons-svg/es/asn/MailOutlined';
import MobileOutlined from '@ant-design/icons-svg/es/asn/MobileOutlined';
import { loginByPhone, sendSmsCode } from '../../../api/auth.ts';
import { notifier } from '../../../api/notify.ts';
import { useT } from '../../i18n/index.ts';
import { website } from '../../website.ts';
import { SubmitButton } from './SubmitButton.tsx';
import { TextField } from './TextField.tsx';
import { matches, required, useFields } from './useFields.ts';
import { useFinishSignIn } from './useFinishSignIn.ts';

const MOBILE = /^1\d{10}$/;

/** Seconds left before the code can be sent again; 0 when it can. */
function useCountdown(): [number, () => void] {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return undefined;
    const timer = window.setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [left]);
  return [left, () => setLeft(website.smsCountdownSeconds)];
}

/** Phone + SMS code sign-in (grant sms_code with the smsId the send call returned). */
export function PhoneForm({ tenantId }: { tenantId: () => string | undefined }) {
  const t = useT();
  const fields = useFields(
    { phone: '', code: '' },
    {
      phone: [required(t('login.phoneRequired')), matches(MOBILE, t('login.phoneInvalid'))],
      code: [required(t('login.smsCodeRequired'))],
    },
  );
  const finish = useFinishSignIn();
  const [smsId, setSmsId] = useState<string>();
  const [left, startCountdown] = useCountdown();
  const [sending, setSending] = useState(false);
  const [busy, setBusy] = useState(false);

  const send = async () => {
    const tenant = tenantId();
    const values = fields.validate(['phone']);
    if (!tenant || !values) return;
    setSending(true);
    try {
      setSmsId(await sendSmsCode(tenant, values.phone));
      startCountdown();
      notifier().success(t('login.codeSent'));
    } catch {
      // The HTTP client showed the server's message.
    } finally {
      setSending(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const values = fields.validate();
    const tenant = tenantId();
    if (!values || !tenant) return;
    if (!smsId) {
      notifier().warning(t('login.sendCodeFirst'));
      return;
    }
    setBusy(true);
    try {
      const token = await loginByPhone({ tenantId: tenant, phone: values.phone, code: values.code.trim(), smsId });
      await finish(token, tenant);
    } catch {
      setBusy(false);
    }
  };

  return (
    <form id="phone-login" onSubmit={(e) => void submit(e)} noValidate>
      <TextField
        icon={MobileOutlined}
        placeholder={t('login.phone')}
        maxLength={11}
        inputMode="tel"
        autoComplete="tel"
        value={fields.values.phone}
        error={fields.errors.phone}
        onChange={(v) => fields.set('phone', v)}
      />
      <TextField
        icon={MailOutlined}
        placeholder={t('login.smsCode')}
        maxLength={6}
        inputMode="numeric"
        autoComplete="one-time-code"
        value={fields.values.code}
        error={fields.errors.code}
        onChange={(v) => fields.set('code', v)}
        addon={
          <button
            type="button"
            className="plain-btn"
            onClick={() => void send()}
            disabled={left > 0 || sending}
            style={{ minWidth: 120 }}
          >
            {sending && <span className="plain-spin" aria-hidden="true" />}
            {left > 0 ? t('login.resendIn', { seconds: left }) : t('login.sendCode')}
          </button>
        }
      />
      <SubmitButton busy={busy} />
    </form>
  );
}
