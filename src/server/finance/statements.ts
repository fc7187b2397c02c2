/**
 * 资产负债表 and 利润表 from the general ledger (posting/voucher.ts), by the layouts of
 * schemas/accounts.json; and 推送凭证 (pushap on every posted bill kind): the bill's voucher rows,
 * once per posting and once per reversal, copied to the voucher outbox an administrator reads.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Services } from '../services.ts';
import type { Model } from '../engine/model.ts';
import { STORAGE_SCALE } from '../engine/model.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller, param, type Ctx } from '../http/context.ts';
import { badRequest, notFound } from '../errors.ts';
import { tenantPlaces } from '../engine/document/context.ts';
import { userName } from '../engine/document/transitions.ts';
import { Dec, fixed, type Decimal } from '../../shared/money/index.ts';
import { formatDate } from '../../shared/dates.ts';
import type { Chart, StatementLine } from '../../shared/accounts.ts';

const SCALE = new Dec(10).pow(STORAGE_SCALE);
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Debit-signed balance per account and partner of the rows dated in [from, to] (either open). */
export async function accountBalances(services: Services, tenantId: string, range: { from?: string; to?: string }): Promise<Map<string, Map<string, Decimal>>> {
  const where: RawBuilder<unknown>[] = [sql`tenant_id = ${tenantId}`, sql`is_deleted = 0`];
  if (range.from) where.push(sql`post_date >= ${range.from}`);
  if (range.to) where.push(sql`post_date <= ${range.to}`);
  const result = await sql<{ account: string; party_id: string | null; amount: unknown }>`select account, party_id, sum(amount) as amount
    from erp_gl_entry where ${sql.join(where, sql` and `)} group by account, party_id`.execute(services.store.db);
  const scaled = services.store.dialect === 'sqlite';
  const out = new Map<string, Map<string, Decimal>>();
  for (const r of result.rows) {
    const amount = new Dec(r.amount === null || r.amount === undefined ? '0' : String(r.amount));
    const byParty = out.get(r.account) ?? new Map<string, Decimal>();
    byParty.set(r.party_id ?? '', (byParty.get(r.party_id ?? '') ?? new Dec(0)).plus(scaled ? amount.div(SCALE) : amount));
    out.set(r.account, byParty);
  }
  return out;
}

type Balances = Awaited<ReturnType<typeof accountBalances>>;

const total = (balances: Balances, code: string) => [...(balances.get(code)?.values() ?? [])].reduce<Decimal>((s, v) => s.plus(v), new Dec(0));

/** A line's figure, shown as its side reads it: assets and expenses debit-positive, the rest credit-positive. */
function lineValue(chart: Chart, line: StatementLine, balances: Balances, done: Map<string, Decimal>): Decimal {
  if (line.sum) return line.sum.reduce<Decimal>((s, term) => (term.startsWith('-') ? s.minus(done.get(term.slice(1))!) : s.plus(done.get(term)!)), new Dec(0));
  const types = new Map(chart.accounts.map((a) => [a.code, a.type]));
  const debitPositive = (code: string) => ['asset', 'expense'].includes(types.get(code)!);
  let value = new Dec(0);
  for (const code of line.accounts ?? []) {
    if (line.partners) {
      // Only the partners whose balance lies on this side (应收账款 vs 预收账款).
      for (const amount of balances.get(code)?.values() ?? []) {
        const side = line.partners === 'debit' ? amount : amount.neg();
        if (side.gt(0)) value = value.plus(side);
      }
    } else {
      const signed = total(balances, code);
      value = value.plus(line.side ? (line.side === 'asset' ? signed : signed.neg()) : debitPositive(code) ? signed : signed.neg());
    }
  }
  // 未分配利润 carries the profit not yet closed: revenue less expense, to date.
  if (line.profit) for (const a of chart.accounts) if (a.type === 'revenue' || a.type === 'expense') value = value.minus(total(balances, a.code));
  return value;
}

function statement(chart: Chart, lines: StatementLine[], columns: Record<string, Balances>, places: number): Row[] {
  const done: Record<string, Map<string, Decimal>> = Object.fromEntries(Object.keys(columns).map((c) => [c, new Map()]));
  return lines.map((line, i) => {
    const row: Row = { id: line.key, lineNo: i + 1, itemName: line.title, itemNameEn: line.titleEn, side: line.side ?? null, isTotal: line.sum ? 2 : 1 };
    for (const [column, balances] of Object.entries(columns)) {
      const value = lineValue(chart, line, balances, done[column]);
      done[column].set(line.key, value);
      row[column] = fixed(value, places);
    }
    return row;
  });
}

function dayParam(ctx: Ctx, names: string[], fallback: string, label: string): string {
  const value = (param(ctx, ...names) ?? '').slice(0, 10) || fallback;
  if (!DAY.test(value)) throw badRequest(`${label}格式应为YYYY-MM-DD`);
  return value;
}

