import { useEffect, useRef, useState } from 'react';
import { Alert, Flex, Input, Typography } from 'antd';
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import 'bpmn-js/dist/assets/bpmn-font/css/bpmn-embedded.css';
import './workflow.css';
import type { EditorProps } from '../../renderer/widgets/types.ts';
import { useFlowT, type FlowKey } from './i18n.ts';

/** A new model: one start event in a process named after the form's 模型标识 (the server wants them equal). */
export function blankProcessXml(key: string, name: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" id="Definitions_${key}" targetNamespace="http://erp-console/workflow">
  <process id="${key}" name="${name}" isExecutable="true">
    <startEvent id="start" name="发起" />
  </process>
  <bpmndi:BPMNDiagram id="Diagram_${key}">
    <bpmndi:BPMNPlane id="Plane_${key}" bpmnElement="${key}">
      <bpmndi:BPMNShape id="start_di" bpmnElement="start"><dc:Bounds x="160" y="160" width="36" height="36" /></bpmndi:BPMNShape>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</definitions>`;
}

interface BusinessObject {
  id: string;
  $type: string;
  name?: string;
  conditionExpression?: { body?: string };
  get(name: string): unknown;
}
interface Shape {
  id: string;
  type: string;
  businessObject: BusinessObject;
}
interface Modeling {
  updateProperties(element: Shape, properties: Record<string, unknown>): void;
}
interface ModelerLike {
  importXML(xml: string): Promise<unknown>;
  saveXML(options: { format: boolean }): Promise<{ xml?: string }>;
  on(event: string, callback: (event: { newSelection?: Shape[] }) => void): void;
  get<T>(name: string): T;
  destroy(): void;
}

const escapeXml = (text: string) => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The property inputs of the selected element: user tasks name who handles them, flows their condition. */
const USER_TASK_ATTRS: [string, FlowKey][] = [
  ['flowable:assignee', 'flow.assignee'],
  ['flowable:candidateUsers', 'flow.candidateUsers'],
  ['flowable:candidateGroups', 'flow.candidateGroups'],
];

/**
 * 模型管理's editor of a model's BPMN XML (widget `bpmn`): the bpmn-js modeler with a small
 * property panel; every change writes the XML back to the form field; the process's own
 * id and name follow into 模型标识 and 模型名称.
 */
export default function BpmnModeler({ value, disabled, onCommit, onPatch, getRecord }: EditorProps) {
  const t = useFlowT();
  const container = useRef<HTMLDivElement>(null);
  const modelerRef = useRef<ModelerLike>(undefined);
  const [selected, setSelected] = useState<Shape>();
  const [revision, setRevision] = useState(0);
  const [error, setError] = useState<string>();
  const commit = useRef(onCommit);
  commit.current = onCommit;
  const patch = useRef(onPatch);
  patch.current = onPatch;
  // The XML is read once per opening: the modeler owns it afterwards.
  const initial = useRef(value);

  useEffect(() => {
    let cancelled = false;
    let modeler: ModelerLike | undefined;
    void (async () => {
      try {
        const Viewer = disabled ? (await import('bpmn-js/lib/NavigatedViewer')).default : (await import('bpmn-js/lib/Modeler')).default;
        if (cancelled || !container.current) return;
        modeler = new Viewer({ container: container.current }) as unknown as ModelerLike;
        modelerRef.current = modeler;
        const record = getRecord?.() ?? {};
        const key = String(record.modelKey || 'Process_1');
        const xml = typeof initial.current === 'string' && initial.current.trim() ? initial.current : blankProcessXml(key, escapeXml(String(record.name || key)));
        await modeler.importXML(xml);
        if (cancelled) return;
        // Fit once the dialog has its final size, a little smaller and right of the tool palette.
        requestAnimationFrame(() => {
          if (cancelled) return;
          const canvas = modeler!.get<{ zoom(level?: string | number, center?: 'auto'): number; scroll(delta: { dx: number; dy: number }): void }>('canvas');
          canvas.zoom('fit-viewport', 'auto');
          if (!disabled) {
            canvas.zoom(canvas.zoom() * 0.85, 'auto');
            canvas.scroll({ dx: 40, dy: 0 });
          }
        });
        if (disabled) return;
        modeler.on('selection.changed', (event) => setSelected(event.newSelection?.length === 1 ? event.newSelection[0] : undefined));
        modeler.on('commandStack.changed', () => {
          setRevision((r) => r + 1);
          void modeler!.saveXML({ format: true }).then(({ xml: saved }) => saved && commit.current(saved));
        });
        if (!initial.current) void modeler.saveXML({ format: true }).then(({ xml: saved }) => saved && commit.current(saved));
      } catch (e) {
        if (!cancelled) setError(t('flow.xmlInvalid', { reason: (e as Error).message }));
      }
    })();
    return () => {
      cancelled = true;
      modeler?.destroy();
    };
    // Opened once: later form values come from the modeler itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [disabled]);

  const update = (element: Shape, properties: Record<string, unknown>) => {
    modelerRef.current?.get<Modeling>('modeling').updateProperties(element, properties);
  };
  const root = (): Shape | undefined => modelerRef.current?.get<{ getRootElement(): Shape }>('canvas').getRootElement();
  const target = selected ?? root();
  void revision;

  const field = (label: string, current: string, apply: (next: string) => void) => (
    <label key={`${target?.id}-${label}`} style={{ display: 'block', marginBottom: 8 }}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {label}
      </Typography.Text>
      <Input size="small" defaultValue={current} onBlur={(e) => e.target.value !== current && apply(e.target.value.trim())} />
    </label>
  );

  const panel = () => {
    if (!target) return <Typography.Text type="secondary">{t('flow.selectElement')}</Typography.Text>;
    const bo = target.businessObject;
    const items = [field(t('flow.elementName'), bo.name ?? '', (name) => {
      update(target, { name });
      if (target === root()) patch.current?.({ name });
    })];
    if (target === root()) {
      items.unshift(field('ID', bo.id, (id) => {
        if (!id) return;
        update(target, { id });
        patch.current?.({ modelKey: id });
      }));
    }
    if (bo.$type === 'bpmn:UserTask') {
      for (const [attr, key] of USER_TASK_ATTRS) items.push(field(t(key), String(bo.get(attr) ?? ''), (next) => update(target, { [attr]: next || undefined })));
    }
    if (bo.$type === 'bpmn:SequenceFlow') {
      items.push(field(t('flow.condition'), bo.conditionExpression?.body ?? '', (body) => {
        const factory = modelerRef.current!.get<{ create(type: string, attrs: Record<string, unknown>): unknown }>('bpmnFactory');
        update(target, { conditionExpression: body ? factory.create('bpmn:FormalExpression', { body }) : undefined });
      }));
    }
    return items;
  };

  return (
    <Flex vertical gap={6} style={{ width: '100%' }}>
      {error && <Alert type="error" showIcon title={error} />}
      {!disabled && <Typography.Text type="secondary">{t('flow.modelerHint')}</Typography.Text>}
      <Flex gap={8} style={{ width: '100%' }}>
        <div ref={container} className="erp-flow-modeler" style={{ flex: 1, height: 460, minWidth: 0 }} data-testid="bpmn-modeler" />
        {!disabled && (
          <div style={{ width: 230, flex: 'none' }} data-testid="bpmn-properties">
            {panel()}
          </div>
        )}
      </Flex>
    </Flex>
  );
}
