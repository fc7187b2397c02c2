/**
 * 请假 on the workflow: start-process saves a leave request (or takes a saved one) and starts its
 * approval in one transaction; the process's end moves the leave's audit status (3102 已通过 /
 * 3103 已驳回, dictionary staff_audit_status) and a deleted instance releases it (still 3101, may
 * be started again); a leave in approval or decided is no longer edited or removed; detail answers
 * the leave with its process and history.
 */
import type { Services } from '../services.ts';
import type { Actor, Row } from '../engine/store.ts';
import { mustCaller, param } from '../http/context.ts';
import { badRequest, notFound } from '../errors.ts';
import { insertRecord } from '../engine/records.ts';
import { fillLookups } from '../engine/lookups.ts';
import { runOp } from '../engine/ops.ts';
import { idsParam } from '../system/params.ts';
import { definitionById, ensureDefaults, latestVersion } from './definitions.ts';
import { registerBusiness, startInstance } from './instances.ts';
import { deptHeadUsers } from './candidates.ts';
import { historyOf, readableInstance } from './history.ts';
import { INSTANCE_RUNNING, instances, instanceWire, taskWire, TASK_OPEN, tasks } from './tables.ts';

export const LEAVE_TABLE = 'erp_leave';
export const LEAVE_KEY = 'Leave';

/** Dictionary staff_audit_status. */
const PENDING = 3101;
const APPROVED = 3102;
const REJECTED = 3103;

const leaves = (services: Services) => services.m('leave');

function bodyOf(ctx: { body: unknown; params: Record<string, unknown> }): Row {
  const body = ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? (ctx.body as Row) : {};
  return { ...ctx.params, ...body };
}

