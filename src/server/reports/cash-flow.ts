/**
 * 资金流水 (统计分析 → 资金流水, calls /blade-report/cashflow/list, sumtotal, daily): every posted
 * money movement, one row each, read through the view erp_cash_flow (schemas/analysis/cash-flow.json
 * defines the rows and figures): the general-ledger lines of the cash accounts (库存现金 1001, 银行存款
 * 1002) that every money bill writes when posted and mirrors when flushed, with the bill's settlement
 * method (the account), partner and running balance per settlement method.
 * The period (billDate_datege / billDate_datele or queryDate + dateType) bounds the posting date of
 * the movement; every other filter is the generic map filter on the view's fields.
 */
import { sql } from 'kysely';
import type { Services } from '../services.ts';
import type { Model } from '../engine/model.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller, type Ctx } from '../http/context.ts';
import { runOp } from '../engine/ops.ts';
import { parseFilters } from '../engine/query.ts';
import { tenantPlaces } from '../engine/document/context.ts';
import { Dec, fixed, type Decimal } from '../../shared/money/index.ts';
import { addDays, periodOf, type Period } from './period.ts';
import { decimalReader } from './report-rows.ts';

/** At most this many days are filled in with zero days on the daily chart. */
const MAX_FILLED_DAYS = 366;
const ENTRY_NAMES: Record<string, string> = { post: '记账', reverse: '冲红' };

/** The call's filters for the view: the period turned into bounds on the movement's posting date. */
function flowQuery(ctx: Ctx, period: Period, bounds: 'period' | 'before'): Record<string, unknown> {
  const rest = Object.fromEntries(Object.entries(ctx.query).filter(([k]) => !k.startsWith('billDate_') && !k.startsWith('flowDate') && k !== 'queryDate' && k !== 'dateType'));
  if (bounds === 'before') return { ...rest, flowDate_datelt: period.from };
  return { ...rest, ...(period.from ? { flowDate_datege: period.from } : {}), ...(period.to ? { flowDate_datele: period.to } : {}) };
}

export function registerCashFlowHandlers(services: Services) {
  const dec = decimalReader(services);
  const accountName = (code: unknown) => services.registry.chart.accounts.find((a) => a.code === String(code ?? ''))?.name ?? '';

  const sums = async (ctx: Ctx, model: Model, query: Record<string, unknown>) =>
    (await runOp({ ...ctx, query }, model, { path: 'sumtotal', method: 'GET', op: 'sum', filters: 'map', sum: ['inAmt', 'outAmt', 'netAmt'] })).data as Row;

  /** Σ net of the movements before the period (same filters): the opening balance; 0 without a start. */
  async function opening(ctx: Ctx, model: Model, period: Period): Promise<Decimal> {
    if (!period.from) return new Dec(0);
    return new Dec(String((await sums(ctx, model, flowQuery(ctx, period, 'before'))).netAmt ?? '0'));
  }

  services.register('cashFlow.list', async (ctx, model) => {
    const period = periodOf(ctx);
    const page = (await runOp({ ...ctx, query: flowQuery(ctx, period, 'period') }, model, { path: 'list', method: 'GET', op: 'page', filters: 'map' })).data as { records: Row[] };
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
    const totals = await sums(ctx, model, flowQuery(ctx, period, 'period'));
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
