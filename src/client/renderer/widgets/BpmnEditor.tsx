import { lazy, Suspense } from 'react';
import { Spin } from 'antd';
import type { EditorProps } from './types.ts';

// The BPMN modeler (bpmn-js, the workflow's hand-written part) loads only when a model's form opens.
const BpmnModeler = lazy(() => import('../../bespoke/workflow/BpmnModeler.tsx'));

/** Widget `bpmn`: a process model's XML edited as a diagram. */
export function BpmnEditor(props: EditorProps) {
  return (
    <Suspense fallback={<Spin />}>
      <BpmnModeler {...props} />
    </Suspense>
  );
}
