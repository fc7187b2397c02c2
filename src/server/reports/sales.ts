/**
 * Sales reports (销售分析, 客户分类销售, 销售毛利): posted sales-outs, sales returns, retail sales and
 * retail returns (returns negative), summed in SQL over the view erp_sales_analysis (one row per
 * posted line) — exact on both databases: SQLite keeps decimals as integers scaled by 10^6, so SUM
 * stays exact; PostgreSQL sums numeric. Meanings of every figure are in schemas/analysis/sales-*.json.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Services } from '../services.ts';
import type { Model } from '../engine/model.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller, type Ctx } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { fillLookups } from '../engine/lookups.ts';
import { parsePaging, parseSort } from '../engine/query.ts';
import { formatFigures, tenantPlaces } from '../engine/document/context.ts';
import { Dec, fixed, type Decimal, type Places } from '../../shared/money/index.ts';
import { valueParam } from '../system/params.ts';
import { readRollup, type KeyFilter } from '../engine/materialized.ts';
import { addDays, lastDayOf, periodOf, type Period } from './period.ts';
import { decimalReader, idParam, pageOf, pageShape, percent, ratio, requestedKeys, sortedPage, sortRows, type SortKey } from './report-rows.ts';

export const LINES = 'erp_sales_analysis';
/** The key of "no customer / salesperson / department" (walk-in retail, a bill without one). */
export const NONE = '0';
const ROOT = '0';

/** What a call narrows the posted bills to. */
export interface SalesFilter {
  period: Period;
  customerId?: string;
  staffId?: string;
  deptId?: string;
  depotId?: string;
  billType?: string;
  settlementId?: string;
  commInfoId?: string;
  /** The goods categories kept (a category and its sub-categories); undefined: all. */
  classifyIds?: string[];
}

/** id → parent id of a tree resource's rows (goods categories, customer categories). */
export async function treeOf(services: Services, tenantId: string, resource: string): Promise<Map<string, string>> {
  const model = services.m(resource);
  const parentField = model.tree!.parentField;
  const rows = await services.store.find(model, tenantId);
  return new Map(rows.map((r) => [String(r.id), String(r[parentField] ?? ROOT)]));
}

/** The child of `top` whose subtree holds `node` (top itself for node = top); undefined when outside. */
export function childUnder(parents: Map<string, string>, node: string, top: string): string | undefined {
  if (node === top) return top;
  let current = node;
  for (let depth = 0; depth < 64; depth++) {
    const parent = parents.get(current);
    if (parent === undefined) return undefined;
    if (parent === top) return current;
    current = parent;
  }
  return undefined;
}

export async function salesFilter(services: Services, ctx: Ctx, tenantId: string): Promise<SalesFilter> {
  const f: SalesFilter = { period: periodOf(ctx) };
  for (const name of ['customerId', 'staffId', 'deptId', 'depotId', 'billType', 'settlementId', 'commInfoId'] as const) f[name] = idParam(ctx, name);
  const classifyId = idParam(ctx, 'classifyId');
  if (classifyId && classifyId !== ROOT) {
    const tree = await treeOf(services, tenantId, 'goods-category');
    f.classifyIds = [...tree.keys()].filter((id) => childUnder(tree, id, classifyId) !== undefined);
    if (!tree.has(classifyId)) f.classifyIds.push(classifyId);
  }
  return f;
}

const HEAD_COLUMNS = [['customerId', 'customer_id'], ['staffId', 'staff_id'], ['deptId', 'dept_id'], ['depotId', 'depot_id'], ['billType', 'bill_type'], ['settlementId', 'settlement_id']] as const;

/**
 * The WHERE of a filter over a sales view. Goods filters apply to the lines view directly, and to
 * a per-bill view (no goods columns) as "bills holding such a line".
 */
