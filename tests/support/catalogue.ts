/** Calling a catalogue of endpoints bare, as the catalogue suites do. */
import { expect } from 'vitest';
import type { Api } from './client.ts';

export type Call = ['GET' | 'POST', string];

/**
 * The calls that do not answer with the contract envelope, answer 404 or 5xx (each as
 * "METHOD path → status msg"). A bare call may refuse, but then in Chinese. An export answers
 * its spreadsheet itself (a blob, as the contract's exports do).
 */
export async function unanswered(api: Api, calls: Call[]): Promise<string[]> {
  const missing: string[] = [];
  for (const [method, path] of calls) {
    const reply = method === 'GET' ? await api.get(path, { current: 1, size: 2 }) : await api.post(path, {});
    if (reply.status === 200 && /spreadsheetml|octet-stream/.test(reply.headers.get('content-type') ?? '')) continue;
    const body = reply.body as { code?: number; success?: boolean; msg?: string };
    const enveloped = typeof body?.code === 'number' && typeof body.success === 'boolean' && typeof body.msg === 'string';
    if (!enveloped || reply.status === 404 || body.code === 404 || reply.status >= 500) missing.push(`${method} ${path} → ${reply.status} ${String(body?.msg ?? '').slice(0, 60)}`);
    else if (!body.success) expect(body.msg, `${method} ${path}`).toMatch(/[\u4e00-\u9fff]/);
  }
  return missing;
}
