import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EndpointDef } from '../../shared/resource.ts';
import type { Caller } from '../http/context.ts';
import type { Services } from '../services.ts';
import type { Model } from '../engine/model.ts';
import type { Row } from '../engine/store.ts';
import { PLATFORM_TENANT } from '../engine/store.ts';
import { endpointPerm } from '../engine/ops.ts';
import { fullPath } from '../engine/routes.ts';
import { parseFilters, parseSort } from '../engine/query.ts';
import { authenticate } from '../auth/tokens.ts';
import { ApiError, badRequest, forbidden, ok } from '../http/envelope.ts';
import { serviceRoutes } from '../http/paths.ts';
import { formatDate, formatDateTime } from '../../shared/dates.ts';
import { CONTENT_TYPES } from './storage.ts';
import { writeExport, type ExportRun } from './export-worker.ts';

/** Jobs one user may have running at once. */
const MAX_RUNNING = 3;
/** Finished jobs and their files are kept this long. */
const KEEP_DAYS = 7;
/** A running job whose row has not moved for this long lost its worker (its node stopped). */
const STALE_MS = 10 * 60_000;
const XLSX = CONTENT_TYPES.xlsx;

/** Workers of this process, by job id. */
const running = new Map<string, { services: Services; run: ExportRun; done: Promise<void> }>();

const RESTARTED = '服务重启，导出已中断，请重新导出';

/** This process, as written on the jobs it runs: a restart fails only its own jobs at once. */
const nodeOf = (services: Services) => `${os.hostname()}:${path.resolve(services.config.dataDir)}`.slice(0, 300);

/** Export files live outside uploads/, which /oss serves to anyone holding a key. */
function exportPath(services: Services, key: string): string {
  return path.join(services.config.dataDir, 'exports', key);
}

function jobView(row: Row) {
  let params: unknown = {};
  try {
    params = JSON.parse(String(row.params ?? '{}'));
  } catch {
    // kept as stored
  }
  return {
    id: String(row.id),
    resource: row.resource,
    endpoint: row.endpoint,
    params,
    fileName: row.fileName,
    status: row.state,
    rows: Number(row.rows ?? 0),
    total: Number(row.total ?? 0),
    error: row.error ?? '',
    createTime: row.createTime,
    finishedTime: row.finishedTime ?? '',
  };
}

/** The list endpoint an export runs: a page/list op, or a GET report handler (GET handlers holding a permission are actions). */
function listEndpoint(model: Model, name: string | undefined): EndpointDef {
  const endpoints = model.resource!.api.endpoints;
  const exportable = (e: EndpointDef) => ['page', 'parentList', 'list', 'select'].includes(e.op) || (e.op === 'custom' && e.method === 'GET' && !e.perm);
  const wanted = name ?? (model.resource!.list as { endpoint?: string } | undefined)?.endpoint;
  const endpoint = wanted
    ? endpoints.find((e) => e.path === wanted || fullPath(model, e) === wanted.replace(/^\/api(?=\/)/, ''))
    : (endpoints.find((e) => e.op === 'page') ?? endpoints.find((e) => e.op === 'list'));
  if (!endpoint) throw badRequest(wanted ? `${model.title}没有接口 ${wanted}` : `${model.title}没有列表接口，不能导出`);
  if (!exportable(endpoint)) throw badRequest(`接口 ${endpoint.path} 不是列表接口，不能导出`);
  return endpoint;
}

/** The checks the endpoint's own HTTP route makes before it runs. */
async function mayCall(services: Services, caller: Caller, model: Model, endpoint: EndpointDef) {
  if (endpoint.public) return;
  if (model.platform && caller.tenantId !== PLATFORM_TENANT) throw forbidden(`${model.title}仅限平台管理租户(${PLATFORM_TENANT})访问`);
  await services.perms.requireApiScope(caller, fullPath(model, endpoint));
  const perm = endpointPerm(model, endpoint);
  if (perm) await services.perms.require(caller, perm);
}

function stringParams(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('导出参数 params 应为对象');
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value as Row)) {
    if (key === 'current' || key === 'size' || v === undefined || v === null) continue;
    if (typeof v === 'object') throw badRequest(`导出参数 ${key} 应为文本`);
    out[key] = String(v);
  }
  return out;
}

function cleanFileName(name: unknown, model: Model): string {
  const base = String(name ?? '').replace(/[\\/:*?"<>|\x00-\x1f]/g, '').trim() || `${model.title}-${formatDate()}`;
  return `${base.replace(/\.xlsx$/i, '').slice(0, 180)}.xlsx`;
}

/** The job row's write, conditional on the version the writer last saw and on the job still running. */
async function saveRun(services: Services, run: ExportRun, patch: Row): Promise<boolean> {
  const model = services.internal.exportJob;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await services.store.guardedUpdate(model, run.caller, run.id, patch, { version: run.version, where: { state: 'running' } })) {
      run.version += 1;
      return true;
    }
    const row = await services.store.get(model, run.caller.tenantId, run.id);
    if (!row || row.state !== 'running') return false;
    run.version = Number(row.version);
  }
  return false;
}

