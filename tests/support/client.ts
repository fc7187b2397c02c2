import crypto from 'node:crypto';
import http from 'node:http';

export const basicOf = (clientId: string, secret: string) => `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
export const BASIC = basicOf('saber', 'saber_secret');
export const md5 = (text: string) => crypto.createHash('md5').update(text).digest('hex');

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  query?: Record<string, unknown>;
  json?: unknown;
  form?: FormData;
  /** A body sent as is (urlencoded forms, hand-made multipart). */
  body?: BodyInit;
  headers?: Record<string, string>;
  /** Access token; null sends none. Defaults to the signed-in token. */
  token?: string | null;
  /** Authorization header; null sends none. Defaults to the saber client. */
  basic?: string | null;
  /** Path prefix: '/api' (Saber's proxy prefix, the default) or '' (gateway paths). */
  prefix?: string;
  redirect?: RequestRedirect;
  /** Answer body as bytes (file downloads), not parsed. */
  raw?: boolean;
}

/** A tiny contract client for API tests: Basic header always, token when given. */
export class Api {
  token?: string;
  refreshToken?: string;
  constructor(
    public base: string,
    public tenantId = '000000',
  ) {}

  async call<T = any>(method: 'GET' | 'POST', path: string, opts: CallOptions = {}): Promise<Reply<T>> {
    const url = new URL(`${opts.prefix ?? '/api'}${path}`, this.base);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {};
    const basic = opts.basic === undefined ? BASIC : opts.basic;
    if (basic) headers.authorization = basic;
    Object.assign(headers, opts.headers ?? {});
    const token = opts.token === undefined ? this.token : opts.token;
    if (token) headers['blade-auth'] = `bearer ${token}`;
    let body: BodyInit | undefined;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.form) body = opts.form;
    else if (opts.body !== undefined) body = opts.body;
    let status: number;
    let bytes: Buffer;
    let replyHeaders: Headers;
    if ((body === undefined || typeof body === 'string') && opts.redirect === undefined) {
      // Plain calls go over node:http: fetch's streams cost the suite about as much CPU as the
      // server's own routing (profiled). Bodies fetch encodes itself (forms, files) still use it.
      if (typeof body === 'string') headers['content-type'] ??= 'text/plain;charset=UTF-8';
      ({ status, bytes, headers: replyHeaders } = await httpCall(method, url, headers, body));
    } else {
      const res = await fetch(url, { method, headers, body, redirect: opts.redirect });
      status = res.status;
      bytes = Buffer.from(await res.arrayBuffer());
      replyHeaders = res.headers;
    }
    if (opts.raw) return { status, body: bytes as T, headers: replyHeaders };
    const text = bytes.toString('utf8');
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // non-JSON answers (files) stay text
    }
    return { status, body: parsed as T, headers: replyHeaders };
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
    if (reply.status === 200) this.adopt(reply.body);
    return reply;
  }

  /** Any token grant (captcha, sms_code, social, refresh_token) as query parameters, as Saber sends them. */
  async grant(query: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Reply> {
    return this.call('POST', '/blade-auth/oauth/token', {
      query: { tenantId: this.tenantId, scope: 'all', ...query },
      headers: { 'tenant-id': this.tenantId, ...headers },
      token: null,
    });
  }

  /** Keeps the tokens of a successful token answer. */
  adopt(body: { access_token: string; refresh_token: string }) {
    this.token = body.access_token;
    this.refreshToken = body.refresh_token;
  }
}

export async function signedIn(base: string, tenantId = '000000', username = 'admin', password = 'admin'): Promise<Api> {
  const api = new Api(base, tenantId);
  const reply = await api.login(username, password, tenantId);
  if (reply.status !== 200) throw new Error(`login failed: ${JSON.stringify(reply.body)}`);
  return api;
}

const keepAlive = new http.Agent({ keepAlive: true });

/** One call over node:http, following redirects as fetch does (303, and 301/302 of a POST, become a GET). */
async function httpCall(method: string, url: URL, headers: Record<string, string>, body: string | undefined, hops = 0): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const answer = await new Promise<{ status: number; bytes: Buffer; raw: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: keepAlive }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks), raw: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
  const location = answer.raw.location;
  if (answer.status >= 300 && answer.status < 400 && location && hops < 20) {
    const toGet = answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === 'POST');
    const next = { ...headers };
    if (toGet) delete next['content-type'];
    return httpCall(toGet ? 'GET' : method, new URL(location, url), next, toGet ? undefined : body, hops + 1);
  }
  const replyHeaders = new Headers();
  for (const [name, value] of Object.entries(answer.raw)) {
    if (Array.isArray(value)) for (const one of value) replyHeaders.append(name, one);
    else if (value !== undefined) replyHeaders.set(name, value);
  }
  return { status: answer.status, bytes: answer.bytes, headers: replyHeaders };
}

/** Fails with the whole reply when a contract call did not answer HTTP 200 with code 200. */
export function expectOk<T = any>(reply: Reply<T>, what = 'call'): T {
  const body = reply.body as { code?: number; data?: unknown };
  if (reply.status !== 200 || body?.code !== 200) {
    throw new Error(`${what} failed: HTTP ${reply.status} ${JSON.stringify(reply.body).slice(0, 500)}`);
  }
  return (body as { data: T }).data;
}
