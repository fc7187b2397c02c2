/**
 * The desk dashboard (工作台, blade-desk/index): its cards and lists, read in SQL from the ledgers and
 * the posted bills, exact on both databases (SQLite keeps decimals as integers scaled by 10^6, so a
 * SUM stays exact; PostgreSQL sums numeric). Meanings and shapes: schemas/desk/dashboard.json.
 */
import { sql, type RawBuilder } from 'kysely';
import { allowedKinds } from '../desk/bill-queue.ts';
import type { Services } from '../services.ts';
import type { Model } from '../engine/model.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller, type Caller, type Ctx } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { fillLookups } from '../engine/lookups.ts';
import { tenantPlaces } from '../engine/document/context.ts';
import { documentOf } from '../../shared/document.ts';
import { Dec, fixed, type Decimal } from '../../shared/money/index.ts';
import { formatDate } from '../../shared/dates.ts';
import { valueParam } from '../system/params.ts';
import { materializedOf, readRollup } from '../engine/materialized.ts';
import { conditionSql } from '../engine/query.ts';
import { addMonths } from './period.ts';
import { decimalReader } from './report-rows.ts';
import { LINES } from './sales.ts';

const POSTED = '1306';
const FLUSHED = '1308';

/**
 * Posted sales lines (sales-outs, sales returns, retail sales, retail returns; returns negative) are
 * read from the materialized view erp_sales_analysis (schemas/analysis/sales-analysis.json): whole
 * months from its `head` rollup (customer, salesman, department, bill type per month), the days
 * outside whole months from its rows. Each bill has one customer and one salesman, so its distinct
 * bill count adds up over months and those keys.
 */
const SALES_OUT_TYPES = ['0803', '0804'];
/** The bills whose last action left them in draft (1301) or waiting for approval (1302). */
const BILL_STATE = 'erp_ledger_bill_state';
/** Posted purchase-in and purchase-return lines, materialized with a monthly rollup (schemas/analysis/ledger-purchase.json). */
const PURCHASES = 'erp_ledger_purchase';

function sizeParam(ctx: Ctx, fallback: number, max: number): number {
  const raw = valueParam(ctx, 'size', 'limit');
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw badRequest(`条数应为 1 到 ${max} 之间的整数`);
  return n;
}

