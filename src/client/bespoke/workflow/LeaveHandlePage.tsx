import { useState } from 'react';
import { Alert, App, Button, Card, Flex, Input, Result, Space, Spin } from 'antd';
import { useParams } from 'react-router';
import { flowApi } from './flowApi.ts';
import { LeaveView } from './LeaveView.tsx';
import { useFlowT } from './i18n.ts';
import { useLeave } from './useLeave.ts';
import { useCloseAndOpen } from './closeAndOpen.ts';

/**
 * /work/process/leave/handle/:taskId/:processInstanceId/:businessId — the approver reads the
 * request, its history and diagram, and approves or rejects with a comment (an unclaimed task of
 * a candidate is claimed by handling it, as the server rules).
 */
export default function LeaveHandlePage() {
  const t = useFlowT();
  const { modal, message } = App.useApp();
  const { taskId = '', processInstanceId = '', businessId } = useParams();
  const { resource, leave, failed } = useLeave(businessId);
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const closeAndOpen = useCloseAndOpen();

  if (failed) return <Result status="warning" title={t('flow.loadFailed')} />;
  if (!resource || !leave)
    return (
      <Flex justify="center" style={{ padding: 48 }}>
        <Spin />
      </Flex>
    );

  const task = leave.flow?.tasks.find((candidate) => String(candidate.taskId ?? candidate.id) === taskId);
  const complete = async (pass: boolean) => {
    setBusy(true);
    try {
      await flowApi.complete(taskId, processInstanceId, pass, comment.trim());
      void message.success(pass ? t('flow.passed') : t('flow.rejected'));
      closeAndOpen('/work/done');
    } catch {
      // The shell has shown the server's message.
    } finally {
      setBusy(false);
    }
  };
  const reject = () =>
    modal.confirm({ title: t('flow.rejectConfirm'), okButtonProps: { danger: true }, onOk: () => complete(false) });

  return (
    <LeaveView resource={resource} leave={leave}>
      <Card size="small" title={`${t('flow.handle')}${task ? ` · ${String(task.taskName)}` : ''}`} data-testid="leave-handle">
        {task ? (
          <Flex vertical gap={12}>
            <Input.TextArea
              rows={3}
              maxLength={500}
              showCount
              value={comment}
              placeholder={t('flow.commentPlaceholder')}
              aria-label={t('flow.comment')}
              onChange={(event) => setComment(event.target.value)}
            />
            <Space>
              <Button type="primary" loading={busy} onClick={() => void complete(true)}>
                {t('flow.pass')}
              </Button>
              <Button danger disabled={busy} onClick={reject}>
                {t('flow.reject')}
              </Button>
            </Space>
          </Flex>
        ) : (
          <Alert type="info" showIcon title={t('flow.notYours')} />
        )}
      </Card>
    </LeaveView>
  );
}
