import fs from 'node:fs';
import ExcelJS from 'exceljs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EndpointDef, ResourceFile } from '../../shared/resource.ts';
import type { Caller, Ctx } from '../http/context.ts';
import type { Model } from '../engine/model.ts';
import type { Row } from '../engine/store.ts';
import type { Services } from '../services.ts';
import { runOp } from '../engine/ops.ts';
import { RawReply } from '../engine/raw.ts';
import { ApiError, badRequest } from '../errors.ts';
import { formatDateTime } from '../../shared/dates.ts';

/** Rows asked for per page: the most a page call answers (parsePaging caps larger sizes). */
export const EXPORT_PAGE_SIZE = 2000;

/** A job as its worker runs it: who asked, what to call, where the file goes, and the row's version. */
export interface ExportRun {
  id: string;
  caller: Caller;
  model: Model;
  endpoint: EndpointDef;
  params: Record<string, string>;
  file: string;
  /** The job row's version as this worker last wrote it: every write is conditional on it. */
  version: number;
  /** Set by a cancel call on this node; another node's cancel is seen at the next progress write. */
  cancelled: boolean;
  /** The request that started the job (headers only are read by list handlers). */
  req: FastifyRequest;
}

/** What the worker writes to the job row after each page and at the end. */
export type JobWrite = (run: ExportRun, patch: Row) => Promise<boolean>;

interface Column {
  field: string;
  title: string;
  labels?: Map<string, string>;
}

type ListColumn = string | { field: string; title?: string };

/** Dictionary labels by key: the tenant's dictionary rows, else the seeded dictionary. */
async function dictLabels(services: Services, tenantId: string, code: string, biz: boolean): Promise<Map<string, string>> {
  const rows = await services.store.find(services.m(biz ? 'dict-biz' : 'dict'), tenantId, { where: { code } });
  const labels = new Map(rows.filter((r) => String(r.parentId) !== '0').map((r) => [String(r.dictKey), String(r.dictValue ?? '')]));
  if (labels.size) return labels;
  return new Map((services.registry.dicts.find((d) => d.code === code)?.items ?? []).map((i) => [i.key, i.value]));
}

/** The columns the list shows, with their titles, and the labels of dictionary fields. */
export async function listColumns(services: Services, tenantId: string, resource: ResourceFile): Promise<Column[]> {
  const props = resource.entity.properties;
  const listed = (resource.list as { columns?: ListColumn[] } | undefined)?.columns;
  const wanted: { field: string; title?: string }[] = listed
    ? listed.map((c) => (typeof c === 'string' ? { field: c } : { field: c.field, title: c.title }))
    : Object.keys(props).filter((n) => !props[n]['x-lines']).map((field) => ({ field }));
  const columns: Column[] = [];
  for (const { field, title } of wanted) {
    const schema = props[field];
    if (schema?.['x-secret']) continue;
    const column: Column = { field, title: title ?? schema?.title ?? field };
    const dict = schema?.['x-dict'] ?? schema?.['x-dictBiz'];
    if (dict) column.labels = await dictLabels(services, tenantId, String(dict), !schema?.['x-dict']);
    columns.push(column);
  }
  return columns;
}

/** A cell as the list shows it: dictionary keys as their labels, decimals as the strings they come as. */
function cell(column: Column, value: unknown): unknown {
  if (value === null || value === undefined) return '';
  if (column.labels && value !== '') {
    const text = String(value);
    const label = column.labels.get(text);
    if (label !== undefined) return label;
    if (text.includes(',')) return text.split(',').map((k) => column.labels!.get(k.trim()) ?? k).join(',');
    return text;
  }
  if (typeof value === 'object') return Array.isArray(value) && value.every((v) => typeof v !== 'object') ? value.join(',') : JSON.stringify(value);
  return value;
}

/** Tree answers are flattened depth-first, parents before children. */
function flatten(rows: Row[]): Row[] {
  const out: Row[] = [];
  const walk = (list: Row[]) => {
    for (const row of list) {
      const { children, ...rest } = row;
      out.push(Array.isArray(children) ? rest : row);
      if (Array.isArray(children)) walk(children as Row[]);
    }
  };
  walk(rows);
  return out;
}

