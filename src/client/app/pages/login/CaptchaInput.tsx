import { useCallback, useEffect, useState } from 'react';
import { Flex, Input, Tooltip } from 'antd';
import SafetyOutlined from '@ant-design/icons/es/icons/SafetyOutlined';
import { fetchCaptcha } from '../../../api/auth.ts';
import { useT } from '../../i18n/index.ts';

export interface CaptchaValue {
  key: string;
  code: string;
}

interface Props {
  value?: CaptchaValue;
  onChange?: (value: CaptchaValue) => void;
  /** Changing it fetches a new image (after a failed sign-in). */
  refreshKey: number;
}

/** Captcha row: text input plus the server's image; clicking the image fetches a new one. */
export function CaptchaInput({ value, onChange, refreshKey }: Props) {
  const t = useT();
  const [image, setImage] = useState<string>();
  const [key, setKey] = useState('');

  const reload = useCallback(async () => {
    try {
      const captcha = await fetchCaptcha();
      setImage(captcha.image);
      setKey(captcha.key);
      onChange?.({ key: captcha.key, code: '' });
    } catch {
      setImage(undefined);
    }
    // Deliberately not tied to onChange, whose identity changes on every Form render.
  }, []);

  useEffect(() => {
    void reload();
  }, [reload, refreshKey]);

  return (
    <Flex gap={8}>
      <Input
        size="large"
        prefix={<SafetyOutlined />}
        placeholder={t('login.captcha')}
        value={value?.code ?? ''}
        maxLength={8}
        onChange={(e) => onChange?.({ key, code: e.target.value })}
      />
      <Tooltip title={t('login.captchaRefresh')}>
        <img
          src={image}
          alt={t('login.captcha')}
          onClick={() => void reload()}
          style={{ height: 40, width: 110, cursor: 'pointer', borderRadius: 4, flex: 'none', background: '#f5f5f5' }}
        />
      </Tooltip>
    </Flex>
  );
}
