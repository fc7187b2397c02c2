import { Button, Empty, Flex } from 'antd';
import ExportOutlined from '@ant-design/icons/es/icons/ExportOutlined';
import { useParams, useSearchParams } from 'react-router';
import { useT } from '../i18n/index.ts';
import { isFramedPath } from '../menu/menuTree.ts';

/** /myiframe/:routerPath?src=… embeds a menu's page (absolute URL or an html path). */
export default function IframePage() {
  const t = useT();
  const { routerPath } = useParams();
  const [params] = useSearchParams();
  const src = params.get('src') ?? '';

  // Only absolute http(s) URLs and same-site html paths are embedded (no javascript: etc.).
  if (!src || !(isFramedPath(src) && (/^https?:\/\//i.test(src) || src.startsWith('/')))) {
    return <Empty description={t('iframe.missing')} style={{ marginTop: 64 }} />;
  }

  return (
    <Flex vertical style={{ height: '100%', minHeight: 'calc(100vh - 140px)' }} data-testid="iframe-page">
      <Flex justify="flex-end" style={{ marginBottom: 6 }}>
        <Button size="small" type="link" icon={<ExportOutlined />} href={src} target="_blank" rel="noopener">
          {t('iframe.openNew')}
        </Button>
      </Flex>
      <iframe
        title={routerPath}
        src={src}
        style={{ flex: 1, width: '100%', border: 'none', background: '#fff', borderRadius: 4 }}
      />
    </Flex>
  );
}
