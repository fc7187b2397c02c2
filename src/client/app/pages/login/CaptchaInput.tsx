import { useCallback, useEffect, useState } from 'react';
import SafetyOutlined from '@ant-design/icons-svg/es/asn/SafetyOutlined';
import { fetchCaptcha } from '../../../api/auth.ts';
import { useT } from '../../i18n/index.ts';
import { TextField } from './TextField.tsx';

export interface CaptchaValue {
  key: string;
  code: string;
}

interface Props {
  value: CaptchaValue;
  onChange: (value: CaptchaValue) => void;
  error?: string;
  /** Changing it fetches a new image (after a failed sign-in). */
  refreshKey: number;
}

/** Captcha row: text input plus the server's image; clicking the image fetches a new one. */
export function CaptchaInput({ value, onChange, error, refreshKey }: Props) {
  const t = useT();
  const [image, setImage] = useState<string>();

  const reload = useCallback(async () => {
    try {
      const captcha = await fetchCaptcha();
      setImage(captcha.image);
      onChange({ key: captcha.key, code: '' });
    } catch {
      setImage(undefined);
    }
    // Deliberately not tied to onChange, whose identity changes on every render of the form.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    void reload();
  }, [reload, refreshKey]);

  return (
    <TextField
      icon={SafetyOutlined}
      placeholder={t('login.captcha')}
      value={value.code}
      maxLength={8}
      error={error}
      onChange={(code) => onChange({ key: value.key, code })}
      addon={
        <img
          src={image}
          alt={t('login.captcha')}
          title={t('login.captchaRefresh')}
          onClick={() => void reload()}
          style={{ height: 40, width: 110, cursor: 'pointer', borderRadius: 4, flex: 'none', background: '#f5f5f5' }}
        />
      }
    />
  );
}
