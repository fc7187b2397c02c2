/**
 * 配送中心: delivery runs (salesdistributionhead) group approved or posted sales-outs under a
 * driver, car, route and date. A run is a plain resource (head + link table), not a posting bill;
 * save and addsoout check what generic operations cannot: the sales-outs' states, that a sales-out
 * is on at most one run, and that a finished run keeps its list. Also the per-driver totals
 * (driverdistribution/dirverdistribution) and the overdue interest of unsettled sales-outs
 * (salesoutinterest/list), both read from views and summed or computed here with exact decimals.
 */
import type { Services } from '../services.ts';
import type { Ctx } from '../http/context.ts';
import { idList, mustCaller, param } from '../http/context.ts';
import type { Actor, Row } from '../engine/store.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { validateEntity } from '../engine/validate.ts';
import { loadLines, saveLines } from '../engine/lines.ts';
import { fillLookups } from '../engine/lookups.ts';
import { parseFilters, parsePaging } from '../engine/query.ts';
import { runOp } from '../engine/ops.ts';
import { requireVersion } from '../engine/records.ts';
import { formatFigures, tenantPlaces } from '../engine/document/context.ts';
import { generateBillNo } from '../system/config.ts';
import { Dec, fixed, type Decimal } from '../../shared/money/index.ts';
import { formatDate } from '../../shared/dates.ts';

const BILL_TYPE = '0840';
/** Sales-outs a run may carry: 已审核 and 已记账. */
const DELIVERABLE = new Set(['1304', '1306']);
/** 已签收 and 已回单: a finished run keeps its sales-outs. */
const FINISHED = new Set(['3005', '3006']);
const DEFAULT_INTEREST_RATE = '0.5';

const statusName = (services: Services, code: string, value: string) =>
  services.registry.dicts.find((d) => d.code === code)?.items.find((i) => i.key === value)?.value ?? value;

/** The sales-out ids a call names: outList [{soOutId}], soOutIds / ids as an array or comma-joined text. */
function soOutIdsOf(source: Row, keys: string[]): string[] | undefined {
  if (Array.isArray(source.outList)) {
    return (source.outList as unknown[]).map((item, i) => {
      const id = item && typeof item === 'object' ? (item as Row).soOutId : item;
      if (id === undefined || id === null || id === '') throw badRequest(`出库单第${i + 1}条：请选择销售出库单`);
      return String(id);
    });
  }
  for (const key of keys) {
    const value = source[key];
    if (value === undefined || value === null) continue;
    return Array.isArray(value) ? value.map(String).flatMap((v) => idList(v)) : idList(String(value));
  }
  return undefined;
}

