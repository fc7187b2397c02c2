import { Form, Input, Modal } from 'antd';
import { md5 } from 'js-md5';
import { useNavigate } from 'react-router';
import { useLock } from '../../../store/lock.ts';
import { useT } from '../../i18n/index.ts';
import { website } from '../../website.ts';

/** Asks for a lock password, locks the screen and goes to /lock (loaded when the lock button is pressed). */
export function LockDialog({ onClose }: { onClose(): void }) {
  const t = useT();
  const navigate = useNavigate();
  const lock = useLock((s) => s.lock);
  const [form] = Form.useForm<{ password: string }>();

  const submit = async () => {
    const { password } = await form.validateFields();
    lock(md5(password));
    onClose();
    navigate(website.lockPath);
  };

  return (
    <Modal
      open
      title={t('lock.setTitle')}
      okText={t('lock.lockNow')}
      cancelText={t('common.cancel')}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
      width={380}
    >
      <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
        <Form.Item name="password" label={t('lock.password')} rules={[{ required: true, message: t('lock.passwordRequired') }]}>
          <Input.Password autoFocus data-testid="lock-set-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
