import type { Ctx } from '../http/context.ts';
import { idList, param } from '../http/context.ts';

/** Ids may arrive as `a,b` in the query, a form field, or a JSON body (string or array). */
export function idsParam(ctx: Ctx, ...names: string[]): string[] {
  for (const name of names) {
    const fromParams = param(ctx, name);
    if (fromParams !== undefined) return idList(fromParams);
    const body = ctx.body as Record<string, unknown> | undefined;
    const v = body && typeof body === 'object' ? body[name] : undefined;
    if (Array.isArray(v)) return v.map(String).filter(Boolean);
    if (typeof v === 'string' || typeof v === 'number') return idList(String(v));
  }
  return [];
}

/** A scalar from the query, a form field or a JSON body. */
export function valueParam(ctx: Ctx, ...names: string[]): string | undefined {
  const fromParams = param(ctx, ...names);
  if (fromParams !== undefined) return fromParams;
  const body = ctx.body as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object') return undefined;
  for (const name of names) {
    const v = body[name];
    if (v !== undefined && v !== null && v !== '') return String(v);
  }
  return undefined;
}