export function registerDistributionHandlers(services: Services) {
  const runs = () => services.m('sales-distribution');
  const links = () => services.m('sales-distribution-body');
  const outs = () => services.m('sales-out');
  const { store } = services;

  /** The run with its sales-outs, display names filled and figures at the tenant's places. */
  async function loadRun(actor: Actor, id: string): Promise<Row> {
    const head = await store.get(runs(), actor.tenantId, id);
    if (!head) throw notFound('配送单不存在或已被删除');
    await fillLookups(services, runs(), actor.tenantId, [head]);
    const loaded = await loadLines(services, actor.tenantId, runs(), [head]);
    const places = await tenantPlaces(services, actor.tenantId);
    formatFigures(runs(), [head], places);
    for (const [model, rows] of loaded) formatFigures(model, rows, places);
    return head;
  }

  /**
   * Checks that every sales-out may join run `runId` (undefined for a new run) and answers their
   * link rows, in the order given. Refusals name the bill: draft, pending, rejected, cancelled or
   * flushed bills, and bills already on another run.
   */
  async function linkRows(actor: Actor, ids: string[], runId: string | undefined): Promise<Row[]> {
    const unique = [...new Set(ids)];
    if (unique.length !== ids.length) {
      const twice = ids.find((id, i) => ids.indexOf(id) !== i)!;
      throw badRequest(`出库单重复：${twice}`);
    }
    if (!unique.length) return [];
    const found = new Map((await store.find(outs(), actor.tenantId, { where: { id: unique } })).map((r) => [String(r.id), r]));
    const taken = await store.find(links(), actor.tenantId, { where: { soOutId: unique } });
    const elsewhere = taken.filter((l) => String(l.headId) !== runId);
    const otherRuns = new Map(
      (elsewhere.length ? await store.find(runs(), actor.tenantId, { where: { id: [...new Set(elsewhere.map((l) => String(l.headId)))] } }) : []).map((r) => [String(r.id), r]),
    );
    return unique.map((id) => {
      const out = found.get(id);
      if (!out) throw badRequest(`销售出库单不存在或已被删除（${id}）`);
      const status = String(out.billStatus ?? '');
      if (!DELIVERABLE.has(status)) {
        throw badRequest(`出库单 ${out.billNo} 当前状态为「${statusName(services, 'bill_status', status)}」，不能加入配送单；只有「已审核」或「已记账」的出库单可以配送`);
      }
      const other = elsewhere.find((l) => String(l.soOutId) === id);
      if (other) {
        const run = otherRuns.get(String(other.headId));
        const state = run ? statusName(services, 'delivery_status', String(run.deliveryStatus ?? '')) : '';
        throw badRequest(`出库单 ${out.billNo} 已在配送单 ${run?.billNo ?? ''}${state ? `（${state}）` : ''}中，一张出库单只能编入一张配送单`);
      }
      return { soOutId: id, billNo: out.billNo, billDate: out.billDate, customerId: out.customerId ?? null, totalQty: out.totalQty ?? '0', finalAmt: out.finalAmt ?? '0' };
    });
  }

  /** Head totals of a run's link rows. */
  function totals(rows: Row[]): Row {
    const sum = (field: string) => rows.reduce((a: Decimal, r) => a.plus(String(r[field] ?? '0')), new Dec(0)).toFixed();
    return { soCount: rows.length, totalQty: sum('totalQty'), totalAmt: sum('finalAmt') };
  }

  /** Car and route default to the driver's own; the driver must be a staff member marked 司机. */
  async function checkDriver(actor: Actor, data: Row): Promise<void> {
    const staff = await store.get(services.m('staff'), actor.tenantId, String(data.driverId));
    if (!staff) throw badRequest('司机不存在或已被删除', { fieldErrors: { driverId: '司机不存在或已被删除' } });
    if (Number(staff.isDriver) !== 2) {
      const message = `职员「${staff.staffName}」不是司机，请先在职员资料中设为司机`;
      throw badRequest(message, { fieldErrors: { driverId: message } });
    }
    if (!data.carId) data.carId = staff.carId ?? null;
    if (!data.routeId) data.routeId = staff.routeId ?? null;
    if (data.carId && !(await store.get(services.m('car'), actor.tenantId, String(data.carId)))) {
      throw badRequest('车辆不存在或已被删除', { fieldErrors: { carId: '车辆不存在或已被删除' } });
    }
    if (data.routeId && !(await store.get(services.m('route'), actor.tenantId, String(data.routeId)))) {
      throw badRequest('配送线路不存在或已被删除', { fieldErrors: { routeId: '配送线路不存在或已被删除' } });
    }
  }

  /** Link rows to store: a sales-out already on this run keeps its row (and id). */
  async function withStoredIds(actor: Actor, runId: string | undefined, rows: Row[]): Promise<Row[]> {
    if (!runId) return rows;
    const stored = new Map((await store.find(links(), actor.tenantId, { where: { headId: runId } })).map((l) => [String(l.soOutId), l]));
    return rows.map((r) => {
      const before = stored.get(String(r.soOutId));
      return before ? { ...r, id: before.id } : r;
    });
  }

  services.register('salesDistribution.detail', async (ctx) => {
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    return loadRun(mustCaller(ctx), id);
  });

  services.register('salesDistribution.save', async (ctx) => {
    const caller = mustCaller(ctx);
    const body = ctx.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('请求体应为JSON对象');
    const input = body as Row;
    const id = input.id !== undefined && input.id !== null && input.id !== '' ? String(input.id) : undefined;
    const existing = id ? await store.get(runs(), caller.tenantId, id) : undefined;
    if (id && !existing) throw notFound('配送单不存在或已被删除');
    const data: Row = {};
    for (const field of ['deliveryDate', 'driverId', 'carId', 'routeId', 'deliveryStatus', 'remark']) {
      if (input[field] !== undefined) data[field] = input[field] === '' ? null : input[field];
    }
    const merged: Row = { ...(existing ?? { deliveryStatus: '3001' }), ...data };
    if (merged.deliveryStatus === null || merged.deliveryStatus === undefined) merged.deliveryStatus = '3001';
    if (!merged.deliveryDate) merged.deliveryDate = formatDate();
    for (const key of ['carId', 'routeId', 'remark']) if (merged[key] === null) delete merged[key];
    const checked: Row = {};
    for (const field of ['deliveryDate', 'driverId', 'carId', 'routeId', 'deliveryStatus', 'remark']) if (merged[field] !== undefined && merged[field] !== null) checked[field] = merged[field];
    validateEntity(runs().resource!.entity, checked);
    await checkDriver(caller, merged);
    const version = id ? requireVersion(input) : 0;
    const ids = soOutIdsOf(input, ['soOutIds', 'ids']);
    const savedId = await store.transaction(async () => {
      let rows: Row[] | undefined;
      if (ids) {
        rows = await linkRows(caller, ids, id);
        if (existing && FINISHED.has(String(existing.deliveryStatus))) {
          const before = (await store.find(links(), caller.tenantId, { where: { headId: id } })).map((l) => String(l.soOutId)).sort();
          if (before.join(',') !== [...ids].sort().join(',')) {
            throw badRequest(`配送单 ${existing.billNo} 状态为「${statusName(services, 'delivery_status', String(existing.deliveryStatus))}」，不能增删出库单`);
          }
        }
      }
      const head: Row = {
        deliveryDate: merged.deliveryDate,
        driverId: merged.driverId,
        carId: merged.carId ?? null,
        routeId: merged.routeId ?? null,
        deliveryStatus: String(merged.deliveryStatus),
        remark: merged.remark ?? null,
        ...(rows ? totals(rows) : existing ? {} : totals([])),
      };
      let runId = id;
      if (!runId) {
        head.billNo = await generateBillNo(services, caller.tenantId, BILL_TYPE, '');
        runId = String((await store.insert(runs(), caller, head, { includeReadonly: true })).id);
      } else {
        await store.update(runs(), caller, runId, head, { version, includeReadonly: true });
      }
      if (rows) await saveLines(services, caller, runs(), runId, { outList: await withStoredIds(caller, id, rows) }, { trusted: true });
      return runId;
    });
    return loadRun(caller, savedId);
  });

  services.register('salesDistribution.addSoOut', async (ctx) => {
    const caller = mustCaller(ctx);
    const id = param(ctx, 'id', 'headId', 'distributionId');
    if (!id) throw badRequest('缺少参数 id（配送单）');
    const ids = soOutIdsOf(ctx.params as Row, ['soOutIds', 'soOutId', 'ids']) ?? [];
    if (!ids.length) throw badRequest('请选择要加入配送单的销售出库单');
    const versionText = param(ctx, 'version');
    const runId = await store.transaction(async () => {
      const run = await store.get(runs(), caller.tenantId, id);
      if (!run) throw notFound('配送单不存在或已被删除');
      if (versionText !== undefined && Number(versionText) !== Number(run.version)) throw conflict('配送单已被他人修改，请刷新后重试');
      if (FINISHED.has(String(run.deliveryStatus))) {
        throw badRequest(`配送单 ${run.billNo} 状态为「${statusName(services, 'delivery_status', String(run.deliveryStatus))}」，不能再加入出库单`);
      }
      const stored = await store.find(links(), caller.tenantId, { where: { headId: id } });
      const have = new Set(stored.map((l) => String(l.soOutId)));
      // A sales-out already on this run stays where it is: adding it again changes nothing.
      const added = await linkRows(caller, [...new Set(ids)].filter((s) => !have.has(s)), id);
      const all = [...stored, ...added];
      await store.update(runs(), caller, id, totals(all), { version: Number(run.version), includeReadonly: true });
      await saveLines(services, caller, runs(), id, { outList: all }, { trusted: true });
      return id;
    });
    return loadRun(caller, runId);
  });

  services.register('salesDistribution.remove', async (ctx) => {
    const caller = mustCaller(ctx);
    const body = ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? (ctx.body as Row) : {};
    const ids = idList(param(ctx, 'ids', 'id') ?? (Array.isArray(body.ids) ? body.ids.join(',') : body.ids !== undefined ? String(body.ids) : undefined));
    if (!ids.length) throw badRequest('请选择至少一条数据');
    await store.transaction(async () => {
      const rows = await store.find(runs(), caller.tenantId, { where: { id: ids } });
      if (rows.length !== ids.length) throw badRequest('配送单不存在或已被删除');
      const done = rows.find((r) => FINISHED.has(String(r.deliveryStatus)));
      if (done) throw badRequest(`配送单 ${done.billNo} 状态为「${statusName(services, 'delivery_status', String(done.deliveryStatus))}」，不能删除`);
      const lineIds = (await store.find(links(), caller.tenantId, { where: { headId: ids } })).map((l) => String(l.id));
      if (lineIds.length) await store.softRemove(links(), caller, lineIds);
      await store.softRemove(runs(), caller, ids);
    });
    return null;
  });

  /** Per driver over a date range: the runs, their live sales-outs, quantity and amount. */
  services.register('driverDistribution.byDriver', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const query: Row = { ...ctx.query };
    const start = param(ctx, 'deliveryDateStart', 'startDate', 'beginDate', 'billDateStart');
    const end = param(ctx, 'deliveryDateEnd', 'endDate', 'billDateEnd');
    if (start) query.deliveryDate_ge = start.slice(0, 10);
    if (end) query.deliveryDate_le = end.slice(0, 10);
    const driverId = param(ctx, 'driverId');
    if (driverId) {
      delete query.driverId;
      query.driverId_equal = driverId;
    }
    const conditions = parseFilters(model, query, 'map');
    const scope = await services.perms.dataScope(caller, model);
    const rows = await store.find(model, caller.tenantId, { conditions: scope ? [...conditions, scope] : conditions, orderBy: [{ column: 'delivery_date', dir: 'asc' }, { column: 'bill_no', dir: 'asc' }], limit: 20000 });
    await fillLookups(services, model, caller.tenantId, rows);
    const places = await tenantPlaces(services, caller.tenantId);
    const byDriver = new Map<string, { driverId: string; driverName: unknown; runs: Row[]; soCount: number; qty: Decimal; amt: Decimal }>();
    for (const r of rows) {
      const key = String(r.driverId ?? '');
      const d = byDriver.get(key) ?? { driverId: key, driverName: r.driverName ?? null, runs: [], soCount: 0, qty: new Dec(0), amt: new Dec(0) };
      d.runs.push({
        id: r.id,
        billNo: r.billNo,
        deliveryDate: r.deliveryDate,
        deliveryStatus: r.deliveryStatus,
        carNumber: r.carNumber ?? null,
        routeName: r.routeName ?? null,
        soCount: Number(r.soCount ?? 0),
        totalQty: fixed(String(r.totalQty ?? '0'), places.quantity),
        totalAmt: fixed(String(r.totalAmt ?? '0'), places.amount),
      });
      d.soCount += Number(r.soCount ?? 0);
      d.qty = d.qty.plus(String(r.totalQty ?? '0'));
      d.amt = d.amt.plus(String(r.totalAmt ?? '0'));
      byDriver.set(key, d);
    }
    const phones = new Map(
      (byDriver.size ? await store.find(services.m('staff'), caller.tenantId, { where: { id: [...byDriver.keys()].filter(Boolean) } }) : []).map((s) => [String(s.id), s.staffPhone ?? null]),
    );
    const all = [...byDriver.values()]
      .sort((a, b) => b.amt.comparedTo(a.amt) || String(a.driverName ?? '').localeCompare(String(b.driverName ?? '')))
      .map((d) => ({
        driverId: d.driverId,
        driverName: d.driverName,
        driverPhone: phones.get(d.driverId) ?? null,
        deliveryDateStart: start ?? null,
        deliveryDateEnd: end ?? null,
        runCount: d.runs.length,
        soCount: d.soCount,
        totalQty: fixed(d.qty, places.quantity),
        totalAmt: fixed(d.amt, places.amount),
        runs: d.runs,
      }));
    const { current, size } = parsePaging(ctx.query);
    return { records: all.slice((current - 1) * size, current * size), total: all.length, size, current, pages: Math.ceil(all.length / size), orders: [] };
  });

  /**
   * Overdue interest: the view gives each unsettled posted sales-out with its due date (bill date +
   * the customer's credit days); rows due before today are paged by the generic list, and each
   * gets days overdue (today − due date) and interest = unsettled × days × daily rate ‰ ÷ 1000.
   */
  services.register('salesOutInterest.list', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const today = formatDate();
    const view: Ctx = { ...ctx, query: { ...ctx.query, dueDate_lt: today } };
    const page = (await runOp(view, model, { path: 'list', method: 'GET', op: 'page', filters: 'map' })).data as { records: Row[] };
    const config = (await store.find(services.m('sysconfig'), caller.tenantId, { where: { configKey: 'SALES_INTEREST_RATE' } }))[0];
    const text = String(config?.configValue ?? '').trim() || DEFAULT_INTEREST_RATE;
    let rate: Decimal;
    try {
      rate = new Dec(text);
    } catch {
      throw badRequest(`系统配置 SALES_INTEREST_RATE（逾期利息日利率‰）不是数字：${text}`);
    }
    const places = await tenantPlaces(services, caller.tenantId);
    const day = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
    for (const row of page.records) {
      const days = Math.max(0, Math.round((day(today) - day(String(row.dueDate))) / 86_400_000));
      row.overdueDays = days;
      row.dailyRate = rate.toFixed();
      row.interestAmt = fixed(new Dec(String(row.unsettledAmt ?? '0')).times(days).times(rate).div(1000), places.amount);
    }
    return page;
  });
}

