import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

type RouteHandler = (req: FastifyRequest, reply: FastifyReply) => unknown;

/** Every service path is served as `/api/<service>/…` (Saber's proxy prefix) and `/<service>/…` (gateway). */
export function serviceRoutes(app: FastifyInstance) {
  return (method: 'GET' | 'POST', path: string, handler: RouteHandler, config: Record<string, unknown> = {}) => {
    for (const url of [`/api${path}`, path]) {
      app.route({ method, url, handler: handler as never, config });
    }
  };
}
