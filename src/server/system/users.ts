import { sql } from 'kysely';
import type { Services } from '../services.ts';
import type { Ctx } from '../http/context.ts';
import { mustCaller } from '../http/context.ts';
import { insertEntity, updateEntity } from '../engine/ops.ts';
import { fillLookups } from '../engine/lookups.ts';
import { badRequest } from '../errors.ts';
import { hashPassword, isMd5Hex, md5Hex, verifyPassword } from '../auth/passwords.ts';
import { passwordHash } from '../auth/oauth.ts';
import { idsParam, valueParam } from './params.ts';
import type { Row } from '../engine/store.ts';
import { PLATFORM_TENANT } from '../engine/store.ts';

/**
 * Saber sends md5 hex on sign-in and password change, and plain text in the user form.
 * Either way the stored value is scrypt(md5hex).
 */
const asMd5 = (value: string) => (isMd5Hex(value) ? value.toLowerCase() : md5Hex(value));

async function setPassword(services: Services, tenantId: string, userId: string, plainOrMd5: string) {
  const hash = await hashPassword(asMd5(plainOrMd5));
  await services.store.db
    .updateTable('blade_user')
    .set({ password: hash })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', userId)
    .execute();
  // The holder's tokens carry the old password's stamp: their next call is refused.
  services.store.invalidate(services.m('user').table);
}

async function initPassword(services: Services, tenantId: string): Promise<string> {
  const rows = await services.store.find(services.m('param'), tenantId, { where: { paramKey: 'account.initPassword' } });
  return String(rows[0]?.paramValue || '123456');
}

function body(ctx: Ctx): Row {
  const b = ctx.body;
  return b && typeof b === 'object' && !Array.isArray(b) ? { ...(b as Row) } : { ...ctx.params };
}

async function userInfo(services: Services, ctx: Ctx): Promise<Row> {
  const caller = mustCaller(ctx);
  const user = await services.store.mustGet(services.m('user'), caller.tenantId, caller.userId);
  await fillLookups(services, services.m('user'), caller.tenantId, [user]);
  const depots = await services.store.find(services.internal.userDepot, caller.tenantId, { where: { userId: caller.userId } });
  return {
    ...user,
    tenantId: caller.tenantId,
    roleAlias: caller.roleAliases.join(','),
    depotIds: depots.map((d) => String(d.depotId)).join(','),
    defaultDepotId: String(depots.find((d) => Number(d.isDefault) === 2)?.depotId ?? ''),
  };
}

