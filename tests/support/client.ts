import crypto from 'node:crypto';

export const BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
export const md5 = (text: string) => crypto.createHash('md5').update(text).digest('hex');

export interface Reply<T = any> {
  status: number;
  body: T;
}

/** A tiny contract client for API tests: Basic header always, token when given. */
export class Api {
  token?: string;
  refreshToken?: string;
  constructor(public base: string, public tenantId = '000000') {}

  async call<T = any>(
    method: 'GET' | 'POST',
    path: string,
    opts: { query?: Record<string, unknown>; json?: unknown; form?: FormData; headers?: Record<string, string>; token?: string | null } = {},
  ): Promise<Reply<T>> {
    const url = new URL(`/api${path}`, this.base);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { authorization: BASIC, ...(opts.headers ?? {}) };
    const token = opts.token === undefined ? this.token : opts.token;
    if (token) headers['blade-auth'] = `bearer ${token}`;
    let body: BodyInit | undefined;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.form) body = opts.form;
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // non-JSON answers (files) stay text
    }
    return { status: res.status, body: parsed as T };
  }

  get<T = any>(path: string, query?: Record<string, unknown>) {
    return this.call<T>('GET', path, { query });
  }

  post<T = any>(path: string, json?: unknown, query?: Record<string, unknown>) {
    return this.call<T>('POST', path, { json, query });
  }

  /** Signs in exactly as a Saber 2.x client does: query parameters on a POST with an empty body. */
  async login(username = 'admin', password = 'admin', tenantId = this.tenantId): Promise<Reply> {
    const reply = await this.call('POST', '/blade-auth/oauth/token', {
      query: { tenantId, username, password: md5(password), grant_type: 'password', scope: 'all', type: 'account' },
      headers: { 'tenant-id': tenantId },
      token: null,
    });
    if (reply.status === 200) {
      this.token = reply.body.access_token;
      this.refreshToken = reply.body.refresh_token;
    }
    return reply;
  }
}

export async function signedIn(base: string, tenantId = '000000', username = 'admin', password = 'admin'): Promise<Api> {
  const api = new Api(base, tenantId);
  const reply = await api.login(username, password, tenantId);
  if (reply.status !== 200) throw new Error(`login failed: ${JSON.stringify(reply.body)}`);
  return api;
}
