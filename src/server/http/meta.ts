import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';
import { authenticate } from '../auth/tokens.ts';
import { ok } from './envelope.ts';
import { serviceRoutes } from './paths.ts';
import { badRequest } from './envelope.ts';
import { validatorModule } from '../engine/validate.ts';

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

  // The compiled validator of a resource's entity as an ES module, for the browser's field checks
  // (src/client/renderer/form/entityValidators.ts): generated from the schema this server runs
  // on, so it matches /erp-meta/resource. Public like the client build, which holds the same
  // schemas and a copy of each module written at build time.
  const modules = new Map<string, { code: string; gzip: Buffer }>();
  app.get('/validators/:file', async (req, reply) => {
    const file = (req.params as { file: string }).file;
    const name = file.endsWith('.js') ? file.slice(0, -3) : '';
    const resource = services.registry.resources.get(name);
    if (!resource) {
      reply.code(404).send({ code: 404, success: false, data: null, msg: '资源不存在' });
      return;
    }
    let module = modules.get(name);
    if (!module) {
      const code = validatorModule(resource.entity);
      modules.set(name, (module = { code, gzip: gzipSync(code) }));
    }
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    // Mostly repeated error-object code: a tenth of its size compressed.
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) reply.header('content-encoding', 'gzip').send(module.gzip);
    else reply.send(module.code);
  });
}
