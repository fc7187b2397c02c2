import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';
import type { FastifyRequest } from 'fastify';
import { CONTENT_TYPES, resolveKey } from './storage.ts';
import { registerExportJobRoutes } from './export-jobs.ts';
import { bearerToken, callerOf, cookieToken } from '../auth/tokens.ts';

/** The MAC a signed link of `key` carries until `expires` (unix seconds). */
export function fileLinkSignature(services: Services, key: string, expires: number): string {
  return services.signer.mac(`oss|${key}|${expires}`);
}

/**
 * Who may read a stored file: a signed-in user of the tenant whose folder holds it (the token in
 * Blade-Auth, or the browser's token cookie, which an <img> sends), or anyone with a signed link
 * that has not expired (oss/endpoint/sign-link). 'none' when no credential came at all.
 */
async function access(services: Services, req: FastifyRequest, key: string): Promise<'ok' | 'none' | 'denied'> {
  const query = req.query as Record<string, unknown>;
  const expires = Number(query.expires);
  if (typeof query.signature === 'string' && Number.isInteger(expires)) {
    return expires * 1000 > Date.now() && services.signer.checkMac(`oss|${key}|${expires}`, query.signature) ? 'ok' : 'denied';
  }
  const token = bearerToken(req) ?? cookieToken(req);
  if (!token) return 'none';
  try {
    const caller = await callerOf(services, token);
    return caller.tenantId === key.split('/')[0] ? 'ok' : 'denied';
  } catch {
    return 'denied';
  }
}

/** Stored uploads are served from /oss/<tenant>/<date>/<name> to whom `access` lets in. */
export function registerFileRoutes(app: FastifyInstance, services: Services) {
  app.get('/oss/*', async (req, reply) => {
    const key = (req.params as { '*': string })['*'];
    const full = resolveKey(services.config.dataDir, key);
    const allowed = full ? await access(services, req, key) : 'denied';
    if (allowed === 'none') return reply.code(401).send({ code: 401, success: false, data: null, msg: '请先登录' });
    // Another tenant's file, or a wrong or expired signature, is as if it did not exist.
    if (!full || allowed !== 'ok' || !fs.existsSync(full)) {
      return reply.code(404).send({ code: 404, success: false, data: null, msg: '文件不存在' });
    }
    const ext = path.extname(full).slice(1);
    reply.header('content-type', CONTENT_TYPES[ext] ?? 'application/octet-stream');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('cache-control', 'private, max-age=86400');
    if (!ext.match(/^(png|jpe?g|gif|webp|bmp|pdf|txt)$/)) reply.header('content-disposition', 'attachment');
    return reply.send(fs.createReadStream(full));
  });
  registerExportJobRoutes(app, services);
}
