/**
 * The workflow's tables (schemas/workflow/) and how their rows answer on the wire in BladeX's
 * shapes (FlowProcess, FlowExecution, BladeFlow). Models, deployed definitions, instances and
 * tasks are ordinary tenant tables: every read and write goes through the store with the caller's
 * tenant.
 */
import type { Services } from '../services.ts';
import type { Model } from '../engine/model.ts';
import type { Row } from '../engine/store.ts';
import { parsePaging } from '../engine/query.ts';

export const ACTIVE = 1;
export const SUSPENDED = 2;

export const INSTANCE_RUNNING = 1;
export const INSTANCE_FINISHED = 2;
export const INSTANCE_DELETED = 3;

export const TASK_OPEN = 1;
export const TASK_DONE = 2;
export const TASK_CANCELLED = 3;

/** BladeX's pass/reject words (ProcessConstant). */
export const PASS_ALIAS = 'ok';
export const PASS_COMMENT = '同意';
export const REJECT_COMMENT = '驳回';

export const flowModels = (s: Services): Model => s.m('flow-model');
export const definitions = (s: Services): Model => s.m('flow-deployment');
export const instances = (s: Services): Model => s.m('flow-instance');
export const tasks = (s: Services): Model => s.m('flow-task');

/** The names of dictionary flow_category (schemas/dicts/workflow.json), for categoryName on the wire. */
const CATEGORY_NAMES: Record<string, string> = { office: '行政办公', bill: '单据审批', other: '其他' };
export const categoryName = (category: unknown) => {
  const key = String(category ?? '');
  return Object.hasOwn(CATEGORY_NAMES, key) ? CATEGORY_NAMES[key] : key;
};

/** A comma list stored with its ends marked (",a,b,"), so "contains b" is one LIKE on both databases. */
export function packList(values: string[]): string {
  const clean = [...new Set(values.map((v) => v.trim()).filter(Boolean))];
  return clean.length ? `,${clean.join(',')},` : '';
}

export function unpackList(value: unknown): string[] {
  return String(value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

/** A deployed definition as BladeX's FlowProcess (plus our own fields; never the XML). */
export function processWire(row: Row): Row {
  const { xml: _xml, ...rest } = row;
  void _xml;
  return {
    ...rest,
    id: String(row.id),
    key: row.processKey,
    version: row.processVersion,
    categoryName: categoryName(row.category),
    diagramResourceName: null,
  };
}

/** An instance as BladeX's FlowExecution (plus our own fields; never the engine state). */
export function instanceWire(row: Row): Row {
  const { engineState: _state, ...rest } = row;
  void _state;
  return {
    ...rest,
    id: String(row.id),
    name: row.processName,
    processInstanceId: String(row.id),
    executionId: String(row.id),
    processDefinitionKey: row.processKey,
    processDefinitionName: row.processName,
    processDefinitionVersion: row.processVersion,
    startUser: row.startUserName ?? null,
    categoryName: categoryName(row.category),
    processIsFinished: Number(row.instanceState) === INSTANCE_RUNNING ? 'unfinished' : 'finished',
  };
}

/** A task as BladeX's BladeFlow: status claim (unclaimed), todo (claimed), finish (done). */
export function taskWire(row: Row, instance?: Row): Row {
  const open = Number(row.taskState) === TASK_OPEN;
  const { candidateUsers, candidateGroups, ...rest } = row;
  return {
    ...rest,
    taskId: String(row.id),
    candidateUsers: unpackList(candidateUsers).join(','),
    candidateGroups: unpackList(candidateGroups).join(','),
    assignee: row.assignee || null,
    processDefinitionKey: row.processKey,
    processDefinitionName: row.processName,
    processDefinitionVersion: row.processVersion,
    categoryName: categoryName(row.category),
    historyTaskEndTime: row.endTime ?? null,
    historyProcessInstanceId: row.processInstanceId,
    status: open ? (row.assignee ? 'todo' : 'claim') : 'finish',
    processIsFinished: instance ? (Number(instance.instanceState) === INSTANCE_RUNNING ? 'unfinished' : 'finished') : undefined,
  };
}

/** current/size of a list call, as the generic pages read them. */
export function paging(params: Record<string, unknown>): { current: number; size: number } {
  const { current, size } = parsePaging(params);
  return { current, size: Math.min(200, size) };
}

export function pageOf(records: Row[], total: number, current: number, size: number) {
  return { records, total, size, current, pages: Math.ceil(total / size), orders: [] };
}
