/**
 * 资金流水 (统计分析 → 资金流水, calls /blade-report/cashflow/list, sumtotal, daily): every posted
 * money movement, one row each, read through the view erp_cash_flow (schemas/analysis/cash-flow.json
 * defines the rows and figures): the general-ledger lines of the cash accounts (库存现金 1001, 银行存款
 * 1002) that every money bill writes when posted and mirrors when flushed, with the bill's settlement
 * method (the account), partner and running balance per settlement method.
 * The period (billDate_datege / billDate_datele or queryDate + dateType) bounds the posting date of
 * the movement; every other filter is the generic map filter on the view's fields.
 *
 * Speed: the rows live in the materialized view erp_ledger_cash (schemas/analysis/ledger-cash.json:
 * the same rows and fields without the partner's name and the running balance, refreshed by each
 * posting) with a monthly rollup per settlement method. A list filtered on its fields reads a page of
 * it and works out the page rows' names and balances alone (a balance: the months before the row's
 * from the rollup, its own month up to the row from the table, in the view's order); the totals of a
 * period come from the rollup, or from the table under other filters. Filters on the name or the
 * balance, and data scopes over other fields, read the view erp_cash_flow itself.
 */
import { sql } from 'kysely';
import type { Services } from '../services.ts';
import type { Model } from '../engine/model.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller, type Ctx } from '../http/context.ts';
import { runOp } from '../engine/ops.ts';
import { conditionSql, parseFilters, parsePaging, parseSort, type Condition } from '../engine/query.ts';
import { fillLookups } from '../engine/lookups.ts';
import { formatFigures } from '../engine/document/context.ts';
import { materializedOf, readRollup, rollupTable } from '../engine/materialized.ts';
import { tenantPlaces } from '../engine/document/context.ts';
import { Dec, fixed, type Decimal } from '../../shared/money/index.ts';
import { addDays, periodOf, type Period } from './period.ts';
import { decimalReader } from './report-rows.ts';

/** At most this many days are filled in with zero days on the daily chart. */
const MAX_FILLED_DAYS = 366;
const ENTRY_NAMES: Record<string, string> = { post: '记账', reverse: '冲红' };
/** The materialized rows of erp_cash_flow (without barterer_name and balance) and its rollup per settlement method. */
const LEDGER = 'erp_ledger_cash';
const ROLLUP = 'settlement';

/** The call's filters for the view: the period turned into bounds on the movement's posting date. */
function flowQuery(ctx: Ctx, period: Period, bounds: 'period' | 'before'): Record<string, unknown> {
  const rest = Object.fromEntries(Object.entries(ctx.query).filter(([k]) => !k.startsWith('billDate_') && !k.startsWith('flowDate') && k !== 'queryDate' && k !== 'dateType'));
  if (bounds === 'before') return { ...rest, flowDate_datelt: period.from };
  return { ...rest, ...(period.from ? { flowDate_datege: period.from } : {}), ...(period.to ? { flowDate_datele: period.to } : {}) };
}

