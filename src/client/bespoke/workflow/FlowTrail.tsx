import { lazy, Suspense } from 'react';
import { Card, Spin } from 'antd';
import type { HistoryStep } from './flowApi.ts';
import { FlowHistory } from './FlowHistory.tsx';
import { useFlowT } from './i18n.ts';

// bpmn-js comes only when a diagram shows.
const ProcessDiagram = lazy(() => import('./ProcessDiagram.tsx'));

/** An instance's 流转历史 and its diagram with the path taken and the waiting step marked. */
export function FlowTrail({ processInstanceId, history }: { processInstanceId?: string; history: HistoryStep[] }) {
  const t = useFlowT();
  return (
    <>
      <Card size="small" title={t('flow.history')}>
        {processInstanceId ? <FlowHistory history={history} /> : t('flow.noProcess')}
      </Card>
      {processInstanceId && (
        <Card size="small" title={t('flow.diagram')}>
          <Suspense fallback={<Spin />}>
            <ProcessDiagram processInstanceId={processInstanceId} history={history} />
          </Suspense>
        </Card>
      )}
    </>
  );
}
