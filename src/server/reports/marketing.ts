/**
 * Marketing analysis (营销分析): per campaign and per coupon, the orders, customers, quantity,
 * saving and sales of its participation rows in the period (view erp_marketing_analysis: campaign
 * participation rows and used customer coupons), coupons with their counters. Meanings:
 * schemas/marketing/marketing-analysis.json.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller, type Ctx } from '../http/context.ts';
import { fillLookups } from '../engine/lookups.ts';
import { tenantPlaces } from '../engine/document/context.ts';
import { badRequest } from '../errors.ts';
import { Dec, fixed } from '../../shared/money/index.ts';
import { valueParam } from '../system/params.ts';
import { countOf, decimalReader, idParam, pageOf, percent, periodConditions, periodFor, sortRows, whereOf } from './report-rows.ts';
import type { Period } from './period.ts';

const VIEW = 'erp_marketing_analysis';
const SOURCE = { campaign: 1, coupon: 2 } as const;

interface Query {
  where: RawBuilder<unknown>;
  period: Period;
}

/** A whole-number filter sent as `name` or `name_equal`; anything else is a bad request. */
function kindParam(ctx: Ctx, name: string, title: string): number | undefined {
  const raw = valueParam(ctx, name, `${name}_equal`)?.trim();
  if (!raw) return undefined;
  if (!/^\d+$/.test(raw)) throw badRequest(`${title}应为整数`);
  return Number(raw);
}

/** The request's filters over the view: tenant, period of participation, source, kinds, campaign, customer. */
function queryOf(ctx: Ctx, tenantId: string): Query {
  const period = periodFor(ctx, 'joinTime', '参与');
  const conditions = [sql`tenant_id = ${tenantId}`, sql`is_deleted = 0`, ...periodConditions('join_time', period)];
  const source = kindParam(ctx, 'source', '营销方式');
  if (source !== undefined) conditions.push(sql`source = ${source}`);
  const marketingType = kindParam(ctx, 'marketingType', '活动类型');
  if (marketingType !== undefined) conditions.push(sql`marketing_type = ${marketingType}`);
  const couponType = kindParam(ctx, 'couponType', '优惠券类型');
  if (couponType !== undefined) conditions.push(sql`coupon_type = ${couponType}`);
  const campaignId = idParam(ctx, 'campaignId');
  if (campaignId) conditions.push(sql`campaign_id = ${campaignId}`);
  const customerId = idParam(ctx, 'customerId');
  if (customerId) conditions.push(sql`customer_id = ${customerId}`);
  return { where: whereOf(conditions), period };
}

/**
 * One row per campaign and order: an order's lines of one campaign add up first, so an order
 * counts once, and an order whose rows cancel out (reversed) counts not at all.
 */
const perOrder = (where: RawBuilder<unknown>) => sql`select source, campaign_id, bill_id, customer_id,
    max(marketing_type) as marketing_type, max(coupon_type) as coupon_type,
    coalesce(sum(qty), 0) as q, coalesce(sum(promo_amt), 0) as p, coalesce(sum(final_amt), 0) as f
  from ${sql.table(VIEW)} where ${where} group by source, campaign_id, bill_id, customer_id`;
const live = sql`(q <> 0 or p <> 0 or f <> 0)`;

export function registerMarketingReportHandlers(services: Services) {
  /** Every campaign and coupon row of the query, figures at the tenant's places, names and counters filled. */
  async function campaignRows(ctx: Ctx): Promise<{ rows: Row[]; period: Period }> {
    const { tenantId } = mustCaller(ctx);
    const places = await tenantPlaces(services, tenantId);
    const { where, period } = queryOf(ctx, tenantId);
    const result = await sql<Record<string, unknown>>`select source, campaign_id, max(marketing_type) as marketing_type, max(coupon_type) as coupon_type,
        count(case when ${live} then 1 end) as bill_count,
        count(distinct case when ${live} then customer_id end) as customer_count,
        sum(q) as qty, sum(p) as promo_amt, sum(f) as final_amt
      from (${perOrder(where)}) x group by source, campaign_id`.execute(services.store.db);
    const dec = decimalReader(services);
    const rows: Row[] = result.rows.map((r) => ({
      source: Number(r.source),
      campaignId: String(r.campaign_id ?? ''),
      marketingType: r.marketing_type === null || r.marketing_type === undefined ? null : Number(r.marketing_type),
      couponType: r.coupon_type === null || r.coupon_type === undefined ? null : Number(r.coupon_type),
      billCount: countOf(r.bill_count),
      customerCount: countOf(r.customer_count),
      qty: fixed(dec(r.qty), places.quantity),
      promoAmt: fixed(dec(r.promo_amt), places.amount),
      finalAmt: fixed(dec(r.final_amt), places.amount),
      couponNum: null,
      sentNum: null,
      usedNum: null,
      useRate: null,
    }));
    await fillLookups(services, services.m('marketing-analysis'), tenantId, rows);
    const couponIds = rows.filter((r) => r.source === SOURCE.coupon).map((r) => String(r.campaignId));
    const coupons = new Map((couponIds.length ? await services.store.find(services.m('coupon'), tenantId, { where: { id: couponIds } }) : []).map((c) => [String(c.id), c]));
    for (const row of rows) {
      if (row.source === SOURCE.coupon) {
        const c = coupons.get(String(row.campaignId));
        row.campaignName = (c?.couponName as string | undefined) ?? row.couponName ?? row.campaignId;
        row.kindName = `优惠券（${String(row.couponTypeName ?? '')}）`;
        if (c) {
          const sent = countOf(c.sendNum) + countOf(c.receiveNum);
          Object.assign(row, { couponNum: countOf(c.couponNum), sentNum: sent, usedNum: countOf(c.usedNum), useRate: percent(new Dec(countOf(c.usedNum)), new Dec(sent)) });
        }
      } else {
        row.campaignName = row.marketingName || row.campaignId;
        row.kindName = row.marketingTypeName ?? '';
      }
    }
    return { rows, period };
  }

  services.register('marketingReport.list', async (ctx) => {
    const { rows, period } = await campaignRows(ctx);
    sortRows(ctx, rows, [{ field: 'promoAmt', dir: -1 }, { field: 'finalAmt', dir: -1 }], { field: 'campaignId', dir: 1 });
    return pageOf(ctx, rows, { dateFrom: period.from ?? null, dateTo: period.to ?? null });
  });

  services.register('marketingReport.total', async (ctx) => {
    const { tenantId } = mustCaller(ctx);
    const places = await tenantPlaces(services, tenantId);
    const { rows, period } = await campaignRows(ctx);
    const add = (field: string) => rows.reduce((s, r) => s.plus(String(r[field])), new Dec(0));
    const { where } = queryOf(ctx, tenantId);
    const distinct = await sql<Record<string, unknown>>`select count(distinct case when ${live} then bill_id end) as orders,
        count(distinct case when ${live} then customer_id end) as buyers from (${perOrder(where)}) x`.execute(services.store.db);
    return {
      billCount: rows.reduce((n, r) => n + Number(r.billCount), 0),
      customerCount: rows.reduce((n, r) => n + Number(r.customerCount), 0),
      qty: fixed(add('qty'), places.quantity),
      promoAmt: fixed(add('promoAmt'), places.amount),
      finalAmt: fixed(add('finalAmt'), places.amount),
      orderCount: countOf(distinct.rows[0]?.orders),
      buyerCount: countOf(distinct.rows[0]?.buyers),
      dateFrom: period.from ?? null,
      dateTo: period.to ?? null,
    };
  });
}
