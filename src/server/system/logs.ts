import os from 'node:os';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services.ts';
import { authenticate } from '../auth/tokens.ts';

function common(req: FastifyRequest) {
  return {
    serviceId: 'erp-console',
    serverHost: os.hostname(),
    serverIp: '127.0.0.1',
    env: process.env.NODE_ENV ?? 'dev',
    method: req.method,
    requestUri: req.url.split('?')[0].slice(0, 255),
    userAgent: String(req.headers['user-agent'] ?? '').slice(0, 255),
    remoteIp: req.ip,
  };
}

/** API log: every successful write call, with who made it and how long it took. */
export async function recordApiCall(services: Services, req: FastifyRequest, reply: FastifyReply) {
  if (reply.statusCode >= 400) return;
  let caller;
  try {
    caller = await authenticate(services, req);
  } catch {
    return;
  }
  await services.store.insert(services.m('log-api'), caller, {
    ...common(req),
    type: '1',
    title: (req.routeOptions?.config as { endpoint?: string } | undefined)?.endpoint ?? req.url.split('?')[0],
    params: req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1).slice(0, 2000) : '',
    time: Math.round(reply.elapsedTime),
    createBy: caller.account,
  });
}

export async function recordServerError(services: Services, req: FastifyRequest, error: Error) {
  let tenantId = '000000';
  let account = '';
  try {
    const caller = await authenticate(services, req);
    tenantId = caller.tenantId;
    account = caller.account;
  } catch {
    // errors before sign-in are kept under the platform tenant
  }
  await services.store.insert(services.m('log-error'), { tenantId, userId: '0' }, {
    ...common(req),
    errorType: 'server',
    exceptionName: error.name,
    message: String(error.message).slice(0, 2000),
    stackTrace: String(error.stack ?? '').slice(0, 60000),
    createBy: account,
  });
}
