/**
 * 审批设置 (approval-setting): bills of a type that needs approval are approved through the
 * process 单据审批 (BillApproval). Submitting such a bill starts an instance in the submit's own
 * transaction; its end applies the bill's own approval or rejection with the task's comment; the
 * bill's 审核通过 / 驳回 on a bill in a process completes the caller's task instead (so the two
 * never disagree); cancelling a bill in a process deletes the process. See the schema's description.
 */
import type { Services } from '../services.ts';
import type { Actor, Row } from '../engine/store.ts';
import type { Caller } from '../http/context.ts';
import type { TransitionDef } from '../../shared/document.ts';
import { documentFor } from '../../shared/document.ts';
import { Dec } from '../../shared/money/index.ts';
import { badRequest, forbidden } from '../errors.ts';
import { runOp } from '../engine/ops.ts';
import { documentModel, stateName, type DocumentModel } from '../engine/document/context.ts';
import { applyAction } from '../engine/document/transitions.ts';
import { ensureDefaults, latestVersion } from './definitions.ts';
import { completeTask, deleteInstance, registerBusiness, startInstance } from './instances.ts';
import { deptHeadUsers, mayHandle } from './candidates.ts';
import { INSTANCE_RUNNING, instances, TASK_OPEN, tasks } from './tables.ts';

export const BILL_APPROVAL_KEY = 'BillApproval';
/** Dictionary yes_no: 2 是. */
const ENABLED = 2;
const ROLES = 1;
const DEPT_HEAD = 2;
const USERS = 3;
/** Bill actions that approve a waiting bill (its first level), and the one that rejects it. */
const APPROVALS = new Set(['pass', 'audit', 'approve', 'bossAudit']);
const REJECT = 'reject';

const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';
const idList = (v: unknown) => (blank(v) ? [] : String(v).split(',').map((s) => s.trim()).filter(Boolean));

/** The actor as a caller (bill saves come from signed-in callers; an internal actor has no roles). */
function callerOf(actor: Actor): Caller {
  const c = actor as Partial<Caller>;
  return { account: '', roleIds: [], roleAliases: [], deptIds: [], clientId: '', sessionId: '', isAdmin: false, ...c, ...actor } as Caller;
}

/** Does a bill in `state` wait for an approval step? */
function waitsForApproval(dm: DocumentModel, state: string): boolean {
  return dm.doc.transitions.some((t) => APPROVALS.has(t.action) && t.from.includes(state));
}

/** The enabled setting of a bill type (cached until the settings table is written). */
async function settingFor(services: Services, tenantId: string, billType: string): Promise<Row | undefined> {
  const model = services.m('approval-setting');
  return services.store.cached(model.table, `approval|${tenantId}|${billType}`, 60_000, async () => {
    const [row] = await services.store.find(model, tenantId, { where: { billType, enabled: ENABLED }, limit: 1 });
    return row;
  });
}

/** The running approval instance of a bill, if any. */
async function runningInstance(services: Services, tenantId: string, dm: DocumentModel, billId: string): Promise<Row | undefined> {
  const [row] = await services.store.find(instances(services), tenantId, {
    where: { businessTable: dm.model.table, businessId: billId, instanceState: INSTANCE_RUNNING },
    limit: 1,
  });
  return row;
}

/**
 * After a save (`t`) that left the bill waiting for approval: starts 单据审批 when the bill's type
 * has an enabled setting and the bill reaches its amount threshold. Inside the save's transaction.
 */
export async function startBillApproval(services: Services, actor: Actor, dm: DocumentModel, t: TransitionDef, bill: Row): Promise<void> {
  if (APPROVALS.has(t.action) || !waitsForApproval(dm, t.to)) return;
  const billType = documentFor(dm.doc, bill).billType;
  if (!billType) return;
  const setting = await settingFor(services, actor.tenantId, billType);
  if (!setting) return;
  const amount = bill.finalAmt ?? bill.totalAmt ?? bill.amt;
  if (!blank(setting.minAmount) && !blank(amount) && new Dec(String(amount)).lt(String(setting.minAmount))) return;
  const caller = callerOf(actor);
  let roles: string[] = [];
  let users: string[] = [];
  const type = Number(setting.approverType);
  if (type === ROLES) {
    const ids = idList(setting.roleIds);
    const rows = ids.length ? await services.store.find(services.m('role'), actor.tenantId, { where: { id: ids } }) : [];
    roles = rows.map((r) => String(r.roleAlias ?? '')).filter(Boolean);
  } else if (type === DEPT_HEAD) {
    users = await deptHeadUsers(services, actor.tenantId, caller.deptId, caller.userId);
  } else if (type === USERS) {
    users = idList(setting.userIds);
  }
  // Nobody named (a department without a head): the tenant's 超级管理员 decides.
  if (!roles.length && !users.length) roles = ['administrator'];
  await ensureDefaults(services, actor.tenantId);
  const definition = await latestVersion(services, actor.tenantId, BILL_APPROVAL_KEY);
  if (!definition) throw badRequest('单据审批流程尚未部署，请在模型管理中部署 BillApproval');
  const billNo = String(bill[dm.doc.numberField] ?? '');
  await startInstance(services, caller, definition, { table: dm.model.table, id: String(bill.id) }, {
    approverUsers: users.join(','),
    approverRoles: roles.join(','),
    billType,
    billNo,
    billName: dm.model.title,
    amount: blank(amount) ? null : String(amount),
  });
}