const page = (rows: Row[]) => ({ records: rows, total: rows.length, size: rows.length, current: 1, pages: 1 });

/** 资产负债表 at a date: 期末余额 then (endAmt), 年初余额 at the end of the year before (beginAmt). */
export async function balanceSheet(services: Services, tenantId: string, date: string): Promise<Row[]> {
  const chart = services.registry.chart;
  const [end, begin] = await Promise.all([
    accountBalances(services, tenantId, { to: date }),
    accountBalances(services, tenantId, { to: dayBefore(`${date.slice(0, 4)}-01-01`) }),
  ]);
  const places = (await tenantPlaces(services, tenantId)).amount;
  return statement(chart, chart.balanceSheet, { endAmt: end, beginAmt: begin }, places);
}

export function registerStatementHandlers(services: Services) {
  const chart = () => services.registry.chart;

  services.register('statement.balanceSheet', async (ctx) => {
    const caller = mustCaller(ctx);
    return page(await balanceSheet(services, caller.tenantId, dayParam(ctx, ['reportDate', 'date', 'endDate'], formatDate(), '报表日期')));
  });

  /** 利润表 over [startDate, endDate] (default: this month to today): 本期金额 and 本年累计金额. */
  services.register('statement.profit', async (ctx) => {
    const caller = mustCaller(ctx);
    const today = formatDate();
    const to = dayParam(ctx, ['endDate', 'billDateEnd'], today, '结束日期');
    const from = dayParam(ctx, ['startDate', 'billDateStart'], `${to.slice(0, 7)}-01`, '开始日期');
    if (from > to) throw badRequest('开始日期不能晚于结束日期');
    const [period, year] = await Promise.all([
      accountBalances(services, caller.tenantId, { from, to }),
      accountBalances(services, caller.tenantId, { from: `${to.slice(0, 4)}-01-01`, to }),
    ]);
    const places = (await tenantPlaces(services, caller.tenantId)).amount;
    return page(statement(chart(), chart().profitStatement, { periodAmt: period, yearAmt: year }, places));
  });

  /** pushap: the bill's voucher rows not yet pushed, one outbox voucher per posting stage or reversal. */
  services.register('voucher.push', async (ctx, model: Model) => {
    const caller = mustCaller(ctx);
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    const head = await services.store.get(model, caller.tenantId, id);
    if (!head) throw notFound('单据不存在或已被删除');
    const { store, internal } = services;
    return store.transaction(async () => {
      const rows = await store.find(internal.glEntry, caller.tenantId, { where: { billId: id } });
      if (!rows.length) throw badRequest('单据未记账，没有可推送的凭证');
      const pushed = new Set((await store.find(internal.voucherPush, caller.tenantId, { where: { billId: id } })).map((r) => String(r.entry)));
      const entries = [...new Set(rows.map((r) => String(r.entry)))].filter((e) => !pushed.has(e));
      if (!entries.length) throw badRequest('凭证已推送');
      const who = await userName(services, caller, caller.userId);
      const places = (await tenantPlaces(services, caller.tenantId)).amount;
      const accounts = new Map(services.registry.chart.accounts.map((a) => [a.code, a.name]));
      const vouchers = entries.map((entry) => {
        const lines = rows.filter((r) => String(r.entry) === entry);
        const amount = (r: Row) => new Dec(String(r.amount));
        const debit = lines.reduce<Decimal>((s, r) => (amount(r).gt(0) ? s.plus(amount(r)) : s), new Dec(0));
        const credit = lines.reduce<Decimal>((s, r) => (amount(r).lt(0) ? s.minus(amount(r)) : s), new Dec(0));
        const first = lines[0];
        return {
          resource: model.name,
          billType: first.billType,
          billId: id,
          billNo: first.billNo,
          entry,
          voucherNo: `PZ${String(first.billNo)}${SUFFIX[entry] ?? ''}`,
          postDate: first.postDate,
          debitAmt: fixed(debit, places),
          creditAmt: fixed(credit, places),
          lines: JSON.stringify(
            lines.map((r) => ({
              account: r.account,
              accountName: accounts.get(String(r.account)) ?? '',
              partyKind: r.partyKind || undefined,
              partyId: r.partyId || undefined,
              debit: amount(r).gt(0) ? fixed(amount(r), places) : '0',
              credit: amount(r).lt(0) ? fixed(amount(r).neg(), places) : '0',
            })),
          ),
          userName: who,
        };
      });
      await store.insertMany(internal.voucherPush, caller, vouchers);
      return vouchers.map(({ lines, ...v }) => ({ ...v, lines: JSON.parse(lines) as unknown }));
    });
  });
}

/** Voucher number suffix per entry: the entering leg of a transfer, a reversal. */
const SUFFIX: Record<string, string> = { post: '', postin: '-IN', reverse: '-R', revin: '-RIN' };

function dayBefore(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}
