import { useState } from 'react';
import { Alert, Button, Card, Flex, Input, Space } from 'antd';
import { flowApi } from './flowApi.ts';
import { useFlowT } from './i18n.ts';
import { useCloseAndOpen } from './closeAndOpen.ts';
import { useFeedback } from '../../feedback/FeedbackProvider.tsx';

/**
 * 审批 of one task: a comment and 同意 / 驳回 (rejection confirmed); done, the page closes and
 * 办结事务 opens. Without a task of the caller's, it says the task is not theirs.
 */
export function HandleCard({ taskId, taskName, processInstanceId }: { taskId: string; taskName?: string; processInstanceId: string }) {
  const t = useFlowT();
  const { modal, message } = useFeedback();
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const closeAndOpen = useCloseAndOpen();
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
  const reject = () => modal.confirm({ title: t('flow.rejectConfirm'), okButtonProps: { danger: true }, onOk: () => complete(false) });
  return (
    <Card size="small" title={`${t('flow.handle')}${taskName ? ` · ${taskName}` : ''}`} data-testid="flow-handle">
      {taskName !== undefined ? (
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
  );
}
