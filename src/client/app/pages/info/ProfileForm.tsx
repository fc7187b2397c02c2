import { useEffect, useState } from 'react';
import { Button, Form, Input } from 'antd';
import { fetchUserInfo, updateUserInfo } from '../../../api/shell.ts';
import { useSession } from '../../../store/session.ts';
import { useT } from '../../i18n/index.ts';
import { AvatarUpload } from './AvatarUpload.tsx';
import { useFormDraft } from './useFormDraft.ts';
import { useFeedback } from '../../../feedback/FeedbackProvider.tsx';

interface ProfileFields {
  avatar?: string;
  realName: string;
  phone?: string;
  email?: string;
}

const MOBILE = /^1\d{10}$/;

/** Personal info tab: avatar, realName, phone, email (POST /blade-user/update-info). */
export function ProfileForm() {
  const t = useT();
  const { message } = useFeedback();
  const [form] = Form.useForm<ProfileFields>();
  const [loaded, setLoaded] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    fetchUserInfo()
      .then((info) => {
        form.setFieldsValue({
          avatar: info.avatar,
          realName: info.realName ?? '',
          phone: info.phone,
          email: info.email,
        });
        useSession.getState().setUser({ ...useSession.getState().user, ...info });
      })
      .catch(() => undefined)
      .finally(() => setLoaded(true));
  }, [form]);

  // Registered after the server values arrive, so a restored draft wins over them.
  useFormDraft('info:profile', form, loaded);

  const submit = async (values: ProfileFields) => {
    setSaving(true);
    try {
      await updateUserInfo(values);
      const session = useSession.getState();
      session.setUser({ ...session.user, ...values });
      void message.success(t('common.saveSuccess'));
    } catch {
      // Shown by the HTTP client.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form
      form={form}
      layout="horizontal"
      labelCol={{ flex: '100px' }}
      wrapperCol={{ flex: 1 }}
      style={{ maxWidth: 560 }}
      onFinish={submit}
      name="profile"
      disabled={!loaded}
    >
      <Form.Item name="avatar" label={t('info.avatar')}>
        <AvatarUpload />
      </Form.Item>
      <Form.Item
        name="realName"
        label={t('info.realName')}
        rules={[{ required: true, whitespace: true, message: t('info.realNameRequired') }]}
      >
        <Input maxLength={40} />
      </Form.Item>
      <Form.Item name="phone" label={t('info.phone')} rules={[{ pattern: MOBILE, message: t('login.phoneInvalid') }]}>
        <Input maxLength={11} />
      </Form.Item>
      <Form.Item name="email" label={t('info.email')} rules={[{ type: 'email', message: t('info.emailInvalid') }]}>
        <Input maxLength={80} />
      </Form.Item>
      <Form.Item label=" " colon={false}>
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('common.submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}
