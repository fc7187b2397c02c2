import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';
import { authenticate } from '../auth/tokens.ts';
import { ok } from './envelope.ts';
import { serviceRoutes } from './paths.ts';
import { badRequest } from './envelope.ts';

/**
 * The resource schemas this server runs on, for the client renderer: an analyst's edit to a schema
 * file shows in the browser after a server restart, without rebuilding the client. A server that
 * lacks this call (a real BladeX backend) answers 404 and the client uses its bundled copy.
 */
export function registerMetaRoutes(app: FastifyInstance, services: Services) {
  const route = serviceRoutes(app);
  route('GET', '/erp-meta/resource', async (req) => {
    await authenticate(services, req);
    const name = String((req.query as Record<string, unknown>).name ?? '');
    const resource = services.registry.resources.get(name);
    if (!resource) throw badRequest(`资源 ${name} 不存在`);
    return ok(resource);
  }, { doc: { summary: '资源 schema（渲染器读取）', tags: ['元数据 (erp-meta)'], querystring: { type: 'object', properties: { name: { type: 'string' } } } } });
}
