import { describe, expect, test } from 'vitest';
import { diagramMarks, type DiagramElement } from '../../src/client/bespoke/workflow/diagramMarks.ts';
import type { HistoryStep } from '../../src/client/bespoke/workflow/flowApi.ts';

/** The leave model's elements: start → 部门审批 → gateway → (≤3 days) approved | 人事审批 → gateway → approved | rejected. */
const el = (id: string, type: string, source?: string, target?: string): DiagramElement => ({ id, type, source, target });
const leave: DiagramElement[] = [
  el('start', 'bpmn:StartEvent'),
  el('deptAudit', 'bpmn:UserTask'),
  el('deptResult', 'bpmn:ExclusiveGateway'),
  el('hrAudit', 'bpmn:UserTask'),
  el('hrResult', 'bpmn:ExclusiveGateway'),
  el('approved', 'bpmn:EndEvent'),
  el('rejected', 'bpmn:EndEvent'),
  el('toDeptAudit', 'bpmn:SequenceFlow', 'start', 'deptAudit'),
  el('toDeptResult', 'bpmn:SequenceFlow', 'deptAudit', 'deptResult'),
  el('deptRejected', 'bpmn:SequenceFlow', 'deptResult', 'rejected'),
  el('deptPassedShort', 'bpmn:SequenceFlow', 'deptResult', 'approved'),
  el('deptPassedLong', 'bpmn:SequenceFlow', 'deptResult', 'hrAudit'),
  el('toHrResult', 'bpmn:SequenceFlow', 'hrAudit', 'hrResult'),
  el('hrPassed', 'bpmn:SequenceFlow', 'hrResult', 'approved'),
  el('hrRejected', 'bpmn:SequenceFlow', 'hrResult', 'rejected'),
];
const step = (id: string, type: HistoryStep['historyActivityType'], status?: HistoryStep['status']): HistoryStep => ({ historyActivityId: id, historyActivityName: id, historyActivityType: type, status });
const sorted = (set: Set<string>) => [...set].sort();

describe('diagram marks of an instance', () => {
  test('waiting in 人事审批: the path to it is done, the task current, nothing after it', () => {
    const marks = diagramMarks(leave, [step('start', 'startEvent'), step('deptAudit', 'userTask', 'finish'), step('hrAudit', 'userTask', 'claim')]);
    expect(sorted(marks.done)).toEqual(['deptAudit', 'deptPassedLong', 'deptResult', 'start', 'toDeptAudit', 'toDeptResult']);
    expect(sorted(marks.current)).toEqual(['hrAudit']);
  });

  test('rejected at 部门审批: the reject flow and end, not the approval branches', () => {
    const marks = diagramMarks(leave, [step('start', 'startEvent'), step('deptAudit', 'userTask', 'finish'), step('rejected', 'endEvent')]);
    expect(sorted(marks.done)).toEqual(['deptAudit', 'deptRejected', 'deptResult', 'rejected', 'start', 'toDeptAudit', 'toDeptResult']);
    expect(marks.current.size).toBe(0);
  });

  test('no history marks nothing; a cancelled task is neither done nor current', () => {
    expect(diagramMarks(leave, []).done.size).toBe(0);
    const marks = diagramMarks(leave, [step('start', 'startEvent'), step('deptAudit', 'userTask', 'cancelled')]);
    expect(sorted(marks.done)).toEqual(['start']);
    expect(marks.current.size).toBe(0);
  });
});
