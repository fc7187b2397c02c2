/**
 * 买家账号: a member (会员, a customer's mall buyer) signs in to the mall with a user of its own:
 * user type 2 (App), role 商城买家 (alias buyer, no menus), account = the member's phone. The
 * member's memberId names that user; the mall's calls find the buyer's customer through it.
 */
import type { Services } from '../services.ts';
import type { Caller } from '../http/context.ts';
import { mergeJsonBody, mustCaller, param, type Ctx } from '../http/context.ts';
import type { Row } from '../engine/store.ts';
import { badRequest, forbidden, notFound } from '../errors.ts';
import { insertEntity } from '../engine/ops.ts';
import { hashPassword, isMd5Hex, md5Hex } from '../auth/passwords.ts';

export const BUYER_ROLE = 'buyer';
const APP_USER = 2;
const FORBIDDEN_MEMBER = 2;

const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';

/** The buyer behind a mall call: the caller's member record (enabled) and its customer. */
export async function buyerOf(services: Services, caller: Caller): Promise<{ member: Row; customerId: string }> {
  const [member] = await services.store.find(services.m('member'), caller.tenantId, { where: { memberId: caller.userId }, limit: 1 });
  if (!member) throw forbidden('只有商城买家账号可以在商城下单');
  if (Number(member.status) === FORBIDDEN_MEMBER) throw forbidden('会员已被禁用，不能下单');
  return { member, customerId: String(member.customerId) };
}

async function buyerRole(services: Services, ctx: Ctx): Promise<string> {
  const caller = mustCaller(ctx);
  const roles = services.m('role');
  const [role] = await services.store.find(roles, caller.tenantId, { where: { roleAlias: BUYER_ROLE }, limit: 1 });
  if (role) return String(role.id);
  const made = await insertEntity(ctx, roles, { roleName: '商城买家', roleAlias: BUYER_ROLE, sort: 99, parentId: '0', remark: '商城买家账号的角色：不能进入后台菜单，只能调用商城接口' });
  return String(made.id);
}

export function registerBuyerHandlers(services: Services) {
  /** member/openAccount (id, password): the member's buyer account, signing in with its phone. */
  services.register('member.openAccount', async (ctx: Ctx, model) => {
    mergeJsonBody(ctx);
    const caller = mustCaller(ctx);
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    const password = param(ctx, 'password') ?? '';
    if (password.length < 6 && !isMd5Hex(password)) throw badRequest('密码至少6位', { fieldErrors: { password: '密码至少6位' } });
    const member = await services.store.get(model, caller.tenantId, id);
    if (!member) throw notFound('会员不存在或已被删除');
    if (!blank(member.memberId)) throw badRequest('该会员已开通买家账号');
    const users = services.m('user');
    const account = String(member.phone);
    if ((await services.store.find(users, caller.tenantId, { where: { account }, limit: 1 })).length) throw badRequest(`账号 ${account} 已存在`);
    const [dept] = await services.store.find(services.m('dept'), caller.tenantId, { limit: 1, orderBy: [{ column: 'sort', dir: 'asc' }] });
    if (!dept) throw badRequest('租户还没有部门，不能开通买家账号');
    const user = await insertEntity(ctx, users, {
      account,
      password: await hashPassword(isMd5Hex(password) ? password.toLowerCase() : md5Hex(password)),
      realName: member.realName,
      name: member.realName,
      phone: member.phone,
      roleId: await buyerRole(services, ctx),
      deptId: String(dept.id),
      userType: APP_USER,
    });
    await services.store.update(model, caller, id, { memberId: String(user.id) });
    return { memberId: String(user.id), account };
  });
}
