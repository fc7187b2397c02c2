/**
 * Who handles a user task. The model says it (bpmn.ts UserTaskRule): flowable:assignee (a user id
 * or ${variable}), flowable:candidateUsers (user ids) and flowable:candidateGroups (role aliases),
 * each possibly an expression over the instance's variables (${startUser} is whoever started it,
 * ${deptLeaders} the users heading the department concerned: staff marked 部门负责人 with a linked user).
 * The server decides from the stored task, never from what a client sends: the assignee handles
 * an assigned task; an unassigned one may be claimed (or handled directly) by a candidate user or
 * any user holding a candidate role.
 */
import type { Services } from '../services.ts';
import type { Caller } from '../http/context.ts';
import type { Row } from '../engine/store.ts';
import type { UserTaskRule } from './bpmn.ts';
import { evaluateExpression } from './expressions.ts';
import { packList, unpackList } from './tables.ts';

function resolveList(text: string | undefined, variables: Record<string, unknown>): string[] {
  if (!text) return [];
  const whole = evaluateExpression(text, variables);
  const parts = text.includes('${') && !text.includes(',') ? [whole] : text.split(',').map((part) => evaluateExpression(part.trim(), variables));
  return parts.flatMap((v) => (Array.isArray(v) ? v : String(v ?? '').split(','))).map((v) => String(v).trim()).filter((v) => v && v !== 'null');
}

/** The task's handlers as stored on the task row. */
export function candidatesOf(rule: UserTaskRule, variables: Record<string, unknown>): { assignee: string; candidateUsers: string; candidateGroups: string } {
  const assignee = resolveList(rule.assignee, variables)[0] ?? '';
  return { assignee, candidateUsers: packList(resolveList(rule.candidateUsers, variables)), candidateGroups: packList(resolveList(rule.candidateGroups, variables)) };
}

/** Whether the caller is among an open task's candidates (by user id or a role alias). */
export function isCandidate(caller: Caller, task: Row): boolean {
  if (unpackList(task.candidateUsers).includes(caller.userId)) return true;
  const groups = new Set(unpackList(task.candidateGroups));
  return caller.roleAliases.some((alias) => groups.has(alias));
}

/** Whether the caller may handle the task now: its assignee, or a candidate of an unclaimed one. */
export function mayHandle(caller: Caller, task: Row): boolean {
  if (task.assignee) return String(task.assignee) === caller.userId;
  return isCandidate(caller, task);
}

/** Users to tell about a new task: its assignee, or every candidate user and holder of a candidate role. */
export async function usersToTell(services: Services, tenantId: string, task: Row): Promise<string[]> {
  if (task.assignee) return [String(task.assignee)];
  const { store } = services;
  const out = new Set(unpackList(task.candidateUsers));
  const aliases = unpackList(task.candidateGroups);
  if (aliases.length) {
    const roles = await store.find(services.m('role'), tenantId, { where: { roleAlias: aliases } });
    const roleIds = new Set(roles.map((r) => String(r.id)));
    if (roleIds.size) {
      for (const user of await store.find(services.m('user'), tenantId)) {
        if (Number(user.status) === 2) continue;
        if (unpackList(user.roleId).some((id) => roleIds.has(id))) out.add(String(user.id));
      }
    }
  }
  return [...out];
}

/**
 * Users heading a department: its staff marked 部门负责人 (isDeptHead 2, dictionary yes_no) that have a
 * linked user, less `except` (nobody approves their own request).
 */
export async function deptHeadUsers(services: Services, tenantId: string, deptId: unknown, except?: string): Promise<string[]> {
  if (!deptId) return [];
  const heads = await services.store.find(services.m('staff'), tenantId, { where: { deptId: String(deptId), isDeptHead: 2 } });
  return [...new Set(heads.map((h) => String(h.userId ?? '')).filter((id) => id && id !== except))];
}
