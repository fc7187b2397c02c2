import { Descriptions, Result } from 'antd';
import ToolOutlined from '@ant-design/icons/es/icons/ToolOutlined';
import { useLocalizedLabel, useT } from '../i18n/index.ts';
import type { PageProps } from '../pages.ts';

/**
 * Stand-in for a menu whose page is not built yet. It names the menu and path and offers
 * no controls, so it can never be mistaken for a working screen.
 */
export default function PagePlaceholder({ menu }: PageProps) {
  const t = useT();
  const label = useLocalizedLabel();
  const name = label(menu.name, menu.nameEn);
  return (
    <div data-testid="page-placeholder">
      <Result
        icon={<ToolOutlined />}
        title={t('placeholder.title')}
        subTitle={t('placeholder.text')}
        extra={
          <Descriptions
            bordered
            size="small"
            column={1}
            style={{ maxWidth: 520, margin: '0 auto', textAlign: 'left' }}
            items={[
              { key: 'menu', label: t('placeholder.menu'), children: name },
              { key: 'path', label: t('placeholder.path'), children: <code>{menu.path}</code> },
              { key: 'code', label: t('placeholder.code'), children: <code>{menu.code}</code> },
              ...(menu.billType
                ? [{ key: 'billType', label: t('placeholder.billType'), children: menu.billType }]
                : []),
            ]}
          />
        }
      />
    </div>
  );
}