export function filterSql(f: SalesFilter, tenantId: string, view: 'lines' | 'bills' | 'takings' = 'lines'): RawBuilder<unknown> {
  const c: RawBuilder<unknown>[] = [sql`tenant_id = ${tenantId}`, sql`is_deleted = 0`];
  if (f.period.from) c.push(sql`bill_date >= ${f.period.from}`);
  if (f.period.to) c.push(sql`bill_date < ${addDays(f.period.to, 1)}`);
  for (const [name, column] of HEAD_COLUMNS) {
    const v = f[name];
    if (!v || (name === 'settlementId' && view !== 'takings')) continue;
    const none = v === NONE && name !== 'billType';
    c.push(none ? sql`${sql.ref(column)} is null` : sql`${sql.ref(column)} = ${v}`);
  }
  const goods: RawBuilder<unknown>[] = [];
  if (f.commInfoId) goods.push(sql`comm_info_id = ${f.commInfoId}`);
  if (f.classifyIds) goods.push(f.classifyIds.length ? sql`classify_id in (${sql.join(f.classifyIds)})` : sql`1 = 0`);
  if (goods.length && view === 'lines') c.push(...goods);
  else if (goods.length && view === 'bills') c.push(sql`bill_id in (select bill_id from ${sql.table(LINES)} where tenant_id = ${tenantId} and ${sql.join(goods, sql` and `)})`);
  return sql.join(c, sql` and `);
}

/** The sums every sales view is read with (SALES_SUMS), as exact decimals; the tax only where the view sums it. */
export interface SalesSums {
  billCount: number;
  returnBillCount: number;
  salesQty: Decimal;
  returnQty: Decimal;
  outAmt: Decimal;
  returnAmt: Decimal;
  totalAmt: Decimal;
  salesAmt: Decimal;
  taxAmt?: Decimal;
  costAmt: Decimal;
}

/** Sums of one group, as exact decimals. */
export interface Figures extends SalesSums {
  key: string;
  taxAmt: Decimal;
}

/**
 * The sums every sales view is read with (erp_sales_analysis, erp_customer_analysis: one row per
 * posted line, is_return 1 a sale, 2 a return stored negative): bills, quantities and amounts.
 */
export const SALES_SUMS = sql`count(distinct case when is_return = 1 then bill_id end) as bill_count,
      count(distinct case when is_return = 2 then bill_id end) as return_bill_count,
      sum(case when is_return = 1 then base_qty else 0 end) as sales_qty,
      sum(case when is_return = 2 then 0 - base_qty else 0 end) as return_qty,
      sum(case when is_return = 1 then total_amt else 0 end) as out_amt,
      sum(case when is_return = 2 then 0 - total_amt else 0 end) as return_amt,
      sum(total_amt) as total_amt, sum(sales_amt) as sales_amt, sum(cost_amt) as cost_amt`;

/** SALES_SUMS of a result row, as exact decimals (`dec`: a decimalReader). */
export function salesSumsOf(r: Record<string, unknown>, dec: (v: unknown) => Decimal): SalesSums {
  return {
    billCount: Number(r.bill_count ?? 0),
    returnBillCount: Number(r.return_bill_count ?? 0),
    salesQty: dec(r.sales_qty),
    returnQty: dec(r.return_qty),
    outAmt: dec(r.out_amt),
    returnAmt: dec(r.return_amt),
    totalAmt: dec(r.total_amt),
    salesAmt: dec(r.sales_amt),
    costAmt: dec(r.cost_amt),
  };
}

/** The rollup that serves each grouping when nothing narrows the lines (its key leads, so SQLite groups as it reads). */
const ROLLUP_OF_GROUP: Record<string, string> = {
  '': 'month', month: 'month', customer_id: 'head', staff_id: 'staff', dept_id: 'dept', depot_id: 'depot', comm_info_id: 'goods', classify_id: 'classify',
};

/**
 * The rollup of erp_sales_analysis (schemas/analysis/sales-analysis.json, materialize) that answers
 * a sum, or none when the filter needs the lines themselves. Bill counts add up over a rollup's
 * rows only across months and head columns (a bill has one customer, one month), so goods,
 * categories and warehouses are read from their own rollups, never summed over another key.
 */
