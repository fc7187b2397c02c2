import { lazy, Suspense, useEffect, useState } from 'react';
import { Card, Descriptions, Flex, Result, Spin, Tag } from 'antd';
import { useParams } from 'react-router';
import { useResource } from '../../renderer/common/useResource.ts';
import { instanceOf, type FlowInstance } from './flowApi.ts';
import { FlowTrail } from './FlowTrail.tsx';
import { HandleCard } from './HandleCard.tsx';
import { useFlowT } from './i18n.ts';

const DocumentEditor = lazy(() => import('../../renderer/document/DocumentEditor.tsx'));

/** The bill a process approves, as its page shows it without its own action bar (the card decides). */
function BusinessBill({ name, id }: { name: string; id: string }) {
  const { resource } = useResource(name);
  if (!resource) return <Spin />;
  if (!resource.document) return null;
  return (
    <Suspense fallback={<Spin />}>
      <DocumentEditor resource={resource} billId={id} hideActions />
    </Suspense>
  );
}

/**
 * /work/process/detail/:processInstanceId and /work/process/handle/:taskId/:processInstanceId —
 * any process but the leave (which has its own form): the instance, the bill it approves (单据审批)
 * read-only, the approval card when handling, 流转历史 and the diagram.
 */
export default function FlowPage() {
  const t = useFlowT();
  const { taskId, processInstanceId = '' } = useParams();
  const [instance, setInstance] = useState<FlowInstance>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    setFailed(false);
    instanceOf(processInstanceId).then(setInstance, () => setFailed(true));
  }, [processInstanceId]);

  if (failed) return <Result status="warning" title={t('flow.loadFailed')} />;
  if (!instance)
    return (
      <Flex justify="center" style={{ padding: 48 }}>
        <Spin />
      </Flex>
    );
  const running = instance.processIsFinished === 'unfinished';
  const task = taskId ? instance.tasks.find((candidate) => String(candidate.taskId) === taskId && candidate.mine) : undefined;
  return (
    <Flex vertical gap={12} style={{ padding: 12 }} data-testid="flow-page">
      <Card size="small" title={instance.processName} extra={<Tag color={running ? 'processing' : 'success'}>{running ? t('flow.running') : t('flow.finished')}</Tag>}>
        <Descriptions
          size="small"
          column={3}
          items={[
            { key: 'starter', label: t('flow.starter'), children: instance.startUserName ?? '' },
            { key: 'started', label: t('flow.started'), children: instance.startTime ?? '' },
            { key: 'current', label: t('flow.current'), children: instance.tasks.map((x) => x.taskName).join('、') || '—' },
          ]}
        />
      </Card>
      {taskId && <HandleCard taskId={taskId} taskName={task?.taskName} processInstanceId={processInstanceId} />}
      {instance.businessResource && instance.businessId && <BusinessBill name={instance.businessResource} id={String(instance.businessId)} />}
      <FlowTrail processInstanceId={processInstanceId} history={instance.history} />
    </Flex>
  );
}
