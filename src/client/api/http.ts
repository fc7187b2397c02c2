import ky, { TimeoutError, type Options as KyOptions } from 'ky';
import { basicClientHeader, website } from '../app/website.ts';
import { translate } from '../app/i18n/index.ts';
import { getAccessToken } from '../store/cookies.ts';
import { progress } from '../store/progress.ts';
import { notifier } from './notify.ts';
import { resolveTimeout, type TimeoutName } from './timeouts.ts';

/** The BladeX response envelope. */
export interface R<T> {
  code: number;
  success: boolean;
  data: T;
  msg: string;
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'get' | 'post' | 'put' | 'delete';
  params?: Record<string, QueryValue>;
  json?: unknown;
  body?: FormData | Blob | string;
  headers?: Record<string, string>;
  /** A named override (`export`, `freightBill`, …) or milliseconds; default 60000. */
  timeout?: TimeoutName | number;
  /** Send `Blade-Auth` when a token exists (default true). */
  withToken?: boolean;
  /** Send the Basic client header (default true; the captcha call skips it). */
  withClient?: boolean;
  /** Do not toast errors; the caller shows its own. */
  silent?: boolean;
  /** Token-endpoint calls: a 401 is an answer, not an expired session. */
  skipAuthRecovery?: boolean;
  responseType?: 'json' | 'blob' | 'text';
  signal?: AbortSignal;
  /** A poll the user did not ask for (export progress): the top progress bar stays still. */
  background?: boolean;
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly body: unknown,
    /** True when no toast was shown (whitelist, 401 hand-off, silent calls). */
    readonly silent: boolean,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Session hooks the HTTP client needs; registered by the session module to avoid a cycle. */
export interface SessionHooks {
  /** Refreshes the token that was used for a failed call; resolves true when a fresh token exists. */
  refresh(staleToken: string | undefined): Promise<boolean>;
  /** The session cannot be recovered: keep drafts, sign out, go to /login. */
  lost(): void;
}

let sessionHooks: SessionHooks | undefined;

export function registerSessionHooks(hooks: SessionHooks): void {
  sessionHooks = hooks;
}

const client = ky.create({
  credentials: 'include',
  retry: 0,
  throwHttpErrors: false,
});

function cleanParams(params: Record<string, QueryValue> | undefined): Record<string, string> | undefined {
  if (!params) return undefined;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') out[key] = String(value);
  }
  return out;
}

function buildHeaders(options: RequestOptions, token: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.withClient !== false) headers.Authorization = basicClientHeader;
  if (options.withToken !== false && token) headers[website.tokenHeader] = `bearer ${token}`;
  return headers;
}

async function readBody(response: Response, responseType: RequestOptions['responseType']): Promise<unknown> {
  const contentType = response.headers.get('content-type') ?? '';
  if (responseType === 'blob' && response.status === 200 && !contentType.includes('json')) {
    return response.blob();
  }
  const text = await response.text();
  if (responseType === 'text' && !contentType.includes('json')) return text;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

interface ErrorFields {
  code?: unknown;
  msg?: unknown;
  error_description?: unknown;
}

function fieldsOf(body: unknown): ErrorFields {
  return body && typeof body === 'object' && !(body instanceof Blob) ? (body as ErrorFields) : {};
}

/** The body code when it is numeric, else the HTTP status (contract §8). */
export function responseCode(body: unknown, status: number): number {
  const raw = fieldsOf(body).code;
  if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
  if (typeof raw === 'string' && /^\d+$/.test(raw)) return Number(raw);
  return status;
}

export function errorMessage(body: unknown): string {
  const { msg, error_description: description } = fieldsOf(body);
  if (typeof msg === 'string' && msg) return msg;
  if (typeof description === 'string' && description) return description;
  return translate('http.unknownError');
}

function fail(code: number, message: string, body: unknown, silent: boolean | undefined): never {
  if (!silent) notifier().error(message);
  throw new ApiError(code, message, body, Boolean(silent));
}

async function send<T>(url: string, options: RequestOptions, isRetry: boolean): Promise<T> {
  const token = getAccessToken();
  const kyOptions: KyOptions = {
    method: options.method ?? 'get',
    searchParams: cleanParams(options.params),
    headers: buildHeaders(options, token),
    timeout: resolveTimeout(options.timeout),
    signal: options.signal,
  };
  if (options.json !== undefined) kyOptions.json = options.json;
  else if (options.body !== undefined) kyOptions.body = options.body;

  let response: Response;
  try {
    response = await client(url, kyOptions);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    const message = translate(error instanceof TimeoutError ? 'http.timeout' : 'http.network');
    return fail(0, message, undefined, options.silent);
  }
  if (response.status < 200 || response.status > 500) {
    return fail(
      response.status,
      translate('http.serverUnavailable', { status: response.status }),
      undefined,
      options.silent,
    );
  }

  const body = await readBody(response, options.responseType);
  const code = responseCode(body, response.status);

  if (code === 401 && !options.skipAuthRecovery && sessionHooks) {
    if (!isRetry && (await sessionHooks.refresh(token))) return send<T>(url, options, true);
    sessionHooks.lost();
    throw new ApiError(401, errorMessage(body), body, true);
  }
  if (website.statusWhiteList.includes(code)) throw new ApiError(code, errorMessage(body), body, true);
  if (code !== 200) return fail(code, errorMessage(body), body, options.silent);
  return body as T;
}

/** One call with the shell's rules (headers, envelope codes, 401 recovery, progress bar). */
export async function request<T>(url: string, options: RequestOptions = {}): Promise<T> {
  if (options.background) return send<T>(url, options, false);
  progress.start();
  try {
    return await send<T>(url, options, false);
  } finally {
    progress.done();
  }
}

/** Calls an envelope endpoint and returns `data`. */
export async function requestData<T>(url: string, options: RequestOptions = {}): Promise<T> {
  const body = await request<R<T>>(url, options);
  return body.data;
}

export const http = {
  get: <T>(url: string, params?: Record<string, QueryValue>, options: RequestOptions = {}) =>
    requestData<T>(url, { ...options, method: 'get', params }),
  post: <T>(url: string, json?: unknown, options: RequestOptions = {}) =>
    requestData<T>(url, { ...options, method: 'post', json }),
  postParams: <T>(url: string, params?: Record<string, QueryValue>, options: RequestOptions = {}) =>
    requestData<T>(url, { ...options, method: 'post', params }),
};
