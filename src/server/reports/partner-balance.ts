/**
 * 往来余额 (spec §7 Reports): businessbalance arlist / aplist with their sumtotals and the 往来明细
 * tab's bill-type options (arYwcheckSearchType, apYwcheckSearchType), and bartererbalance arlist /
 * arlistsumtotal (客户欠款 as of a day, with credit-term due amounts). Per partner, the party ledger
 * is summed in SQL through the views erp_ar_balance_flow / erp_ap_balance_flow (schemas/analysis/
 * ar-balance.json, ap-balance.json define every figure). A closing balance is Σ of the same ledger
 * rows erp_party_balance caches, so it reconciles with it to the cent.
 * Also the partner helpers the invoicing reports share: the partner a call names, and the partners
 * it may show under the caller's data scope.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller, type Ctx } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { fillLookups } from '../engine/lookups.ts';
import { parseFilters } from '../engine/query.ts';
import { tenantPlaces } from '../engine/document/context.ts';
import { Dec, fixed, type Decimal, type Places } from '../../shared/money/index.ts';
import { formatDate } from '../../shared/dates.ts';
import { documentOf } from '../../shared/document.ts';
import { valueParam } from '../system/params.ts';
import { addDays, dayParam, periodOf, type Period } from './period.ts';
import { decimalReader, pageOf, sortRows, type SortKey } from './report-rows.ts';
import { materializedOf, readRollup, type KeyFilter } from '../engine/materialized.ts';

export type Side = 'AR' | 'AP';

/** The last tie-break of partner rows: the partner id, compared as the sort keys are. */
export const ID_ORDER: SortKey = { field: 'id', dir: 1 };

const PARTNER = {
  AR: { model: 'customer', nature: 'customer-nature', idParam: 'customerId' },
  AP: { model: 'supplier', nature: 'supplier-nature', idParam: 'supplierId' },
} as const;

/** Query keys that are a report's own: never passed to the partner list's filters. */
const OWN_KEYS = new Set([
  'id', 'bartererId', 'bartererId_equal', 'customerId', 'supplierId', 'natureId', 'treeNatureId', 'queryDate', 'dateType',
  'billDateStart', 'billDateEnd', 'inOutId', 'kind', 'billNo', 'billType', 'invoiceStatus',
]);

/** The one partner a call names exactly (bartererId, bartererId_equal, customerId or supplierId). */
export function partnerParam(ctx: Ctx, side: Side): string | undefined {
  return valueParam(ctx, 'bartererId', 'bartererId_equal', PARTNER[side].idParam);
}

/** A category and every category under it (natureId / treeNatureId pick a subtree). */
async function natureSubtree(services: Services, tenantId: string, side: Side, root: string): Promise<Set<string>> {
  const rows = await services.store.find(services.m(PARTNER[side].nature), tenantId);
  const children = new Map<string, string[]>();
  for (const r of rows) children.set(String(r.parentId), [...(children.get(String(r.parentId)) ?? []), String(r.id)]);
  const out = new Set<string>();
  const walk = (id: string) => {
    if (out.has(id)) return;
    out.add(id);
    for (const c of children.get(id) ?? []) walk(c);
  };
  walk(root);
  return out;
}

/**
 * Of `ids`, the partners the call may show, with their display names: the partner list's own
 * filters (bartererName, bartererCode, staffId … as on the customer / supplier page), natureId or
 * treeNatureId (that category with its sub-categories), and the caller's data scope on partners.
 */
export async function visiblePartners(services: Services, ctx: Ctx, side: Side, ids: string[], names = true): Promise<Map<string, Row>> {
  const caller = mustCaller(ctx);
  const model = services.m(PARTNER[side].model);
  const query = Object.fromEntries(Object.entries(ctx.query).filter(([k]) => !OWN_KEYS.has(k) && !k.startsWith('billDate')));
  const conditions = parseFilters(model, query, 'map');
  const scope = await services.perms.dataScope(caller, model);
  if (scope) conditions.push(scope);
  const natureRoot = valueParam(ctx, 'treeNatureId', 'natureId');
  const natures = natureRoot && natureRoot !== '-1' ? await natureSubtree(services, caller.tenantId, side, natureRoot) : undefined;
  const out = new Map<string, Row>();
  for (let i = 0; i < ids.length; i += 5000) {
    const rows = await services.store.find(model, caller.tenantId, { where: { id: ids.slice(i, i + 5000) }, conditions });
    const kept = natures ? rows.filter((r) => natures.has(String(r.natureId ?? ''))) : rows;
    if (names) await fillLookups(services, model, caller.tenantId, kept);
    for (const r of kept) out.set(String(r.id), r);
  }
  return out;
}

