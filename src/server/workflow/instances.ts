/**
 * Process instances, one engine step per call, each in one transaction: the engine's new state,
 * the tasks it now waits at, the instance row, the messages and the business record (a leave's
 * audit status) are written together or not at all. Two users acting on the same instance at
 * once cannot both win: the task and the instance are updated on their version (the second gets a
 * Chinese "refresh" message and its transaction, engine state included, is rolled back).
 */
import type { Services } from '../services.ts';
import type { Caller } from '../http/context.ts';
import type { Actor, Row } from '../engine/store.ts';
import { nextId } from '../db/ids.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { badRequest, conflict, forbidden, notFound } from '../errors.ts';
import { signalRun, startRun, type StepResult } from './runner.ts';
import { candidatesOf, deptHeadUsers, isCandidate } from './candidates.ts';
import { assertStartable } from './definitions.ts';
import { notifyFinished, notifyNewTasks } from './notify.ts';
import {
  INSTANCE_DELETED,
  INSTANCE_FINISHED,
  INSTANCE_RUNNING,
  instances,
  PASS_COMMENT,
  REJECT_COMMENT,
  SUSPENDED,
  TASK_CANCELLED,
  TASK_DONE,
  TASK_OPEN,
  tasks,
} from './tables.ts';

/** What a business record (a leave request) does when its process ends or is deleted. */
export interface BusinessHook {
  onEnd(services: Services, actor: Actor, instance: Row, approved: boolean, comment: string): Promise<void>;
  onDelete(services: Services, actor: Actor, instance: Row): Promise<void>;
}

const hooks = new Map<string, BusinessHook>();

export function registerBusiness(table: string, hook: BusinessHook) {
  hooks.set(table, hook);
}

export interface Business {
  table: string;
  id: string;
}

/** Starts an instance of `definition` for a business record, with the starter's variables. */
export async function startInstance(services: Services, caller: Caller, definition: Row, business: Business | undefined, variables: Record<string, unknown>): Promise<Row> {
  assertStartable(definition);
  const { store } = services;
  const id = nextId();
  const vars: Record<string, unknown> = { ...variables, startUser: caller.userId, applyUser: caller.userId, createUser: caller.account, businessId: business?.id ?? null };
  // The heads of the starter's department, unless the business named the department concerned.
  if (vars.deptLeaders === undefined) vars.deptLeaders = (await deptHeadUsers(services, caller.tenantId, caller.deptId, caller.userId)).join(',');
  const step = await startRun(id, String(definition.xml), vars);
  const now = formatDateTime();
  return store.transaction(async () => {
    const instance: Row = {
      id,
      processDefinitionId: String(definition.id),
      processKey: definition.processKey,
      processName: definition.name,
      processVersion: definition.processVersion,
      category: definition.category,
      businessTable: business?.table ?? '',
      businessId: business?.id ?? '',
      startUserId: caller.userId,
      startTime: now,
      instanceState: INSTANCE_RUNNING,
      suspensionState: 1,
      variables: vars,
      engineState: step.state,
      currentActivityNames: step.waiting.map((w) => w.name).join('，'),
    };
    await store.insert(instances(services), caller, instance, { includeReadonly: true });
    await applyStep(services, caller, { ...instance, version: 1 }, step, vars, [], now);
    return (await store.get(instances(services), caller.tenantId, id))!;
  });
}

/** The open task of the tenant, or a refusal naming why it cannot be acted on. */
async function openTask(services: Services, caller: Caller, taskId: string | undefined): Promise<{ task: Row; instance: Row }> {
  if (!taskId) throw badRequest('缺少参数 taskId');
  const { store } = services;
  const task = await store.get(tasks(services), caller.tenantId, taskId);
  if (!task) throw notFound('任务不存在或已被删除');
  if (Number(task.taskState) !== TASK_OPEN) throw badRequest('该任务已办理或已取消，请刷新后重试');
  const instance = await store.get(instances(services), caller.tenantId, String(task.processInstanceId));
  if (!instance || Number(instance.instanceState) !== INSTANCE_RUNNING) throw badRequest('流程实例已结束或已删除，请刷新后重试');
  if (Number(instance.suspensionState) === SUSPENDED) throw badRequest(`流程「${instance.processName}」已挂起，不能签收或办理`);
  return { task, instance };
}

