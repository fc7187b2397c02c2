import { useEffect, useRef, useState } from 'react';
import { Alert, Flex, Spin, Tag } from 'antd';
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import './workflow.css';
import { flowApi, type HistoryStep } from './flowApi.ts';
import { diagramMarks, type DiagramElement } from './diagramMarks.ts';
import { useFlowT } from './i18n.ts';

interface Props {
  processInstanceId?: string;
  processDefinitionId?: string;
  history: HistoryStep[];
  height?: number;
}

interface Registry {
  getAll(): { id: string; type: string; source?: { id: string }; target?: { id: string } }[];
}
interface Canvas {
  zoom(level: 'fit-viewport', center?: 'auto'): void;
  addMarker(id: string, marker: string): void;
}

/**
 * The process an instance runs, drawn by bpmn-js, the finished path in green and the waiting
 * step in blue (流程跟踪, the leave's detail and handling pages). Loaded with its page only.
 */
export default function ProcessDiagram({ processInstanceId, processDefinitionId, history, height = 420 }: Props) {
  const t = useFlowT();
  const container = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');

  useEffect(() => {
    let cancelled = false;
    let viewer: { destroy(): void } | undefined;
    void (async () => {
      try {
        const [xml, { default: NavigatedViewer }] = await Promise.all([
          flowApi.xml({ processInstanceId, processDefinitionId }),
          import('bpmn-js/lib/NavigatedViewer'),
        ]);
        if (cancelled || !container.current) return;
        const instance = new NavigatedViewer({ container: container.current });
        viewer = instance;
        await instance.importXML(xml);
        if (cancelled) return;
        const canvas = instance.get<Canvas>('canvas');
        const elements: DiagramElement[] = instance
          .get<Registry>('elementRegistry')
          .getAll()
          .map((el) => ({ id: el.id, type: el.type, source: el.source?.id, target: el.target?.id }));
        const marks = diagramMarks(elements, history);
        for (const id of marks.done) canvas.addMarker(id, 'flow-done');
        for (const id of marks.current) canvas.addMarker(id, 'flow-current');
        setState('ready');
        // Fit once the container has its final size (after the spinner's layout pass).
        requestAnimationFrame(() => !cancelled && canvas.zoom('fit-viewport', 'auto'));
      } catch {
        if (!cancelled) setState('failed');
      }
    })();
    return () => {
      cancelled = true;
      viewer?.destroy();
    };
  }, [processInstanceId, processDefinitionId, history]);

  return (
    <Flex vertical gap={8}>
      {state === 'failed' && <Alert type="warning" showIcon title={t('flow.diagramFailed')} />}
      <Flex gap={8}>
        <Tag color="success">{t('flow.legendDone')}</Tag>
        <Tag color="blue">{t('flow.legendCurrent')}</Tag>
      </Flex>
      <Spin spinning={state === 'loading'}>
        <div ref={container} className="erp-flow-diagram" style={{ height }} data-testid="process-diagram" data-state={state} />
      </Spin>
    </Flex>
  );
}
