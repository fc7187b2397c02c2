/**
 * Workflow messages, written in the step's transaction like the bill approvals
 * (desk/approval-messages.ts): a task that arrives tells its assignee, or every candidate user and
 * holder of a candidate role (template flow_waiting); an instance that ends tells its starter
 * with the result (template flow_finished). A disabled template sends nothing.
 */
import type { Services } from '../services.ts';
import type { Actor, Row } from '../engine/store.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { userName } from '../engine/document/transitions.ts';
import { fromTemplate, MESSAGE_TYPE, sendMessages, type NewMessage } from '../desk/messages.ts';
import { usersToTell } from './candidates.ts';

export async function notifyNewTasks(services: Services, actor: Actor, instance: Row, newTasks: Row[]): Promise<void> {
  if (!newTasks.length) return;
  const sender = await userName(services, actor, instance.startUserId);
  const out: NewMessage[] = [];
  for (const task of newTasks) {
    const text = await fromTemplate(services, actor.tenantId, 'flow_waiting', {
      processName: String(instance.processName ?? ''),
      taskName: String(task.taskName ?? ''),
      sender,
      startTime: String(instance.startTime ?? ''),
      time: formatDateTime(),
    });
    if (!text) continue;
    for (const userId of await usersToTell(services, actor.tenantId, task)) {
      out.push({ userId, msgType: MESSAGE_TYPE.approval, ...text, resource: 'flow-task', billId: String(task.id) });
    }
  }
  await sendMessages(services, actor, out);
}

export async function notifyFinished(services: Services, actor: Actor, instance: Row, approved: boolean, comment: string): Promise<void> {
  if (!instance.startUserId) return;
  const text = await fromTemplate(services, actor.tenantId, 'flow_finished', {
    processName: String(instance.processName ?? ''),
    startTime: String(instance.startTime ?? ''),
    sender: await userName(services, actor, actor.userId),
    time: formatDateTime(),
    result: approved ? '审批通过' : '已驳回',
    comment: comment ? `意见：${comment}` : '',
  });
  if (!text) return;
  await sendMessages(services, actor, [
    { userId: String(instance.startUserId), msgType: MESSAGE_TYPE.approval, ...text, resource: 'flow-instance', billId: String(instance.id) },
  ]);
}