export function registerDashboardHandlers(services: Services) {
  const { store } = services;
  const dec = decimalReader(services);
  const rows = async (query: RawBuilder<Record<string, unknown>>) => (await query.execute(store.db)).rows;
  const billTypeName = (type: string) => services.registry.dicts.find((d) => d.code === 'bill_type')?.items.find((i) => i.key === type)?.value ?? type;

  /** Partners by kind → id → name (customers and suppliers). */
  async function partnerNames(tenantId: string, ids: { customer: string[]; supplier: string[] }): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const kind of ['customer', 'supplier'] as const) {
      const wanted = [...new Set(ids[kind].filter(Boolean))];
      if (!wanted.length) continue;
      for (const r of await store.find(services.m(kind), tenantId, { where: { id: wanted } })) out.set(`${kind}|${String(r.id)}`, String(r.bartererName ?? ''));
    }
    return out;
  }

  /** The rows of `ids` the caller may see under its data scope on that resource (customers, suppliers, staff). */
  async function visible(caller: Caller, name: string, ids: string[]): Promise<Map<string, Row>> {
    const model = services.m(name);
    const scope = await services.perms.dataScope(caller, model);
    const out = new Map<string, Row>();
    const wanted = [...new Set(ids.filter(Boolean))];
    for (let i = 0; i < wanted.length; i += 5000) {
      for (const r of await store.find(model, caller.tenantId, { where: { id: wanted.slice(i, i + 5000) }, conditions: scope ? [scope] : [] })) out.set(String(r.id), r);
    }
    return out;
  }

  /** The visible partners' balances of a kind, largest first; only partners who owe (AR) or are owed (AP). */
  async function balances(caller: Caller, kind: 'AR' | 'AP'): Promise<{ partyId: string; name: string; amount: Decimal }[]> {
    const table = services.internal.partyBalance.table;
    const found = await rows(sql<Record<string, unknown>>`select party_id, amount from ${sql.table(table)}
      where tenant_id = ${caller.tenantId} and is_deleted = 0 and kind = ${kind} and amount > 0 order by amount desc, party_id asc`);
    const seen = await visible(caller, kind === 'AR' ? 'customer' : 'supplier', found.map((r) => String(r.party_id)));
    return found
      .filter((r) => seen.has(String(r.party_id)))
      .map((r) => ({ partyId: String(r.party_id), name: String(seen.get(String(r.party_id))?.bartererName ?? ''), amount: dec(r.amount) }));
  }

  /**
   * A registered handler's paged answer's total (the 待审单据 and 草稿单据 queues): counted on the
   * materialized erp_ledger_bill_state (the bills whose last action left them in draft or waiting,
   * schemas/analysis/ledger-bill-state.json) under the same kinds and data scope, else by the handler.
   */
  async function queueTotal(ctx: Ctx, handler: string, model: Model): Promise<number> {
    const caller = mustCaller(ctx);
    const scope = await services.perms.dataScope(caller, model);
    const columns = new Set(materializedOf(services.registry, BILL_STATE)?.columns ?? []);
    if (columns.size && (!scope || (!scope.any && !scope.fts && columns.has(scope.field.column)))) {
      const pending = handler === 'billQueue.pending';
      const kinds = pending ? await allowedKinds(services, caller, 'pass') : undefined;
      if (kinds && !kinds.length) return 0;
      let q = store.db
        .selectFrom(BILL_STATE)
        .select(sql`count(*)`.as('n'))
        .where('tenant_id', '=', caller.tenantId)
        .where('is_deleted', '=', 0)
        .where('to_status', '=', pending ? '1302' : '1301');
      if (kinds) q = q.where('resource', 'in', kinds);
      if (scope) q = q.where((eb) => conditionSql(eb, scope, store.dialect));
      return Number(((await q.executeTakeFirst()) as { n?: unknown } | undefined)?.n ?? 0);
    }
    const run = services.handlers.get(handler);
    if (!run) return 0;
    const params = { current: '1', size: '1' };
    const page = (await run({ ...ctx, params, query: params, body: undefined }, model)) as { total?: number };
    return Number(page?.total ?? 0);
  }

  services.register('dashboard.arTop10', async (ctx) => {
    const caller = mustCaller(ctx);
    const places = await tenantPlaces(services, caller.tenantId);
    const top = (await balances(caller, 'AR')).slice(0, sizeParam(ctx, 10, 50));
    return top.map((t, i) => ({ rank: i + 1, customerId: t.partyId, customerName: t.name, balance: fixed(t.amount, places.amount) }));
  });

  services.register('dashboard.invoiceTop10', async (ctx) => {
    const caller = mustCaller(ctx);
    const t = caller.tenantId;
    const places = await tenantPlaces(services, t);
    // Sold: the sales-outs and sales returns per customer, every month, from the sales view's head rollup.
    const soldQuery = rows(readRollup(services.registry, LINES, 'head', { tenantId: t, filter: { bill_type: SALES_OUT_TYPES }, group: 'customer_id' }));
    const posted = (table: string) => sql`select h.customer_id, b.total_amt from ${sql.table(`${table}_body`)} b join ${sql.table(`${table}_head`)} h on h.tenant_id = b.tenant_id and h.id = b.head_id
      where b.tenant_id = ${t} and b.is_deleted = 0 and h.is_deleted = 0 and h.bill_status = ${POSTED} and h.customer_id is not null and h.customer_id <> ''`;
    const invoicedQuery = rows(sql<Record<string, unknown>>`select customer_id, sum(total_amt) as invoiced from (
        select customer_id, total_amt from (${posted('erp_sales_invoice')}) i
        union all select customer_id, total_amt from (${posted('erp_sales_invoice_mall')}) m
      ) x group by customer_id`);
    const [sold, invoiced] = await Promise.all([soldQuery, invoicedQuery]);
    const byCustomer = new Map<string, { sold: Decimal; invoiced: Decimal }>();
    const entry = (id: string) => byCustomer.get(id) ?? byCustomer.set(id, { sold: new Dec(0), invoiced: new Dec(0) }).get(id)!;
    for (const r of sold) if (r.k !== null && r.k !== undefined && r.k !== '') entry(String(r.k)).sold = dec(r.total_amt);
    for (const r of invoiced) entry(String(r.customer_id)).invoiced = dec(r.invoiced);
    const found = [...byCustomer].map(([customerId, f]) => ({ customer_id: customerId, ...f }));
    const size = sizeParam(ctx, 10, 50);
    const owed = found
      .map((r) => ({ customerId: r.customer_id, sold: r.sold, invoiced: r.invoiced }))
      .map((r) => ({ ...r, open: r.sold.minus(r.invoiced) }))
      .filter((r) => r.open.gt(0));
    const seen = await visible(caller, 'customer', owed.map((r) => r.customerId));
    const open = owed
      .filter((r) => seen.has(r.customerId))
      .sort((a, b) => b.open.comparedTo(a.open) || a.customerId.localeCompare(b.customerId))
      .slice(0, size);
    return open.map((r, i) => ({
      rank: i + 1,
      customerId: r.customerId,
      customerName: String(seen.get(r.customerId)?.bartererName ?? ''),
      salesTotal: fixed(r.sold, places.amount),
      invoicedAmt: fixed(r.invoiced, places.amount),
      uninvoicedAmt: fixed(r.open, places.amount),
    }));
  });

  /** The head field holding a bill's amount: receipts and payments their amount, stock bills their cost, the rest finalAmt. */
  function amountField(model: Model): string | undefined {
    const doc = documentOf(model.resource);
    const has = (f: string) => model.fields.has(f);
    if (has('precpAmt')) return 'precpAmt';
    if (doc?.totals?.adjustAmt) return 'adjustAmt';
    if (doc?.totals && !doc.totals.finalAmt && has('costAmt')) return 'costAmt';
    return has('finalAmt') ? 'finalAmt' : undefined;
  }

  services.register('dashboard.businessHistory', async (ctx) => {
    const caller = mustCaller(ctx);
    const t = caller.tenantId;
    const places = await tenantPlaces(services, t);
    const actions = services.internal.billAction.table;
    const events = await rows(sql<Record<string, unknown>>`select id, resource, bill_id, bill_type, bill_no, action_name, to_status, user_name, create_time
      from ${sql.table(actions)} where tenant_id = ${t} and is_deleted = 0 and to_status in (${POSTED}, ${FLUSHED})
      order by create_time desc, id desc limit ${sizeParam(ctx, 20, 100)}`);
    // Each bill's head (partner, amount, type), read once per kind; its partner from the party ledger when it posted one.
    const heads = new Map<string, Row>();
    const byResource = new Map<string, string[]>();
    for (const e of events) byResource.set(String(e.resource), [...(byResource.get(String(e.resource)) ?? []), String(e.bill_id)]);
    for (const [resource, ids] of byResource) {
      const model = services.registry.models.get(resource);
      if (!model) continue;
      for (const h of await store.find(model, t, { where: { id: [...new Set(ids)] } })) heads.set(String(h.id), h);
    }
    const billIds = [...new Set(events.map((e) => String(e.bill_id)))];
    const party = new Map<string, { kind: string; partyId: string }>();
    if (billIds.length) {
      for (const p of await store.find(services.internal.partyLedger, t, { where: { billId: billIds, entry: 'post' } })) party.set(String(p.billId), { kind: String(p.kind), partyId: String(p.partyId) });
    }
    const partnerOf = (billId: string): [string, string] | undefined => {
      const p = party.get(billId);
      if (p) return [p.kind === 'AP' ? 'supplier' : 'customer', p.partyId];
      const h = heads.get(billId);
      if (h?.customerId) return ['customer', String(h.customerId)];
      if (h?.supplierId) return ['supplier', String(h.supplierId)];
      return undefined;
    };
    const partners = billIds.map(partnerOf).filter((p): p is [string, string] => Boolean(p));
    const names = await partnerNames(t, { customer: partners.filter((p) => p[0] === 'customer').map((p) => p[1]), supplier: partners.filter((p) => p[0] === 'supplier').map((p) => p[1]) });
    return events.map((e) => {
      const billId = String(e.bill_id);
      const head = heads.get(billId);
      const model = services.registry.models.get(String(e.resource));
      const field = model ? amountField(model) : undefined;
      const raw = head && field ? head[field] : undefined;
      const flushed = String(e.to_status) === FLUSHED;
      const amount = raw === undefined || raw === null || raw === '' ? null : fixed(flushed ? new Dec(String(raw)).neg() : new Dec(String(raw)), places.amount);
      const billType = String(e.bill_type ?? head?.billType ?? '');
      const partner = partnerOf(billId);
      return {
        id: String(e.id),
        resource: String(e.resource),
        billId,
        billType,
        billTypeName: billTypeName(billType),
        billNo: String(e.bill_no ?? head?.billNo ?? ''),
        actionName: String(e.action_name ?? (flushed ? '冲红' : '记账')),
        partnerName: partner ? (names.get(`${partner[0]}|${partner[1]}`) ?? '') : '',
        amount,
        actionTime: String(e.create_time ?? ''),
        userName: String(e.user_name ?? ''),
      };
    });
  });

  services.register('dashboard.exin', async (ctx) => {
    const caller = mustCaller(ctx);
    const t = caller.tenantId;
    const places = await tenantPlaces(services, t);
    const today = formatDate();
    const last = today.slice(0, 7);
    const first = addMonths(last, -11);
    const from = `${first}-01`;
    // Per month: the posted sales lines and the posted purchase lines, each from its view's monthly rollup.
    const [sales, purchases] = await Promise.all([
      rows(readRollup(services.registry, LINES, 'head', { tenantId: t, from, to: today, filter: {}, group: 'month' })),
      rows(readRollup(services.registry, PURCHASES, 'bill_type', { tenantId: t, from, to: today, filter: {}, group: 'month' })),
    ]);
    const s = new Map(sales.map((r) => [String(r.k), r]));
    const p = new Map(purchases.map((r) => [String(r.k), r]));
    return Array.from({ length: 12 }, (_, i) => addMonths(first, i)).map((month) => {
      const sr = s.get(month);
      const pr = p.get(month);
      const salesAmt = dec(sr?.sales_amt);
      const costAmt = dec(sr?.cost_amt);
      return {
        month,
        salesAmt: fixed(salesAmt, places.amount),
        salesTotal: fixed(dec(sr?.total_amt), places.amount),
        costAmt: fixed(costAmt, places.amount),
        grossProfit: fixed(salesAmt.minus(costAmt), places.amount),
        purchaseAmt: fixed(dec(pr?.purchase_amt), places.amount),
        purchaseTotal: fixed(dec(pr?.total_amt), places.amount),
      };
    });
  });

  services.register('dashboard.staffView', async (ctx) => {
    const caller = mustCaller(ctx);
    const t = caller.tenantId;
    const places = await tenantPlaces(services, t);
    const today = formatDate();
    const found = (await rows(readRollup(services.registry, LINES, 'head', { tenantId: t, from: `${today.slice(0, 7)}-01`, to: today, filter: {}, group: 'staff_id' })))
      .filter((r) => r.k !== null && r.k !== undefined && r.k !== '')
      .map((r): Record<string, unknown> => ({ ...r, staff_id: r.k }));
    const size = sizeParam(ctx, 10, 100);
    const staff = await visible(caller, 'staff', found.map((r) => String(r.staff_id)));
    const ranked = found
      .map((r) => ({ staffId: String(r.staff_id), billCount: Number(r.bill_count ?? 0), salesAmt: dec(r.sales_amt), totalAmt: dec(r.total_amt), costAmt: dec(r.cost_amt) }))
      .filter((r) => staff.has(r.staffId))
      .sort((a, b) => b.salesAmt.comparedTo(a.salesAmt) || a.staffId.localeCompare(b.staffId))
      .slice(0, size);
    await fillLookups(services, services.m('staff'), t, ranked.map((r) => staff.get(r.staffId)!));
    return ranked.map((r, i) => {
      const s = staff.get(r.staffId);
      return {
        rank: i + 1,
        staffId: r.staffId,
        staffName: String(s?.staffName ?? ''),
        deptName: String(s?.deptName ?? ''),
        billCount: r.billCount,
        salesAmt: fixed(r.salesAmt, places.amount),
        salesTotal: fixed(r.totalAmt, places.amount),
        grossProfit: fixed(r.salesAmt.minus(r.costAmt), places.amount),
        isSelf: s && String(s.userId ?? '') === caller.userId ? 2 : 1,
      };
    });
  });

  /** Sales figures over [from, to]: net amount, amount with tax, and the number of sales bills (returns not counted). */
  async function salesOver(tenantId: string, from: string, to: string) {
    const [r] = await rows(readRollup(services.registry, LINES, 'head', { tenantId, from, to, filter: {} }));
    return { billCount: Number(r?.bill_count ?? 0), salesAmt: dec(r?.sales_amt), totalAmt: dec(r?.total_amt) };
  }

  async function lowStockCount(tenantId: string): Promise<number> {
    const [r] = await rows(sql<Record<string, unknown>>`select count(distinct sw.comm_info_id) as n from erp_stock_warning sw
      left join ${sql.table(services.internal.stockBalance.table)} s on s.tenant_id = sw.tenant_id and s.depot_id = sw.depot_id and s.comm_info_id = sw.comm_info_id and s.is_deleted = 0
      where sw.tenant_id = ${tenantId} and sw.is_deleted = 0 and coalesce(s.qty, 0) < sw.min_qty`);
    return Number(r?.n ?? 0);
  }

  /** The caller's unread messages (消息中心), as the top bar's bell counts them. */
  async function unreadMessages(caller: Caller): Promise<number> {
    const model = services.m('message-info');
    const found = await sql<{ n: unknown }>`select count(*) as n from ${sql.table(model.table)}
      where tenant_id = ${caller.tenantId} and user_id = ${caller.userId} and is_deleted = 0 and read_status = 1`.execute(services.store.db);
    return Number(found.rows[0]?.n ?? 0);
  }

  /** The caller's 20 newest messages (the dashboard's 最新消息), read or not. */
  services.register('dashboard.topMessages', async (ctx) => {
    const mine = services.handlers.get('messageInfo.mine');
    if (!mine) return [];
    const page = (await mine({ ...ctx, query: { current: '1', size: '20' } }, services.m('message-info'))) as { records?: Row[] };
    return page.records ?? [];
  });

  services.register('dashboard.indexCount', async (ctx) => {
    const caller: Caller = mustCaller(ctx);
    const t = caller.tenantId;
    const places = await tenantPlaces(services, t);
    const today = formatDate();
    const [day, month, ar, ap, pending, drafts, lowStock] = await Promise.all([
      salesOver(t, today, today),
      salesOver(t, `${today.slice(0, 7)}-01`, today),
      balances(caller, 'AR'),
      balances(caller, 'AP'),
      queueTotal(ctx, 'billQueue.pending', services.m('pending-bill')),
      queueTotal(ctx, 'billQueue.drafts', services.m('draft-bill')),
      lowStockCount(t),
    ]);
    const sum = (list: { amount: Decimal }[]) => list.reduce<Decimal>((s, r) => s.plus(r.amount), new Dec(0));
    return {
      today,
      todaySalesAmt: fixed(day.salesAmt, places.amount),
      todaySalesTotal: fixed(day.totalAmt, places.amount),
      todayBillCount: day.billCount,
      monthSalesAmt: fixed(month.salesAmt, places.amount),
      monthSalesTotal: fixed(month.totalAmt, places.amount),
      monthBillCount: month.billCount,
      arTotal: fixed(sum(ar), places.amount),
      arCustomerCount: ar.length,
      apTotal: fixed(sum(ap), places.amount),
      apSupplierCount: ap.length,
      pendingCount: pending,
      draftCount: drafts,
      lowStockCount: lowStock,
      unreadCount: await unreadMessages(caller),
    };
  });
}
