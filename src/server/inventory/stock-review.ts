/**
 * Two reviews of the stock on hand:
 * - 积压库存 (inventory/getInvotoryBackLogInfo): the stock rows (库存查询 view) with quantity above
 *   0 whose goods have not left that warehouse for `days` days (default 90): the view's idleSince is
 *   the last outbound posting date, or the last inbound one for goods never shipped from there.
 *   Paged by the generic list (tenant, filters, data scope), each row given its idle days; the
 *   quantity and value totals cover every matching row, summed exactly in SQL.
 * - 库存对账确认 (balanceconfig/balance, unbalance): a warehouse × goods balance that agrees with
 *   Σ its ledger is marked confirmed balanced, with a snapshot of its quantity and value, who and
 *   when (balance-confirm rows, one per pair, upserted); unbalance reopens it. Marks only: no
 *   stock moves, no bill.
 */
import type { Services } from '../services.ts';
import type { Ctx } from '../http/context.ts';
import { idList, mustCaller, param } from '../http/context.ts';
import type { Row } from '../engine/store.ts';
import type { Model } from '../engine/model.ts';
import { badRequest, notFound } from '../errors.ts';
import { runOp } from '../engine/ops.ts';
import { tenantPlaces } from '../engine/document/context.ts';
import { userName } from '../engine/document/transitions.ts';
import { Dec, fixed } from '../../shared/money/index.ts';
import { formatDate, formatDateTime } from '../../shared/dates.ts';

const DEFAULT_BACKLOG_DAYS = 90;
const CONFIRMED = 2;
const OPEN = 1;

const dayNumber = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / 86_400_000;
const dateOfDay = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

function input(ctx: Ctx, name: string): string {
  const body = ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? (ctx.body as Row) : {};
  const value = param(ctx, name) ?? body[name];
  return value === undefined || value === null ? '' : String(value).trim();
}

export function registerStockReviewHandlers(services: Services) {
  const { store } = services;

  services.register('inventory.backlog', async (ctx, model: Model) => {
    const text = input(ctx, 'days') || input(ctx, 'day') || String(DEFAULT_BACKLOG_DAYS);
    if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 3650) throw badRequest('积压天数应为1至3650之间的整数', { fieldErrors: { days: '积压天数应为1至3650之间的整数' } });
    const days = Number(text);
    const today = formatDate();
    const cutoff = dateOfDay(dayNumber(today) - days);
    const { days: _d, day: _dd, ...rest } = ctx.query;
    void _d;
    void _dd;
    const view: Ctx = { ...ctx, query: { ...rest, qty_gt: '0', idleSince_le: cutoff } };
    const page = (await runOp(view, model, { path: 'list', method: 'GET', op: 'page', filters: 'map' })).data as Row & { records: Row[] };
    const totals = (await runOp(view, model, { path: 'sumtotal', method: 'GET', op: 'sum', filters: 'map', sum: ['qty', 'value'] })).data as Row;
    for (const row of page.records) {
      const since = String(row.idleSince ?? '');
      row.idleDays = since ? dayNumber(today) - dayNumber(since) : null;
      const moves = [row.lastInDate, row.lastOutDate].filter(Boolean).map(String).sort();
      row.lastMoveDate = moves.length ? moves[moves.length - 1] : null;
    }
    return { ...page, days, cutoffDate: cutoff, totalQty: totals.qty, totalValue: totals.value };
  });

  /** The view rows named by id / ids, all of them or a refusal. */
  async function rowsOf(ctx: Ctx, model: Model): Promise<Row[]> {
    const caller = mustCaller(ctx);
    const ids = [...new Set(idList(input(ctx, 'ids') || input(ctx, 'id')))];
    if (!ids.length) throw badRequest('请选择至少一条数据');
    const rows = await store.find(model, caller.tenantId, { where: { id: ids } });
    const byId = new Map(rows.map((r) => [String(r.id), r]));
    const missing = ids.find((id) => !byId.has(id));
    if (missing) throw notFound('库存余额不存在或已被删除，请刷新后重试');
    return ids.map((id) => byId.get(id)!);
  }

  const label = (row: Row) => `「${row.commInfoName ?? row.commInfoId}」`;

  services.register('balanceConfig.balance', async (ctx, model: Model) => {
    const caller = mustCaller(ctx);
    const remark = input(ctx, 'remark');
    if (remark.length > 255) throw badRequest('备注不能超过255个字符', { fieldErrors: { remark: '备注不能超过255个字符' } });
    const places = await tenantPlaces(services, caller.tenantId);
    const who = await userName(services, caller, caller.userId);
    return store.transaction(async () => {
      const rows = await rowsOf(ctx, model);
      for (const row of rows) {
        if (Number(row.balanced) !== 1) {
          throw badRequest(`商品${label(row)}的库存余额与流水不符（数量差异 ${fixed(String(row.diffQty ?? '0'), places.quantity)}，金额差异 ${fixed(String(row.diffValue ?? '0'), places.amount)}），不能确认对平，请先查明原因`);
        }
        if (Number(row.balanceStatus) === CONFIRMED && Number(row.changed) !== 2) {
          throw badRequest(`商品${label(row)}已确认对平，且确认后库存没有变动，无需重复确认`);
        }
      }
      const now = formatDateTime();
      // One row per warehouse × goods (unique key): updated when it exists, else inserted.
      const confirms = services.m('balance-confirm');
      for (const row of rows) {
        const data = {
          confirmStatus: CONFIRMED,
          confirmQty: new Dec(String(row.qty ?? '0')).toFixed(),
          confirmValue: new Dec(String(row.value ?? '0')).toFixed(),
          confirmUserName: who,
          confirmTime: now,
          remark: remark || null,
        };
        const stored = (await store.find(confirms, caller.tenantId, { where: { depotId: String(row.depotId), commInfoId: String(row.commInfoId) } }))[0];
        if (stored) await store.update(confirms, caller, String(stored.id), data, { includeReadonly: true });
        else await store.insert(confirms, caller, { depotId: String(row.depotId), commInfoId: String(row.commInfoId), ...data }, { includeReadonly: true });
      }
      return { ids: rows.map((r) => String(r.id)), confirmed: rows.length };
    });
  });

  services.register('balanceConfig.unbalance', async (ctx, model: Model) => {
    const caller = mustCaller(ctx);
    const remark = input(ctx, 'remark');
    if (remark.length > 255) throw badRequest('备注不能超过255个字符', { fieldErrors: { remark: '备注不能超过255个字符' } });
    return store.transaction(async () => {
      const rows = await rowsOf(ctx, model);
      const open = rows.find((r) => Number(r.balanceStatus) !== CONFIRMED);
      if (open) throw badRequest(`商品${label(open)}尚未确认对平，不能取消确认`);
      const confirms = services.m('balance-confirm');
      for (const row of rows) {
        const stored = (await store.find(confirms, caller.tenantId, { where: { depotId: String(row.depotId), commInfoId: String(row.commInfoId) } }))[0];
        if (!stored) throw notFound('对账确认记录不存在，请刷新后重试');
        await store.update(confirms, caller, String(stored.id), { confirmStatus: OPEN, ...(remark ? { remark } : {}) }, { includeReadonly: true });
      }
      return { ids: rows.map((r) => String(r.id)), reopened: rows.length };
    });
  });
}
