import { useState } from 'react';
import { Button, Form, Input } from 'antd';
import { md5 } from 'js-md5';
import { notifierOutsideFrame } from '../../../api/notify.ts';
import { updatePassword } from '../../../api/shell.ts';
import { useT } from '../../i18n/index.ts';
import { signOut } from '../../session/signIn.ts';

interface PasswordFields {
  oldPassword: string;
  newPassword: string;
  newPassword1: string;
}

/** Change-password tab: each password goes to the server as md5 hex. */
export function PasswordForm() {
  const t = useT();
  const [form] = Form.useForm<PasswordFields>();
  const [saving, setSaving] = useState(false);

  const submit = async (values: PasswordFields) => {
    setSaving(true);
    try {
      await updatePassword({
        oldPassword: md5(values.oldPassword),
        newPassword: md5(values.newPassword),
        newPassword1: md5(values.newPassword1),
      });
      // Every token issued under the old password is refused from now on, this one too: sign in again.
      // Drawn outside antd's frame: the sign-in page unmounts the frame, and the message with it.
      notifierOutsideFrame().success(t('info.passwordChanged'));
      form.resetFields();
      await signOut();
    } catch {
      // Shown by the HTTP client (e.g. a wrong current password).
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form
      form={form}
      labelCol={{ flex: '100px' }}
      wrapperCol={{ flex: 1 }}
      style={{ maxWidth: 560 }}
      onFinish={submit}
      name="password"
    >
      <Form.Item
        name="oldPassword"
        label={t('info.oldPassword')}
        rules={[{ required: true, message: t('info.oldPasswordRequired') }]}
      >
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        name="newPassword"
        label={t('info.newPassword')}
        rules={[{ required: true, message: t('info.newPasswordRequired') }]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="newPassword1"
        label={t('info.newPassword1')}
        dependencies={['newPassword']}
        rules={[
          { required: true, message: t('info.newPassword1Required') },
          ({ getFieldValue }) => ({
            validator: (_, value?: string) =>
              !value || value === getFieldValue('newPassword')
                ? Promise.resolve()
                : Promise.reject(new Error(t('info.passwordMismatch'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item label=" " colon={false}>
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('common.submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}