/** Claims an unassigned task for the caller, who must be one of its candidates. */
export async function claimTask(services: Services, caller: Caller, taskId: string | undefined): Promise<Row> {
  const { store } = services;
  const { task } = await openTask(services, caller, taskId);
  if (task.assignee) {
    if (String(task.assignee) === caller.userId) throw badRequest('您已签收该任务，请在待办事务中办理');
    throw forbidden('该任务已由他人签收');
  }
  if (!isCandidate(caller, task)) throw forbidden('您不是该任务的候选人，不能签收');
  const changed = await store.guardedUpdate(tasks(services), caller, String(task.id), { assignee: caller.userId, claimTime: formatDateTime() }, { version: Number(task.version), where: { taskState: TASK_OPEN } });
  if (!changed) throw conflict('任务已被他人签收或办理，请刷新后重试');
  return (await store.get(tasks(services), caller.tenantId, String(task.id)))!;
}

export interface Decision {
  pass: boolean;
  comment?: string;
}

/** Completes the caller's task with pass/reject and a comment, and moves the process on. */
export async function completeTask(services: Services, caller: Caller, taskId: string | undefined, decision: Decision): Promise<Row> {
  const { store } = services;
  const { task, instance } = await openTask(services, caller, taskId);
  if (task.assignee && String(task.assignee) !== caller.userId) throw forbidden('该任务已由他人签收，您无权办理');
  if (!task.assignee && !isCandidate(caller, task)) throw forbidden('您不是该任务的办理人，无权办理');
  const comment = (decision.comment ?? '').trim() || (decision.pass ? PASS_COMMENT : REJECT_COMMENT);
  if (comment.length > 500) throw badRequest('审批意见不能超过500个字符');
  const variables = { ...((instance.variables as Record<string, unknown>) ?? {}), pass: decision.pass, comment };
  const step = await signalRun(String(instance.id), String(instance.engineState), String(task.executionId), { pass: decision.pass, comment });
  const now = formatDateTime();
  return store.transaction(async () => {
    const done = {
      taskState: TASK_DONE,
      assignee: caller.userId,
      claimTime: task.claimTime || now,
      endTime: now,
      pass: decision.pass ? 1 : 0,
      comment,
    };
    const changed = await store.guardedUpdate(tasks(services), caller, String(task.id), done, { version: Number(task.version), where: { taskState: TASK_OPEN } });
    if (!changed) throw conflict('任务已被他人办理，请刷新后重试');
    await applyStep(services, caller, instance, step, variables, [String(task.executionId)], now, { approved: decision.pass, comment });
    return (await store.get(tasks(services), caller.tenantId, String(task.id)))!;
  });
}

/**
 * Writes what a step changed: tasks for user tasks the engine newly waits at (their handlers
 * resolved from the model and the variables), cancels open tasks it no longer waits at, and the
 * instance (state, variables, current steps; end and result when it ended) on its version.
 */
