/**
 * 系统任务: the server's own maintenance jobs, run every so many minutes (schemas/system/system-task.json).
 * A due task is claimed by moving its next run forward in one conditional update, so with several
 * API nodes only one runs it; the outcome (result, message, time taken) is written back for the
 * page. 立即运行 runs one at once.
 */
import type { Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { PLATFORM_TENANT } from '../engine/store.ts';
import { mustCaller, param } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { runOp } from '../engine/ops.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { optimize } from '../db/connect.ts';
import { purgeOldExports } from '../files/export-jobs.ts';
import { refreshMarketingStatuses } from '../marketing/status.ts';

const ENABLED = 2;
const SUCCEEDED = 1;
const FAILED = 2;
const RUNNING = 3;
const TICK_MS = 30_000;
const SYSTEM = { tenantId: PLATFORM_TENANT, userId: '0' };

/** What each task does; answers the result's description. */
const JOBS: Record<string, (services: Services) => Promise<string>> = {
  async dbMaintenance(services) {
    if (services.database.kind !== 'sqlite') return 'PostgreSQL 由自动清理进程维护，无需处理';
    await optimize(services.database, { mergeAbove: 8 });
    return '已更新统计信息并合并检索索引';
  },
  async sessionCleanup(services) {
    const now = formatDateTime();
    const { db } = services.store;
    const sessions = await db.deleteFrom(services.internal.session.table).where((eb) => eb.or([eb('expire_time', '<', now), eb('revoked', '=', 1)])).executeTakeFirst();
    const captchas = await db.deleteFrom(services.internal.captcha.table).where('expire_time', '<', now).executeTakeFirst();
    const codes = await db.deleteFrom(services.internal.smsCode.table).where('expire_time', '<', now).executeTakeFirst();
    for (const model of [services.internal.session, services.internal.captcha, services.internal.smsCode]) services.store.invalidate(model.table);
    return `删除会话 ${Number(sessions.numDeletedRows)} 个、图形验证码 ${Number(captchas.numDeletedRows)} 个、短信验证码 ${Number(codes.numDeletedRows)} 个`;
  },
  async exportCleanup(services) {
    return `删除过期导出任务 ${await purgeOldExports(services)} 个`;
  },
  marketingStatus: (services) => refreshMarketingStatuses(services),
};

const later = (minutes: number) => formatDateTime(new Date(Date.now() + minutes * 60_000));

/** Runs one task and writes its outcome; answers the row as it is afterwards. */
async function runTask(services: Services, task: Row): Promise<Row> {
  const model = services.m('system-task');
  const job = JOBS[String(task.taskCode)];
  const started = Date.now();
  await services.store.db
    .updateTable(model.table)
    .set({ last_status: RUNNING, last_start_time: formatDateTime(), update_time: formatDateTime() })
    .where('id', '=', String(task.id))
    .execute();
  let status = SUCCEEDED;
  let message: string;
  try {
    if (!job) throw new Error(`没有名为 ${String(task.taskCode)} 的任务`);
    message = await job(services);
  } catch (error) {
    status = FAILED;
    message = error instanceof Error ? error.message : String(error);
    services.log('warn', `system task ${String(task.taskCode)} failed`, { error: message });
  }
  await services.store.db
    .updateTable(model.table)
    .set({ last_status: status, last_message: message.slice(0, 500), last_end_time: formatDateTime(), last_duration: Date.now() - started, update_time: formatDateTime() })
    .where('id', '=', String(task.id))
    .execute();
  services.store.invalidate(model.table);
  return (await services.store.get(model, PLATFORM_TENANT, String(task.id)))!;
}

/** One pass of the scheduler: claims and runs every enabled task that is due. */
export async function runDueTasks(services: Services): Promise<number> {
  const model = services.m('system-task');
  const now = formatDateTime();
  const due = (await services.store.find(model, PLATFORM_TENANT, { where: { enabled: ENABLED } })).filter((t) => !t.nextRunTime || String(t.nextRunTime) <= now);
  let ran = 0;
  for (const task of due) {
    // Claimed by whoever moves the next run forward first (another node may be looking too).
    const claimed = await services.store.db
      .updateTable(model.table)
      .set({ next_run_time: later(Number(task.intervalMinutes) || 60) })
      .where('id', '=', String(task.id))
      .where((eb) => (task.nextRunTime ? eb('next_run_time', '=', String(task.nextRunTime)) : eb('next_run_time', 'is', null)))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    await runTask(services, task);
    ran++;
  }
  services.store.invalidate(model.table);
  return ran;
}

/** Starts the scheduler; the returned function stops it. */
export function startScheduler(services: Services): () => void {
  let busy = false;
  const tick = () => {
    if (busy) return;
    busy = true;
    runDueTasks(services)
      .catch((error: unknown) => services.log('warn', 'system tasks pass failed', { error: String(error) }))
      .finally(() => (busy = false));
  };
  const timer = setInterval(tick, TICK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

export function registerTaskHandlers(services: Services) {
  services.register('systemTask.submit', async (ctx, model) => {
    const body = (ctx.body && typeof ctx.body === 'object' ? ctx.body : {}) as Row;
    // An add is refused by the generic submit (schema editOnly).
    const saved = (await runOp(ctx, model, { path: 'submit', method: 'POST', op: 'submit' })).data as Row;
    // A new interval applies from now.
    await services.store.update(model, SYSTEM, String(body.id), { nextRunTime: later(Number(saved.intervalMinutes) || 60) }, { includeReadonly: true });
    return services.store.get(model, PLATFORM_TENANT, String(body.id));
  });

  services.register('systemTask.run', async (ctx, model) => {
    mustCaller(ctx);
    const id = param(ctx, 'id');
    if (!id) throw badRequest('请选择任务');
    const task = await services.store.get(model, PLATFORM_TENANT, id);
    if (!task) throw badRequest('任务不存在');
    if (Number(task.lastStatus) === RUNNING && task.lastStartTime && String(task.lastStartTime) > formatDateTime(new Date(Date.now() - 10 * 60_000))) {
      throw badRequest('任务正在运行，请稍后再试');
    }
    return runTask(services, task);
  });
}
