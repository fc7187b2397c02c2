import { Button, Dropdown } from 'antd';
import TranslationOutlined from '@ant-design/icons/es/icons/TranslationOutlined';
import { useSettings, type Language } from '../../store/settings.ts';
import { useT } from '../i18n/index.ts';

/** Language names are shown in their own language, so they are not translated. */
const LANGUAGES: { key: Language; label: string }[] = [
  { key: 'zh', label: '简体中文' },
  { key: 'en', label: 'English' },
];

export function LanguageSwitch({ light = false }: { light?: boolean }) {
  const t = useT();
  const language = useSettings((s) => s.language);
  const setLanguage = useSettings((s) => s.setLanguage);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [language],
        items: LANGUAGES.map(({ key, label }) => ({ key, label })),
        onClick: ({ key }) => setLanguage(key as Language),
      }}
    >
      <Button
        type="text"
        aria-label={t('top.language')}
        data-testid="language-switch"
        icon={<TranslationOutlined />}
        style={light ? { color: '#fff' } : undefined}
      >
        {LANGUAGES.find((l) => l.key === language)?.label}
      </Button>
    </Dropdown>
  );
}
