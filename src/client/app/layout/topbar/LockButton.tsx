import { useState } from 'react';
import { Button, Form, Input, Modal } from 'antd';
import LockOutlined from '@ant-design/icons/es/icons/LockOutlined';
import { useNavigate } from 'react-router';
import { useLock } from '../../../store/lock.ts';
import { useT } from '../../i18n/index.ts';
import { website } from '../../website.ts';

/** Asks for a lock password, locks the screen and goes to /lock. */
export function LockButton() {
  const t = useT();
  const navigate = useNavigate();
  const lock = useLock((s) => s.lock);
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ password: string }>();

  const submit = async () => {
    const { password } = await form.validateFields();
    lock(password);
    setOpen(false);
    navigate(website.lockPath);
  };

  return (
    <>
      <Button
        type="text"
        icon={<LockOutlined />}
        onClick={() => setOpen(true)}
        aria-label={t('top.lock')}
        title={t('top.lock')}
        data-testid="lock-button"
      />
      <Modal
        open={open}
        title={t('lock.setTitle')}
        okText={t('lock.lockNow')}
        cancelText={t('common.cancel')}
        onOk={submit}
        onCancel={() => setOpen(false)}
        destroyOnHidden
        width={380}
      >
        <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
          <Form.Item
            name="password"
            label={t('lock.password')}
            rules={[{ required: true, message: t('lock.passwordRequired') }]}
          >
            <Input.Password autoFocus data-testid="lock-set-password" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
