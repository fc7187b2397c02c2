import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services.ts';
import type { EndpointDef } from '../../shared/resource.ts';
import type { Model } from './model.ts';
import { endpointPerm, runOp } from './ops.ts';
import { BUYER_ROLE } from '../mall/buyers.ts';
import { authenticate, revokeSessions } from '../auth/tokens.ts';
import { idList, param, type Caller, type Ctx } from '../http/context.ts';
import { ApiError, forbidden, ok, status } from '../http/envelope.ts';
import { serviceRoutes } from '../http/paths.ts';
import type { RouteDoc } from '../http/docs.ts';
import { PLATFORM_TENANT } from './store.ts';

import { RawReply } from './raw.ts';
export { RawReply };

export function fullPath(model: Model, endpoint: EndpointDef): string {
  if (endpoint.path.startsWith('/')) return endpoint.path;
  return `${model.resource!.api.base}/${endpoint.path}`;
}

function mergedParams(req: FastifyRequest): { params: Record<string, unknown>; query: Record<string, unknown> } {
  const query = { ...((req.query as Record<string, unknown>) ?? {}) };
  const params = { ...query };
  const body = req.body;
  // Form bodies carry @RequestParam values too; JSON bodies are entities and stay in ctx.body.
  if (body && typeof body === 'object' && !Array.isArray(body) && !String(req.headers['content-type'] ?? '').includes('json')) {
    Object.assign(params, body as Record<string, unknown>);
  }
  return { params, query };
}

const READ_OPS = new Set(['page', 'list', 'select', 'tree', 'lazyTree', 'lazyList', 'childList', 'parentList', 'export']);

/** Query and body description of an endpoint, from the entity schema (OpenAPI only; not used to validate). */
function routeDoc(model: Model, endpoint: EndpointDef): RouteDoc {
  const resource = model.resource!;
  const props: Record<string, unknown> = {};
  const fieldProps = () => {
    for (const [name, schema] of Object.entries(resource.entity.properties)) {
      if (schema['x-secret'] || schema['x-lines']) continue;
      props[name] = { type: 'string', description: `${schema.title}（map 规则：名称=包含，_equal 等于，_ge/_le 范围，_datege/_datele 日期）` };
    }
  };
  let body: Record<string, unknown> | undefined;
  if (READ_OPS.has(endpoint.op)) {
    if (endpoint.op === 'page' || endpoint.op === 'parentList') {
      props.current = { type: 'integer', description: '页码，从1开始' };
      props.size = { type: 'integer', description: '每页条数，默认10' };
    }
    props.ascs = { type: 'string', description: '升序列（下划线列名，逗号分隔）' };
    props.descs = { type: 'string', description: '降序列（下划线列名，逗号分隔）' };
    if (endpoint.op === 'lazyTree' || endpoint.op === 'lazyList' || endpoint.op === 'childList') props.parentId = { type: 'string' };
    fieldProps();
  } else if (endpoint.op === 'detail') {
    props.id = { type: 'string', description: '主键' };
  } else if (['remove', 'enable', 'disable', 'setFields', 'tagOn', 'tagOff'].includes(endpoint.op)) {
    props.ids = { type: 'string', description: '主键，逗号分隔' };
    props.id = { type: 'string' };
    props.version = { type: 'integer', description: '版本号（乐观锁）' };
    for (const f of (endpoint.params?.fields as string[] | undefined) ?? []) props[f] = { type: 'string' };
    if (endpoint.op === 'tagOn' || endpoint.op === 'tagOff') props.tagId = { type: 'string' };
  } else if (['submit', 'save', 'update'].includes(endpoint.op)) {
    const clean: Record<string, unknown> = {};
    for (const [name, schema] of Object.entries(resource.entity.properties)) {
      if (schema['x-secret'] && name !== 'password') continue;
      clean[name] = { type: Array.isArray(schema.type) ? schema.type[0] : (schema.type ?? 'string'), description: schema.title };
    }
    clean.version = { type: 'integer', description: '版本号：修改时必填' };
    body = { type: 'object', required: resource.entity.required ?? [], properties: clean };
  }
  return {
    summary: `${resource.title} · ${endpoint.path}${endpoint.addition ? '（新增接口）' : ''}`,
    tags: [`${resource.title} (${resource.resource})`],
    querystring: Object.keys(props).length ? { type: 'object', properties: props } : undefined,
    body,
    consumes: endpoint.op === 'import' ? ['multipart/form-data'] : undefined,
    public: endpoint.public,
  };
}

export async function makeContext(services: Services, req: FastifyRequest, reply: FastifyReply, caller: Caller | null): Promise<Ctx> {
  const { params, query } = mergedParams(req);
  return { services, caller, params, query, body: req.body, req, reply };
}

/** Writes to these resources change what callers may do, so the cached grants and scopes are dropped at once. */
const PERMISSION_SOURCES = new Set(['menu', 'role', 'api-scope', 'data-scope', 'post-permission', 'user', 'staff']);

/** Registers every endpoint of every resource file: one generic pipeline, no per-resource code. */
export function registerResourceRoutes(app: FastifyInstance, services: Services) {
  const route = serviceRoutes(app);
  for (const model of services.registry.models.values()) {
    for (const endpoint of model.resource!.api.endpoints) {
      const path = fullPath(model, endpoint);
      let handler = endpoint.op === 'custom' ? services.handlers.get(endpoint.handler ?? '') : undefined;
      if (endpoint.op === 'custom' && !handler) {
        // Lint reports it; the server still starts so the rest of the system works meanwhile.
        services.log('warn', `${model.name}: no handler named ${endpoint.handler}; ${endpoint.method} ${path} answers 501`);
        handler = async () => {
          throw new ApiError(501, `接口尚未实现：${endpoint.method} ${path}`);
        };
      }
      route(endpoint.method, path, async (req, reply) => {
        const caller = endpoint.public ? null : await authenticate(services, req);
        if (caller) {
          if (model.platform && caller.tenantId !== PLATFORM_TENANT) {
            throw forbidden(`${model.title}仅限平台管理租户(${PLATFORM_TENANT})访问`);
          }
          // A buyer account (商城买家 only) reaches the storefront's calls and nothing of the back office.
          if (!endpoint.storefront && caller.roleAliases.length && caller.roleAliases.every((a) => a === BUYER_ROLE)) {
            throw forbidden('商城买家账号只能使用商城接口');
          }
          await services.perms.requireApiScope(caller, path);
          const perm = endpointPerm(model, endpoint);
          if (perm) await services.perms.require(caller, perm);
        }
        const ctx = await makeContext(services, req, reply, caller);
        if (handler) {
          const result = await handler(ctx, model);
          if (result instanceof RawReply) return result.body;
          if (reply.sent) return reply;
          return result === undefined ? status(true) : ok(result);
        }
        const { data, message } = await runOp(ctx, model, endpoint);
        if (data instanceof RawReply) return data.body;
        if (caller && endpoint.method === 'POST' && PERMISSION_SOURCES.has(model.name)) services.perms.invalidate(caller.tenantId);
        // A user disabled or removed loses every session at once, refresh tokens included.
        if (caller && model.name === 'user' && (endpoint.op === 'disable' || endpoint.op === 'remove')) await revokeSessions(services, caller.tenantId, { userIds: idList(param(ctx, 'ids', 'id')) });
        if (data === null && endpoint.op !== 'detail') return status(true, message);
        return ok(data, message);
      }, { endpoint: `${endpoint.method} ${path}`, doc: routeDoc(model, endpoint) });
    }
  }
}

export { ApiError };