export function registerLeaveWorkflow(services: Services) {
  const { store } = services;

  registerBusiness(LEAVE_TABLE, {
    async onEnd(s: Services, actor: Actor, instance: Row, approved: boolean) {
      await s.store.update(leaves(s), actor, String(instance.businessId), { auditStatus: approved ? APPROVED : REJECTED }, { includeReadonly: true });
    },
    async onDelete(s: Services, actor: Actor, instance: Row) {
      await s.store.update(leaves(s), actor, String(instance.businessId), { processInstanceId: '' }, { includeReadonly: true });
    },
  });

  /** A leave in approval (or decided) is the process's: it is neither edited nor removed. */
  async function assertEditable(tenantId: string, ids: string[], what: string) {
    for (const row of await store.find(leaves(services), tenantId, { where: { id: ids } })) {
      if (Number(row.auditStatus) !== PENDING) throw badRequest(`已审核的请假不能${what}`);
      if (row.processInstanceId) throw badRequest(`审批中的请假不能${what}，如需撤回请在流程跟踪中删除其流程`);
    }
  }

  /** submit: the generic add/update, refused for a leave whose process runs or has decided it. */
  services.register('leave.submit', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const id = bodyOf(ctx).id;
    if (id) await assertEditable(caller.tenantId, [String(id)], '修改');
    return (await runOp(ctx, model, { path: 'submit', method: 'POST', op: 'submit' })).data;
  });

  /** remove (ids): the generic remove, refused for leaves in approval or decided. */
  services.register('leave.remove', async (ctx, model) => {
    const caller = mustCaller(ctx);
    await assertEditable(caller.tenantId, idsParam(ctx, 'ids', 'id'), '删除');
    await runOp(ctx, model, { path: 'remove', method: 'POST', op: 'remove' });
    return undefined;
  });

  /** start-process: a new leave (the leave fields) or a saved one (id), on processDefinitionId or the latest Leave. */
  services.register('leave.startProcess', async (ctx) => {
    const caller = mustCaller(ctx);
    await ensureDefaults(services, caller.tenantId);
    const input = bodyOf(ctx);
    const definitionId = input.processDefinitionId ? String(input.processDefinitionId) : undefined;
    const definition = definitionId ? await definitionById(services, caller.tenantId, definitionId) : await latestVersion(services, caller.tenantId, LEAVE_KEY);
    if (!definition) throw badRequest('请假流程尚未部署，请联系管理员');
    if (definition.processKey !== LEAVE_KEY) throw badRequest('所选流程不是请假流程');
    const leaveModel = leaves(services);
    const instance = await store.transaction(async () => {
      let leave: Row;
      if (input.id) {
        const found = await store.get(leaveModel, caller.tenantId, String(input.id));
        if (!found) throw notFound('请假记录不存在或已被删除');
        if (Number(found.auditStatus) !== PENDING) throw badRequest('只有待审核的请假可以发起审批');
        if (found.processInstanceId) throw badRequest('该请假已在审批中');
        leave = found;
      } else {
        const fields: Row = {};
        for (const name of ['staffId', 'leaveType', 'startTime', 'endTime', 'days', 'reason']) if (input[name] !== undefined) fields[name] = input[name];
        leave = await insertRecord(services, caller, leaveModel, fields);
      }
      if (String(leave.endTime ?? '') < String(leave.startTime ?? '')) throw badRequest('结束时间不能早于开始时间', { fieldErrors: { endTime: '结束时间不能早于开始时间' } });
      // 部门审批 goes to the heads of the department of the staff member on leave (and the model's roles).
      const staff = leave.staffId ? await store.get(services.m('staff'), caller.tenantId, String(leave.staffId)) : undefined;
      const started = await startInstance(services, caller, definition, { table: LEAVE_TABLE, id: String(leave.id) }, {
        days: Number(leave.days),
        staffId: leave.staffId ?? null,
        leaveType: leave.leaveType ?? null,
        deptLeaders: (await deptHeadUsers(services, caller.tenantId, staff?.deptId ?? caller.deptId, caller.userId)).join(','),
      });
      // Only a leave without a running process takes this one (a concurrent start loses here).
      const current = (await store.get(leaveModel, caller.tenantId, String(leave.id)))!;
      if (current.processInstanceId) throw badRequest('该请假已在审批中');
      await store.update(leaveModel, caller, String(leave.id), { processInstanceId: String(started.id), processDefinitionId: String(definition.id) }, { includeReadonly: true, version: Number(current.version) });
      return started;
    });
    const leave = (await store.get(leaveModel, caller.tenantId, String(instance.businessId)))!;
    await fillLookups(services, leaveModel, caller.tenantId, [leave]);
    return { ...leave, processInstanceId: String(instance.id), flow: instanceWire(instance) };
  });

  /** detail (businessId): the leave, its process (open tasks) and history; for those who may read the history. */
  services.register('leave.detail', async (ctx) => {
    const caller = mustCaller(ctx);
    const id = param(ctx, 'businessId', 'id');
    if (!id) throw badRequest('缺少参数 businessId');
    const leaveModel = leaves(services);
    const leave = await store.get(leaveModel, caller.tenantId, id);
    if (!leave) throw notFound('请假记录不存在或已被删除');
    await fillLookups(services, leaveModel, caller.tenantId, [leave]);
    // The latest instance of this leave (a deleted one is kept, so its history still shows).
    const runs = await store.find(instances(services), caller.tenantId, {
      where: { businessTable: LEAVE_TABLE, businessId: id },
      orderBy: [{ column: 'start_time', dir: 'desc' }, { column: 'id', dir: 'desc' }],
      limit: 1,
    });
    if (!runs.length) return { ...leave, flow: null, history: [] };
    const { instance, taskRows } = await readableInstance(services, caller, String(runs[0].id));
    const open = taskRows.filter((t) => Number(t.taskState) === TASK_OPEN);
    await fillLookups(services, tasks(services), caller.tenantId, open);
    return {
      ...leave,
      flow: { ...instanceWire(instance), tasks: open.map((t) => taskWire(t, instance)), running: Number(instance.instanceState) === INSTANCE_RUNNING },
      history: await historyOf(services, caller, instance, taskRows),
    };
  });
}
