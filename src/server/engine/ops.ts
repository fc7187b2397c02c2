import { endpointPermission } from '../../shared/permissions.ts';
import type { Ctx } from '../http/context.ts';
import { idList, mustCaller, param } from '../http/context.ts';
import type { EndpointDef } from '../../shared/resource.ts';
import type { Model } from './model.ts';
import type { Row } from './store.ts';
import { parseFilters, parsePaging, parseSort, type Condition } from './query.ts';
import { fillLookups } from './lookups.ts';
import { keysWithChildren, nest, toNode, treeKey, treeParent } from './trees.ts';
import { ApiError, badRequest, forbidden } from '../errors.ts';
import { loadLines } from './lines.ts';
import { formatFigures, tenantPlaces } from './document/context.ts';
import { insertRecord, updateRecord } from './records.ts';
import { documentPerm, runDocumentOp } from './document/http.ts';
import { formatBillFigures } from './document/context.ts';
import { exportRows, importRows, nextCode, setFields, tag, timeStampCode } from './actions.ts';

export interface OpResult {
  data: unknown;
  /** status-only replies (submit/remove) say 操作成功 even with data */
  message?: string;
}

const MAX_ROWS = 2000;
/** Whole trees are never cut (regions hold about 3,400 nodes): a cut tree loses whole branches. */
const MAX_TREE_ROWS = 50_000;

function fixedWhere(endpoint: EndpointDef): Row {
  return { ...(endpoint.params ?? {}) } as Row;
}

function filtersOf(ctx: Ctx, model: Model, endpoint: EndpointDef): Condition[] {
  return parseFilters(model, ctx.query, endpoint.filters ?? 'map');
}

/** The caller's filters plus the data scope their roles hold on this resource. */
async function readConditions(ctx: Ctx, model: Model, endpoint?: EndpointDef): Promise<Condition[]> {
  const conditions = endpoint ? filtersOf(ctx, model, endpoint) : [];
  const scope = await ctx.services.perms.dataScope(mustCaller(ctx), model);
  return scope ? [...conditions, scope] : conditions;
}

async function page(ctx: Ctx, model: Model, endpoint: EndpointDef, extraWhere: Row = {}) {
  const caller = mustCaller(ctx);
  const { current, size } = parsePaging(ctx.query);
  const conditions = await readConditions(ctx, model, endpoint);
  const where = { ...fixedWhere(endpoint), ...extraWhere };
  const { store } = ctx.services;
  const { rows, total } = await store.page(model, caller.tenantId, {
    where,
    conditions,
    orderBy: parseSort(model, ctx.query),
    limit: size,
    offset: (current - 1) * size,
  });
  await fillLookups(ctx.services, model, caller.tenantId, rows);
  // Inquiry views answer figures as bills do: at the tenant's places (8.00000, 36.16).
  if (model.def.view) formatFigures(model, rows, await tenantPlaces(ctx.services, caller.tenantId));
  return { records: rows, total, size, current, pages: Math.ceil(total / size), orders: [] };
}

/** op sum: totals of the endpoint's decimal fields over every row the filters match (sumtotal). */
async function sum(ctx: Ctx, model: Model, endpoint: EndpointDef) {
  const caller = mustCaller(ctx);
  const conditions = await readConditions(ctx, model, endpoint);
  const { totals, count } = await ctx.services.store.sum(model, caller.tenantId, { where: fixedWhere(endpoint), conditions, fields: endpoint.sum ?? [] });
  formatFigures(model, [totals], await tenantPlaces(ctx.services, caller.tenantId));
  return { ...totals, count };
}

async function all(ctx: Ctx, model: Model, endpoint: EndpointDef, extraWhere: Row = {}, limit = MAX_ROWS) {
  const caller = mustCaller(ctx);
  const filtered = filtersOf(ctx, model, endpoint).length > 0;
  const conditions = await readConditions(ctx, model, endpoint);
  const rows = await ctx.services.store.find(model, caller.tenantId, {
    where: { ...fixedWhere(endpoint), ...extraWhere },
    conditions,
    orderBy: parseSort(model, ctx.query),
    limit,
  });
  await fillLookups(ctx.services, model, caller.tenantId, rows);
  if (model.def.view) formatFigures(model, rows, await tenantPlaces(ctx.services, caller.tenantId));
  return { rows, filtered };
}

function requireTree(model: Model) {
  if (!model.tree) throw new Error(`${model.name} is not a tree`);
  return model.tree;
}

/** Parent key of a lazy call: parentId, or parentCode for code-keyed trees such as regions. */
function parentParam(ctx: Ctx, model: Model): string {
  return param(ctx, 'parentId', 'parentCode', requireTree(model).parentField) ?? model.tree!.rootValue;
}

async function markChildren<T extends Row>(ctx: Ctx, model: Model, items: T[], keyOf: (r: T) => string) {
  const caller = mustCaller(ctx);
  const withKids = await keysWithChildren(ctx.services, model, caller.tenantId, items.map(keyOf));
  for (const item of items) (item as Row).hasChildren = withKids.has(keyOf(item));
  return items;
}

