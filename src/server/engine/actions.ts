import crypto from 'node:crypto';
import ExcelJS from 'exceljs';
import type { Ctx } from '../http/context.ts';
import { idList, mustCaller, param } from '../http/context.ts';
import type { EndpointDef } from '../../shared/resource.ts';
import type { Model } from './model.ts';
import type { Actor, Row } from './store.ts';
import type { Services } from '../services.ts';
import { parseFilters, parseSort } from './query.ts';
import { fillLookups } from './lookups.ts';
import { joinMultiValues, validateEntity } from './validate.ts';
import { checkReferences } from './references.ts';
import { badRequest } from '../errors.ts';
import { RawReply } from './raw.ts';
import { optimize } from '../db/connect.ts';
import { formatDateTime } from '../../shared/dates.ts';

type Params = Record<string, unknown>;

function options(endpoint: EndpointDef): Params {
  return (endpoint.params ?? {}) as Params;
}

/** Next code such as KH000001, counted per tenant (and per scope value, e.g. natureId). */
export async function nextCode(services: Services, actor: Actor, model: Model, endpoint: EndpointDef, scopeValue?: string): Promise<string> {
  const caller = actor;
  const o = options(endpoint);
  const field = String(o.field ?? 'code');
  const prefix = String(o.prefix ?? '');
  const length = Number(o.length ?? 6);
  const scope = scopeValue ?? '';
  const { store } = services;
  const counter = services.internal.codeCounter;
  for (let attempt = 0; attempt < 50; attempt++) {
    const key = `${model.name}|${field}|${scope}`;
    const row = (await store.find(counter, caller.tenantId, { where: { counterKey: key } }))[0];
    const next = Number(row?.current ?? 0) + 1;
    try {
      if (row) await store.update(counter, caller, String(row.id), { current: next }, { version: Number(row.version) });
      else await store.insert(counter, caller, { counterKey: key, current: next });
    } catch {
      continue; // a concurrent caller took it
    }
    const code = `${prefix}${scope && o.scopePrefix ? scope : ''}${String(next).padStart(length, '0')}`;
    // Skip codes typed by hand earlier.
    const taken = await store.find(model, caller.tenantId, { where: { [field]: code }, limit: 1 });
    if (!taken.length) return code;
  }
  throw badRequest('生成编码失败，请重试');
}

/** Suffixes handed out in the current second, so two calls in one second never get the same code. */
const stampsUsed = { second: '', used: new Set<number>() };

export function timeStampCode(endpoint: EndpointDef): string {
  const stamp = formatDateTime().replace(/\D/g, '');
  if (stampsUsed.second !== stamp) {
    stampsUsed.second = stamp;
    stampsUsed.used.clear();
  }
  let n = crypto.randomInt(0, 1000);
  while (stampsUsed.used.has(n) && stampsUsed.used.size < 1000) n = (n + 1) % 1000;
  stampsUsed.used.add(n);
  return `${String(options(endpoint).prefix ?? '')}${stamp}${String(n).padStart(3, '0')}`;
}

/**
 * Updates named fields of rows by id from the request (+ fixed values), version-checked when sent.
 * Options: idParam (name of the id parameter), from ({field: [allowed current values]}: a state
 * check), exclusive ({field, within, clear}: other rows sharing `within` get `clear`, e.g. one main member).
 */
export async function setFields(ctx: Ctx, model: Model, endpoint: EndpointDef): Promise<void> {
  const caller = mustCaller(ctx);
  const o = options(endpoint);
  const body = (ctx.body && typeof ctx.body === 'object' ? ctx.body : {}) as Row;
  const idName = o.idParam ? String(o.idParam) : undefined;
  const ids = idList((idName ? param(ctx, idName) : param(ctx, 'ids', 'id')) ?? (body[idName ?? 'id'] as string | undefined)?.toString());
  if (!ids.length) throw badRequest('请选择至少一条数据');
  if (ids.length > 1 && !o.ids) throw badRequest('该操作一次只能处理一条数据');
  const patch: Row = { ...((o.set as Row) ?? {}) };
  for (const name of (o.fields as string[]) ?? []) {
    const value = param(ctx, name) ?? body[name];
    if (value !== undefined) patch[name] = value;
  }
  joinMultiValues(model.resource?.entity, patch);
  const from = (o.from ?? {}) as Record<string, unknown[]>;
  const exclusive = o.exclusive as { field: string; within: string; clear: unknown } | undefined;
  const versionText = param(ctx, 'version') ?? (body.version !== undefined ? String(body.version) : undefined);
  const { store } = ctx.services;
  await store.transaction(async (db) => {
    for (const id of ids) {
      const existing = await store.mustGet(model, caller.tenantId, id, db);
      for (const [field, allowed] of Object.entries(from)) {
        if (!allowed.map(String).includes(String(existing[field] ?? ''))) {
          throw badRequest(`当前状态不允许该操作（${model.resource?.entity.properties[field]?.title ?? field}）`);
        }
      }
      if (model.resource) validateEntity(model.resource.entity, { ...existing, ...patch });
      await checkReferences(ctx.services, caller, model, [patch], () => existing);
      await store.update(model, caller, id, patch, {
        db,
        includeReadonly: true,
        version: versionText !== undefined && ids.length === 1 ? Number(versionText) : undefined,
      });
      if (exclusive && patch[exclusive.field] !== undefined && String(patch[exclusive.field]) !== String(exclusive.clear)) {
        const others = await store.find(model, caller.tenantId, { where: { [exclusive.within]: existing[exclusive.within] } }, db);
        for (const other of others) {
          if (String(other.id) === id || String(other[exclusive.field]) === String(exclusive.clear)) continue;
          await store.update(model, caller, String(other.id), { [exclusive.field]: exclusive.clear }, { db, includeReadonly: true });
        }
      }
    }
  });
}

