import { Flex, Result, Spin } from 'antd';
import { useParams } from 'react-router';
import { LeaveView } from './LeaveView.tsx';
import { useFlowT } from './i18n.ts';
import { useLeave } from './useLeave.ts';

/** /work/process/leave/detail/:processInstanceId/:businessId — the leave, its history and diagram. */
export default function LeaveDetailPage() {
  const t = useFlowT();
  const { businessId } = useParams();
  const { resource, leave, failed } = useLeave(businessId);
  if (failed) return <Result status="warning" title={t('flow.loadFailed')} />;
  if (!resource || !leave)
    return (
      <Flex justify="center" style={{ padding: 48 }}>
        <Spin />
      </Flex>
    );
  return <LeaveView resource={resource} leave={leave} />;
}
