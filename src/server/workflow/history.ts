/**
 * 流转历史 of an instance (history-flow-list, and the leave detail): its start, every user task in
 * the order it arrived (handler, claim and completion times, duration, comment, result) and its
 * end (the end event reached, or the deletion and its reason), in BladeX's BladeFlow history
 * fields (historyActivityId, historyActivityName, historyActivityType, assignee, assigneeName,
 * createTime, endTime, historyActivityDurationTime, comment).
 */
import type { Services } from '../services.ts';
import type { Caller } from '../http/context.ts';
import type { Row } from '../engine/store.ts';
import { badRequest, forbidden, notFound } from '../errors.ts';
import { fillLookups } from '../engine/lookups.ts';
import { userName } from '../engine/document/transitions.ts';
import { isCandidate } from './candidates.ts';
import { definitions, INSTANCE_DELETED, INSTANCE_FINISHED, instances, tasks, TASK_CANCELLED, TASK_DONE } from './tables.ts';

function seconds(from: unknown, to: unknown): number | undefined {
  if (!from || !to) return undefined;
  const a = Date.parse(String(from).replace(' ', 'T'));
  const b = Date.parse(String(to).replace(' ', 'T'));
  return Number.isNaN(a) || Number.isNaN(b) ? undefined : Math.max(0, Math.round((b - a) / 1000));
}

/** 1天2小时3分4秒, as BladeX's DateUtil.secondToTime words it. */
export function durationText(total: number | undefined): string {
  if (total === undefined) return '';
  const d = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  let out = '';
  if (d) out += `${d}天`;
  if (d || h) out += `${h}小时`;
  if (d || h || m) out += `${m}分`;
  return `${out}${s}秒`;
}

const startNames = new Map<string, string>();

/** The start event's name from the deployed XML (read once per definition). */
async function startName(services: Services, tenantId: string, definitionId: string): Promise<string> {
  const hit = startNames.get(definitionId);
  if (hit) return hit;
  const definition = await services.store.get(definitions(services), tenantId, definitionId);
  const m = /<(?:\w+:)?startEvent\b[^>]*\bname="([^"]*)"/.exec(String(definition?.xml ?? ''));
  const name = m?.[1] || '发起';
  startNames.set(definitionId, name);
  return name;
}

/** The instance of the tenant that the caller may read the history of. */
export async function readableInstance(services: Services, caller: Caller, instanceId: string | undefined): Promise<{ instance: Row; taskRows: Row[] }> {
  if (!instanceId) throw badRequest('缺少参数 processInstanceId');
  const { store } = services;
  const instance = await store.get(instances(services), caller.tenantId, instanceId);
  if (!instance) throw notFound('流程实例不存在或已被删除');
  const taskRows = await store.find(tasks(services), caller.tenantId, {
    where: { processInstanceId: instanceId },
    orderBy: [{ column: 'create_time', dir: 'asc' }, { column: 'id', dir: 'asc' }],
  });
  const involved = String(instance.startUserId) === caller.userId || taskRows.some((t) => String(t.assignee) === caller.userId || isCandidate(caller, t));
  if (!involved) {
    try {
      await services.perms.require(caller, 'flowFollow_view');
    } catch {
      throw forbidden('您没有参与该流程，无权查看其流转历史');
    }
  }
  return { instance, taskRows };
}

export async function historyOf(services: Services, caller: Caller, instance: Row, taskRows: Row[]): Promise<Row[]> {
  await fillLookups(services, tasks(services), caller.tenantId, taskRows);
  const out: Row[] = [];
  out.push({
    historyActivityId: 'start',
    historyActivityName: await startName(services, caller.tenantId, String(instance.processDefinitionId)),
    historyActivityType: 'startEvent',
    assignee: instance.startUserId,
    assigneeName: await userName(services, caller, instance.startUserId),
    createTime: instance.startTime,
    endTime: instance.startTime,
    historyActivityDurationTime: durationText(0),
    comment: '',
  });
  for (const t of taskRows) {
    const state = Number(t.taskState);
    out.push({
      historyActivityId: t.taskDefinitionKey,
      historyActivityName: t.taskName,
      historyActivityType: 'userTask',
      taskId: String(t.id),
      assignee: t.assignee || null,
      assigneeName: t.assignee ? t.assigneeName : null,
      createTime: t.createTime,
      claimTime: t.claimTime ?? null,
      endTime: t.endTime ?? null,
      historyActivityDurationTime: durationText(seconds(t.createTime, t.endTime)),
      comment: state === TASK_DONE ? t.comment : state === TASK_CANCELLED ? '（任务已取消）' : '',
      pass: state === TASK_DONE ? t.pass : null,
      status: state === TASK_DONE ? 'finish' : state === TASK_CANCELLED ? 'cancelled' : t.assignee ? 'todo' : 'claim',
    });
  }
  const state = Number(instance.instanceState);
  if (state === INSTANCE_FINISHED || state === INSTANCE_DELETED) {
    out.push({
      historyActivityId: state === INSTANCE_FINISHED ? instance.endActivityId : 'deleted',
      historyActivityName: state === INSTANCE_FINISHED ? instance.endActivityName : '流程已删除',
      historyActivityType: 'endEvent',
      assignee: null,
      assigneeName: null,
      createTime: instance.endTime,
      endTime: instance.endTime,
      historyActivityDurationTime: durationText(0),
      comment: state === INSTANCE_DELETED ? (instance.deleteReason ?? '') : '',
    });
  }
  return out;
}