function rollupFor(f: SalesFilter, group?: string): { name: string; filter: KeyFilter } | undefined {
  const head: KeyFilter = {};
  for (const [name, column] of HEAD_COLUMNS) {
    const v = f[name];
    if (!v || name === 'settlementId' || name === 'depotId') continue;
    head[column] = v === NONE && name !== 'billType' ? '' : v;
  }
  const goods = f.commInfoId !== undefined;
  const classes = f.classifyIds !== undefined;
  const depot = f.depotId !== undefined;
  const headFiltered = Object.keys(head).length > 0;
  if (!goods && !classes && !depot) {
    if (!headFiltered) return group === undefined || group in ROLLUP_OF_GROUP ? { name: ROLLUP_OF_GROUP[group ?? ''], filter: {} } : undefined;
    return !group || ['customer_id', 'staff_id', 'dept_id', 'month'].includes(group) ? { name: 'head', filter: head } : undefined;
  }
  if (headFiltered) return undefined;
  if ((group === 'comm_info_id' || (!group && goods && !classes)) && !depot) {
    return { name: 'goods', filter: { ...(goods ? { comm_info_id: f.commInfoId! } : {}), ...(classes ? { classify_id: f.classifyIds! } : {}) } };
  }
  if ((group === 'classify_id' || (!group && f.classifyIds?.length === 1)) && !depot && !goods) return { name: 'classify', filter: classes ? { classify_id: f.classifyIds! } : {} };
  if ((group === 'depot_id' || !group) && depot && !goods && !classes) return { name: 'depot', filter: { depot_id: f.depotId === NONE ? '' : f.depotId! } };
  return undefined;
}

const GROUP_KEY: Record<string, string> = { 'substr(bill_date, 1, 7)': 'month' };

/** The grouped sums as SQL: from a rollup where one serves the filter, else from the lines. */
function salesQuery(services: Services, tenantId: string, f: SalesFilter, key?: string): RawBuilder<Record<string, unknown>> {
  const group = key ? (GROUP_KEY[key] ?? key) : undefined;
  const rollup = rollupFor(f, group);
  const k = key ? sql.raw(key) : sql`''`;
  return rollup
    ? readRollup(services.registry, LINES, rollup.name, { tenantId, from: f.period.from, to: f.period.to, filter: rollup.filter, group })
    : sql<Record<string, unknown>>`select ${k} as k, ${SALES_SUMS}, sum(tax_amt) as tax_amt
    from ${sql.table(LINES)} where ${filterSql(f, tenantId)}${key ? sql` group by ${k}` : sql``}`;
}

function figuresOf(services: Services, rows: Record<string, unknown>[]): Figures[] {
  const dec = decimalReader(services);
  return rows.map((r) => ({
    key: r.k === null || r.k === undefined ? '' : String(r.k),
    ...salesSumsOf(r, dec),
    taxAmt: dec(r.tax_amt),
  }));
}

/** Σ of the posted lines per group (`key` an SQL expression over the view; none: one total row). */
export async function sumSales(services: Services, tenantId: string, f: SalesFilter, key?: string): Promise<Figures[]> {
  return figuresOf(services, (await salesQuery(services, tenantId, f, key).execute(services.store.db)).rows);
}

/** Each figure field a group row can be ordered by, as SQL over the grouped sums (margins as floats: order only). */
const ORDER_SQL: Record<string, string> = {
  groupKey: 'k', billCount: 'bill_count', returnBillCount: 'return_bill_count', salesQty: 'sales_qty', returnQty: 'return_qty',
  qty: 'sales_qty - return_qty', outAmt: 'out_amt', returnAmt: 'return_amt', totalAmt: 'total_amt', amountShare: 'total_amt',
  salesAmt: 'sales_amt', taxAmt: 'tax_amt', costAmt: 'cost_amt', grossProfit: 'sales_amt - cost_amt',
  grossMargin: 'case when sales_amt = 0 then 0 else (sales_amt - cost_amt) * 1.0 / sales_amt end',
  avgPrice: 'case when sales_qty = return_qty then 0 else sales_amt * 1.0 / (sales_qty - return_qty) end',
  avgCost: 'case when sales_qty = return_qty then 0 else cost_amt * 1.0 / (sales_qty - return_qty) end',
};