/** A sort asked for (ascs/descs) may name any field: the partners' display names are then needed for every row. */
export const sortAsked = (ctx: Ctx) => Boolean(ctx.query.ascs || ctx.query.descs);

/**
 * The display names (category, salesperson: lookups) of the partners on a page whose partners were
 * read without them (visiblePartners(…, names = false)), set on the page's rows.
 */
export async function namePage(services: Services, ctx: Ctx, side: Side, records: Row[], seen: Map<string, Row>): Promise<void> {
  const partners = [...new Set(records.map((r) => String(r.bartererId ?? '')))].map((id) => seen.get(id)).filter((p): p is Row => p !== undefined);
  if (!partners.length) return;
  await fillLookups(services, services.m(PARTNER[side].model), mustCaller(ctx).tenantId, partners);
  for (const r of records) {
    const p = seen.get(String(r.bartererId ?? ''));
    r.natureName = p?.natureName ?? null;
    r.staffName = p?.staffName ?? null;
  }
}

export const partnerFields = (p: Row | undefined): Row => ({
  bartererCode: p?.bartererCode ?? null,
  bartererName: p?.bartererName ?? null,
  natureId: p?.natureId ?? null,
  natureName: p?.natureName ?? null,
  staffId: p?.staffId ?? null,
  staffName: p?.staffName ?? null,
});

// ───────────── balances ─────────────

const VIEW: Record<Side, string> = { AR: 'erp_ar_balance_flow', AP: 'erp_ap_balance_flow' };

interface Balance {
  partnerId: string;
  begin: Decimal;
  increase: Decimal;
  decrease: Decimal;
  end: Decimal;
  moves: number;
  lastReceipt: string | null;
}

const MONEY = ['beginBalance', 'increaseAmt', 'decreaseAmt', 'endBalance'] as const;

