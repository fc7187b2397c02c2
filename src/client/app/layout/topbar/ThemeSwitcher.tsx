import { Button, Dropdown, Flex } from 'antd';
import BgColorsOutlined from '@ant-design/icons/es/icons/BgColorsOutlined';
import { useSettings } from '../../../store/settings.ts';
import { useT } from '../../i18n/index.ts';
import { palettes, themeNames, type ThemeName } from '../../theme/palette.ts';

function Swatch({ name }: { name: ThemeName }) {
  const p = palettes[name];
  return (
    <span
      aria-hidden
      style={{
        display: 'inline-block',
        width: 28,
        height: 14,
        borderRadius: 3,
        border: '1px solid rgba(0,0,0,0.15)',
        background: `linear-gradient(90deg, ${p.siderBg} 0 34%, ${p.headerBg} 34% 67%, ${p.primary} 67%)`,
      }}
    />
  );
}

/** Picks one of the 11 themes; the choice is stored and applied at once. */
export function ThemeSwitcher() {
  const t = useT();
  const theme = useSettings((s) => s.theme);
  const setTheme = useSettings((s) => s.setTheme);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [theme],
        items: themeNames.map((name) => ({
          key: name,
          label: (
            <Flex align="center" gap={10} data-theme-option={name}>
              <Swatch name={name} />
              {t(`theme.${name}`)}
            </Flex>
          ),
        })),
        onClick: ({ key }) => setTheme(key as ThemeName),
      }}
    >
      <Button
        type="text"
        icon={<BgColorsOutlined />}
        aria-label={t('top.theme')}
        title={t('top.theme')}
        data-testid="theme-switcher"
      />
    </Dropdown>
  );
}
