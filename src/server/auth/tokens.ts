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

/**
 * The password a token was issued under, as a short digest of the stored hash (the hash itself
 * never leaves the database): a token whose stamp differs was issued before a password change.
 */
export function passwordStamp(hash: unknown): string {
  return crypto.createHash('sha256').update(String(hash ?? '')).digest('base64url').slice(0, 16);
}

interface AuthState {
  status: number;
  roleIds: string[];
  roleAliases: string[];
  deptIds: string[];
  stamp: string;
}

/**
 * What a token's holder may do now: the user's status, roles and departments and the stamp of the
 * password, read on every call (2 s cache, cleared by any write to the users or roles on this node):
 * disabling or removing a user, resetting a password or changing roles takes effect on the next call.
 */
async function authState(services: Services, tenantId: string, userId: string): Promise<AuthState | undefined> {
  const { store } = services;
  const users = services.m('user').table;
  const row = await store.cached(users, `auth|${tenantId}|${userId}`, 2000, () =>
    store.db
      .selectFrom(users)
      .select(['status', 'role_id', 'dept_id', 'password'])
      .where('tenant_id', '=', tenantId)
      .where('id', '=', userId)
      .where('is_deleted', '=', 0)
      .executeTakeFirst(),
  );
  if (!row) return undefined;
  const ids = String(row.role_id ?? '').split(',').filter(Boolean);
  const roleModel = services.m('role');
  const roles = ids.length
    ? await store.cached(roleModel.table, `auth|${tenantId}|${ids.join(',')}`, 2000, () => store.find(roleModel, tenantId, { where: { id: ids } }))
    : [];
  return {
    status: Number(row.status),
    roleIds: roles.map((r) => String(r.id)),
    roleAliases: roles.map((r) => String(r.roleAlias)),
    deptIds: String(row.dept_id ?? '').split(',').filter(Boolean),
    stamp: passwordStamp(row.password),
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
  const state = await authState(services, tenantId, String(user.id));
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
    pst: state?.stamp ?? '',
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
    await revokeSessions(services, tenantId, { sessionId: String(claims.sid) });
    throw new OAuthError('invalid_grant', '刷新令牌已被使用，请重新登录');
  }
  const user = await services.store.get(services.m('user'), tenantId, String(claims.uid));
  if (!user || Number(user.status) === 2) throw new OAuthError('invalid_grant', '用户不存在或已被禁用');
  const state = await authState(services, tenantId, String(claims.uid));
  if (state?.stamp !== claims.pst) {
    await revokeSessions(services, tenantId, { sessionId: String(claims.sid) });
    throw new OAuthError('invalid_grant', '密码已修改,请重新登录');
  }
  return issueTokens(services, tenantId, user, client, String(claims.sid));
}

/**
 * Ends sessions: one (sign-out, a refresh under an old password) or every session of some users
 * (disabled or removed); their refresh tokens die with them.
 */
export async function revokeSessions(services: Services, tenantId: string, which: { sessionId: string } | { userIds: string[] }) {
  if ('userIds' in which && !which.userIds.length) return;
  services.store.invalidate('blade_session');
  const query = services.store.db.updateTable('blade_session').set({ revoked: 1, update_time: formatDateTime() }).where('tenant_id', '=', tenantId);
  await ('sessionId' in which ? query.where('id', '=', which.sessionId) : query.where('user_id', 'in', which.userIds)).execute();
}

export function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers['blade-auth'];
  const value = Array.isArray(header) ? header[0] : header;
  const fromQuery = (req.query as Record<string, unknown> | undefined)?.['blade-auth'];
  const raw = value ?? (typeof fromQuery === 'string' ? fromQuery : undefined);
  if (!raw) return undefined;
  return /^bearer /i.test(raw) ? raw.slice(7).trim() : undefined;
}

/** The access token a browser keeps in its cookie (sent with an <img>, which cannot send headers). */
export function cookieToken(req: FastifyRequest): string | undefined {
  for (const part of String(req.headers.cookie ?? '').split(/;\s*/)) {
    const at = part.indexOf('=');
    if (at > 0 && decodeURIComponent(part.slice(0, at)) === 'saber-access-token') return decodeURIComponent(part.slice(at + 1)) || undefined;
  }
  return undefined;
}

/** The caller of a request, from its Blade-Auth token; 401 when missing, forged, expired or revoked. */
export async function authenticate(services: Services, req: FastifyRequest): Promise<Caller> {
  return callerOf(services, bearerToken(req));
}

/** The caller holding an access token; 401 when missing, forged, expired or revoked. */
export async function callerOf(services: Services, token: string | undefined): Promise<Caller> {
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
  // Rights are the user's as they are now, not as they were when the token was issued.
  const state = await authState(services, tenantId, String(claims.uid));
  if (!state || state.status === 2) throw unauthorized('用户不存在或已被禁用,请重新登录');
  if (state.stamp !== claims.pst) throw unauthorized('密码已修改,请重新登录');
  const { roleAliases, deptIds } = state;
  return {
    tenantId,
    userId: String(claims.uid),
    deptId: deptIds[0],
    account: String(claims.acc),
    roleIds: state.roleIds,
    roleAliases,
    deptIds,
    clientId: String(claims.cid),
    sessionId: String(claims.sid),
    isAdmin: roleAliases.some((a) => ADMIN_ALIASES.has(a)),
  };
}

export const isPlatformCaller = (caller: Caller) => caller.tenantId === PLATFORM_TENANT;
