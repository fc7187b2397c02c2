/**
 * 会员设置 (schemas/marketing/member-settings.json): one row per tenant, made when the tenant is
 * set up and edited, never added (as 公司信息). The points calls read it through memberSettingsOf.
 */
import type { Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { badRequest } from '../errors.ts';
import { runOp } from '../engine/ops.ts';

const YES = 2;
const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';

/** The tenant's member settings (the seeded row); an empty object if it is missing. */
export async function memberSettingsOf(services: Services, tenantId: string): Promise<Row> {
  const [row] = await services.store.find(services.m('member-settings'), tenantId, { where: { code: 'default' }, limit: 1 });
  return row ?? {};
}

/** Whether customers may exchange points now (会员积分 enabled; a tenant without the row counts as enabled). */
export function pointsEnabled(settings: Row): boolean {
  return blank(settings.enabled) || Number(settings.enabled) === YES;
}