/**
 * One page of groups in the asked order, sorted and cut in SQL (the database orders 5,000 goods,
 * only 20 are read and formatted), with the number of groups; undefined when the order names a
 * field SQL does not have (a name: the caller sorts the formatted rows instead).
 */
async function salesGroupPage(services: Services, ctx: Ctx, tenantId: string, f: SalesFilter, key: string, fallback: SortKey[]): Promise<{ groups: Figures[]; total: number } | undefined> {
  const requested = requestedKeys(ctx);
  const keys = [...(requested.length ? requested : fallback), { field: 'groupKey', dir: 1 } as SortKey];
  if (keys.some((k) => !(k.field in ORDER_SQL))) return undefined;
  const { current, size } = parsePaging(ctx.query);
  const grouped = salesQuery(services, tenantId, f, key);
  const order = sql.join(keys.map((k) => sql`${sql.raw(ORDER_SQL[k.field])} ${sql.raw(k.dir === 1 ? 'asc' : 'desc')}`));
  const db = services.store.db;
  const page = (await sql<Record<string, unknown>>`select g.*, count(*) over () as group_total from (${grouped}) g order by ${order} limit ${size} offset ${(current - 1) * size}`.execute(db)).rows;
  const total = page.length ? Number(page[0].group_total) : Number((await sql<{ n: unknown }>`select count(*) as n from (${grouped}) g`.execute(db)).rows[0]?.n ?? 0);
  return { groups: figuresOf(services, page), total };
}

export function zero(key = ''): Figures {
  const z = new Dec(0);
  return { key, billCount: 0, returnBillCount: 0, salesQty: z, returnQty: z, outAmt: z, returnAmt: z, totalAmt: z, salesAmt: z, taxAmt: z, costAmt: z };
}

/**
 * a + b (a's other fields kept); the tax where both have it. Bill counts add up only where the groups
 * share no bill (customers into their categories).
 */
export function addSums<T extends SalesSums>(a: T, b: T): T {
  const out: SalesSums = { ...a, billCount: a.billCount + b.billCount, returnBillCount: a.returnBillCount + b.returnBillCount };
  for (const k of ['salesQty', 'returnQty', 'outAmt', 'returnAmt', 'totalAmt', 'salesAmt', 'costAmt'] as const) out[k] = a[k].plus(b[k]);
  if (a.taxAmt && b.taxAmt) out.taxAmt = a.taxAmt.plus(b.taxAmt);
  return out as T;
}

/** The figures as the wire shows them: decimal strings at the tenant's places (taxAmt only when summed). */
export function present(f: SalesSums, places: Places): Row {
  const grossProfit = f.salesAmt.minus(f.costAmt);
  return {
    billCount: f.billCount,
    returnBillCount: f.returnBillCount,
    salesQty: fixed(f.salesQty, places.quantity),
    returnQty: fixed(f.returnQty, places.quantity),
    qty: fixed(f.salesQty.minus(f.returnQty), places.quantity),
    outAmt: fixed(f.outAmt, places.amount),
    returnAmt: fixed(f.returnAmt, places.amount),
    totalAmt: fixed(f.totalAmt, places.amount),
    salesAmt: fixed(f.salesAmt, places.amount),
    ...(f.taxAmt === undefined ? {} : { taxAmt: fixed(f.taxAmt, places.amount) }),
    costAmt: fixed(f.costAmt, places.amount),
    grossProfit: fixed(grossProfit, places.amount),
    grossMargin: percent(grossProfit, f.salesAmt),
  };
}

