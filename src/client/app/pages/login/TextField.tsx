import { useId, useState, type ReactNode } from 'react';
import EyeInvisibleOutlined from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
import EyeOutlined from '@ant-design/icons-svg/es/asn/EyeOutlined';
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import { SvgIcon } from '../../plain/SvgIcon.tsx';

interface Props {
  icon: IconDefinition;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  /** A password field, with a button that shows or hides the text. */
  secret?: boolean;
  /** Labels of the show / hide button of a secret field. */
  revealLabels?: [string, string];
  autoComplete?: string;
  maxLength?: number;
  inputMode?: 'text' | 'numeric' | 'tel';
  /** Beside the input (the captcha image, the send-code button). */
  addon?: ReactNode;
}

/** A sign-in input: prefix icon, placeholder as its name, the field's message below when refused. */
export function TextField({ icon, placeholder, value, onChange, error, secret, revealLabels, autoComplete, maxLength, inputMode, addon }: Props) {
  const [revealed, setRevealed] = useState(false);
  const errorId = useId();
  const input = (
    <span className={error ? 'plain-input plain-input-invalid' : 'plain-input'}>
      <SvgIcon icon={icon} />
      <input
        type={secret && !revealed ? 'password' : 'text'}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        autoComplete={autoComplete}
        maxLength={maxLength}
        inputMode={inputMode}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      {secret && (
        <button
          type="button"
          className="plain-input-toggle"
          aria-label={revealLabels?.[revealed ? 1 : 0]}
          onClick={() => setRevealed((shown) => !shown)}
        >
          <SvgIcon icon={revealed ? EyeOutlined : EyeInvisibleOutlined} />
        </button>
      )}
    </span>
  );
  return (
    <div className="plain-field">
      {addon ? (
        <div className="plain-field-row">
          {input}
          {addon}
        </div>
      ) : (
        input
      )}
      <div id={errorId} className="plain-field-error" role={error ? 'alert' : undefined}>
        {error}
      </div>
    </div>
  );
}
