import { useMemo, useState } from 'react';
import { Button, Card, Flex, Result, Space, Spin } from 'antd';
import { useParams } from 'react-router';
import type { ResourceFile } from '../../../shared/resource.ts';
import { useResource } from '../../renderer/common/useResource.ts';
import { buildLayout } from '../../renderer/form/layout.ts';
import { defaultsOf, fieldErrorsOf } from '../../renderer/form/record.ts';
import { SchemaForm } from '../../renderer/form/SchemaForm.tsx';
import { commitFocusedField } from '../../renderer/form/FormDialog.tsx';
import { FormStore } from '../../renderer/form/store.ts';
import { flowApi } from './flowApi.ts';
import { useFlowT } from './i18n.ts';
import { useCloseAndOpen } from './closeAndOpen.ts';
import { useFeedback } from '../../feedback/FeedbackProvider.tsx';

function LeaveForm({ resource, processDefinitionId }: { resource: ResourceFile; processDefinitionId: string }) {
  const t = useFlowT();
  const { message } = useFeedback();
  const layout = useMemo(() => buildLayout(resource, 'add'), [resource]);
  const [store, setStore] = useState(() => new FormStore(resource.entity, layout, 'add', defaultsOf(layout)));
  const [busy, setBusy] = useState(false);
  const closeAndOpen = useCloseAndOpen();

  const submit = async () => {
    commitFocusedField();
    const problems = store.validateAll();
    if (problems.length) {
      store.revealField(problems[0]);
      return;
    }
    setBusy(true);
    try {
      await flowApi.startLeave(store.snapshot(), processDefinitionId);
      void message.success(t('flow.submitted'));
      closeAndOpen('/work/send');
    } catch (error) {
      const fieldErrors = fieldErrorsOf(error, layout);
      const paths = Object.keys(fieldErrors);
      if (paths.length) {
        store.setErrors(fieldErrors);
        store.revealField(paths[0]);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('flow.leaveForm')} style={{ margin: 12 }} data-testid="leave-form">
      <SchemaForm store={store} />
      <Flex justify="center" style={{ marginTop: 16 }}>
        <Space>
          <Button type="primary" loading={busy} onClick={() => void submit()}>
            {t('flow.submit')}
          </Button>
          <Button disabled={busy} onClick={() => setStore(new FormStore(resource.entity, layout, 'add', defaultsOf(layout)))}>
            {t('flow.reset')}
          </Button>
        </Space>
      </Flex>
    </Card>
  );
}

/** /work/process/leave/form/:processDefinitionId — a leave request that starts its approval on submit. */
export default function LeaveFormPage() {
  const t = useFlowT();
  const { processDefinitionId = '' } = useParams();
  const { resource, error, loading } = useResource('leave');
  if (error) return <Result status="warning" title={t('flow.loadFailed')} />;
  if (loading || !resource)
    return (
      <Flex justify="center" style={{ padding: 48 }}>
        <Spin />
      </Flex>
    );
  return <LeaveForm resource={resource} processDefinitionId={processDefinitionId} />;
}