export function registerCashFlowHandlers(services: Services) {
  const dec = decimalReader(services);
  const accountName = (code: unknown) => services.registry.chart.accounts.find((a) => a.code === String(code ?? ''))?.name ?? '';

  const { store } = services;
  const ledger = () => {
    const m = materializedOf(services.registry, LEDGER);
    if (!m) throw new Error(`${LEDGER} is not materialized`);
    return m;
  };

  /**
   * The call's conditions when the materialized rows can answer them (every condition, the data
   * scope included, on a column they hold); undefined: read the view.
   */
  async function ledgerConditions(ctx: Ctx, model: Model, query: Record<string, unknown>): Promise<Condition[] | undefined> {
    const columns = new Set(ledger().columns);
    const conditions = parseFilters(model, query, 'map');
    const scope = await services.perms.dataScope(mustCaller(ctx), model);
    if (scope) conditions.push(scope);
    return conditions.every((c) => !c.any && !c.fts && columns.has(c.field.column)) ? conditions : undefined;
  }

  /** The materialized rows of the tenant under the conditions (kysely: the generic filters' own SQL). */
  const ledgerRows = (tenantId: string, conditions: Condition[]) => {
    let q = store.db.selectFrom(LEDGER).where('tenant_id', '=', tenantId).where('is_deleted', '=', 0);
    for (const c of conditions) q = q.where((eb) => conditionSql(eb, c, store.dialect));
    return q;
  };

  /** Σ of the movements the query selects, as the generic sum answers them (count and formatted in/out/net). */
  async function sums(ctx: Ctx, model: Model, query: Record<string, unknown>, period?: { from?: string; to?: string }): Promise<Row> {
    const caller = mustCaller(ctx);
    const conditions = await ledgerConditions(ctx, model, query);
    if (!conditions) {
      return (await runOp({ ...ctx, query }, model, { path: 'sumtotal', method: 'GET', op: 'sum', filters: 'map', sum: ['inAmt', 'outAmt', 'netAmt'] })).data as Row;
    }
    let raw: Record<string, unknown> | undefined;
    if (period && conditions.every((c) => c.field.column === 'flow_date')) {
      // Only the period: whole months from the rollup, the days around them from the rows.
      raw = (await readRollup(services.registry, LEDGER, ROLLUP, { tenantId: caller.tenantId, from: period.from, to: period.to, filter: {} }).execute(store.db)).rows[0];
    } else {
      raw = (await ledgerRows(caller.tenantId, conditions)
        .select([sql`count(*)`.as('line_count'), sql`sum(in_amt)`.as('in_amt'), sql`sum(out_amt)`.as('out_amt'), sql`sum(net_amt)`.as('net_amt')])
        .executeTakeFirst()) as Record<string, unknown> | undefined;
    }
    const totals = store.toRow(model, { in_amt: raw?.in_amt ?? 0, out_amt: raw?.out_amt ?? 0, net_amt: raw?.net_amt ?? 0 });
    const row: Row = { inAmt: totals.inAmt, outAmt: totals.outAmt, netAmt: totals.netAmt };
    formatFigures(model, [row], await tenantPlaces(services, caller.tenantId));
    return { ...row, count: Number(raw?.line_count ?? 0) };
  }

  /** Σ net of the movements before the period (same filters): the opening balance; 0 without a start. */
  async function opening(ctx: Ctx, model: Model, period: Period): Promise<Decimal> {
    if (!period.from) return new Dec(0);
    return new Dec(String((await sums(ctx, model, flowQuery(ctx, period, 'before'), { to: addDays(period.from, -1) })).netAmt ?? '0'));
  }

  /**
   * A page of the materialized rows, answered as the view's page: the partner's name and, per row,
   * the running balance of its settlement method up to it in the view's order (flow date, posting
   * time, id): the months before from the rollup, its month's rows up to it from the table.
   */
  async function ledgerPage(ctx: Ctx, model: Model, query: Record<string, unknown>, conditions: Condition[]) {
    const caller = mustCaller(ctx);
    const t = caller.tenantId;
    const { current, size } = parsePaging(query);
    const order = parseSort(model, query);
    const columns = new Set(ledger().columns);
    if (!order.every((o) => columns.has(o.column))) return undefined;
    let ids = ledgerRows(t, conditions).select('id');
    for (const o of order) ids = ids.orderBy(o.column, o.dir);
    const [counted, picked] = await Promise.all([
      ledgerRows(t, conditions).select(sql`count(*)`.as('n')).executeTakeFirst() as Promise<{ n: unknown } | undefined>,
      ids.limit(size).offset((current - 1) * size).execute(),
    ]);
    const wanted = picked.map((r) => String(r.id));
    const rollup = rollupTable(ledger(), ROLLUP);
    const found = wanted.length
      ? (
          await sql<Record<string, unknown>>`select c.id, c.tenant_id, c.create_user, c.create_dept, c.create_time, c.update_user, c.update_time, c.status, c.is_deleted, c.version,
          c.flow_date, c.account, c.resource, c.bill_type, c.bill_id, c.bill_no, c.entry, c.bill_date, c.settlement_id, c.barterer_id, c.barterer_kind,
          coalesce(cu.barterer_name, su.barterer_name) as barterer_name, c.staff_id, c.remark, c.in_amt, c.out_amt, c.net_amt,
          coalesce((select sum(r.net_amt) from ${sql.table(rollup)} r where r.tenant_id = c.tenant_id and r.settlement_key = c.settlement_key and r.month < substr(c.flow_date, 1, 7)), 0)
            + (select sum(x.net_amt) from ${sql.table(LEDGER)} x where x.tenant_id = c.tenant_id and x.settlement_key = c.settlement_key
                and x.flow_date >= substr(c.flow_date, 1, 7) and x.flow_date <= c.flow_date
                and (x.flow_date < c.flow_date or x.create_time < c.create_time or (x.create_time = c.create_time and x.id <= c.id))) as balance
        from ${sql.table(LEDGER)} c
        left join erp_customer cu on cu.tenant_id = c.tenant_id and cu.id = c.barterer_id and c.barterer_kind = '1'
        left join erp_supplier su on su.tenant_id = c.tenant_id and su.id = c.barterer_id and c.barterer_kind = '2'
        where c.tenant_id = ${t} and c.id in (${sql.join(wanted)})`.execute(store.db)
        ).rows
      : [];
    const byId = new Map(found.map((r) => [String(r.id), r]));
    const rows = wanted.map((id) => store.toRow(model, byId.get(id)!));
    await fillLookups(services, model, t, rows);
    formatFigures(model, rows, await tenantPlaces(services, t));
    const total = Number(counted?.n ?? 0);
    return { records: rows, total, size, current, pages: Math.ceil(total / size), orders: [] };
  }

  services.register('cashFlow.list', async (ctx, model) => {
    const period = periodOf(ctx);
    const query = flowQuery(ctx, period, 'period');
    const conditions = await ledgerConditions(ctx, model, query);
    const fast = conditions && (await ledgerPage(ctx, model, query, conditions));
    const page = fast ?? ((await runOp({ ...ctx, query }, model, { path: 'list', method: 'GET', op: 'page', filters: 'map' })).data as { records: Row[] });
    for (const r of page.records) {
      r.accountName = accountName(r.account);
      r.entryName = ENTRY_NAMES[String(r.entry)] ?? String(r.entry ?? '');
    }
    return { ...page, dateFrom: period.from ?? null, dateTo: period.to ?? null };
  });

  services.register('cashFlow.sumtotal', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const places = await tenantPlaces(services, caller.tenantId);
    const period = periodOf(ctx);
    const totals = await sums(ctx, model, flowQuery(ctx, period, 'period'), period);
    const begin = await opening(ctx, model, period);
    return {
      count: totals.count,
      inAmt: totals.inAmt,
      outAmt: totals.outAmt,
      netAmt: totals.netAmt,
      beginBalance: fixed(begin, places.amount),
      endBalance: fixed(begin.plus(String(totals.netAmt ?? '0')), places.amount),
      dateFrom: period.from ?? null,
      dateTo: period.to ?? null,
    };
  });

  /** Money in and out per posting day (every day of a period up to a year), with the running balance. */
  services.register('cashFlow.daily', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const places = await tenantPlaces(services, caller.tenantId);
    const period = periodOf(ctx);
    const conditions = parseFilters(model, flowQuery(ctx, period, 'period'), 'map');
    const scope = await services.perms.dataScope(caller, model);
    if (scope) conditions.push(scope);
    let q = services.store
      .base(model, caller.tenantId)
      .select([sql<string>`flow_date`.as('d'), sql`sum(in_amt)`.as('i'), sql`sum(out_amt)`.as('o')])
      .groupBy('flow_date')
      .orderBy('flow_date');
    q = services.store.applyWhere(model, q, {}, conditions);
    const found = new Map(((await q.execute()) as { d: unknown; i: unknown; o: unknown }[]).map((r) => [String(r.d).slice(0, 10), { in: dec(r.i), out: dec(r.o) }]));
    let days = [...found.keys()];
    if (period.from && period.to) {
      const filled: string[] = [];
      for (let d = period.from; d <= period.to && filled.length < MAX_FILLED_DAYS; d = addDays(d, 1)) filled.push(d);
      if (filled[filled.length - 1] === period.to) days = filled;
    }
    let balance = await opening(ctx, model, period);
    return days.map((day) => {
      const f = found.get(day) ?? { in: new Dec(0), out: new Dec(0) };
      balance = balance.plus(f.in).minus(f.out);
      return { flowDate: day, inAmt: fixed(f.in, places.amount), outAmt: fixed(f.out, places.amount), netAmt: fixed(f.in.minus(f.out), places.amount), balance: fixed(balance, places.amount) };
    });
  });
}
