import { request, type QueryValue } from './http.ts';
import type { CaptchaResponse, TokenResponse } from './types.ts';

const TOKEN_URL = '/api/blade-auth/oauth/token';

export interface CaptchaAnswer {
  key: string;
  code: string;
}

/** Token grant: every parameter in the query string, `Tenant-Id` header (contract §1). */
function grant(tenantId: string, params: Record<string, QueryValue>, headers: Record<string, string> = {}) {
  return request<TokenResponse>(TOKEN_URL, {
    method: 'post',
    params: { tenantId, scope: 'all', ...params },
    headers: { 'Tenant-Id': tenantId, ...headers },
    skipAuthRecovery: true,
  });
}

/** `passwordMd5`: the password as md5 hex (BladeX's wire form; the sign-in form hashes it). */
export function loginByPassword(input: {
  tenantId: string;
  username: string;
  passwordMd5: string;
  captcha?: CaptchaAnswer;
}) {
  const captchaHeaders = input.captcha
    ? { 'Captcha-Key': input.captcha.key, 'Captcha-Code': input.captcha.code }
    : undefined;
  return grant(
    input.tenantId,
    {
      grant_type: input.captcha ? 'captcha' : 'password',
      username: input.username,
      password: input.passwordMd5,
      type: 'account',
    },
    captchaHeaders,
  );
}

export function loginByPhone(input: { tenantId: string; phone: string; code: string; smsId: string }) {
  return grant(input.tenantId, {
    grant_type: 'sms_code',
    phone: input.phone,
    code: input.code,
    smsId: input.smsId,
  });
}

export function loginBySocial(input: { tenantId: string; source: string; code: string; state: string }) {
  return grant(input.tenantId, {
    grant_type: 'social',
    source: input.source,
    code: input.code,
    state: input.state,
  });
}

/** Refresh grant; silent so that a failure is handled by the caller (sign-out), not toasted twice. */
export function refreshAccessToken(tenantId: string, refreshToken: string) {
  return request<TokenResponse>(TOKEN_URL, {
    method: 'post',
    params: { grant_type: 'refresh_token', refresh_token: refreshToken, tenantId, scope: 'all' },
    headers: { 'Tenant-Id': tenantId },
    skipAuthRecovery: true,
    silent: true,
  });
}

export function fetchCaptcha() {
  return request<CaptchaResponse>('/api/blade-auth/oauth/captcha', { withClient: false, withToken: false });
}

export async function sendSmsCode(tenantId: string, phone: string): Promise<string> {
  const body = await request<{ data: { id: string } }>('/api/blade-auth/oauth/sms/send-validate', {
    method: 'post',
    params: { tenantId, phone },
    headers: { 'Tenant-Id': tenantId },
    skipAuthRecovery: true,
  });
  return body.data.id;
}

/** Where the browser goes to start a social sign-in; the provider comes back to /login. */
export function socialRenderUrl(source: string, tenantId: string): string {
  return `/api/blade-auth/oauth/render/${encodeURIComponent(source)}?tenantId=${encodeURIComponent(tenantId)}`;
}

export function logout() {
  return request<unknown>('/api/blade-auth/oauth/logout', { silent: true, skipAuthRecovery: true });
}

export function clearServerCache() {
  return request<unknown>('/api/blade-auth/oauth/clear-cache');
}
