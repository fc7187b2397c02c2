/**
 * The workflow calls the leave screens make (BladeX BladeFlow contract): the leave with its
 * process and history, start, claim and complete, and the deployed BPMN XML for the diagram.
 */
import { http, request } from '../../api/http.ts';

export type Row = Record<string, unknown>;

/** One step of 流转历史 (history-flow-list and the leave detail). */
export interface HistoryStep {
  historyActivityId: string;
  historyActivityName: string;
  historyActivityType: 'startEvent' | 'userTask' | 'endEvent';
  taskId?: string;
  assignee?: string | null;
  assigneeName?: string | null;
  createTime?: string | null;
  claimTime?: string | null;
  endTime?: string | null;
  historyActivityDurationTime?: string;
  comment?: string | null;
  pass?: number | null;
  status?: 'claim' | 'todo' | 'finish' | 'cancelled';
}

export interface FlowTask extends Row {
  taskId: string;
  taskName: string;
  taskDefinitionKey: string;
  assignee: string | null;
  status: 'claim' | 'todo' | 'finish';
}

export interface LeaveWithFlow extends Row {
  flow: (Row & { processInstanceId: string; processDefinitionId: string; processIsFinished: string; running: boolean; tasks: FlowTask[]; endActivityId?: string }) | null;
  history: HistoryStep[];
}

export const flowApi = {
  leave: (businessId: string) => http.get<LeaveWithFlow>('/blade-desk/process/leave/detail', { businessId }),
  startLeave: (values: Row, processDefinitionId: string) =>
    http.post<Row>('/blade-desk/process/leave/start-process', { ...values, processDefinitionId }),
  claim: (taskId: string) => http.postParams<unknown>('/blade-flow/work/claim-task', { taskId }),
  complete: (taskId: string, processInstanceId: string, pass: boolean, comment: string) =>
    http.post<unknown>('/blade-flow/work/complete-task', { taskId, processInstanceId, flag: pass ? 'ok' : 'reject', comment }),
  /** The BPMN XML an instance runs (or a definition holds). */
  xml: (params: { processInstanceId?: string; processDefinitionId?: string }) =>
    request<string>('/blade-flow/process/resource-view', { method: 'get', params, responseType: 'text' }),
};

/** One instance of any process for its detail page (process/instance). */
export interface FlowInstance extends Row {
  processInstanceId: string;
  processName: string;
  processIsFinished: 'finished' | 'unfinished';
  startUserName?: string;
  startTime?: string;
  businessId?: string;
  businessResource: string | null;
  businessTitle: string | null;
  tasks: (FlowTask & { mine: boolean })[];
  history: HistoryStep[];
}

export const instanceOf = (processInstanceId: string) => http.get<FlowInstance>('/blade-flow/process/instance', { processInstanceId });
