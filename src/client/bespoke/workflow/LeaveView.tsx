import { useMemo, type ReactNode } from 'react';
import { Card, Flex, Tag } from 'antd';
import type { ResourceFile } from '../../../shared/resource.ts';
import { buildLayout } from '../../renderer/form/layout.ts';
import { SchemaForm } from '../../renderer/form/SchemaForm.tsx';
import { FormStore } from '../../renderer/form/store.ts';
import type { LeaveWithFlow } from './flowApi.ts';
import { FlowTrail } from './FlowTrail.tsx';
import { useFlowT } from './i18n.ts';

/** A leave with its process: the request (read-only), the approval card if any, history, diagram. */
export function LeaveView({ resource, leave, children }: { resource: ResourceFile; leave: LeaveWithFlow; children?: ReactNode }) {
  const t = useFlowT();
  const store = useMemo(() => new FormStore(resource.entity, buildLayout(resource, 'view'), 'view', leave), [resource, leave]);
  const flow = leave.flow;
  return (
    <Flex vertical gap={12} style={{ padding: 12 }} data-testid="leave-view">
      <Card
        size="small"
        title={t('flow.leave')}
        extra={flow && <Tag color={flow.running ? 'processing' : 'success'}>{flow.running ? t('flow.running') : t('flow.finished')}</Tag>}
      >
        <SchemaForm store={store} />
      </Card>
      {children}
      <FlowTrail processInstanceId={flow?.processInstanceId} history={leave.history} />
    </Flex>
  );
}
