/**
 * 经营分析 (blade-report/businessanalysis): a year's results month by month, read from the general
 * ledger erp_gl_entry (posting/voucher.ts) so every figure agrees with the 利润表
 * (finance/statements.ts): revenue, cost of sales, expenses and other income by account, and the cash
 * received and paid (库存现金 1001, 银行存款 1002). Summed in SQL, exact on both databases. Meanings:
 * schemas/analysis/business-analysis.json.
 */
import { sql } from 'kysely';
import type { Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller, type Ctx } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { tenantPlaces } from '../engine/document/context.ts';
import { Dec, fixed, type Decimal, type Places } from '../../shared/money/index.ts';
import { formatDate } from '../../shared/dates.ts';
import { valueParam } from '../system/params.ts';
import { materializedOf, rollupTable } from '../engine/materialized.ts';
import { decimalReader, percent } from './report-rows.ts';

/** The materialized view of the general-ledger rows this report reads (schemas/analysis/business-analysis.json). */
const VIEW = 'erp_business_analysis';
/** Credit-positive revenue accounts and debit-positive expense accounts, as the 利润表 reads them. */
const ACCOUNTS = {
  salesRevenue: { codes: ['6001'], credit: true },
  otherBusinessIncome: { codes: ['6051'], credit: true },
  nonOperatingIncome: { codes: ['6301'], credit: true },
  costOfSales: { codes: ['6401'], credit: false },
  sellingExpense: { codes: ['6601'], credit: false },
  adminExpense: { codes: ['6602'], credit: false },
  financeExpense: { codes: ['6603'], credit: false },
  nonOperatingExpense: { codes: ['6711'], credit: false },
} as const;
type Item = keyof typeof ACCOUNTS;

interface Month {
  items: Record<Item, Decimal>;
  receipts: Decimal;
  payments: Decimal;
}

const empty = (): Month => ({
  items: Object.fromEntries(Object.keys(ACCOUNTS).map((k) => [k, new Dec(0)])) as Record<Item, Decimal>,
  receipts: new Dec(0),
  payments: new Dec(0),
});

function yearParam(ctx: Ctx): string {
  const raw = (valueParam(ctx, 'year', 'queryDate') ?? formatDate().slice(0, 4)).trim().slice(0, 4);
  if (!/^\d{4}$/.test(raw) || raw < '1900' || raw > '2999') throw badRequest('年份格式应为 yyyy', { fieldErrors: { year: '年份格式应为 yyyy' } });
  return raw;
}

/** The figures of a month (or the year) as the wire shows them. */
function present(m: Month, places: Places): Row {
  const i = m.items;
  const grossProfit = i.salesRevenue.minus(i.costOfSales);
  const expenses = i.sellingExpense.plus(i.adminExpense).plus(i.financeExpense);
  const otherIncome = i.otherBusinessIncome.plus(i.nonOperatingIncome);
  const netProfit = grossProfit.minus(expenses).plus(otherIncome).minus(i.nonOperatingExpense);
  const amt = (d: Decimal) => fixed(d, places.amount);
  return {
    salesRevenue: amt(i.salesRevenue),
    costOfSales: amt(i.costOfSales),
    grossProfit: amt(grossProfit),
    grossMargin: percent(grossProfit, i.salesRevenue),
    sellingExpense: amt(i.sellingExpense),
    adminExpense: amt(i.adminExpense),
    financeExpense: amt(i.financeExpense),
    expenses: amt(expenses),
    otherIncome: amt(otherIncome),
    otherExpense: amt(i.nonOperatingExpense),
    netProfit: amt(netProfit),
    receipts: amt(m.receipts),
    payments: amt(m.payments),
    netCash: amt(m.receipts.minus(m.payments)),
  };
}

export function registerBusinessAnalysisHandlers(services: Services) {
  const { store } = services;
  const dec = decimalReader(services);

  /**
   * Σ of the year's ledger rows per month: each item by its accounts, cash in and out. Read from the
   * monthly rollup `item` of the materialized view erp_business_analysis (a year is whole months):
   * its `item` is the account, or for the cash accounts cash_in / cash_out — a posting's debit to cash
   * is money received, the mirror of one (a credit, entry reverse/revin) takes it back; a posting's
   * credit is money paid, its mirror takes it back: a reversal nets within receipts or payments, not across.
   */
  async function months(tenantId: string, year: string): Promise<Map<string, Month>> {
    const view = materializedOf(services.registry, VIEW);
    if (!view) throw new Error(`${VIEW} is not materialized`);
    const result = await sql<Record<string, unknown>>`select month as m, item, amount from ${sql.table(rollupTable(view, 'item'))}
      where tenant_id = ${tenantId} and month >= ${`${year}-01`} and month <= ${`${year}-12`} and line_count <> 0`.execute(store.db);
    const out = new Map<string, Month>();
    for (const r of result.rows) {
      const month = String(r.m);
      const amount = dec(r.amount);
      const m = out.get(month) ?? empty();
      const item = String(r.item);
      if (item === 'cash_in') m.receipts = m.receipts.plus(amount);
      else if (item === 'cash_out') m.payments = m.payments.minus(amount);
      for (const [name, def] of Object.entries(ACCOUNTS) as [Item, (typeof ACCOUNTS)[Item]][]) {
        if ((def.codes as readonly string[]).includes(item)) m.items[name] = m.items[name].plus(def.credit ? amount.neg() : amount);
      }
      out.set(month, m);
    }
    return out;
  }

  const add = (a: Month, b: Month): Month => ({
    items: Object.fromEntries(Object.keys(ACCOUNTS).map((k) => [k, a.items[k as Item].plus(b.items[k as Item])])) as Record<Item, Decimal>,
    receipts: a.receipts.plus(b.receipts),
    payments: a.payments.plus(b.payments),
  });

  services.register('businessAnalysis.list', async (ctx) => {
    const caller = mustCaller(ctx);
    const year = yearParam(ctx);
    const places = await tenantPlaces(services, caller.tenantId);
    const byMonth = await months(caller.tenantId, year);
    const records = Array.from({ length: 12 }, (_, i) => `${year}-${String(i + 1).padStart(2, '0')}`).map((month) => ({
      id: month,
      month,
      ...present(byMonth.get(month) ?? empty(), places),
    }));
    return { records, total: 12, size: 12, current: 1, pages: 1, year };
  });

  services.register('businessAnalysis.total', async (ctx) => {
    const caller = mustCaller(ctx);
    const year = yearParam(ctx);
    const places = await tenantPlaces(services, caller.tenantId);
    const all = [...(await months(caller.tenantId, year)).values()].reduce(add, empty());
    return { year, month: '合计', ...present(all, places) };
  });
}
