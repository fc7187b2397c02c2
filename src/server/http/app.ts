import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { Services } from '../services.ts';
import { ApiError } from './envelope.ts';
import { authenticateClient } from '../auth/clients.ts';
import { registerOAuthRoutes } from '../auth/oauth.ts';
import { registerResourceRoutes } from '../engine/routes.ts';
import { registerFileRoutes } from '../files/routes.ts';
import { registerDocs } from './docs.ts';
import { registerMetaRoutes } from './meta.ts';
import { recordApiCall, recordServerError } from '../system/logs.ts';

const SERVICE_PREFIX = /^\/(api\/)?(blade|erp)-[a-z-]+\//;

/** The fastify app: contract envelope, Basic client check, tokens, resources, files, the built client. */
export async function createHttpApp(services: Services, opts: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: 10 * 1024 * 1024,
    // X-Forwarded-For is believed only from a proxy on this machine (or the addresses in
    // ERP_TRUST_PROXY): a client naming its own address would escape the per-address sign-in lock.
    trustProxy: process.env.ERP_TRUST_PROXY || 'loopback',
    // Ids and filters arrive as query strings like ids=1,2 — keep them plain strings.
    routerOptions: { ignoreTrailingSlash: true },
  });
  // Answers over 2 KiB go out compressed to a browser that accepts it: a 1,000-line bill's 935 KB
  // of JSON is ~10 KB in brotli (a few ms to make), which over an office's or a branch's link is
  // most of the time to open it. Built assets are compressed ahead (preCompressed below) and
  // skipped here, as are types already packed (spreadsheets, PDF, images). Request bodies are
  // not inflated: the body limit counts the bytes as received.
  await app.register(compress, { encodings: ['br', 'gzip'], threshold: 2048, globalDecompression: false });
  await app.register(formbody);
  // preservePath: the upload check must see the name as sent (busboy would cut `../../x.png` down to `x.png`).
  await app.register(multipart, { preservePath: true, limits: { fileSize: services.config.uploadLimit, files: 1 } });

  // Some clients post an empty body with a JSON content type: treat it as no body, not an error.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body ?? '').trim();
    if (!text) return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ApiError(400, '请求体不是有效的JSON'), undefined);
    }
  });

  // Every service call carries the Basic client header (CONTRACT §1.2); a wrong one is a 401.
  app.addHook('onRequest', async (req, reply) => {
    const url = req.url.split('?')[0];
    if (!SERVICE_PREFIX.test(url)) return;
    const config = (req.routeOptions?.config ?? {}) as { noClient?: boolean };
    if (config.noClient || url.endsWith('/oauth/token')) return; // the token endpoint answers in OAuth2 form itself
    const client = await authenticateClient(services, req.headers.authorization);
    if (!client) {
      reply.code(401).send({ code: 401, success: false, data: null, msg: '客户端认证失败,请检查Authorization请求头' });
      return reply;
    }
  });

  app.addHook('onResponse', async (req, reply) => {
    if (req.method === 'POST' && SERVICE_PREFIX.test(req.url) && !req.url.includes('/oauth/')) {
      recordApiCall(services, req, reply).catch(() => undefined);
    }
  });

  app.setErrorHandler((error, req, reply) => {
    // A download that fails after naming its file answers the envelope as JSON, not as a spreadsheet.
    reply.removeHeader('content-disposition');
    reply.type('application/json; charset=utf-8');
    if (error instanceof ApiError) {
      reply.code(error.httpStatus).send({ code: error.code, success: false, data: error.data, msg: error.message });
      return;
    }
    const err = error as { statusCode?: number; code?: string; message: string };
    if (err.code === 'FST_REQ_FILE_TOO_LARGE' || err.code === 'FST_FILES_LIMIT') {
      const mb = Math.round(services.config.uploadLimit / 1024 / 1024);
      reply.code(400).send({ code: 400, success: false, data: null, msg: `上传文件大小不能超过${mb}M` });
      return;
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      reply.code(err.statusCode).send({ code: err.statusCode, success: false, data: null, msg: `请求有误：${err.message}` });
      return;
    }
    services.log('error', 'unhandled error', { url: req.url, error: String((error as Error).stack ?? error) });
    recordServerError(services, req, error as Error).catch(() => undefined);
    reply.code(500).send({ code: 500, success: false, data: null, msg: '服务器内部错误,请稍后重试' });
  });

  await registerDocs(app, services);
  registerOAuthRoutes(app, services);
  registerResourceRoutes(app, services);
  registerFileRoutes(app, services);
  registerMetaRoutes(app, services);

  const clientDir = services.config.clientDir;
  const hasClient = fs.existsSync(path.join(clientDir, 'index.html'));
  if (hasClient) {
    // preCompressed: the build writes .br/.gz beside each asset; wildcard: a rebuild's new files are found.
    await app.register(fastifyStatic, {
      root: clientDir,
      prefix: '/',
      wildcard: true,
      preCompressed: true,
      index: ['index.html'],
      setHeaders: (reply, file) => {
        // Hashed asset names never change content: cache them for a year; index.html always revalidates.
        reply.header('cache-control', /[\\/]assets[\\/]/.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0];
    if (SERVICE_PREFIX.test(url) || url.startsWith('/api/')) {
      reply.code(404).send({ code: 404, success: false, data: null, msg: `接口不存在：${req.method} ${url}` });
      return;
    }
    // Client-side routes (/login, /system/user …) all load the single page.
    if (hasClient && req.method === 'GET' && !path.extname(url)) {
      reply.type('text/html').send(fs.readFileSync(path.join(clientDir, 'index.html')));
      return;
    }
    reply.code(404).send({ code: 404, success: false, data: null, msg: '资源不存在' });
  });
  return app;
}