function removeFile(file: string) {
  fs.rm(file, { force: true }, () => undefined);
}

/** Runs a job to its end in the background; a failure is recorded on the job with its message. */
async function work(services: Services, run: ExportRun): Promise<void> {
  let ended: 'done' | 'stopped' | 'failed';
  try {
    ended = await writeExport(services, run, (r, patch) => saveRun(services, r, patch));
  } catch (error) {
    ended = 'failed';
    const message = error instanceof ApiError ? error.message : '导出失败：服务器内部错误';
    if (!(error instanceof ApiError)) services.log('error', 'export job failed', { id: run.id, error: String((error as Error).stack ?? error) });
    await saveRun(services, run, { state: 'failed', error: message, finishedTime: formatDateTime() }).catch(() => undefined);
  }
  if (ended !== 'done') await fs.promises.rm(run.file, { force: true }).catch(() => undefined);
}

async function ownJob(services: Services, caller: Caller, id: unknown): Promise<Row> {
  const row = id ? await services.store.get(services.internal.exportJob, caller.tenantId, String(id)) : undefined;
  if (!row || String(row.userId) !== caller.userId) throw new ApiError(404, '导出任务不存在');
  return row;
}

const STATE_NAMES: Record<string, string> = { running: '进行中', done: '已完成', failed: '已失败', cancelled: '已取消' };

async function start(services: Services, req: FastifyRequest, caller: Caller) {
  const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Row;
  const name = String(body.resource ?? '').trim();
  if (!name) throw badRequest('请指定要导出的资源 resource');
  const model = services.registry.models.get(name);
  if (!model?.resource) throw badRequest(`资源 ${name} 不存在`);
  const endpoint = listEndpoint(model, body.endpoint ? String(body.endpoint) : undefined);
  await mayCall(services, caller, model, endpoint);
  const params = stringParams(body.params);
  if (endpoint.op !== 'custom') {
    // Bad filters or sort columns are refused now, not after the job started.
    parseFilters(model, params, endpoint.filters ?? 'map');
    parseSort(model, params);
  }
  const jobs = services.internal.exportJob;
  const { store } = services;
  const mine = await store.find(jobs, caller.tenantId, { where: { userId: caller.userId, state: 'running' }, limit: MAX_RUNNING + 1 });
  if (mine.length >= MAX_RUNNING) throw badRequest(`正在进行的导出已有${MAX_RUNNING}个，请等待完成或取消后再导出`);
  const fileKey = `${caller.tenantId}/${formatDate().replace(/-/g, '')}/${crypto.randomUUID().replace(/-/g, '')}.xlsx`;
  const file = exportPath(services, fileKey);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const { id } = await store.insert(jobs, caller, {
    userId: caller.userId, resource: model.name, endpoint: endpoint.path, params: JSON.stringify(params),
    fileName: cleanFileName(body.fileName, model), state: 'running', rows: 0, total: 0, fileKey, node: nodeOf(services),
  });
  const run: ExportRun = { id: String(id), caller, model, endpoint, params, file, version: 1, cancelled: false, req };
  const done = work(services, run).finally(() => running.delete(run.id));
  running.set(run.id, { services, run, done });
  return jobView(await store.mustGet(jobs, caller.tenantId, run.id));
}

async function cancel(services: Services, caller: Caller, id: unknown) {
  const jobs = services.internal.exportJob;
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await ownJob(services, caller, id);
    if (row.state !== 'running') throw badRequest(`导出${STATE_NAMES[String(row.state)] ?? '已结束'}，不能取消`);
    const at = formatDateTime();
    const changed = await services.store.guardedUpdate(jobs, caller, String(row.id), { state: 'cancelled', finishedTime: at }, { version: Number(row.version), where: { state: 'running' } });
    if (!changed) continue; // the worker wrote its progress meanwhile
    const local = running.get(String(row.id));
    if (local) {
      // The worker stops after the page it is on and deletes its partial file.
      local.run.cancelled = true;
      await Promise.race([local.done, new Promise((resolve) => setTimeout(resolve, 30_000).unref())]);
    } else if (row.fileKey) removeFile(exportPath(services, String(row.fileKey)));
    return jobView(await services.store.mustGet(jobs, caller.tenantId, String(row.id)));
  }
  throw badRequest('导出任务正忙，请稍后再取消');
}

/**
 * At start: jobs this node was running (and any whose worker has been silent too long) are marked
 * failed; jobs older than KEEP_DAYS go with their files.
 */
