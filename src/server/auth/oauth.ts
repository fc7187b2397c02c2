import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services.ts';
import { OAuthError, ok, status, badRequest } from '../http/envelope.ts';
import { authenticateClient, type ClientRecord } from './clients.ts';
import { authenticate, issueTokens, refreshSession, revokeSessions } from './tokens.ts';
import { verifyPassword } from './passwords.ts';
import { drawCaptcha } from './captcha.ts';
import { sendSms } from '../system/sms.ts';
import { PLATFORM_TENANT, type Row } from '../engine/store.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { serviceRoutes } from '../http/paths.ts';

const LOCK_MINUTES = 30;

type Params = Record<string, string | undefined>;

function readParams(req: FastifyRequest): Params {
  const out: Params = {};
  const merge = (source: unknown) => {
    if (!source || typeof source !== 'object') return;
    for (const [k, v] of Object.entries(source as Record<string, unknown>)) {
      if (v !== undefined && v !== null) out[k] = Array.isArray(v) ? String(v[v.length - 1]) : String(v);
    }
  };
  merge(req.query);
  merge(req.body);
  return out;
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

function tenantOf(req: FastifyRequest, p: Params): string {
  return p.tenantId || p.tenant_id || header(req, 'Tenant-Id') || PLATFORM_TENANT;
}

async function checkTenant(services: Services, tenantId: string) {
  const rows = await services.store.find(services.m('tenant'), PLATFORM_TENANT, { where: { tenantId } });
  const tenant = rows[0];
  if (!tenant) throw new OAuthError('access_denied', '租户ID未找到');
  if (Number(tenant.status) === 2) throw new OAuthError('access_denied', '租户已被停用,请联系管理员');
  if (tenant.expireTime && String(tenant.expireTime) < formatDateTime()) {
    throw new OAuthError('access_denied', '租户授权已过期,请联系管理员');
  }
}

async function findUser(services: Services, tenantId: string, where: Row): Promise<Row | undefined> {
  return (await services.store.find(services.m('user'), tenantId, { where }))[0];
}

function nowPlus(minutes: number) {
  return formatDateTime(new Date(Date.now() + minutes * 60_000));
}

/** The client address as a short digest: the lock key fits the account column and stores no address. */
function addressTag(ip: string): string {
  return crypto.createHash('sha256').update(ip).digest('hex').slice(0, 10);
}

/**
 * Wrong passwords are counted per account and client address, and per account from anywhere.
 * Five from one address lock the account for that address for 30 minutes (param account.failCount
 * may change five): someone elsewhere cannot lock the rightful user out. Five from anywhere make
 * the account ask for the captcha (answer `captcha: true`; the captcha grant passes) until a
 * success; signing in by phone code is never locked.
 */
async function passwordGrant(services: Services, tenantId: string, p: Params, from: { ip: string; captchaPassed: boolean }): Promise<Row> {
  const account = p.username ?? p.account ?? '';
  const password = p.password ?? '';
  if (!account || !password) throw new OAuthError('invalid_grant', '用户名或密码错误');
  const { store, internal } = services;
  const failModel = internal.loginFail;
  const here = `${account.slice(0, 52)}|${addressTag(from.ip)}`;
  const anywhere = account.slice(0, 64);
  const [local, overall] = await Promise.all([here, anywhere].map(async (key) => (await store.find(failModel, tenantId, { where: { account: key } }))[0]));
  const now = formatDateTime();
  if (local?.lockedUntil && String(local.lockedUntil) > now) {
    throw new OAuthError('access_denied', `登录错误次数过多,账号已锁定${LOCK_MINUTES}分钟,请稍后再试`);
  }
  const limit = await failLimit(services, tenantId);
  if (!from.captchaPassed && overall && Number(overall.failCount) >= limit) {
    throw new OAuthError('invalid_grant', '该账号登录失败次数过多，请输入验证码', 400, { captcha: true });
  }
  const user = await findUser(services, tenantId, { account });
  const hash = user ? await passwordHash(services, tenantId, String(user.id)) : undefined;
  const good = user ? await verifyPassword(password, hash) : false;
  const actor = { tenantId, userId: '0' };
  if (!good) {
    const lockExpired = Boolean(local?.lockedUntil) && String(local?.lockedUntil) <= now;
    const count = (local && !lockExpired ? Number(local.failCount) : 0) + 1;
    const lockedUntil = count >= limit ? nowPlus(LOCK_MINUTES) : null;
    if (local) await store.update(failModel, actor, String(local.id), { failCount: count, lockedUntil });
    else await store.insert(failModel, actor, { account: here, failCount: count, lockedUntil });
    if (overall) await store.update(failModel, actor, String(overall.id), { failCount: Number(overall.failCount) + 1, lockedUntil: null });
    else await store.insert(failModel, actor, { account: anywhere, failCount: 1, lockedUntil: null });
    throw new OAuthError('invalid_grant', '用户名或密码错误');
  }
  const done = [local, overall].filter((r): r is Row => Boolean(r)).map((r) => String(r.id));
  if (done.length) await store.softRemove(failModel, actor, done);
  return user!;
}

async function failLimit(services: Services, tenantId: string): Promise<number> {
  const rows = await services.store.find(services.m('param'), tenantId, { where: { paramKey: 'account.failCount' } });
  const n = Number(rows[0]?.paramValue);
  return Number.isFinite(n) && n > 0 ? n : 5;
}

/** The stored hash is a secret column: read it directly, never through the entity reads. */
export async function passwordHash(services: Services, tenantId: string, userId: string): Promise<string | undefined> {
  const row = await services.store.db
    .selectFrom('blade_user')
    .select('password')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', userId)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
  return (row?.password as string | undefined) ?? undefined;
}

async function captchaCheck(services: Services, req: FastifyRequest) {
  const key = header(req, 'Captcha-Key');
  const code = header(req, 'Captcha-Code');
  if (!key || !code) throw new OAuthError('access_denied', '验证码不正确');
  const row = await services.store.get(services.internal.captcha, PLATFORM_TENANT, key);
  // One use per captcha, right or wrong.
  if (row) await services.store.softRemove(services.internal.captcha, { tenantId: PLATFORM_TENANT, userId: '0' }, [key]);
  if (!row || String(row.expireTime) < formatDateTime() || String(row.code) !== code.trim().toLowerCase()) {
    throw new OAuthError('access_denied', '验证码不正确');
  }
}

async function smsGrant(services: Services, tenantId: string, p: Params): Promise<Row> {
  const phone = p.phone ?? p.username ?? '';
  const code = p.code ?? p.value ?? '';
  const smsId = p.smsId ?? p.id ?? '';
  if (!phone || !code || !smsId) throw new OAuthError('invalid_grant', '请输入手机号和短信验证码');
  const { store, internal } = services;
  const row = await store.get(internal.smsCode, tenantId, smsId);
  if (!row || row.phone !== phone || Number(row.used) === 1) throw new OAuthError('invalid_grant', '短信验证码不正确');
  if (String(row.expireTime) < formatDateTime()) throw new OAuthError('invalid_grant', '短信验证码已过期,请重新获取');
  if (row.code !== code) throw new OAuthError('invalid_grant', '短信验证码不正确');
  await store.update(internal.smsCode, { tenantId, userId: '0' }, smsId, { used: 1 });
  const user = await findUser(services, tenantId, { phone });
  if (!user) throw new OAuthError('invalid_grant', '该手机号未绑定用户');
  return user;
}

async function socialGrant(services: Services, tenantId: string, p: Params): Promise<Row> {
  const source = p.source ?? '';
  const code = p.code ?? '';
  if (!source || !code) throw new OAuthError('invalid_grant', '第三方登录参数不完整');
  const provider = (await services.store.find(services.m('social'), tenantId, { where: { source } }))[0];
  if (!provider || Number(provider.enabled) === 1) throw new OAuthError('invalid_grant', `未配置第三方登录：${source}`);
  const secret = await services.store.db
    .selectFrom('blade_social_provider')
    .select('client_secret')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', String(provider.id))
    .executeTakeFirst();
  let profile: Record<string, unknown>;
  try {
    const tokenRes = await fetch(String(provider.tokenUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        client_id: String(provider.clientId ?? ''),
        client_secret: String(secret?.client_secret ?? ''),
        redirect_uri: String(provider.redirectUri ?? ''),
      }),
      signal: AbortSignal.timeout(10_000),
    });
    const tokenBody = (await tokenRes.json()) as Record<string, unknown>;
    if (!tokenRes.ok || !tokenBody.access_token) throw new Error(String(tokenBody.error_description ?? tokenBody.error ?? tokenRes.status));
    const userRes = await fetch(String(provider.userInfoUrl), {
      headers: { authorization: `Bearer ${tokenBody.access_token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(10_000),
    });
    profile = (await userRes.json()) as Record<string, unknown>;
    if (!userRes.ok) throw new Error(String(userRes.status));
  } catch (error) {
    throw new OAuthError('invalid_grant', `第三方登录失败：${(error as Error).message}`);
  }
  const uuid = String(profile.id ?? profile.sub ?? profile.uuid ?? '');
  if (!uuid) throw new OAuthError('invalid_grant', '第三方登录失败：未返回用户标识');
  const binding = (await services.store.find(services.m('user-oauth'), tenantId, { where: { source, uuid } }))[0];
  if (!binding || !binding.userId) {
    const oauthId =
      binding?.id ??
      (
        await services.store.insert(services.m('user-oauth'), { tenantId, userId: '0' }, {
          source,
          uuid,
          username: String(profile.login ?? profile.username ?? profile.name ?? ''),
          nickname: String(profile.name ?? ''),
          avatar: String(profile.avatar_url ?? profile.avatar ?? ''),
          email: String(profile.email ?? ''),
        })
      ).id;
    throw new OAuthError('invalid_grant', '该第三方账号尚未绑定系统用户,请先注册或绑定', 400, { oauth_id: String(oauthId) });
  }
  const user = await services.store.get(services.m('user'), tenantId, String(binding.userId));
  if (!user) throw new OAuthError('invalid_grant', '绑定的用户不存在');
  return user;
}

async function loginLog(services: Services, req: FastifyRequest, tenantId: string, account: string, grant: string, success: boolean, message: string) {
  try {
    await services.store.insert(services.m('log-login'), { tenantId, userId: '0' }, {
      account,
      grantType: grant,
      remoteIp: req.ip,
      userAgent: String(req.headers['user-agent'] ?? '').slice(0, 255),
      success: success ? 2 : 1,
      message,
    });
  } catch (error) {
    services.log('warn', 'login log write failed', { error: String(error) });
  }
}

async function token(services: Services, req: FastifyRequest, reply: FastifyReply, forced: Params = {}) {
  const p = { ...readParams(req), ...forced };
  const grant = p.grant_type ?? p.grantType ?? 'password';
  const tenantId = tenantOf(req, p);
  const client = await authenticateClient(services, header(req, 'authorization'));
  if (!client) {
    reply.code(401).send({ error: 'unauthorized', error_description: '请求头中无client信息或client认证失败' });
    return reply;
  }
  const account = p.username ?? p.account ?? p.phone ?? '';
  try {
    if (client.grantTypes.length && !client.grantTypes.includes(grant === 'sms_code' ? 'sms_code' : grant)) {
      throw new OAuthError('unsupported_grant_type', `客户端不支持授权类型：${grant}`);
    }
    let result: Record<string, unknown>;
    if (grant === 'refresh_token') {
      result = await refreshSession(services, p.refresh_token ?? p.refreshToken ?? '', client);
    } else {
      await checkTenant(services, tenantId);
      let user: Row;
      if (grant === 'password') user = await passwordGrant(services, tenantId, p, { ip: req.ip, captchaPassed: false });
      else if (grant === 'captcha') {
        await captchaCheck(services, req);
        user = await passwordGrant(services, tenantId, p, { ip: req.ip, captchaPassed: true });
      } else if (grant === 'sms_code') user = await smsGrant(services, tenantId, p);
      else if (grant === 'social') user = await socialGrant(services, tenantId, p);
      else throw new OAuthError('unsupported_grant_type', `不支持的授权类型：${grant}`);
      if (Number(user.status) === 2) throw new OAuthError('access_denied', '该账号已被禁用,请联系管理员');
      result = await issueTokens(services, tenantId, user, client);
      await loginLog(services, req, tenantId, String(user.account), grant, true, '登录成功');
    }
    reply.header('cache-control', 'no-store');
    return result;
  } catch (error) {
    if (error instanceof OAuthError) {
      if (grant !== 'refresh_token') await loginLog(services, req, tenantId, account, grant, false, error.description);
      reply.code(error.httpStatus).send({ error: error.error, error_description: error.description, ...error.extra });
      return reply;
    }
    throw error;
  }
}

export function registerOAuthRoutes(app: FastifyInstance, services: Services) {
  const route = serviceRoutes(app);
  const doc = (summary: string, query: Record<string, string> = {}) => ({
    doc: {
      summary,
      tags: ['认证 (blade-auth)'],
      public: true,
      querystring: { type: 'object', properties: Object.fromEntries(Object.entries(query).map(([k, d]) => [k, { type: 'string', description: d }])) },
    },
  });
  route('POST', '/blade-auth/oauth/token', (req, reply) => token(services, req, reply), doc('获取令牌（OAuth2，参数在查询串或表单中；失败返回 HTTP 400 {error, error_description}）', {
    grant_type: 'password | captcha | refresh_token | sms_code | social',
    tenantId: '租户ID（也可用 tenant_id 或请求头 Tenant-Id）',
    username: '账号',
    password: '密码的 md5 十六进制',
    refresh_token: '刷新令牌（grant_type=refresh_token）',
    phone: '手机号（grant_type=sms_code）',
    code: '短信验证码或第三方授权码',
    smsId: '短信验证码ID',
    source: '第三方来源（grant_type=social）',
  }));

  // The session call of spec 000 §7: a refresh by its own path, under the refresh_token grant's rules
  // (rotation; a used refresh token ends the session).
  route('POST', '/blade-auth/oauth/token/refresh', (req, reply) => token(services, req, reply, { grant_type: 'refresh_token' }), doc('刷新令牌（同 grant_type=refresh_token：轮换刷新令牌，重复使用已轮换的刷新令牌将结束会话）', {
    refresh_token: '刷新令牌（也可用 refreshToken）',
    tenantId: '租户ID',
  }));

  const open = { noClient: true };
  route('GET', '/blade-auth/oauth/captcha', async () => {
    const { text, image } = drawCaptcha();
    const key = crypto.randomUUID().replace(/-/g, ''); // fits the 32-character id column
    await services.store.insert(services.internal.captcha, { tenantId: PLATFORM_TENANT, userId: '0' }, { id: key, code: text, expireTime: nowPlus(30) });
    return { key, image };
  }, { ...open, ...doc('图形验证码 {key, image}') });

  route('GET', '/blade-auth/oauth/logout', async (req) => {
    try {
      const caller = await authenticate(services, req);
      await revokeSessions(services, caller.tenantId, { sessionId: caller.sessionId });
    } catch {
      // logging out with a dead token is still a logout
    }
    return { success: 'true', msg: 'success' };
  }, { ...open, ...doc('退出登录（吊销会话）') });

  route('GET', '/blade-auth/oauth/clear-cache', async (req) => {
    const caller = await authenticate(services, req);
    services.perms.invalidate(caller.tenantId);
    return { success: 'true', msg: 'success' };
  });

  route('GET', '/blade-auth/oauth/user-info', async (req) => {
    const caller = await authenticate(services, req);
    const user = await services.store.get(services.m('user'), caller.tenantId, caller.userId);
    return ok({ principal: { ...user, tenantId: caller.tenantId, roleName: caller.roleAliases.join(',') }, authorities: caller.roleAliases, name: caller.account });
  });

  route('POST', '/blade-auth/oauth/sms/send-validate', async (req) => {
    const p = readParams(req);
    const tenantId = tenantOf(req, p);
    const phone = p.phone ?? '';
    if (!/^1\d{10}$/.test(phone)) throw badRequest(phone ? '请输入正确的手机号码' : '手机号码不能为空');
    const user = await findUser(services, tenantId, { phone });
    const code = String(crypto.randomInt(100000, 1000000));
    const actor = { tenantId, userId: '0' };
    const row = await services.store.insert(services.internal.smsCode, actor, { phone, code, expireTime: nowPlus(5), used: 0 });
    // Unknown phones get the same answer (no account probing) but no message.
    if (user) await sendSms(services, tenantId, phone, `您的登录验证码为 ${code}，5分钟内有效。`);
    return ok({ id: row.id });
  }, doc('发送登录短信验证码', { tenantId: '租户ID', phone: '手机号' }));

  // Social sign-in starts here: the browser is sent to the provider's authorize page.
  route('GET', '/blade-auth/oauth/render/:source', async (req, reply) => {
    const p = readParams(req);
    const tenantId = tenantOf(req, p);
    const source = (req.params as { source: string }).source;
    const provider = (await services.store.find(services.m('social'), tenantId, { where: { source } }))[0];
    if (!provider || Number(provider.enabled) === 1) return reply.code(404).send(status(false, `未配置第三方登录：${source}`));
    const url = new URL(String(provider.authorizeUrl));
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', String(provider.clientId ?? ''));
    if (provider.redirectUri) url.searchParams.set('redirect_uri', String(provider.redirectUri));
    if (provider.scope) url.searchParams.set('scope', String(provider.scope));
    url.searchParams.set('state', tenantId);
    return reply.redirect(url.toString());
  }, open);
}

export type { ClientRecord };
