import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Services } from '../services.ts';

/** OpenAPI fragment a route carries in its config (routes keep no fastify `schema`, so nothing is re-validated). */
export interface RouteDoc {
  summary: string;
  tags: string[];
  querystring?: Record<string, unknown>;
  body?: Record<string, unknown>;
  consumes?: string[];
  public?: boolean;
}

/**
 * OpenAPI 3 at /api/docs/json and a browsable page at /api/docs, generated from the schemas'
 * endpoints (for integrators, and to check the call catalogue is covered). Only /api paths are listed;
 * every one is also served without /api.
 */
export async function registerDocs(app: FastifyInstance, services: Services) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'ERP 控制台 API（BladeX 协议）',
        description:
          '所有接口需请求头 Authorization: Basic base64(clientId:clientSecret)；登录后的接口需 Blade-Auth: bearer <access_token>。返回 {code, success, data, msg}。',
        version: '0.1.0',
      },
      components: {
        securitySchemes: {
          client: { type: 'http', scheme: 'basic' },
          bladeAuth: { type: 'apiKey', in: 'header', name: 'Blade-Auth' },
        },
      },
      security: [{ client: [], bladeAuth: [] }],
    },
    transform: ({ schema, url, route }) => {
      const doc = (route.config as { doc?: RouteDoc } | undefined)?.doc;
      if (!url.startsWith('/api/') || url.startsWith('/api/docs')) return { schema: { ...(schema ?? {}), hide: true }, url };
      if (!doc) return { schema: schema ?? {}, url };
      const out: Record<string, unknown> = { summary: doc.summary, tags: doc.tags };
      if (doc.querystring) out.querystring = doc.querystring;
      if (doc.body) out.body = doc.body;
      if (doc.consumes) out.consumes = doc.consumes;
      if (doc.public) out.security = [{ client: [] }];
      return { schema: out, url };
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  void services;
}