export async function recoverExportJobs(services: Services): Promise<void> {
  const db = services.store.db;
  const table = services.internal.exportJob.table;
  const now = Date.now();
  await db
    .updateTable(table)
    .set({ state: 'failed', error: RESTARTED, finished_time: formatDateTime(), update_time: formatDateTime() })
    .where('state', '=', 'running')
    .where((eb) => eb.or([eb('node', '=', nodeOf(services)), eb('update_time', '<', formatDateTime(new Date(now - STALE_MS)))]))
    .execute();
  await purgeOldExports(services);
}

/** Jobs older than KEEP_DAYS go with their files (at start, and daily as a 系统任务); answers how many. */
export async function purgeOldExports(services: Services): Promise<number> {
  const db = services.store.db;
  const table = services.internal.exportJob.table;
  const old = formatDateTime(new Date(Date.now() - KEEP_DAYS * 86_400_000));
  const expired = (await db.selectFrom(table).select(['tenant_id', 'id', 'file_key']).where('create_time', '<', old).where('state', '<>', 'running').execute()) as {
    tenant_id: string;
    id: string;
    file_key: string | null;
  }[];
  for (const job of expired) {
    if (job.file_key) await fs.promises.rm(exportPath(services, job.file_key), { force: true }).catch(() => undefined);
    await db.deleteFrom(table).where('tenant_id', '=', job.tenant_id).where('id', '=', job.id).execute();
  }
  return expired.length;
}

/** At shutdown: this server's workers stop after their page, drop their files, and their jobs are failed. */
export async function stopExportJobs(services: Services): Promise<void> {
  const mine = [...running.values()].filter((r) => r.services === services);
  for (const r of mine) r.run.cancelled = true;
  await Promise.race([Promise.all(mine.map((r) => r.done)), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
  for (const r of mine) await saveRun(services, r.run, { state: 'failed', error: RESTARTED, finishedTime: formatDateTime() }).catch(() => undefined);
}

const idOf = (req: FastifyRequest) => (req.query as Row)?.id ?? (req.body && typeof req.body === 'object' ? (req.body as Row).id : undefined);
const doc = (summary: string, extra: Record<string, unknown> = {}) => ({ doc: { summary, tags: ['导出任务 (erp-export)'], ...extra } });
const idQuery = { querystring: { type: 'object', properties: { id: { type: 'string', description: '导出任务ID' } } } };

/** Long exports as server jobs: start, follow, cancel and download (README "Exports"). */
export function registerExportJobRoutes(app: FastifyInstance, services: Services) {
  const route = serviceRoutes(app);
  const jobs = services.internal.exportJob;
  route('POST', '/erp-export/start', async (req) => ok(await start(services, req, await authenticate(services, req)), '导出已开始'), doc('开始导出（后台任务）', {
    body: {
      type: 'object',
      required: ['resource'],
      properties: {
        resource: { type: 'string', description: '资源名，如 brand' },
        endpoint: { type: 'string', description: '列表接口路径，默认列表页的接口' },
        params: { type: 'object', description: '查询条件与排序（与列表接口相同的参数）' },
        fileName: { type: 'string', description: '文件名' },
      },
    },
  }));
  route('GET', '/erp-export/list', async (req) => {
    const caller = await authenticate(services, req);
    const rows = await services.store.find(jobs, caller.tenantId, {
      where: { userId: caller.userId },
      orderBy: [{ column: 'create_time', dir: 'desc' }, { column: 'id', dir: 'desc' }],
      limit: 20,
    });
    return ok(rows.map(jobView));
  }, doc('我的导出任务（最近20个）'));
  route('GET', '/erp-export/detail', async (req) => {
    const caller = await authenticate(services, req);
    return ok(jobView(await ownJob(services, caller, idOf(req))));
  }, doc('导出任务进度', idQuery));
  route('POST', '/erp-export/cancel', async (req) => ok(await cancel(services, await authenticate(services, req), idOf(req)), '导出已取消'), doc('取消导出', idQuery));
  route('GET', '/erp-export/file', async (req, reply) => {
    const caller = await authenticate(services, req);
    const row = await ownJob(services, caller, idOf(req));
    if (row.state !== 'done') {
      throw badRequest(row.state === 'failed' ? `导出失败，没有文件：${String(row.error ?? '')}` : `导出${STATE_NAMES[String(row.state)] ?? ''}，没有可下载的文件`);
    }
    const file = exportPath(services, String(row.fileKey ?? ''));
    if (!row.fileKey || !fs.existsSync(file)) throw badRequest('导出文件已过期或已删除，请重新导出');
    reply.header('content-type', XLSX);
    reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(String(row.fileName))}`);
    reply.header('cache-control', 'private, no-store');
    return reply.send(fs.createReadStream(file));
  }, doc('下载导出文件', idQuery));
}
