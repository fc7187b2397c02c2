/**
 * Which elements of a process diagram an instance has passed and where it waits, from its
 * history: the start, the finished user tasks and the end reached are done, the open tasks are
 * current; a gateway between done steps and a flow between passed elements are done too.
 */
import type { HistoryStep } from './flowApi.ts';

export interface DiagramElement {
  id: string;
  type: string;
  /** Connections: their ends. */
  source?: string;
  target?: string;
}

export interface DiagramMarks {
  done: Set<string>;
  current: Set<string>;
}

export function diagramMarks(elements: DiagramElement[], history: HistoryStep[]): DiagramMarks {
  const done = new Set<string>();
  const current = new Set<string>();
  if (!history.length) return { done, current };
  for (const el of elements) if (el.type === 'bpmn:StartEvent') done.add(el.id);
  for (const step of history) {
    if (step.historyActivityType === 'userTask') {
      if (step.status === 'finish') done.add(step.historyActivityId);
      else if (step.status === 'claim' || step.status === 'todo') current.add(step.historyActivityId);
    } else if (step.historyActivityType === 'endEvent') done.add(step.historyActivityId);
  }
  const flows = elements.filter((el) => el.source && el.target);
  const reached = (id: string) => done.has(id) || current.has(id);
  // A gateway is passed when a flow from a done element enters it and one leaves it to a reached element.
  for (const el of elements) {
    if (!el.type.endsWith('Gateway')) continue;
    const entered = flows.some((f) => f.target === el.id && done.has(f.source!));
    const left = flows.some((f) => f.source === el.id && reached(f.target!));
    if (entered && left) done.add(el.id);
  }
  for (const f of flows) if (done.has(f.source!) && reached(f.target!)) done.add(f.id);
  // A step both done and waiting again (a loop) shows as waiting.
  for (const id of current) done.delete(id);
  return { done, current };
}