/** Adds or removes one tag id in a comma-joined field (GET id, tagId). */
export async function tag(ctx: Ctx, model: Model, endpoint: EndpointDef, on: boolean): Promise<void> {
  const caller = mustCaller(ctx);
  const field = String(options(endpoint).field ?? 'tagIds');
  const id = param(ctx, 'id');
  const tagId = param(ctx, 'tagId');
  if (!id || !tagId) throw badRequest('缺少参数 id 或 tagId');
  const row = await ctx.services.store.mustGet(model, caller.tenantId, id);
  const tags = new Set(String(row[field] ?? '').split(',').filter(Boolean));
  if (on) tags.add(tagId);
  else tags.delete(tagId);
  await ctx.services.store.update(model, caller, id, { [field]: [...tags].join(',') }, { includeReadonly: true });
}

/**
 * Columns of an export/import: the list block's columns, else every stored non-secret field. A
 * lookup column (分类名称 beside natureId) is exported as the name and imported back to the id.
 */
function sheetColumns(model: Model): { field: string; title: string }[] {
  const props = model.resource?.entity.properties ?? {};
  const lookups = new Set((model.resource?.lookups ?? []).map((l) => l.field));
  const listed = (model.resource?.list as { columns?: (string | { field: string; title?: string })[] } | undefined)?.columns;
  const names = listed?.map((c) => (typeof c === 'string' ? c : c.field)) ?? [...model.fields.keys()];
  return names
    .filter((n) => (model.fields.has(n) && !model.fields.get(n)!.secret) || lookups.has(n))
    .map((n) => ({ field: n, title: props[n]?.title ?? n }));
}

/**
 * xlsx of every row the list's filters select, written as it is read (no whole-table buffer).
 * `template=1`: the column titles only, the file an import is filled in.
 */
