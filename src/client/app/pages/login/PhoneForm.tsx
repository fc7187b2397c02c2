import { useEffect, useState } from 'react';
import { App, Button, Flex, Form, Input } from 'antd';
import MailOutlined from '@ant-design/icons/es/icons/MailOutlined';
import MobileOutlined from '@ant-design/icons/es/icons/MobileOutlined';
import { loginByPhone, sendSmsCode } from '../../../api/auth.ts';
import { useT } from '../../i18n/index.ts';
import { website } from '../../website.ts';
import { useFinishSignIn } from './useFinishSignIn.ts';

const MOBILE = /^1\d{10}$/;

interface PhoneFields {
  phone: string;
  code: string;
}

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
export function PhoneForm({ tenantId }: { tenantId: () => Promise<string | undefined> }) {
  const t = useT();
  const { message } = App.useApp();
  const [form] = Form.useForm<PhoneFields>();
  const finish = useFinishSignIn();
  const [smsId, setSmsId] = useState<string>();
  const [left, startCountdown] = useCountdown();
  const [sending, setSending] = useState(false);
  const [busy, setBusy] = useState(false);

  const send = async () => {
    const tenant = await tenantId();
    if (!tenant) return;
    try {
      const { phone } = await form.validateFields(['phone']);
      setSending(true);
      setSmsId(await sendSmsCode(tenant, phone));
      startCountdown();
      void message.success(t('login.codeSent'));
    } catch {
      // Validation errors show on the field; HTTP errors were toasted.
    } finally {
      setSending(false);
    }
  };

  const submit = async (values: PhoneFields) => {
    const tenant = await tenantId();
    if (!tenant) return;
    if (!smsId) {
      void message.warning(t('login.sendCodeFirst'));
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
    <Form form={form} name="phone-login" size="large" onFinish={submit}>
      <Form.Item
        name="phone"
        rules={[
          { required: true, message: t('login.phoneRequired') },
          { pattern: MOBILE, message: t('login.phoneInvalid') },
        ]}
      >
        <Input prefix={<MobileOutlined />} placeholder={t('login.phone')} maxLength={11} autoComplete="tel" />
      </Form.Item>
      <Form.Item required>
        <Flex gap={8}>
          <Form.Item name="code" noStyle rules={[{ required: true, message: t('login.smsCodeRequired') }]}>
            <Input
              prefix={<MailOutlined />}
              placeholder={t('login.smsCode')}
              maxLength={6}
              autoComplete="one-time-code"
            />
          </Form.Item>
          <Button onClick={send} disabled={left > 0} loading={sending} style={{ minWidth: 120 }}>
            {left > 0 ? t('login.resendIn', { seconds: left }) : t('login.sendCode')}
          </Button>
        </Flex>
      </Form.Item>
      <Form.Item style={{ marginBottom: 0 }}>
        <Button type="primary" htmlType="submit" block loading={busy}>
          {busy ? t('login.signingIn') : t('login.submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}
