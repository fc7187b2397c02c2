import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';
import { CONTENT_TYPES, resolveKey } from './storage.ts';
import { registerExportJobRoutes } from './export-jobs.ts';

/**
 * Stored uploads are served from /oss/<key>. Links go into <img src>, which cannot send headers,
 * so the key itself (a random 128-bit name) is the capability.
 */
export function registerFileRoutes(app: FastifyInstance, services: Services) {
  app.get('/oss/*', async (req, reply) => {
    const key = (req.params as { '*': string })['*'];
    const full = resolveKey(services.config.dataDir, key);
    if (!full || !fs.existsSync(full)) {
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