/**
 * 审核通过 / 驳回 on a bill in a process: completes the caller's open task (pass or reject, the
 * remark as comment) and answers true; the process's end then applies the bill's action. False
 * when the bill has no running process (the action goes on as usual).
 */
export async function decideThroughProcess(services: Services, actor: Actor, dm: DocumentModel, t: TransitionDef, billId: string, remark: string | undefined): Promise<boolean> {
  if (!APPROVALS.has(t.action) && t.action !== REJECT) return false;
  const instance = await runningInstance(services, actor.tenantId, dm, billId);
  if (!instance) return false;
  const caller = callerOf(actor);
  const open = await services.store.find(tasks(services), actor.tenantId, { where: { processInstanceId: String(instance.id), taskState: TASK_OPEN } });
  const mine = open.find((task) => mayHandle(caller, task));
  if (!mine) throw forbidden(`该单据按审批设置由流程「${String(instance.processName)}」审批，您不是当前审批人`);
  await completeTask(services, caller, String(mine.id), { pass: t.action !== REJECT, comment: remark });
  return true;
}

/** A bill that leaves its waiting state any other way (作废): its running process is deleted. */
export async function cancelBillApproval(services: Services, actor: Actor, dm: DocumentModel, t: TransitionDef, billId: string, fromState: string): Promise<void> {
  if (APPROVALS.has(t.action) || t.action === REJECT || !waitsForApproval(dm, fromState) || waitsForApproval(dm, t.to)) return;
  const instance = await runningInstance(services, actor.tenantId, dm, billId);
  if (instance) await deleteInstance(services, callerOf(actor), String(instance.id), `单据已${t.title ?? t.action}`);
}

export function registerBillApproval(services: Services) {
  /** submit: the generic add/update, with the approvers its approver type needs. */
  services.register('approvalSetting.submit', async (ctx, model) => {
    const input = { ...ctx.params, ...(ctx.body && typeof ctx.body === 'object' ? (ctx.body as Row) : {}) };
    const type = Number(input.approverType);
    if (type === ROLES && blank(input.roleIds)) throw badRequest('请选择审批角色', { fieldErrors: { roleIds: '请选择审批角色' } });
    if (type === USERS && blank(input.userIds)) throw badRequest('请选择审批人员', { fieldErrors: { userIds: '请选择审批人员' } });
    return (await runOp(ctx, model, { path: 'submit', method: 'POST', op: 'submit' })).data;
  });

  // Every bill table: the process's end applies the bill's own approval or rejection.
  for (const model of services.registry.models.values()) {
    if (!model.resource?.document) continue;
    const name = model.name;
    registerBusiness(model.table, {
      async onEnd(s: Services, actor: Actor, instance: Row, approved: boolean, comment: string) {
        const dm = documentModel(s, s.m(name));
        const bill = await s.store.get(dm.model, actor.tenantId, String(instance.businessId));
        if (!bill) throw badRequest('流程对应的单据不存在或已被删除');
        const state = String(bill[dm.doc.statusField] ?? '');
        const t = dm.doc.transitions.find((x) => (approved ? APPROVALS.has(x.action) : x.action === REJECT) && x.from.includes(state));
        if (!t) throw badRequest(`单据当前状态为「${stateName(s, dm, state)}」，不能${approved ? '审核通过' : '驳回'}`);
        await applyAction(s, actor, dm, t.action, { id: String(bill.id), version: bill.version, remark: comment }, { viaWorkflow: true });
      },
      async onDelete() {
        // The bill keeps its state: a deleted process only stops waiting for its approvers.
      },
    });
  }
}