/** A page of a sales view's own rows (lookups filled, figures at the tenant's places). */
async function pageView(services: Services, ctx: Ctx, model: Model, where: RawBuilder<unknown>) {
  const caller = mustCaller(ctx);
  const { current, size } = parsePaging(ctx.query);
  const order = parseSort(model, ctx.query).map((o) => sql`${sql.ref(o.column)} ${sql.raw(o.dir)}`);
  const table = sql.table(model.table);
  const db = services.store.db;
  const [counted, found] = await Promise.all([
    sql<{ n: unknown }>`select count(*) as n from ${table} where ${where}`.execute(db),
    sql<Row>`select * from ${table} where ${where} order by ${sql.join(order)} limit ${size} offset ${(current - 1) * size}`.execute(db),
  ]);
  const rows = found.rows.map((r) => services.store.toRow(model, r));
  await fillLookups(services, model, caller.tenantId, rows);
  formatFigures(model, rows, await tenantPlaces(services, caller.tenantId));
  const total = Number(counted.rows[0]?.n ?? 0);
  return { rows, page: { records: rows, total, size, current, pages: Math.ceil(total / size), orders: [] } };
}

type GroupBy = 'goods' | 'classify' | 'customer' | 'staff' | 'dept' | 'depot' | 'month';
const GROUP_SQL: Record<GroupBy, string> = {
  goods: 'comm_info_id',
  classify: 'classify_id',
  customer: 'customer_id',
  staff: 'staff_id',
  dept: 'dept_id',
  depot: 'depot_id',
  month: 'substr(bill_date, 1, 7)',
};
const GROUP_WORDS: Record<string, GroupBy> = { 商品: 'goods', 商品分类: 'classify', 分类: 'classify', 客户: 'customer', 业务员: 'staff', 部门: 'dept', 仓库: 'depot', 月份: 'month' };
/** Row field holding each group's key, and the name shown when the key is empty. */
const GROUP_FIELD: Record<GroupBy, [string, string, string | null, string]> = {
  goods: ['commInfoId', 'commInfoName', 'commInfoCode', '未知商品'],
  classify: ['classifyId', 'classifyName', null, '未分类'],
  customer: ['customerId', 'bartererName', 'bartererCode', '散客'],
  staff: ['staffId', 'staffName', null, '未指定业务员'],
  dept: ['deptId', 'deptName', null, '未指定部门'],
  depot: ['depotId', 'depotName', null, '未指定仓库'],
  month: ['month', 'month', null, ''],
};

function groupByParam(ctx: Ctx): GroupBy {
  const raw = (valueParam(ctx, 'groupBy') ?? 'goods').trim();
  const by = raw in GROUP_SQL ? (raw as GroupBy) : GROUP_WORDS[raw];
  if (!by) throw badRequest('groupBy 只能是 goods、classify、customer、staff、dept、depot 或 month');
  return by;
}

const QUANTITIES = ['salesQty', 'returnQty', 'qty'];
const AMOUNTS = ['outAmt', 'returnAmt', 'totalAmt', 'salesAmt', 'taxAmt', 'costAmt', 'grossProfit'];
const PERCENTS = ['grossMargin', 'amountShare'];

/**
 * One row per group with its figures as exact decimals (sorting compares them as they are); a
 * page of rows is turned into the wire's strings by presentFigures, so 5,000 groups are formatted
 * 20 at a time. No names yet: see fillGroupNames.
 */
export function figureRows(by: GroupBy, groups: Figures[]): Row[] {
  const [field] = GROUP_FIELD[by];
  return groups.map((g) => {
    const grossProfit = g.salesAmt.minus(g.costAmt);
    return {
      groupKey: g.key || NONE, [field]: g.key || null,
      billCount: g.billCount, returnBillCount: g.returnBillCount,
      salesQty: g.salesQty, returnQty: g.returnQty, qty: g.salesQty.minus(g.returnQty),
      outAmt: g.outAmt, returnAmt: g.returnAmt, totalAmt: g.totalAmt, salesAmt: g.salesAmt, taxAmt: g.taxAmt, costAmt: g.costAmt,
      grossProfit, grossMargin: g.salesAmt.isZero() ? new Dec(0) : grossProfit.div(g.salesAmt).times(100),
    };
  });
}

