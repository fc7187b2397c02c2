/**
 * 我的任务 (user-task): tasks assigned to one user. A new task always tells its assignee with a
 * task message in the same transaction (`sendTask`, also used by code that creates tasks itself,
 * such as a sales order's purchase demand). Each user lists and counts their own tasks; only the
 * assignee finishes one; a task is removed by its assignee or its sender.
 */
import type { Services } from '../services.ts';
import type { Actor, Row } from '../engine/store.ts';
import { mustCaller, param } from '../http/context.ts';
import { badRequest, conflict, forbidden, notFound } from '../errors.ts';
import { runOp } from '../engine/ops.ts';
import { fillLookups } from '../engine/lookups.ts';
import { validateEntity } from '../engine/validate.ts';
import { userName } from '../engine/document/transitions.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { idsParam, valueParam } from '../system/params.ts';
import { fromTemplate, MESSAGE_TYPE, sendMessages } from './messages.ts';

/** Dictionary task_status. */
export const TASK_PENDING = 1;
export const TASK_FINISHED = 2;

export const TASK_RESOURCE = 'user-task';

export interface NewTask {
  userId: string;
  title: string;
  content?: string;
  dueDate?: string;
  taskType?: string;
  /** Business link: the resource and row (bill) the task is about. */
  resource?: string;
  billId?: string;
  billNo?: string;
  billType?: string;
}

const blank = (v: unknown) => v === undefined || v === null || v === '';

/**
 * Creates a pending task for its assignee and a task message to them (template task_assigned), in
 * one transaction (the caller's, when one is open). The message links the task's own business
 * link, or the task itself when it has none.
 */
export async function sendTask(services: Services, actor: Actor, task: NewTask): Promise<Row> {
  const model = services.m(TASK_RESOURCE);
  const data: Row = Object.fromEntries(Object.entries(task).filter(([, v]) => !blank(v)));
  data.taskStatus = TASK_PENDING;
  validateEntity(model.resource!.entity, data);
  const sender = await userName(services, actor, actor.userId);
  const { store } = services;
  return store.transaction(async () => {
    const saved = await store.insert(model, actor, data, { includeReadonly: true });
    const text = await fromTemplate(services, actor.tenantId, 'task_assigned', {
      title: task.title,
      content: task.content ?? '',
      sender,
      dueDate: task.dueDate ? `，截止日期 ${task.dueDate}` : '',
      time: formatDateTime(),
    });
    const link = task.billId
      ? { resource: task.resource, billId: task.billId, billNo: task.billNo, billType: task.billType }
      : { resource: TASK_RESOURCE, billId: String(saved.id) };
    if (text) await sendMessages(services, actor, [{ userId: task.userId, msgType: MESSAGE_TYPE.task, ...text, ...link }]);
    return (await store.get(model, actor.tenantId, String(saved.id)))!;
  });
}

export function registerUserTaskHandlers(services: Services) {
  const { store } = services;

  /** The caller's tasks (an administrator may name another user with userId), newest first. */
  services.register('userTask.list', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const userId = (caller.isAdmin ? param(ctx, 'userId') : undefined) ?? caller.userId;
    return (await runOp(ctx, model, { path: 'list', method: 'GET', op: 'page', filters: 'map', params: { userId } })).data;
  });

  services.register('userTask.count', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const count = (where: Row) => store.count(model, caller.tenantId, { where: { userId: caller.userId, ...where } });
    const [total, pending, finished] = await Promise.all([count({}), count({ taskStatus: TASK_PENDING }), count({ taskStatus: TASK_FINISHED })]);
    return { count: pending, total, unfinished: pending, finished };
  });

  /** finish (id): only the assignee, only a pending task; one conditional update. */
  services.register('userTask.finish', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const id = valueParam(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    const task = await store.get(model, caller.tenantId, id);
    if (!task) throw notFound('任务不存在或已被删除');
    if (String(task.userId) !== caller.userId) throw forbidden('只能完成分配给自己的任务');
    if (Number(task.taskStatus) !== TASK_PENDING) throw badRequest('只有待处理的任务可以完成');
    const done = { taskStatus: TASK_FINISHED, finishTime: formatDateTime() };
    const changed = await store.guardedUpdate(model, caller, id, done, { version: Number(task.version), where: { taskStatus: TASK_PENDING } });
    if (!changed) throw conflict('任务已被修改，请刷新后重试');
    const row = (await store.get(model, caller.tenantId, id))!;
    await fillLookups(services, model, caller.tenantId, [row]);
    return row;
  });

  /** send: one task (and one message) per assignee in userIds (or userId), all or none. */
  services.register('userTask.send', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const userIds = [...new Set(idsParam(ctx, 'userIds', 'userId'))];
    if (!userIds.length) throw badRequest('请选择接收人', { fieldErrors: { userIds: '请选择接收人' } });
    const text = (name: string) => valueParam(ctx, name);
    const task = {
      title: text('title') ?? '',
      content: text('content'),
      dueDate: text('dueDate'),
      taskType: text('taskType'),
      resource: text('resource'),
      billId: text('billId'),
      billNo: text('billNo'),
      billType: text('billType'),
    };
    validateEntity(model.resource!.entity, { ...task, userId: userIds[0] });
    const users = await store.find(services.m('user'), caller.tenantId, { where: { id: userIds } });
    if (users.length !== userIds.length) throw badRequest('接收人不存在', { fieldErrors: { userIds: '接收人不存在' } });
    const tasks = await store.transaction(async () => {
      const out: Row[] = [];
      for (const userId of userIds) out.push(await sendTask(services, caller, { ...task, userId }));
      return out;
    });
    await fillLookups(services, model, caller.tenantId, tasks);
    return tasks;
  });

  /** remove (ids): the caller's own tasks or ones the caller sent; an administrator any. All or none. */
  services.register('userTask.remove', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const ids = [...new Set(idsParam(ctx, 'ids', 'id'))];
    if (!ids.length) throw badRequest('请选择至少一条数据');
    const rows = await store.find(model, caller.tenantId, { where: { id: ids } });
    if (rows.length !== ids.length) throw notFound('任务不存在或已被删除');
    const mine = (r: Row) => String(r.userId) === caller.userId || String(r.createUser) === caller.userId;
    if (!caller.isAdmin && !rows.every(mine)) throw forbidden('只能删除自己的任务或自己发出的任务');
    await store.softRemove(model, caller, ids);
    return undefined;
  });
}