function bodyObject(ctx: Ctx): Row {
  const body = ctx.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) return { ...(body as Row) };
  throw badRequest('请求体应为JSON对象');
}

/** `owned` holds server-decided values of read-only fields (a new tenant's code…), set after the caller's input is stripped. */
/** Fields marked x-grants hand menus to others: nobody hands out a menu or button they do not hold. */
async function checkGrants(ctx: Ctx, model: Model, data: Row): Promise<void> {
  const caller = mustCaller(ctx);
  if (caller.isAdmin) return;
  for (const field of model.fields.values()) {
    if (!field.schema['x-grants'] || data[field.name] === undefined || data[field.name] === null) continue;
    const ids = String(data[field.name]).split(',').map((v) => v.trim()).filter(Boolean);
    if (!ids.length) continue;
    const held = await ctx.services.perms.grantedMenuIds(caller);
    if (held !== 'all' && ids.some((id) => !held.has(id))) throw forbidden('不能授予自己没有的菜单权限');
  }
}

/** Code-rule scopes travel as request parameters (natureId for a customer's KH code). */
function codeScope(ctx: Ctx, model: Model): Record<string, string | undefined> {
  const scope: Record<string, string | undefined> = {};
  for (const endpoint of model.resource?.api.endpoints ?? []) {
    const field = endpoint.op === 'code' ? endpoint.params?.scopeField : undefined;
    if (field) scope[String(field)] = param(ctx, String(field));
  }
  return scope;
}

/** The HTTP caller's insert: grants checked, then the record operation. */
export async function insertEntity(ctx: Ctx, model: Model, input: Row, owned: Row = {}): Promise<Row> {
  await checkGrants(ctx, model, input);
  return insertRecord(ctx.services, mustCaller(ctx), model, input, { owned, codeScope: codeScope(ctx, model) });
}

export async function updateEntity(ctx: Ctx, model: Model, input: Row): Promise<Row> {
  await checkGrants(ctx, model, input);
  return updateRecord(ctx.services, mustCaller(ctx), model, input);
}

async function remove(ctx: Ctx, model: Model) {
  const caller = mustCaller(ctx);
  const ids = idList(param(ctx, 'ids', 'id'));
  if (!ids.length) throw badRequest('请选择至少一条数据');
  const { store } = ctx.services;
  if (model.tree) {
    const rows = await store.find(model, caller.tenantId, { where: { id: ids } });
    const keys = rows.map((r) => treeKey(model, r));
    const withKids = await keysWithChildren(ctx.services, model, caller.tenantId, keys);
    const blocked = rows.filter((r) => withKids.has(treeKey(model, r)) && !ids.includes(String(r.id)));
    const childRows = withKids.size
      ? await store.find(model, caller.tenantId, { where: { [model.tree.parentField]: [...withKids] } })
      : [];
    if (blocked.length || childRows.some((c) => !ids.includes(String(c.id)))) {
      throw badRequest('请先删除子节点');
    }
  }
  const n = await store.softRemove(model, caller, ids);
  if (!n) throw badRequest('数据不存在或已被删除');
}

async function setStatus(ctx: Ctx, model: Model, value: 1 | 2) {
  const caller = mustCaller(ctx);
  const ids = idList(param(ctx, 'ids', 'id'));
  if (!ids.length) throw badRequest('请选择至少一条数据');
  const versionText = param(ctx, 'version');
  for (const id of ids) {
    await ctx.services.store.update(model, caller, id, {}, {
      raw: { status: value },
      version: versionText !== undefined && ids.length === 1 ? Number(versionText) : undefined,
    });
  }
}

function codeScopeValue(ctx: Ctx, endpoint: EndpointDef): string | undefined {
  const field = endpoint.params?.scopeField;
  return field ? param(ctx, String(field)) : undefined;
}