export function registerUserHandlers(services: Services) {
  const { store } = services;
  const users = () => services.m('user');

  services.register('user.info', async (ctx) => userInfo(services, ctx));

  services.register('user.submit', async (ctx) => {
    const caller = mustCaller(ctx);
    const data = body(ctx);
    const isUpdate = Boolean(data.id);
    await services.perms.require(caller, isUpdate ? 'user_edit' : 'user_add');
    if (isUpdate) {
      delete data.password; // passwords change only through reset/update-password
      return updateEntity(ctx, users(), data);
    }
    // Hashed before the row exists: the typed password never reaches the disk.
    const typed = String(data.password ?? '');
    const limit = users().resource?.entity.properties.password?.maxLength ?? 255;
    if (typed.length > limit) throw badRequest(`密码不能超过${limit}个字符`, { fieldErrors: { password: `密码不能超过${limit}个字符` } });
    if (typed) data.password = await hashPassword(asMd5(typed));
    return insertEntity(ctx, users(), data);
  });

  services.register('user.update', async (ctx) => {
    const data = body(ctx);
    if (!data.id) throw badRequest('缺少参数 id');
    delete data.password;
    return updateEntity(ctx, users(), data);
  });

  // Platform settings (user type and extension) live on the same row here.
  services.register('user.updatePlatform', async (ctx) => {
    const data = body(ctx);
    if (!data.id) throw badRequest('缺少参数 id');
    const patch: Row = { id: data.id, version: data.version, userType: data.userType, userExt: data.userExt };
    return updateEntity(ctx, users(), patch);
  });

  services.register('user.platformDetail', async (ctx) => {
    const caller = mustCaller(ctx);
    const id = valueParam(ctx, 'id', 'userId');
    if (!id) throw badRequest('缺少参数 id');
    const row = await store.get(users(), caller.tenantId, id);
    return row ? { id: row.id, userType: row.userType, userExt: row.userExt, version: row.version } : null;
  });

  services.register('user.resetPassword', async (ctx) => {
    const caller = mustCaller(ctx);
    const ids = idsParam(ctx, 'userIds', 'ids', 'id');
    if (!ids.length) throw badRequest('请选择至少一条数据');
    const found = await store.find(users(), caller.tenantId, { where: { id: ids } });
    if (found.length !== ids.length) throw badRequest('用户不存在或已被删除');
    const plain = await initPassword(services, caller.tenantId);
    for (const id of ids) await setPassword(services, caller.tenantId, id, plain);
    return undefined;
  });

  services.register('user.updatePassword', async (ctx) => {
    const caller = mustCaller(ctx);
    const oldPassword = valueParam(ctx, 'oldPassword') ?? '';
    const newPassword = valueParam(ctx, 'newPassword') ?? '';
    const newPassword1 = valueParam(ctx, 'newPassword1') ?? '';
    if (!oldPassword || !newPassword) throw badRequest('请输入原密码和新密码');
    if (newPassword !== newPassword1) throw badRequest('两次输入的新密码不一致');
    const stored = await passwordHash(services, caller.tenantId, caller.userId);
    if (!(await verifyPassword(asMd5(oldPassword), stored))) throw badRequest('原密码不正确');
    await setPassword(services, caller.tenantId, caller.userId, newPassword);
    return undefined;
  });

  /** Personal info: only the caller's own avatar, name, phone and email. */
  services.register('user.updateInfo', async (ctx) => {
    const caller = mustCaller(ctx);
    const data = body(ctx);
    const current = await store.mustGet(users(), caller.tenantId, caller.userId);
    const patch: Row = { id: caller.userId, version: current.version };
    for (const key of ['avatar', 'realName', 'name', 'phone', 'email', 'sex', 'birthday']) if (key in data) patch[key] = data[key];
    return updateEntity(ctx, users(), patch);
  });

  services.register('user.grant', async (ctx) => {
    const caller = mustCaller(ctx);
    const userIds = idsParam(ctx, 'userIds', 'userId');
    const roleIds = idsParam(ctx, 'roleIds', 'roleId');
    if (!userIds.length || !roleIds.length) throw badRequest('请选择用户和角色');
    const roles = await store.find(services.m('role'), caller.tenantId, { where: { id: roleIds } });
    if (roles.length !== roleIds.length) throw badRequest('角色不存在');
    const found = await store.find(users(), caller.tenantId, { where: { id: userIds } });
    if (found.length !== userIds.length) throw badRequest('用户不存在或已被删除');
    for (const id of userIds) await store.update(users(), caller, id, { roleId: roleIds.join(',') });
    return undefined;
  });

  /** Depots: many per user, exactly one default (isDefaults: 2 marks it, as yes_no). */
  services.register('user.assignDepot', async (ctx) => {
    const caller = mustCaller(ctx);
    const userIds = idsParam(ctx, 'userIds', 'userId');
    const depotIds = idsParam(ctx, 'depotIds');
    const isDefaults = idsParam(ctx, 'isDefaults');
    const defaultDepot = valueParam(ctx, 'defaultDepotId') ?? depotIds[isDefaults.findIndex((d) => d === '2' || d === 'true')];
    if (!userIds.length) throw badRequest('请选择用户');
    if (depotIds.length && !defaultDepot) throw badRequest('请设置一个默认仓库');
    if (isDefaults.filter((d) => d === '2' || d === 'true').length > 1) throw badRequest('默认仓库只能有一个');
    if (defaultDepot && !depotIds.includes(defaultDepot)) throw badRequest('默认仓库必须是已分配的仓库');
    const found = await store.find(users(), caller.tenantId, { where: { id: userIds } });
    if (found.length !== userIds.length) throw badRequest('用户不存在或已被删除');
    await store.transaction(async (db) => {
      for (const userId of userIds) {
        await db.deleteFrom('blade_user_depot').where('tenant_id', '=', caller.tenantId).where('user_id', '=', userId).execute();
        for (const depotId of depotIds) {
          await store.insert(services.internal.userDepot, caller, { userId, depotId, isDefault: depotId === defaultDepot ? 2 : 1 }, { db });
        }
      }
    });
    return undefined;
  });

  services.register('user.assignBarter', async (ctx) => {
    const caller = mustCaller(ctx);
    const userIds = idsParam(ctx, 'userIds', 'userId');
    const barterIds = idsParam(ctx, 'barterIds', 'bartererIds');
    if (!userIds.length) throw badRequest('请选择用户');
    const found = await store.find(users(), caller.tenantId, { where: { id: userIds } });
    if (found.length !== userIds.length) throw badRequest('用户不存在或已被删除');
    await store.transaction(async (db) => {
      for (const userId of userIds) {
        await db.deleteFrom('blade_user_barter').where('tenant_id', '=', caller.tenantId).where('user_id', '=', userId).execute();
        for (const bartererId of barterIds) await store.insert(services.internal.userBarter, caller, { userId, bartererId }, { db });
      }
    });
    return undefined;
  });

  services.register('user.unlock', async (ctx) => {
    const caller = mustCaller(ctx);
    const ids = idsParam(ctx, 'userIds', 'ids', 'id');
    const found = await store.find(users(), caller.tenantId, { where: { id: ids } });
    const accounts = found.map((u) => String(u.account));
    if (accounts.length) {
      // The account's count from anywhere and its lock at every address (account|address).
      await store.db
        .deleteFrom('blade_login_fail')
        .where('tenant_id', '=', caller.tenantId)
        .where((eb) =>
          eb.or(
            accounts.flatMap((a) => {
              const prefix = `${a.slice(0, 52)}|`;
              return [eb('account', '=', a), eb(sql<string>`substr(account, 1, ${prefix.length})`, '=', prefix)];
            }),
          ),
        )
        .execute();
      store.invalidate('blade_login_fail');
    }
    return undefined;
  });

  /**
   * Guest registration after a social sign-in without a bound user: creates the user in the
   * default role "guest" and binds the oauth record. Controlled by param account.registerUser.
   */
  services.register('user.registerGuest', async (ctx) => {
    const data = body(ctx);
    const tenantId = String(data.tenantId ?? valueParam(ctx, 'tenantId') ?? '');
    const account = String(data.account ?? '');
    const name = String(data.name ?? '');
    const password = String(data.password ?? '');
    const oauthId = String(data.oauthId ?? '');
    if (!tenantId || !account || !password || !name) throw badRequest('请输入租户ID、账号、姓名和密码');
    const tenants = await store.find(services.m('tenant'), PLATFORM_TENANT, { where: { tenantId } });
    if (!tenants.length) throw badRequest('租户ID未找到');
    const allowed = await store.find(services.m('param'), tenantId, { where: { paramKey: 'account.registerUser' } });
    if (String(allowed[0]?.paramValue ?? 'false') !== 'true') throw badRequest('当前租户未开放注册');
    const guestRole = (await store.find(services.m('role'), tenantId, { where: { roleAlias: 'guest' } }))[0];
    const dept = (await store.find(services.m('dept'), tenantId, { limit: 1, orderBy: [{ column: 'sort', dir: 'asc' }] }))[0];
    if (!guestRole || !dept) throw badRequest('租户未配置访客角色');
    const actor = { tenantId, userId: '0' };
    const guestCtx: Ctx = { ...ctx, caller: { ...actor, account, roleIds: [], roleAliases: [], deptIds: [], clientId: '', sessionId: '', isAdmin: false } };
    const row = await insertEntity(guestCtx, users(), {
      account, password: await hashPassword(asMd5(password)), realName: name, name, roleId: String(guestRole.id), deptId: String(dept.id), userType: 1,
    });
    if (oauthId) {
      const binding = await store.get(services.m('user-oauth'), tenantId, oauthId);
      if (binding && !binding.userId) await store.update(services.m('user-oauth'), actor, oauthId, { userId: row.id });
    }
    return { id: row.id, account };
  });
}
