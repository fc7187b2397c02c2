/**
 * 待签 / 待办 / 办结事务 and the two task actions (blade-flow/work). Every list is the caller's own:
 * claim-list the open unclaimed tasks whose candidate users or roles include the caller, todo-list
 * the open tasks assigned to the caller, done-list the tasks the caller completed.
 */
import { sql } from 'kysely';
import type { Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller, param, type Caller, type Ctx } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { fillLookups } from '../engine/lookups.ts';
import { valueParam } from '../system/params.ts';
import { claimTask, completeTask } from './instances.ts';
import { INSTANCE_RUNNING, instances, pageOf, paging, PASS_ALIAS, PASS_COMMENT, taskWire, TASK_DONE, TASK_OPEN, tasks } from './tables.ts';

const NEWEST = [{ column: 'create_time', dir: 'desc' as const }, { column: 'id', dir: 'desc' as const }];
const LATEST_DONE = [{ column: 'end_time', dir: 'desc' as const }, { column: 'id', dir: 'desc' as const }];

/** "contains ,x," as a LIKE pattern with the wildcards of x escaped. */
const member = (value: string) => `%,${value.replace(/[\\%_]/g, (c) => `\\${c}`)},%`;

/** The body of complete-task: JSON (BladeFlow) or form/query parameters. */
function flowInput(ctx: Ctx): Row {
  const body = ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? (ctx.body as Row) : {};
  return { ...ctx.params, ...body };
}

/** pass/reject from BladeX's fields: pass (boolean), or flag ok; a comment of exactly 同意 also passes. */
function decisionOf(input: Row): boolean {
  const pass = input.pass ?? input.isPass;
  if (pass !== undefined && pass !== null && pass !== '') return pass === true || pass === 'true' || pass === 1 || pass === '1';
  if (input.flag !== undefined && input.flag !== null && input.flag !== '') return String(input.flag) === PASS_ALIAS;
  if (String(input.comment ?? '').trim() === PASS_COMMENT) return true;
  throw badRequest('请选择审批结果（同意或驳回）');
}

export function registerWorkHandlers(services: Services) {
  const { store } = services;
  const model = () => tasks(services);

  async function respond(caller: Caller, rows: Row[], total: number, current: number, size: number) {
    await fillLookups(services, model(), caller.tenantId, rows);
    const ids = [...new Set(rows.map((r) => String(r.processInstanceId)))];
    const owners = ids.length ? await store.find(instances(services), caller.tenantId, { where: { id: ids } }) : [];
    const byId = new Map(owners.map((i) => [String(i.id), i]));
    return pageOf(rows.map((r) => taskWire(r, byId.get(String(r.processInstanceId)))), total, current, size);
  }

  async function page(ctx: Ctx, where: Row, orderBy: typeof NEWEST) {
    const caller = mustCaller(ctx);
    const { current, size } = paging(ctx.params);
    const category = param(ctx, 'category', 'category_equal');
    if (category) where.category = category;
    const { rows, total } = await store.page(model(), caller.tenantId, { where, orderBy, limit: size, offset: (current - 1) * size });
    return respond(caller, rows, total, current, size);
  }

  services.register('flowWork.todoList', async (ctx) => page(ctx, { taskState: TASK_OPEN, assignee: mustCaller(ctx).userId }, NEWEST));

  services.register('flowWork.doneList', async (ctx) => page(ctx, { taskState: TASK_DONE, assignee: mustCaller(ctx).userId }, LATEST_DONE));

  /** claim-list: open, unclaimed, the caller a candidate by user id or by one of its role aliases. */
  services.register('flowWork.claimList', async (ctx) => {
    const caller = mustCaller(ctx);
    const { current, size } = paging(ctx.params);
    const m = model();
    const col = (name: string) => m.fields.get(name)!.column;
    const category = param(ctx, 'category', 'category_equal');
    const query = () => {
      let q = store
        .base(m, caller.tenantId)
        .where(col('taskState'), '=', TASK_OPEN)
        .where((eb) => eb.or([eb(col('assignee'), '=', ''), eb(col('assignee'), 'is', null)]))
        .where(
          sql<boolean>`(${sql.join(
            [
              sql`${sql.ref(col('candidateUsers'))} like ${member(caller.userId)} escape '\\'`,
              ...caller.roleAliases.map((alias) => sql`${sql.ref(col('candidateGroups'))} like ${member(alias)} escape '\\'`),
            ],
            sql` or `,
          )})`,
        );
      if (category) q = q.where(col('category'), '=', category);
      return q;
    };
    const counted = (await query().select((eb) => eb.fn.countAll().as('n')).executeTakeFirst()) as { n: unknown } | undefined;
    const raw = await query().selectAll().orderBy('create_time', 'desc').orderBy('id', 'desc').limit(size).offset((current - 1) * size).execute();
    const rows = raw.map((r) => store.toRow(m, r as Row));
    return respond(caller, rows, Number(counted?.n ?? 0), current, size);
  });

  services.register('flowWork.claim', async (ctx) => {
    const caller = mustCaller(ctx);
    const task = await claimTask(services, caller, valueParam(ctx, 'taskId', 'id'));
    await fillLookups(services, model(), caller.tenantId, [task]);
    return taskWire(task);
  });

  /** complete-task: taskId, flag ok / pass for approve (anything else rejects), comment. Client variables are not taken. */
  services.register('flowWork.complete', async (ctx) => {
    const caller = mustCaller(ctx);
    const input = flowInput(ctx);
    const taskId = input.taskId ? String(input.taskId) : undefined;
    const pass = decisionOf(input);
    const task = await completeTask(services, caller, taskId, { pass, comment: input.comment === undefined || input.comment === null ? '' : String(input.comment) });
    await fillLookups(services, model(), caller.tenantId, [task]);
    const instance = await store.get(instances(services), caller.tenantId, String(task.processInstanceId));
    return { ...taskWire(task, instance), processIsFinished: instance && Number(instance.instanceState) === INSTANCE_RUNNING ? 'unfinished' : 'finished' };
  });
}
