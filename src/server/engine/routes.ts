import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services.ts';
import type { EndpointDef } from '../../shared/resource.ts';
import type { Model } from './model.ts';
import { endpointPerm, runOp } from './ops.ts';
import { authenticate } from '../auth/tokens.ts';
import type { Caller, Ctx } from '../http/context.ts';
import { ApiError, forbidden, ok, status } from '../http/envelope.ts';
import { serviceRoutes } from '../http/paths.ts';
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

export async function makeContext(services: Services, req: FastifyRequest, reply: FastifyReply, caller: Caller | null): Promise<Ctx> {
  const { params, query } = mergedParams(req);
  return { services, caller, params, query, body: req.body, req, reply };
}

/** Writes to these resources change what callers may do, so the cached grants and scopes are dropped at once. */
const PERMISSION_SOURCES = new Set(['menu', 'role', 'api-scope', 'data-scope']);

/** Registers every endpoint of every resource file: one generic pipeline, no per-resource code. */
export function registerResourceRoutes(app: FastifyInstance, services: Services) {
  const route = serviceRoutes(app);
  for (const model of services.registry.models.values()) {
    for (const endpoint of model.resource!.api.endpoints) {
      const path = fullPath(model, endpoint);
      const handler = endpoint.op === 'custom' ? services.handlers.get(endpoint.handler ?? '') : undefined;
      if (endpoint.op === 'custom' && !handler) throw new Error(`${model.name}: no handler named ${endpoint.handler}`);
      route(endpoint.method, path, async (req, reply) => {
        const caller = endpoint.public ? null : await authenticate(services, req);
        if (caller) {
          if (model.platform && caller.tenantId !== PLATFORM_TENANT) {
            throw forbidden(`${model.title}仅限平台管理租户(${PLATFORM_TENANT})访问`);
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
        if (data === null && endpoint.op !== 'detail') return status(true, message);
        return ok(data, message);
      }, { endpoint: `${endpoint.method} ${path}` });
    }
  }
}

export { ApiError };
