import type { Services } from '../services.ts';
import { mustCaller } from '../http/context.ts';
import type { Row } from '../engine/store.ts';
import { fillLookups } from '../engine/lookups.ts';
import { badRequest } from '../errors.ts';
import { formatDate } from '../../shared/dates.ts';
import { idsParam, valueParam } from '../system/params.ts';

/** "2年3个月" from an entry date to today. */
export function workingYears(entryDate: unknown, today = new Date()): string {
  const text = String(entryDate ?? '').slice(0, 10);
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return '';
  let months = (today.getFullYear() - Number(m[1])) * 12 + (today.getMonth() + 1 - Number(m[2]));
  if (today.getDate() < Number(m[3])) months--;
  if (months < 0) return '';
  const years = Math.floor(months / 12);
  const rest = months % 12;
  return years ? `${years}年${rest ? `${rest}个月` : ''}` : `${rest}个月`;
}

export function registerStaffHandlers(services: Services) {
  const { store } = services;

  /** The signed-in user's staff card: profile, service length, department head, latest applications. */
  services.register('staffProfile.info', async (ctx) => {
    const caller = mustCaller(ctx);
    const staffModel = services.m('staff');
    let staff: Row | undefined = (await store.find(staffModel, caller.tenantId, { where: { userId: caller.userId }, limit: 1 }))[0];
    if (!staff) {
      const user = await store.get(services.m('user'), caller.tenantId, caller.userId);
      if (user?.staffId) staff = await store.get(staffModel, caller.tenantId, String(user.staffId));
    }
    // No linked staff is a normal state for accounts like admin: an empty card, not an error.
    if (!staff) return null;
    const me: Row = staff;
    await fillLookups(services, staffModel, caller.tenantId, [me]);
    const heads = me.deptId
      ? await store.find(staffModel, caller.tenantId, { where: { deptId: String(me.deptId), isDeptHead: 2 } })
      : [];
    const latest = async (resource: string) =>
      (await store.find(services.m(resource), caller.tenantId, {
        where: { staffId: String(me.id) },
        orderBy: [{ column: 'create_time', dir: 'desc' }, { column: 'id', dir: 'desc' }],
        limit: 1,
      }))[0] as Row | undefined;
    const formal = await latest('formal-application');
    const rank = await latest('rank-application');
    return {
      ...me,
      staffId: me.id,
      workingYears: workingYears(me.entryDate),
      deptLeaderName: heads.map((h) => h.staffName).join(','),
      formalAuditStatus: formal?.auditStatus ?? '',
      rankAuditStatus: rank?.auditStatus ?? '',
    };
  });

  /** Hands assets to a staff member: each asset must be idle; asset row, hand-out record and log move together. */
  services.register('staffAssets.use', async (ctx) => {
    const caller = mustCaller(ctx);
    const staffId = valueParam(ctx, 'staffId');
    const ids = idsParam(ctx, 'assetsIds', 'assetsId', 'ids', 'id');
    if (!staffId) throw badRequest('请选择领用人');
    if (!ids.length) throw badRequest('请选择资产');
    const staff = await store.get(services.m('staff'), caller.tenantId, staffId);
    if (!staff) throw badRequest('领用人不存在');
    const useTime = valueParam(ctx, 'useTime') ?? `${formatDate()} 00:00:00`;
    const remark = valueParam(ctx, 'remark') ?? '';
    const versionText = valueParam(ctx, 'version');
    const assets = services.m('assets');
    await store.transaction(async () => {
      for (const id of ids) {
        const asset = await store.mustGet(assets, caller.tenantId, id);
        if (String(asset.assetsStatus) !== '1') throw badRequest(`资产${asset.assetsCode}当前不是闲置状态，不能领用`);
        await store.update(assets, caller, id, { assetsStatus: 2, staffId, deptId: staff.deptId ?? '', useTime }, {
          includeReadonly: true,
          version: versionText !== undefined && ids.length === 1 ? Number(versionText) : undefined,
        });
        await store.insert(services.m('staff-assets'), caller, { staffId, deptId: staff.deptId ?? '', assetsId: id, useTime, remark }, { includeReadonly: true });
        await store.insert(services.m('assets-log'), caller, { assetsId: id, operateType: 2, assetsStatus: 2, staffId, remark }, { includeReadonly: true });
      }
    });
    return undefined;
  });
}