/** Runs a generic op. Custom ops are dispatched by the caller of this function. */
export async function runOp(ctx: Ctx, model: Model, endpoint: EndpointDef): Promise<OpResult> {
  const caller = mustCaller(ctx);
  const { store } = ctx.services;
  switch (endpoint.op) {
    case 'page':
      return { data: await page(ctx, model, endpoint) };
    case 'sum':
      return { data: await sum(ctx, model, endpoint) };
    case 'parentList':
      return { data: await page(ctx, model, endpoint, { [requireTree(model).parentField]: model.tree!.rootValue }) };
    case 'select':
      return { data: (await all(ctx, model, endpoint)).rows };
    case 'list': {
      const { rows, filtered } = await all(ctx, model, endpoint, {}, model.tree ? MAX_TREE_ROWS : MAX_ROWS);
      if (!model.tree || filtered) return { data: rows };
      return { data: nest(rows, (r) => treeKey(model, r), (r) => treeParent(model, r)) };
    }
    case 'childList': {
      const parentId = param(ctx, 'parentId', 'parentCode');
      if (!parentId) throw badRequest('缺少参数 parentId');
      return { data: (await all(ctx, model, endpoint, { [requireTree(model).parentField]: parentId })).rows };
    }
    case 'tree': {
      const { rows } = await all(ctx, model, endpoint, {}, MAX_TREE_ROWS);
      const nodes = rows.map((r) => toNode(model, r));
      return { data: nest(nodes, (n) => n.key, (n) => n.parentId) };
    }
    case 'lazyTree': {
      const parent = parentParam(ctx, model);
      const { rows } = await all(ctx, model, endpoint, { [model.tree!.parentField]: parent });
      const nodes = rows.map((r) => toNode(model, r));
      return { data: await markChildren(ctx, model, nodes, (n) => n.key) };
    }
    case 'lazyList': {
      const parent = parentParam(ctx, model);
      const { rows } = await all(ctx, model, endpoint, { [model.tree!.parentField]: parent });
      return { data: await markChildren(ctx, model, rows, (r) => treeKey(model, r)) };
    }
    case 'detail': {
      const where: Row = {};
      for (const [key, value] of Object.entries(ctx.query)) {
        if (value === undefined || value === '' || !model.filterable.has(key) || model.filterable.get(key)!.secret) continue;
        where[key] = String(value);
      }
      if (!Object.keys(where).length) throw badRequest('缺少查询参数 id');
      const rows = await store.find(model, caller.tenantId, { where, conditions: await readConditions(ctx, model), limit: 1 });
      await fillLookups(ctx.services, model, caller.tenantId, rows);
      await loadLines(ctx.services, caller.tenantId, model, rows);
      if (rows[0] && model.resource?.document) await formatBillFigures(ctx.services, caller.tenantId, model, rows[0]);
      return { data: rows[0] ?? null };
    }
    case 'submit': {
      const body = bodyObject(ctx);
      const isUpdate = body.id !== undefined && body.id !== null && body.id !== '';
      if (!isUpdate) refuseAddOfEditOnly(model);
      await requireDefaultPerm(ctx, model, endpoint, isUpdate ? 'edit' : 'add');
      const row = isUpdate ? await updateEntity(ctx, model, body) : await insertEntity(ctx, model, body);
      return { data: row, message: '操作成功' };
    }
    case 'save':
      refuseAddOfEditOnly(model);
      return { data: await insertEntity(ctx, model, bodyObject(ctx)), message: '操作成功' };
    case 'update': {
      const body = bodyObject(ctx);
      if (!body.id) throw badRequest('缺少参数 id');
      return { data: await updateEntity(ctx, model, body), message: '操作成功' };
    }
    case 'remove':
      await remove(ctx, model);
      return { data: null };
    case 'enable':
      await setStatus(ctx, model, 1);
      return { data: null };
    case 'disable':
      await setStatus(ctx, model, 2);
      return { data: null };
    case 'code':
      return { data: await nextCode(ctx.services, caller, model, endpoint, codeScopeValue(ctx, endpoint)) };
    case 'timeStampCode':
      return { data: timeStampCode(endpoint) };
    case 'setFields':
      await setFields(ctx, model, endpoint);
      return { data: null };
    case 'tagOn':
    case 'tagOff':
      await tag(ctx, model, endpoint, endpoint.op === 'tagOn');
      return { data: null };
    case 'export':
      return { data: await exportRows(ctx, model, endpoint) };
    case 'import':
      return { data: await importRows(ctx, model), message: '导入成功' };
    case 'document':
    case 'documentHistory':
    case 'documentPull':
    case 'documentPullCheck':
    case 'documentGenerate':
    case 'documentPostings':
    case 'documentOpenLines':
    case 'documentGrouped':
      return { data: await runDocumentOp(ctx, model, endpoint) };
    case 'custom':
      throw new ApiError(500, `custom op dispatched to runOp: ${endpoint.handler}`);
  }
}

/** Rows made when the tenant is set up and only edited (schema `editOnly`) are never added. */
function refuseAddOfEditOnly(model: Model) {
  const message = model.resource?.editOnly;
  if (message) throw badRequest(message);
}

/** submit decides add or edit from the body, so its permission is checked here. */
async function requireDefaultPerm(ctx: Ctx, model: Model, endpoint: EndpointDef, kind: 'add' | 'edit') {
  if (endpoint.perm === false) return;
  const code = endpoint.perm ?? (model.resource?.permission ? `${model.resource.permission}_${kind}` : undefined);
  if (code) await ctx.services.perms.require(mustCaller(ctx), code);
}

/** Permission code an endpoint needs before it runs (submit is checked inside; bill actions by their transition). */
export function endpointPerm(model: Model, endpoint: EndpointDef): string | undefined {
  if (endpoint.op === 'document' && endpoint.perm !== false) return endpoint.perm || documentPerm(model, endpoint);
  return endpointPermission(model.resource, endpoint);
}