/** A reply for handlers that run outside a request: list handlers answer data and never write to it. */
function detachedReply(): FastifyReply {
  const reply: Record<string, unknown> = { sent: false, statusCode: 200 };
  reply.header = () => reply;
  reply.headers = () => reply;
  reply.code = () => reply;
  reply.status = () => reply;
  reply.type = () => reply;
  return reply as unknown as FastifyReply;
}

/** One page of the endpoint, through the same code its HTTP route runs. */
async function callPage(services: Services, run: ExportRun, current: number): Promise<unknown> {
  const query: Record<string, unknown> = { ...run.params, current: String(current), size: String(EXPORT_PAGE_SIZE) };
  const ctx: Ctx = { services, caller: run.caller, params: { ...query }, query, body: undefined, req: run.req, reply: detachedReply() };
  if (run.endpoint.op === 'custom') {
    const handler = services.handlers.get(run.endpoint.handler ?? '');
    if (!handler) throw new ApiError(501, `接口尚未实现：${run.endpoint.path}`);
    return handler(ctx, run.model);
  }
  return (await runOp(ctx, run.model, run.endpoint)).data;
}

const notAList = () => badRequest('该接口返回的不是列表，不能导出');

/**
 * Runs the job: page after page into a streamed xlsx (each row committed as written), the job row
 * updated after every page. Answers how it ended; the caller records failures.
 */
export async function writeExport(services: Services, run: ExportRun, save: JobWrite): Promise<'done' | 'stopped'> {
  const resource = run.model.resource!;
  const columns = await listColumns(services, run.caller.tenantId, resource);
  const stream = fs.createWriteStream(run.file);
  const broken = new Promise<never>((_, reject) => stream.on('error', reject));
  broken.catch(() => undefined);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet((resource.title.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet1'));
  sheet.columns = columns.map((c) => ({ header: c.title, key: c.field, width: 18 }));
  let ended = false;
  const close = async () => {
    if (ended) return;
    ended = true;
    await Promise.race([workbook.commit(), broken]);
  };
  let rows = 0;
  let total = 0;
  let previousFirst: string | undefined;
  try {
    for (let current = 1; ; current++) {
      if (run.cancelled) return 'stopped';
      const answer = await Promise.race([callPage(services, run, current), broken]);
      if (answer instanceof RawReply) throw notAList();
      let records: Row[];
      let pageTotal: number | undefined;
      let size = EXPORT_PAGE_SIZE;
      if (Array.isArray(answer)) {
        records = flatten(answer as Row[]);
        // An array endpoint that ignores paging answers the same rows again: they are all written.
        const first = records.length ? JSON.stringify(records[0]) : undefined;
        if (current > 1 && first === previousFirst) break;
        previousFirst = first;
      } else if (answer && typeof answer === 'object' && Array.isArray((answer as Row).records)) {
        const page = answer as Row;
        records = page.records as Row[];
        pageTotal = Number.isFinite(Number(page.total)) ? Number(page.total) : undefined;
        if (Number(page.size) > 0) size = Math.min(size, Number(page.size));
      } else throw notAList();
      for (const record of records) {
        sheet.addRow(Object.fromEntries(columns.map((c) => [c.field, cell(c, record[c.field])])) as never).commit();
      }
      rows += records.length;
      total = Math.max(pageTotal ?? rows, rows);
      if (run.cancelled || !(await save(run, { rows, total }))) return 'stopped';
      if (!records.length || records.length < size || (pageTotal !== undefined && rows >= pageTotal)) break;
      // Let other requests in between pages (SQLite reads are synchronous).
      await new Promise((resolve) => setImmediate(resolve));
    }
    sheet.commit();
    await close();
    if (run.cancelled) return 'stopped';
    return (await save(run, { state: 'done', rows, total: rows, finishedTime: formatDateTime() })) ? 'done' : 'stopped';
  } finally {
    // Whatever happened, the writer is ended so the file handle is released.
    if (!ended) await close().catch(() => stream.destroy());
  }
}
