/**
 * 系统任务 marketingStatus: campaigns and coupons show the status their times give (未开始 →
 * 进行中/发放中 → 已结束/已过期) without anyone touching them; every tenant's rows in a few
 * conditional updates. Publishing, delaying and sending set the status at once; this keeps it true
 * as time passes. Pricing never reads these statuses: it compares the times itself.
 */
import { sql } from 'kysely';
import type { Services } from '../services.ts';
import type { Model } from '../engine/model.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { CAMPAIGN } from './campaigns.ts';
import { COUPON } from './coupons.ts';

async function move(services: Services, model: Model, statusField: string, to: string, from: string[], when: (col: (f: string) => string) => ReturnType<typeof sql>): Promise<number> {
  const col = (f: string) => model.fields.get(f)!.column;
  const status = col(statusField);
  const result = await sql`update ${sql.table(model.table)} set ${sql.ref(status)} = ${to}, version = version + 1, update_time = ${formatDateTime()}
    where is_deleted = 0 and ${sql.ref(status)} in (${sql.join(from)}) and ${when(col)}`.execute(services.store.db);
  services.store.invalidate(model.table);
  return Number(result.numAffectedRows ?? 0);
}

export async function refreshMarketingStatuses(services: Services, now = formatDateTime()): Promise<string> {
  const campaigns = services.m('marketing');
  const coupons = services.m('coupon');
  const ended = await move(services, campaigns, 'billStatus', CAMPAIGN.ended, [CAMPAIGN.upcoming, CAMPAIGN.running, CAMPAIGN.extended], (c) => sql`${sql.ref(c('endTime'))} < ${now}`);
  const started = await move(services, campaigns, 'billStatus', CAMPAIGN.running, [CAMPAIGN.upcoming], (c) => sql`${sql.ref(c('beginTime'))} <= ${now}`);
  const expired = await move(services, coupons, 'couponStatus', COUPON.expired, [COUPON.upcoming, COUPON.issuing, COUPON.allGone], (c) => sql`${sql.ref(c('endTime'))} < ${now}`);
  const issuing = await move(services, coupons, 'couponStatus', COUPON.issuing, [COUPON.upcoming], (c) => sql`${sql.ref(c('beginTime'))} <= ${now} and ${sql.ref(c('unSendNum'))} > 0`);
  return `活动开始 ${started} 个、结束 ${ended} 个；优惠券开始发放 ${issuing} 张、过期 ${expired} 张`;
}
