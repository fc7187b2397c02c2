import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services.ts';
import type { Actor } from '../engine/store.ts';

/** The signed-in caller, from a verified access token. */
export interface Caller extends Actor {
  account: string;
  roleIds: string[];
  roleAliases: string[];
  deptIds: string[];
  clientId: string;
  sessionId: string;
  isAdmin: boolean;
}

/** What a handler gets: services, the caller (null on public calls), and the merged parameters. */
export interface Ctx {
  services: Services;
  caller: Caller | null;
  /** Query string and form/JSON body merged (body wins), as BladeX reads @RequestParam. */
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  req: FastifyRequest;
  reply: FastifyReply;
}

export function mustCaller(ctx: Ctx): Caller {
  if (!ctx.caller) throw new Error('handler needs a signed-in caller');
  return ctx.caller;
}

export function param(ctx: Ctx, ...names: string[]): string | undefined {
  for (const name of names) {
    const v = ctx.params[name];
    if (v !== undefined && v !== null && v !== '') return Array.isArray(v) ? String(v[v.length - 1]) : String(v);
  }
  return undefined;
}

export function idList(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** For calls whose parameters may come as a JSON body as well as in the query (body wins). */
export function mergeJsonBody(ctx: Ctx): void {
  const body = ctx.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) ctx.params = { ...ctx.params, ...(body as Record<string, unknown>) };
}