export function registerPartnerBalanceHandlers(services: Services) {
  const { store } = services;
  const dec = decimalReader(services);

  /** Bill types of money received (AR) or paid (AP) on account: the settle bills that are no refund. */
  const moneyTypes = (side: Side) =>
    [...services.registry.models.values()]
      .map((m) => documentOf(m.resource))
      .filter((d) => d?.settle && !d.settle.refund && d.posting?.party === side)
      .map((d) => d!.billType);

  /** Bill types of money received (AR) or paid (AP) on account, as the SQL condition of a receipt row. */
  const receiptCondition = (side: Side) => {
    const types = moneyTypes(side);
    return sql`(entry = 'receipt' or (entry = 'post' and bill_type in (${sql.join(types.length ? types : ['-'])})))`;
  };

  /**
   * Σ of the ledger per partner: before the period, its increases and decreases, up to its end.
   * A materialized flow view (erp_ar_balance_flow) is read from its monthly rollup per partner
   * (whole months) and its own rows (the days around them): the opening is Σ before the period,
   * the closing the opening plus the period's Σ — the same rows the ledger holds, so the same sums.
   * `withLastReceipt`: also the last receipt day up to the period's end (the as-of list shows it).
   */
  async function balances(tenantId: string, side: Side, period: Period, partnerId?: string, withLastReceipt = false): Promise<Balance[]> {
    if (materializedOf(services.registry, VIEW[side])) return balancesFromRollup(tenantId, side, period, partnerId, withLastReceipt);
    const where: RawBuilder<unknown>[] = [sql`tenant_id = ${tenantId}`];
    if (period.to) where.push(sql`flow_date <= ${period.to}`);
    if (partnerId) where.push(sql`barterer_id = ${partnerId}`);
    const inPeriod = period.from ? sql`flow_date >= ${period.from}` : sql`1 = 1`;
    const receipt = receiptCondition(side);
    const result = await sql<Record<string, unknown>>`select barterer_id as k,
        sum(case when ${inPeriod} then 0 else amount end) as begin_amt,
        sum(case when ${inPeriod} then increase_amt else 0 end) as increase_amt,
        sum(case when ${inPeriod} then decrease_amt else 0 end) as decrease_amt,
        sum(amount) as end_amt,
        sum(case when ${inPeriod} then 1 else 0 end) as moves,
        max(case when ${receipt} then flow_date end) as last_receipt
      from ${sql.table(VIEW[side])} where ${sql.join(where, sql` and `)} group by barterer_id`.execute(store.db);
    return result.rows
      .map((r) => ({
        partnerId: String(r.k ?? ''),
        begin: dec(r.begin_amt),
        increase: dec(r.increase_amt),
        decrease: dec(r.decrease_amt),
        end: dec(r.end_amt),
        moves: Number(r.moves ?? 0),
        lastReceipt: r.last_receipt === null || r.last_receipt === undefined ? null : String(r.last_receipt).slice(0, 10),
      }))
      .filter((b) => b.moves > 0 || !b.begin.isZero() || !b.end.isZero());
  }

  async function balancesFromRollup(tenantId: string, side: Side, period: Period, partnerId: string | undefined, withLastReceipt: boolean): Promise<Balance[]> {
    const filter: KeyFilter = partnerId ? { barterer_id: partnerId } : {};
    const read = (from: string | undefined, to: string | undefined) =>
      readRollup(services.registry, VIEW[side], 'party', { tenantId, from, to, filter, group: 'barterer_id' }).execute(store.db);
    const where: RawBuilder<unknown>[] = [sql`tenant_id = ${tenantId}`, receiptCondition(side)];
    // The day as an expression: read through the (partner, entry, type, day) index, not the day index.
    if (period.to) where.push(sql`(flow_date || '') <= ${period.to}`);
    if (partnerId) where.push(sql`barterer_id = ${partnerId}`);
    const [inside, before, receipts] = await Promise.all([
      read(period.from, period.to),
      period.from ? read(undefined, addDays(period.from, -1)) : undefined,
      withLastReceipt
        ? sql<Record<string, unknown>>`select barterer_id as k, max(flow_date) as d from ${sql.table(VIEW[side])} where ${sql.join(where, sql` and `)} group by barterer_id`.execute(store.db)
        : undefined,
    ]);
    const zero = new Dec(0);
    const out = new Map<string, Balance>();
    const entry = (k: unknown) => {
      const key = String(k ?? '');
      let b = out.get(key);
      if (!b) out.set(key, (b = { partnerId: key, begin: zero, increase: zero, decrease: zero, end: zero, moves: 0, lastReceipt: null }));
      return b;
    };
    for (const r of before?.rows ?? []) entry(r.k).begin = dec(r.amount);
    for (const r of inside.rows) Object.assign(entry(r.k), { increase: dec(r.increase_amt), decrease: dec(r.decrease_amt), end: dec(r.amount), moves: Number(r.line_count ?? 0) });
    for (const b of out.values()) b.end = b.begin.plus(b.end);
    for (const r of receipts?.rows ?? []) {
      const b = out.get(String(r.k ?? ''));
      if (b && r.d !== null && r.d !== undefined) b.lastReceipt = String(r.d).slice(0, 10);
    }
    // The ledger's partner key: '' in a rollup is a row without a partner (none are written).
    return [...out.values()].filter((b) => b.moves > 0 || !b.begin.isZero() || !b.end.isZero());
  }

  const figures = (b: Balance, places: Places): Row => ({
    beginBalance: fixed(b.begin, places.amount),
    increaseAmt: fixed(b.increase, places.amount),
    decreaseAmt: fixed(b.decrease, places.amount),
    endBalance: fixed(b.end, places.amount),
  });

  /** Σ of the money columns of rows (all pages), with the partner count. */
  const totals = (rows: Row[], fields: readonly string[], places: Places): Row => {
    const out: Row = { partnerCount: rows.length };
    for (const f of fields) out[f] = fixed(rows.reduce<Decimal>((s, r) => s.plus(String(r[f] ?? '0')), new Dec(0)), places.amount);
    return out;
  };

  /** businessbalance arlist / aplist rows: every partner with a balance or a movement, by code. */
  async function periodRows(ctx: Ctx, side: Side, names: boolean): Promise<{ rows: Row[]; period: Period; places: Places; seen: Map<string, Row> }> {
    const caller = mustCaller(ctx);
    const places = await tenantPlaces(services, caller.tenantId);
    const period = periodOf(ctx);
    const found = await balances(caller.tenantId, side, period, partnerParam(ctx, side));
    const seen = await visiblePartners(services, ctx, side, found.map((b) => b.partnerId), names);
    const rows = found
      .filter((b) => seen.has(b.partnerId))
      .map((b) => ({ id: b.partnerId, bartererId: b.partnerId, kind: side, ...partnerFields(seen.get(b.partnerId)), ...figures(b, places) }) as Row);
    sortRows(ctx, rows, [{ field: 'bartererCode', dir: 1 }, { field: 'bartererName', dir: 1 }], ID_ORDER);
    return { rows, period, places, seen };
  }

  // Display names only for the page's partners, unless a sort asks for any field (then for all).
  const list = (side: Side) => async (ctx: Ctx) => {
    const { rows, period, seen } = await periodRows(ctx, side, sortAsked(ctx));
    const page = pageOf(ctx, rows, { dateFrom: period.from ?? null, dateTo: period.to ?? null });
    if (!sortAsked(ctx)) await namePage(services, ctx, side, page.records as Row[], seen);
    return page;
  };
  const sumTotal = (side: Side) => async (ctx: Ctx) => {
    const { rows, period, places } = await periodRows(ctx, side, false);
    return { ...totals(rows, MONEY, places), dateFrom: period.from ?? null, dateTo: period.to ?? null };
  };
  services.register('partnerBalance.arList', list('AR'));
  services.register('partnerBalance.apList', list('AP'));
  services.register('partnerBalance.arSumTotal', sumTotal('AR'));
  services.register('partnerBalance.apSumTotal', sumTotal('AP'));
  services.register('partnerBalance.arBillTypes', (ctx) => billTypeOptions(ctx, 'AR'));
  services.register('partnerBalance.apBillTypes', (ctx) => billTypeOptions(ctx, 'AP'));

  /** The bill types in the partners' ledger (one partner by bartererId; a category by treeNatureId), as options. */
  async function billTypeOptions(ctx: Ctx, side: Side) {
    const caller = mustCaller(ctx);
    const partnerId = partnerParam(ctx, side);
    const where: RawBuilder<unknown>[] = [sql`tenant_id = ${caller.tenantId}`];
    if (partnerId) where.push(sql`barterer_id = ${partnerId}`);
    const pairs = (await sql<{ k: string; t: string }>`select distinct barterer_id as k, bill_type as t from ${sql.table(VIEW[side])} where ${sql.join(where, sql` and `)}`.execute(store.db)).rows;
    const seen = await visiblePartners(services, ctx, side, [...new Set(pairs.map((p) => String(p.k)))]);
    const types = [...new Set(pairs.filter((p) => seen.has(String(p.k)) && p.t).map((p) => String(p.t)))].sort();
    const dict = services.registry.dicts.find((d) => d.code === 'bill_type')?.items ?? [];
    return types.map((key) => {
      const item = dict.find((i) => i.key === key);
      return { key, value: item?.value ?? key, valueEn: item?.valueEn ?? key };
    });
  }

  // ───────────── bartererbalance: 客户欠款 as of a day ─────────────

  /** The as-of day (billDate_datele, queryDate, else today) and the period ending on it (default: its month). */
  function asOfPeriod(ctx: Ctx): { from: string; to: string } {
    const given = periodOf(ctx);
    const explicitFrom = dayParam(ctx, 'billDate_datege', '开始日期');
    const to = given.to ?? formatDate();
    const from = explicitFrom ?? (given.from && given.from !== given.to ? given.from : `${to.slice(0, 7)}-01`);
    if (from > to) throw badRequest('开始日期不能晚于截止日期');
    return { from, to };
  }

  /**
   * What of each customer's positive balance is due on `asOf`: the balance less what was raised in
   * the last 账期天数 days (payments settle the oldest debts first); 0 days (no credit terms) → all due.
   */
  async function dueSplit(tenantId: string, asOf: string, debtors: { id: string; days: number; end: Decimal }[]): Promise<Map<string, Decimal>> {
    const due = new Map<string, Decimal>();
    const longest = Math.min(3660, Math.max(0, ...debtors.map((d) => d.days)));
    const recent = new Map<string, { day: string; amt: Decimal }[]>();
    if (longest > 0 && debtors.length) {
      const ids = debtors.filter((d) => d.days > 0).map((d) => d.id);
      for (let i = 0; i < ids.length; i += 5000) {
        const rows = await sql<Record<string, unknown>>`select barterer_id as k, flow_date as d, sum(increase_amt) as amt from ${sql.table(VIEW.AR)}
          where tenant_id = ${tenantId} and flow_date > ${addDays(asOf, -longest)} and flow_date <= ${asOf} and barterer_id in (${sql.join(ids.slice(i, i + 5000))})
          group by barterer_id, flow_date`.execute(store.db);
        for (const r of rows.rows) recent.set(String(r.k), [...(recent.get(String(r.k)) ?? []), { day: String(r.d).slice(0, 10), amt: dec(r.amt) }]);
      }
    }
    for (const d of debtors) {
      const since = addDays(asOf, -d.days);
      const raised = (recent.get(d.id) ?? []).filter((r) => r.day > since).reduce<Decimal>((s, r) => s.plus(r.amt), new Dec(0));
      const notDue = Dec.min(d.end, Dec.max(raised, 0));
      due.set(d.id, d.end.minus(notDue));
    }
    return due;
  }

  async function asOfRows(ctx: Ctx, names: boolean): Promise<{ rows: Row[]; period: { from: string; to: string }; places: Places; seen: Map<string, Row> }> {
    const caller = mustCaller(ctx);
    const places = await tenantPlaces(services, caller.tenantId);
    const period = asOfPeriod(ctx);
    const found = await balances(caller.tenantId, 'AR', period, partnerParam(ctx, 'AR'), true);
    const seen = await visiblePartners(services, ctx, 'AR', found.map((b) => b.partnerId), names);
    const kept = found.filter((b) => seen.has(b.partnerId));
    const termsOf = (id: string) => {
      const c = seen.get(id);
      return Number(c?.isPeriodContract) === 2 ? Math.max(0, Number(c?.periodDays ?? 0) || 0) : 0;
    };
    const due = await dueSplit(caller.tenantId, period.to, kept.filter((b) => b.end.gt(0)).map((b) => ({ id: b.partnerId, days: termsOf(b.partnerId), end: b.end })));
    const rows = kept.map((b) => {
      const dueAmt = due.get(b.partnerId) ?? new Dec(0);
      const notDue = b.end.gt(0) ? b.end.minus(dueAmt) : new Dec(0);
      const c = seen.get(b.partnerId);
      return {
        id: b.partnerId,
        bartererId: b.partnerId,
        kind: 'AR',
        ...partnerFields(c),
        isPeriodContract: Number(c?.isPeriodContract ?? 1) === 2 ? 2 : 1,
        periodDays: termsOf(b.partnerId),
        ...figures(b, places),
        dueAmt: fixed(dueAmt, places.amount),
        notDueAmt: fixed(notDue, places.amount),
        lastReceiptDate: b.lastReceipt,
        asOfDate: period.to,
      } as Row;
    });
    sortRows(ctx, rows, [{ field: 'endBalance', dir: -1 }, { field: 'bartererCode', dir: 1 }], ID_ORDER);
    return { rows, period, places, seen };
  }

  services.register('partnerBalance.arAsOfList', async (ctx) => {
    const { rows, period, seen } = await asOfRows(ctx, sortAsked(ctx));
    const page = pageOf(ctx, rows, { dateFrom: period.from, dateTo: period.to });
    if (!sortAsked(ctx)) await namePage(services, ctx, 'AR', page.records as Row[], seen);
    return page;
  });
  services.register('partnerBalance.arAsOfSumTotal', async (ctx) => {
    const { rows, period, places } = await asOfRows(ctx, false);
    return { ...totals(rows, [...MONEY, 'dueAmt', 'notDueAmt'], places), dateFrom: period.from, dateTo: period.to };
  });
}
