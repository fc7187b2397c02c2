/**
 * 流程跟踪 (blade-flow/follow), 已发事务 (work/send-list) and 流转历史
 * (process/history-flow-list): instances as BladeX's FlowExecution rows.
 */
import type { Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller, param } from '../http/context.ts';
import { fillLookups } from '../engine/lookups.ts';
import { valueParam } from '../system/params.ts';
import { deleteInstance } from './instances.ts';
import { historyOf, readableInstance } from './history.ts';
import { INSTANCE_RUNNING, instances, instanceWire, pageOf, paging, TASK_OPEN, taskWire } from './tables.ts';
import { mayHandle } from './candidates.ts';

const NEWEST = [{ column: 'start_time', dir: 'desc' as const }, { column: 'id', dir: 'desc' as const }];

export function registerInstanceHandlers(services: Services) {
  const { store } = services;
  const model = () => instances(services);

  async function page(tenantId: string, params: Record<string, unknown>, where: Row) {
    const { current, size } = paging(params);
    const { rows, total } = await store.page(model(), tenantId, { where, orderBy: NEWEST, limit: size, offset: (current - 1) * size });
    await fillLookups(services, model(), tenantId, rows);
    return pageOf(rows.map(instanceWire), total, current, size);
  }

  /** follow list: running instances (processInstanceId, processDefinitionKey, category filters). */
  services.register('flowFollow.list', async (ctx) => {
    const caller = mustCaller(ctx);
    const where: Row = { instanceState: INSTANCE_RUNNING };
    const id = param(ctx, 'processInstanceId');
    const key = param(ctx, 'processDefinitionKey', 'processKey', 'processKey_equal');
    const category = param(ctx, 'category', 'category_equal');
    if (id) where.id = id;
    if (key) where.processKey = key;
    if (category) where.category = category;
    return page(caller.tenantId, ctx.params, where);
  });

  /** send-list: what the caller started, running or not (category filter). */
  services.register('flowWork.sendList', async (ctx) => {
    const caller = mustCaller(ctx);
    const where: Row = { startUserId: caller.userId };
    const category = param(ctx, 'category', 'category_equal');
    if (category) where.category = category;
    return page(caller.tenantId, ctx.params, where);
  });

  services.register('flowFollow.remove', async (ctx) => {
    const caller = mustCaller(ctx);
    await deleteInstance(services, caller, valueParam(ctx, 'processInstanceId', 'id'), valueParam(ctx, 'deleteReason') ?? '');
    return undefined;
  });

  /**
   * process/instance (processInstanceId): one instance for its detail page, with the resource its
   * business row belongs to (a bill: the page shows it), its open tasks (each saying whether the
   * caller may handle it) and its history; readable as the history is.
   */
  services.register('flowProcess.instance', async (ctx) => {
    const caller = mustCaller(ctx);
    const { instance, taskRows } = await readableInstance(services, caller, param(ctx, 'processInstanceId'));
    const history = await historyOf(services, caller, instance, taskRows);
    await fillLookups(services, model(), caller.tenantId, [instance]);
    const business = [...services.registry.models.values()].find((m) => m.table === instance.businessTable);
    return {
      ...instanceWire(instance),
      businessResource: business?.name ?? null,
      businessTitle: business?.title ?? null,
      tasks: taskRows.filter((t) => Number(t.taskState) === TASK_OPEN).map((t) => ({ ...taskWire(t, instance), mine: mayHandle(caller, t) })),
      history,
    };
  });

  services.register('flowProcess.history', async (ctx) => {
    const caller = mustCaller(ctx);
    const { instance, taskRows } = await readableInstance(services, caller, param(ctx, 'processInstanceId'));
    return historyOf(services, caller, instance, taskRows);
  });
}