async function applyStep(
  services: Services,
  actor: Actor,
  instance: Row,
  step: StepResult,
  variables: Record<string, unknown>,
  completed: string[],
  now: string,
  last?: { approved: boolean; comment: string },
): Promise<void> {
  const { store } = services;
  const taskModel = tasks(services);
  const open = await store.find(taskModel, actor.tenantId, { where: { processInstanceId: String(instance.id), taskState: TASK_OPEN } });
  const waitingIds = new Set(step.waiting.map((w) => w.executionId));
  const known = new Set([...open.map((t) => String(t.executionId)), ...completed]);
  for (const stale of open.filter((t) => !waitingIds.has(String(t.executionId)) && !completed.includes(String(t.executionId)))) {
    await store.update(taskModel, actor, String(stale.id), { taskState: TASK_CANCELLED, endTime: now }, { includeReadonly: true });
  }
  const created: Row[] = [];
  for (const w of step.waiting.filter((w) => !known.has(w.executionId))) {
    const handlers = candidatesOf(w.rule, variables);
    if (!handlers.assignee && !handlers.candidateUsers && !handlers.candidateGroups) {
      throw badRequest(`流程在「${w.name}」找不到办理人（${w.rule.assignee ?? w.rule.candidateUsers ?? ''}），请检查流程模型或流程变量`);
    }
    const row: Row = {
      processInstanceId: String(instance.id),
      processDefinitionId: instance.processDefinitionId,
      processKey: instance.processKey,
      processName: instance.processName,
      processVersion: instance.processVersion,
      category: instance.category,
      taskDefinitionKey: w.activityId,
      taskName: w.name,
      executionId: w.executionId,
      ...handlers,
      taskState: TASK_OPEN,
      businessTable: instance.businessTable,
      businessId: instance.businessId,
      startUserId: instance.startUserId,
    };
    const saved = await store.insert(taskModel, actor, row, { includeReadonly: true });
    created.push({ ...row, id: saved.id });
  }
  const update: Row = {
    engineState: step.state,
    variables,
    currentActivityNames: step.waiting.map((w) => w.name).join('，'),
  };
  if (step.ended) Object.assign(update, { instanceState: INSTANCE_FINISHED, endTime: now, endActivityId: step.endActivityId ?? '', endActivityName: step.endActivityName ?? '' });
  const changed = await store.guardedUpdate(instances(services), actor, String(instance.id), update, { version: Number(instance.version), where: { instanceState: INSTANCE_RUNNING } });
  if (!changed) throw conflict('流程已被他人推进，请刷新后重试');
  await notifyNewTasks(services, actor, instance, created);
  if (step.ended) {
    // The result is the last decision taken; an instance with no task at all ends approved.
    const approved = last ? last.approved : true;
    await notifyFinished(services, actor, instance, approved, last?.comment ?? '');
    const hook = hooks.get(String(instance.businessTable ?? ''));
    if (hook && instance.businessId) await hook.onEnd(services, actor, { ...instance, ...update }, approved, last?.comment ?? '');
  }
}

/** Deletes a running instance: its open tasks are cancelled and its business record is released. */
export async function deleteInstance(services: Services, caller: Caller, instanceId: string | undefined, reason: string): Promise<void> {
  if (!instanceId) throw badRequest('缺少参数 processInstanceId');
  const { store } = services;
  const instance = await store.get(instances(services), caller.tenantId, instanceId);
  if (!instance) throw notFound('流程实例不存在或已被删除');
  if (Number(instance.instanceState) !== INSTANCE_RUNNING) throw badRequest('只能删除运行中的流程实例');
  if (reason.length > 500) throw badRequest('删除原因不能超过500个字符');
  const now = formatDateTime();
  await store.transaction(async () => {
    const changed = await store.guardedUpdate(
      instances(services),
      caller,
      instanceId,
      { instanceState: INSTANCE_DELETED, endTime: now, deleteReason: reason, currentActivityNames: '' },
      { version: Number(instance.version), where: { instanceState: INSTANCE_RUNNING } },
    );
    if (!changed) throw conflict('流程实例已变化，请刷新后重试');
    for (const task of await store.find(tasks(services), caller.tenantId, { where: { processInstanceId: instanceId, taskState: TASK_OPEN } })) {
      await store.update(tasks(services), caller, String(task.id), { taskState: TASK_CANCELLED, endTime: now }, { includeReadonly: true });
    }
    const hook = hooks.get(String(instance.businessTable ?? ''));
    if (hook && instance.businessId) await hook.onDelete(services, caller, instance);
  });
}
