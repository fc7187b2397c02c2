import { useEffect, useRef, useState } from 'react';
import TranslationOutlined from '@ant-design/icons-svg/es/asn/TranslationOutlined';
import { useSettings, type Language } from '../../../store/settings.ts';
import { useT } from '../../i18n/index.ts';
import { SvgIcon } from '../../plain/SvgIcon.tsx';

/** Language names are shown in their own language, so they are not translated. */
const LANGUAGES: { key: Language; label: string }[] = [
  { key: 'zh', label: '简体中文' },
  { key: 'en', label: 'English' },
];

/** The sign-in page's language menu (the layout's `LanguageSwitch` without antd). */
export function LoginLanguage() {
  const t = useT();
  const language = useSettings((s) => s.language);
  const setLanguage = useSettings((s) => s.setLanguage);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  return (
    <div ref={root} className="login-language">
      <button
        type="button"
        className="plain-btn plain-btn-text"
        aria-label={t('top.language')}
        aria-haspopup="menu"
        aria-expanded={open}
        data-testid="language-switch"
        onClick={() => setOpen((shown) => !shown)}
      >
        <SvgIcon icon={TranslationOutlined} />
        {LANGUAGES.find((l) => l.key === language)?.label}
      </button>
      {open && (
        <ul role="menu" className="login-language-menu">
          {LANGUAGES.map(({ key, label }) => (
            <li
              key={key}
              role="menuitemradio"
              aria-checked={key === language}
              tabIndex={0}
              onClick={() => {
                setLanguage(key);
                setOpen(false);
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  setLanguage(key);
                  setOpen(false);
                }
              }}
            >
              {label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
