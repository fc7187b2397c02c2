import type { ReactNode } from 'react';
import { Flex, Typography, theme } from 'antd';
import CloseCircleFilled from '@ant-design/icons/es/icons/CloseCircleFilled';

/**
 * A failure told in place of a view (a crash, a schema that did not load): the error icon, a
 * title, a hint and an action. Light on purpose: the shell carries it, so it is not antd's
 * Result with its illustrations, and it must show even when further code cannot load.
 */
export function FailureNotice({ title, hint, extra }: { title: ReactNode; hint?: ReactNode; extra?: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <Flex vertical align="center" gap={12} role="alert" style={{ padding: '48px 32px', textAlign: 'center' }}>
      <CloseCircleFilled style={{ fontSize: 72, color: token.colorError }} />
      <Typography.Title level={3} style={{ margin: 0 }}>
        {title}
      </Typography.Title>
      {hint && <Typography.Text type="secondary">{hint}</Typography.Text>}
      {extra && <div style={{ marginTop: 12 }}>{extra}</div>}
    </Flex>
  );
}
