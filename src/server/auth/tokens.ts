import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Services } from '../services.ts';
import type { Caller } from '../http/context.ts';
import { OAuthError, unauthorized } from '../errors.ts';
import { type Row, PLATFORM_TENANT } from '../engine/store.ts';
import type { ClientRecord } from './clients.ts';
import { formatDateTime } from '../../shared/dates.ts';

/** Role aliases that hold every menu and button (超级管理员). */
export const ADMIN_ALIASES = new Set(['administrator', 'admin']);

/** Roles and depts of a user, resolved for token claims and the token response. */
export async function userProfile(services: Services, tenantId: string, user: Row) {
  const roleIds = String(user.roleId ?? '').split(',').filter(Boolean);
  const deptIds = String(user.deptId ?? '').split(',').filter(Boolean);
  const roles = roleIds.length ? await services.store.find(services.m('role'), tenantId, { where: { id: roleIds } }) : [];
  return {
    roleIds: roles.map((r) => String(r.id)),
    roleAliases: roles.map((r) => String(r.roleAlias)),
    roleNames: roles.map((r) => String(r.roleName)),
    deptIds,
  };
}

/** Issues an access/refresh pair on a (new or continuing) session; the refresh jti rotates every time. */
export async function issueTokens(
  services: Services,
  tenantId: string,
  user: Row,
  client: ClientRecord,
  sessionId?: string,
): Promise<Record<string, unknown>> {
  const profile = await userProfile(services, tenantId, user);
  if (!profile.roleIds.length) throw new OAuthError('access_denied', '未获得用户的角色信息');
  const { store, signer, internal } = services;
  const refreshJti = crypto.randomUUID();
  const actor = { tenantId, userId: String(user.id) };
  // Row ids are at most 32 characters (varchar(32) on PostgreSQL): a dashless UUID fits.
  const sid = sessionId ?? crypto.randomUUID().replace(/-/g, '');
  const expireTime = formatDateTime(new Date(Date.now() + client.refreshTokenValidity * 1000));
  if (sessionId) {
    await store.update(internal.session, actor, sid, { refreshJti, expireTime });
  } else {
    await store.insert(internal.session, actor, { id: sid, userId: user.id, clientId: client.clientId, refreshJti, expireTime, revoked: 0 });
  }
  const common = {
    tid: tenantId,
    uid: String(user.id),
    acc: String(user.account),
    rid: profile.roleIds.join(','),
    ral: profile.roleAliases.join(','),
    did: profile.deptIds.join(','),
    cid: client.clientId,
    sid,
  };
  const access = signer.sign({ ...common, typ: 'access' }, client.accessTokenValidity);
  const refresh = signer.sign({ ...common, typ: 'refresh', jti: refreshJti }, client.refreshTokenValidity);
  return {
    access_token: access.token,
    token_type: 'bearer',
    refresh_token: refresh.token,
    expires_in: client.accessTokenValidity,
    scope: 'all',
    jti: access.claims.jti,
    client_id: client.clientId,
    tenant_id: tenantId,
    user_id: String(user.id),
    dept_id: profile.deptIds.join(','),
    post_id: String(user.postId ?? ''),
    role_id: profile.roleIds.join(','),
    account: String(user.account),
    user_name: String(user.account),
    nick_name: String(user.name ?? user.realName ?? ''),
    real_name: String(user.realName ?? ''),
    role_name: profile.roleAliases.join(','),
    avatar: String(user.avatar ?? ''),
    oauth_id: '',
    detail: { type: 'web' },
    license: 'powered by erp-console',
  };
}

/** Validates a refresh token and rotates it; a used, revoked or foreign one is refused. */
export async function refreshSession(services: Services, token: string, client: ClientRecord) {
  const claims = services.signer.verify(token);
  if (!claims || claims === 'expired' || claims.typ !== 'refresh') {
    throw new OAuthError('invalid_grant', claims === 'expired' ? '刷新令牌已过期，请重新登录' : '刷新令牌无效，请重新登录');
  }
  const tenantId = String(claims.tid);
  const session = await services.store.get(services.internal.session, tenantId, String(claims.sid));
  if (!session || Number(session.revoked) === 1) throw new OAuthError('invalid_grant', '令牌已失效，请重新登录');
  if (session.clientId !== client.clientId) throw new OAuthError('invalid_grant', '刷新令牌与客户端不匹配');
  if (session.refreshJti !== claims.jti) {
    // A rotated-away refresh token came back: someone holds a copy. End the whole session.
    await revokeSession(services, tenantId, String(claims.sid));
    throw new OAuthError('invalid_grant', '刷新令牌已被使用，请重新登录');
  }
  const user = await services.store.get(services.m('user'), tenantId, String(claims.uid));
  if (!user || Number(user.status) === 2) throw new OAuthError('invalid_grant', '用户不存在或已被禁用');
  return issueTokens(services, tenantId, user, client, String(claims.sid));
}

export async function revokeSession(services: Services, tenantId: string, sessionId: string) {
  services.store.invalidate('blade_session');
  await services.store.db
    .updateTable('blade_session')
    .set({ revoked: 1, update_time: formatDateTime() })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', sessionId)
    .execute();
}

export function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers['blade-auth'];
  const value = Array.isArray(header) ? header[0] : header;
  const fromQuery = (req.query as Record<string, unknown> | undefined)?.['blade-auth'];
  const raw = value ?? (typeof fromQuery === 'string' ? fromQuery : undefined);
  if (!raw) return undefined;
  return /^bearer /i.test(raw) ? raw.slice(7).trim() : undefined;
}

/** The caller of a request, from its Blade-Auth token; 401 when missing, forged, expired or revoked. */
export async function authenticate(services: Services, req: FastifyRequest): Promise<Caller> {
  const token = bearerToken(req);
  if (!token) throw unauthorized('缺失令牌,鉴权失败');
  const claims = services.signer.verify(token);
  if (claims === 'expired') throw unauthorized('令牌已过期,请重新登录');
  if (!claims || claims.typ !== 'access') throw unauthorized('请求未授权');
  const tenantId = String(claims.tid);
  // Revocation is seen at once on this node (the cache is cleared) and within 2 s on others.
  const session = await services.store.cached('blade_session', `${tenantId}|${claims.sid}`, 2000, () =>
    services.store.get(services.internal.session, tenantId, String(claims.sid)),
  );
  if (!session || Number(session.revoked) === 1) throw unauthorized('令牌已失效,请重新登录');
  const roleAliases = String(claims.ral ?? '').split(',').filter(Boolean);
  const deptIds = String(claims.did ?? '').split(',').filter(Boolean);
  return {
    tenantId,
    userId: String(claims.uid),
    deptId: deptIds[0],
    account: String(claims.acc),
    roleIds: String(claims.rid ?? '').split(',').filter(Boolean),
    roleAliases,
    deptIds,
    clientId: String(claims.cid),
    sessionId: String(claims.sid),
    isAdmin: roleAliases.some((a) => ADMIN_ALIASES.has(a)),
  };
}

export const isPlatformCaller = (caller: Caller) => caller.tenantId === PLATFORM_TENANT;
