import { Flex, Result, Spin } from 'antd';
import { useParams } from 'react-router';
import { LeaveView } from './LeaveView.tsx';
import { HandleCard } from './HandleCard.tsx';
import { useFlowT } from './i18n.ts';
import { useLeave } from './useLeave.ts';

/**
 * /work/process/leave/handle/:taskId/:processInstanceId/:businessId — the approver reads the
 * request, its history and diagram, and approves or rejects with a comment (an unclaimed task of
 * a candidate is claimed by handling it, as the server rules).
 */
export default function LeaveHandlePage() {
  const t = useFlowT();
  const { taskId = '', processInstanceId = '', businessId } = useParams();
  const { resource, leave, failed } = useLeave(businessId);

  if (failed) return <Result status="warning" title={t('flow.loadFailed')} />;
  if (!resource || !leave)
    return (
      <Flex justify="center" style={{ padding: 48 }}>
        <Spin />
      </Flex>
    );
  const task = leave.flow?.tasks.find((candidate) => String(candidate.taskId ?? candidate.id) === taskId);
  return (
    <LeaveView resource={resource} leave={leave}>
      <HandleCard taskId={taskId} taskName={task ? String(task.taskName) : undefined} processInstanceId={processInstanceId} />
    </LeaveView>
  );
}