export async function exportRows(ctx: Ctx, model: Model, endpoint: EndpointDef): Promise<RawReply> {
  const caller = mustCaller(ctx);
  const { store } = ctx.services;
  const columns = sheetColumns(model);
  const { template: templateParam, ...filters } = ctx.query as Record<string, unknown>;
  const template = templateParam === '1' || templateParam === 'true';
  const conditions = parseFilters(model, filters, endpoint.filters ?? 'map');
  const orderBy = parseSort(model, ctx.query);
  const reply = ctx.reply;
  const fileName = encodeURIComponent(template ? `${model.title}导入模板.xlsx` : `${model.title}-${formatDateTime().slice(0, 10)}.xlsx`);
  reply.header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  reply.header('content-disposition', `attachment; filename*=UTF-8''${fileName}`);
  const { PassThrough } = await import('node:stream');
  const stream = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(model.title.slice(0, 31));
  sheet.columns = columns.map((c) => ({ header: c.title, key: c.field, width: 18 }));
  (async () => {
    const pageSize = 2000;
    for (let offset = 0; !template; offset += pageSize) {
      const rows = await store.find(model, caller.tenantId, { conditions, orderBy, limit: pageSize, offset });
      await fillLookups(ctx.services, model, caller.tenantId, rows);
      for (const row of rows) sheet.addRow(Object.fromEntries(columns.map((c) => [c.field, row[c.field] ?? ''])) as never).commit();
      if (rows.length < pageSize) break;
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error) => stream.destroy(error as Error));
  return new RawReply(stream);
}

const blank = (v: unknown) => v === undefined || v === null || v === '';

/**
 * Names in lookup columns back to the ids they stand for (分类名称 → natureId), one query per
 * lookup and 500 names; a name that matches no live row, or several, is an error of its row.
 */
async function resolveLookups(ctx: Ctx, model: Model, rows: { data: Row; number: number }[], errors: string[]) {
  const caller = mustCaller(ctx);
  const props = model.resource?.entity.properties ?? {};
  for (const lookup of model.resource?.lookups ?? []) {
    const { take } = lookup;
    const target = ctx.services.registry.models.get(lookup.resource ?? '');
    const match = lookup.match ?? 'id';
    if (!take || !target || !target.filterable.has(take) || !model.fields.has(lookup.from)) continue;
    const namesOf = (data: Row) => (lookup.multi ? String(data[lookup.field]).split(',') : [String(data[lookup.field])]).map((n) => n.trim()).filter(Boolean);
    const pending = rows.filter((r) => !blank(r.data[lookup.field]) && blank(r.data[lookup.from]));
    const names = [...new Set(pending.flatMap((r) => namesOf(r.data)))];
    const keys = new Map<string, string[]>();
    for (let i = 0; i < names.length; i += 500) {
      for (const found of await ctx.services.store.find(target, caller.tenantId, { where: { [take]: names.slice(i, i + 500) } })) {
        const name = String(found[take]);
        keys.set(name, [...(keys.get(name) ?? []), String(found[match])]);
      }
    }
    const title = props[lookup.field]?.title ?? lookup.field;
    for (const r of pending) {
      const ids: string[] = [];
      for (const name of namesOf(r.data)) {
        const hits = keys.get(name) ?? [];
        if (hits.length === 1) ids.push(hits[0]);
        else errors.push(`第${r.number}行：${title}“${name}”${hits.length ? '对应多条数据' : '不存在'}`);
      }
      r.data[lookup.from] = ids.join(',');
    }
  }
}

/**
 * xlsx import: the first row holds column titles (as exported). Every row is validated first;
 * any bad row refuses the whole file with its row number, so nothing is half-imported.
 */
export async function importRows(ctx: Ctx, model: Model): Promise<{ count: number }> {
  const caller = mustCaller(ctx);
  if (!ctx.req.isMultipart()) throw badRequest('请上传xlsx文件（字段名file）');
  const part = await ctx.req.file();
  if (!part) throw badRequest('请上传xlsx文件（字段名file）');
  if (!/\.xlsx$/i.test(part.filename)) throw badRequest('仅支持导入 .xlsx 文件');
  const buffer = await part.toBuffer();
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch {
    throw badRequest('文件不是有效的 xlsx');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw badRequest('文件中没有工作表');
  const props = model.resource?.entity.properties ?? {};
  const byTitle = new Map<string, string>();
  // Server-owned columns (balances) are shown by the export but never taken from a file.
  const importable = (name: string) => model.fields.has(name) && !model.fields.get(name)!.readonly;
  const lookupFields = new Set((model.resource?.lookups ?? []).map((l) => l.field));
  for (const [name, schema] of Object.entries(props)) {
    if (importable(name) || lookupFields.has(name)) {
      if (!byTitle.has(schema.title)) byTitle.set(schema.title, name);
      byTitle.set(name, name);
    }
  }
  const header = (sheet.getRow(1).values as unknown[]).map((v) => String(v ?? '').trim());
  const fieldAt = header.map((t) => byTitle.get(t));
  if (!fieldAt.some(Boolean)) throw badRequest('第1行应为列标题（与导出文件一致）');
  const read: { data: Row; number: number }[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    if (number === 1) return;
    const data: Row = {};
    (row.values as unknown[]).forEach((value, i) => {
      const field = fieldAt[i];
      if (!field || value === null || value === undefined || value === '') return;
      const v = typeof value === 'object' && value && 'text' in value ? (value as { text: string }).text : value;
      data[field] = v instanceof Date ? formatDateTime(v) : typeof v === 'number' && props[field]?.type === 'string' ? String(v) : v;
    });
    for (const [name, schema] of Object.entries(props)) {
      if (schema.default !== undefined && data[name] === undefined && model.fields.has(name)) data[name] = schema.default;
    }
    read.push({ data, number });
  });
  const errors: string[] = [];
  await resolveLookups(ctx, model, read, errors);
  const rows: Row[] = [];
  const numbers: number[] = [];
  for (const { data, number } of read) {
    try {
      if (model.resource) validateEntity(model.resource.entity, data);
      rows.push(data);
      numbers.push(number);
    } catch (error) {
      errors.push(`第${number}行：${(error as Error).message}`);
    }
  }
  // Unique keys: against each other in the file, then against stored rows.
  for (const rule of model.def.unique ?? []) {
    const seen = new Map<string, number>();
    rows.forEach((r, i) => {
      const key = rule.fields.map((f) => String(r[f] ?? '')).join('|');
      if (rule.fields.some((f) => r[f] === undefined)) return;
      if (seen.has(key)) errors.push(`第${numbers[i]}行：${rule.message}（与第${seen.get(key)}行重复）`);
      else seen.set(key, numbers[i]);
    });
    if (rule.fields.length === 1) {
      const field = rule.fields[0];
      const values = rows.map((r) => r[field]).filter((v) => v !== undefined).map(String);
      for (let i = 0; i < values.length; i += 500) {
        const existing = await ctx.services.store.find(model, caller.tenantId, { where: { [field]: values.slice(i, i + 500) } });
        for (const e of existing) errors.push(`第${seen.get(String(e[field]))}行：${rule.message}`);
      }
    }
  }
  if (errors.length) throw badRequest(`导入失败，未写入任何数据。${errors.slice(0, 20).join('；')}${errors.length > 20 ? `；等共${errors.length}处错误` : ''}`, { errors });
  if (!rows.length) throw badRequest('文件中没有数据行');
  await ctx.services.store.transaction((db) => ctx.services.store.insertMany(model, caller, rows, db));
  await optimize(ctx.services.database, { mergeAbove: 1 }); // a big import changes the best plans and splits the search index
  return { count: rows.length };
}
