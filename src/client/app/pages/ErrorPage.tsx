import { useEffect } from 'react';
import { Button, Flex, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useT } from '../i18n/index.ts';

type Status = 404 | 403 | 500;

/** The public /404, /403 and /500 pages. */
export default function ErrorPage({ status }: { status: Status }) {
  const t = useT();
  const navigate = useNavigate();
  const title = t(`error.${status}.title`);

  useEffect(() => {
    document.title = `${title} - ${t('app.name')}`;
  }, [title, t]);

  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh' }}>
      <Result
        status={status}
        title={title}
        subTitle={t(`error.${status}.text`)}
        extra={
          <Button type="primary" onClick={() => navigate('/', { replace: true })}>
            {t('error.backHome')}
          </Button>
        }
      />
    </Flex>
  );
}