/** The decimals of figure rows as the wire shows them: the tenant's places, percentages at two. */
export function presentFigures(rows: Row[], places: Places): void {
  for (const row of rows) {
    for (const k of QUANTITIES) if (row[k] instanceof Dec) row[k] = fixed(row[k] as Decimal, places.quantity);
    for (const k of AMOUNTS) if (row[k] instanceof Dec) row[k] = fixed(row[k] as Decimal, places.amount);
    for (const k of PERCENTS) if (row[k] instanceof Dec) row[k] = fixed(row[k] as Decimal, 2);
  }
}

/** The groups' names: goods also carry their code, spec, base unit and category. */
export async function fillGroupNames(services: Services, model: Model, tenantId: string, by: GroupBy, rows: Row[]): Promise<void> {
  const [field, nameField, codeField, noName] = GROUP_FIELD[by];
  if (by === 'goods') {
    const ids = rows.map((r) => r[field]).filter(Boolean) as string[];
    const goods = new Map<string, Row>();
    for (const g of ids.length ? await services.store.find(services.m('goods'), tenantId, { where: { id: ids } }) : []) goods.set(String(g.id), g);
    for (const row of rows) Object.assign(row, { unitId: goods.get(String(row[field]))?.unitId ?? null, classifyId: goods.get(String(row[field]))?.classifyId ?? null });
  }
  await fillLookups(services, model, tenantId, rows);
  for (const row of rows) {
    row.groupName = row[nameField] || noName;
    row.groupCode = codeField ? row[codeField] || null : null;
  }
}

/** Group rows with their figures as strings and their names. */
export async function groupRows(services: Services, model: Model, tenantId: string, by: GroupBy, groups: Figures[], places: Places): Promise<Row[]> {
  const rows = figureRows(by, groups);
  presentFigures(rows, places);
  await fillGroupNames(services, model, tenantId, by, rows);
  return rows;
}

function withShares(rows: Row[], total: Decimal): void {
  for (const row of rows) {
    const amount = row.totalAmt instanceof Dec ? row.totalAmt : new Dec(row.totalAmt as string);
    row.amountShare = total.isZero() ? new Dec(0) : amount.div(total).times(100);
  }
}

/** Tree rollup: each group into the child of `top` holding it (unknown nodes stay themselves at the root). */
function rollUp(groups: { node: string; figures: Figures }[], tree: Map<string, string>, top: string) {
  const buckets = new Map<string, { figures: Figures; members: number }>();
  for (const { node, figures } of groups) {
    const bucket = childUnder(tree, node, top) ?? (top === ROOT && !tree.has(node) ? node : undefined);
    if (bucket === undefined) continue;
    const b = buckets.get(bucket) ?? { figures: zero(bucket), members: 0 };
    buckets.set(bucket, { figures: addSums(b.figures, figures), members: b.members + 1 });
  }
  return buckets;
}

const treeTop = (raw: string | undefined) => (!raw || raw === '-1' ? ROOT : raw);

export function registerSalesReportHandlers(services: Services) {
  const { store } = services;

  services.register('salesReport.analysis', async (ctx, model) => {
    const { tenantId } = mustCaller(ctx);
    const by = groupByParam(ctx);
    const places = await tenantPlaces(services, tenantId);
    const f = await salesFilter(services, ctx, tenantId);
    const fallback: SortKey[] = [{ field: 'totalAmt', dir: -1 }];
    const paged = await salesGroupPage(services, ctx, tenantId, f, GROUP_SQL[by], fallback);
    if (paged) {
      const rows = figureRows(by, paged.groups);
      withShares(rows, (await sumSales(services, tenantId, f))[0]?.totalAmt ?? new Dec(0));
      presentFigures(rows, places);
      await fillGroupNames(services, model, tenantId, by, rows);
      return pageShape(ctx, rows, paged.total);
    }
    const groups = await sumSales(services, tenantId, f, GROUP_SQL[by]);
    const rows = figureRows(by, groups);
    withShares(rows, groups.reduce((s, g) => s.plus(g.totalAmt), new Dec(0)));
    return sortedPage(ctx, rows, fallback, { field: 'groupKey', dir: 1 }, async (page) => {
      presentFigures(page, places);
      await fillGroupNames(services, model, tenantId, by, page);
    });
  });

  services.register('salesReport.analysisSumtotal', async (ctx) => {
    const { tenantId } = mustCaller(ctx);
    const by = groupByParam(ctx);
    const f = await salesFilter(services, ctx, tenantId);
    const grouped = salesQuery(services, tenantId, f, GROUP_SQL[by]);
    const [[total], counted] = await Promise.all([sumSales(services, tenantId, f), sql<{ n: unknown }>`select count(*) as n from (${grouped}) g`.execute(services.store.db)]);
    const groupCount = Number(counted.rows[0]?.n ?? 0);
    return { ...present(total ?? zero(), await tenantPlaces(services, tenantId)), amountShare: groupCount ? '100.00' : '0.00', groupCount };
  });

  services.register('salesReport.analysisDetail', async (ctx, model) => {
    const { tenantId } = mustCaller(ctx);
    const f = await salesFilter(services, ctx, tenantId);
    const key = valueParam(ctx, 'groupKey')?.trim();
    let empty = false;
    if (key) {
      const by = groupByParam(ctx);
      if (by === 'month') {
        if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(key)) throw badRequest('按月份时 groupKey 应为 yyyy-MM');
        const [from, to] = [`${key}-01`, lastDayOf(key)];
        f.period = { from: f.period.from && f.period.from > from ? f.period.from : from, to: f.period.to && f.period.to < to ? f.period.to : to };
        empty = f.period.from! > f.period.to!;
      } else if (by === 'classify') {
        empty = f.classifyIds !== undefined && !f.classifyIds.includes(key);
        f.classifyIds = [key];
      } else {
        const name = GROUP_FIELD[by][0] as 'commInfoId' | 'customerId' | 'staffId' | 'deptId' | 'depotId';
        empty = f[name] !== undefined && f[name] !== key;
        f[name] = key;
      }
    }
    const { page } = await pageView(services, ctx, model, empty ? sql`1 = 0` : filterSql(f, tenantId));
    return page;
  });

  services.register('salesReport.customerNature', async (ctx, model) => {
    const { tenantId } = mustCaller(ctx);
    const top = treeTop(valueParam(ctx, 'natureId', 'natureId_equal')?.trim());
    const places = await tenantPlaces(services, tenantId);
    const perCustomer = await sumSales(services, tenantId, await salesFilter(services, ctx, tenantId), 'customer_id');
    const ids = perCustomer.map((g) => g.key).filter(Boolean);
    const natureOf = new Map<string, string>();
    for (let i = 0; i < ids.length; i += 5000) {
      for (const c of await store.find(services.m('customer'), tenantId, { where: { id: ids.slice(i, i + 5000) } })) natureOf.set(String(c.id), String(c.natureId ?? ''));
    }
    const tree = await treeOf(services, tenantId, 'customer-nature');
    const walkIn = perCustomer.find((g) => !g.key);
    const named = perCustomer.filter((g) => g.key).map((g) => ({ node: natureOf.get(g.key) ?? '', figures: g }));
    const buckets = rollUp(named, tree, top);
    const parents = new Set(tree.values());
    const rows: Row[] = [...buckets].map(([id, b]) => ({ natureId: id, hasChildren: parents.has(id), customerCount: b.members, ...present(b.figures, places) }));
    await fillLookups(services, model, tenantId, rows);
    for (const row of rows) row.natureName ||= '未分类';
    if (walkIn && top === ROOT) rows.push({ natureId: null, natureCode: null, natureName: '散客', hasChildren: false, customerCount: 0, ...present(walkIn, places) });
    withShares(rows, rows.reduce((s, r) => s.plus(r.totalAmt as string), new Dec(0)));
    sortRows(ctx, rows, [{ field: 'totalAmt', dir: -1 }], { field: 'natureId', dir: 1 });
    return pageOf(ctx, rows);
  });

  const billTypeName = (type: unknown) => services.registry.dicts.find((d) => d.code === 'bill_type')?.items.find((i) => i.key === String(type ?? ''))?.value ?? '';

  services.register('salesReport.profitList', async (ctx, model) => {
    const { tenantId } = mustCaller(ctx);
    const raw = (valueParam(ctx, 'groupBy') ?? 'goods').trim();
    if (!['goods', '商品', 'bill', '单据'].includes(raw)) throw badRequest('groupBy 只能是 goods（按商品）或 bill（按单据）');
    const f = await salesFilter(services, ctx, tenantId);
    const places = await tenantPlaces(services, tenantId);
    if (raw === 'bill' || raw === '单据') {
      const { rows, page } = await pageView(services, ctx, model, filterSql(f, tenantId, 'bills'));
      for (const row of rows) {
        row.billTypeName = billTypeName(row.billType);
        row.grossMargin = percent(new Dec(String(row.grossProfit ?? 0)), new Dec(String(row.salesAmt ?? 0)));
      }
      return page;
    }
    const fallback: SortKey[] = [{ field: 'grossProfit', dir: -1 }];
    const paged = await salesGroupPage(services, ctx, tenantId, f, GROUP_SQL.goods, fallback);
    const rows = figureRows('goods', paged ? paged.groups : await sumSales(services, tenantId, f, GROUP_SQL.goods));
    // Average prices are worked out only where shown, unless the order asks for them.
    const averages = (some: Row[]) => {
      for (const row of some) {
        if ('avgPrice' in row) continue;
        const qty = row.qty instanceof Dec ? row.qty : new Dec(row.qty as string);
        const per = (v: unknown) => ratio(v instanceof Dec ? v : new Dec(v as string), qty, places.price);
        Object.assign(row, { avgPrice: per(row.salesAmt), avgCost: per(row.costAmt) });
      }
    };
    if (paged) {
      averages(rows);
      presentFigures(rows, places);
      await fillGroupNames(services, model, tenantId, 'goods', rows);
      return pageShape(ctx, rows, paged.total);
    }
    if (/avg_?(price|cost)/i.test(`${ctx.query.ascs ?? ''},${ctx.query.descs ?? ''}`)) averages(rows);
    return sortedPage(ctx, rows, fallback, { field: 'groupKey', dir: 1 }, async (page) => {
      averages(page);
      presentFigures(page, places);
      await fillGroupNames(services, model, tenantId, 'goods', page);
    });
  });

  services.register('salesReport.profitDistribution', async (ctx, model) => {
    const { tenantId } = mustCaller(ctx);
    const top = treeTop(idParam(ctx, 'classifyId'));
    const places = await tenantPlaces(services, tenantId);
    const perCategory = await sumSales(services, tenantId, await salesFilter(services, ctx, tenantId), GROUP_SQL.classify);
    const tree = await treeOf(services, tenantId, 'goods-category');
    const buckets = rollUp(perCategory.map((g) => ({ node: g.key, figures: g })), tree, top);
    const parents = new Set(tree.values());
    const profits = [...buckets.values()].map((b) => b.figures.salesAmt.minus(b.figures.costAmt));
    const whole = profits.reduce((s, p) => s.plus(p), new Dec(0));
    const rows: Row[] = [...buckets].map(([id, b], i) => {
      const { salesAmt, costAmt, grossProfit, grossMargin } = present(b.figures, places);
      return { classifyId: id || null, hasChildren: parents.has(id), salesAmt, costAmt, grossProfit, grossMargin, profitShare: percent(profits[i], whole) };
    });
    await fillLookups(services, model, tenantId, rows);
    for (const row of rows) row.classifyName ||= '未分类';
    sortRows(ctx, rows, [{ field: 'grossProfit', dir: -1 }], { field: 'classifyName', dir: 1 });
    return rows;
  });

}
