/**
 * Accounting periods (系统设置 → 会计期间): calendar months, generated a year at a time, closed in
 * order and reopened latest first. What a closed period refuses: posting/periods.ts.
 */
import type { Services } from '../services.ts';
import type { Actor, Row } from '../engine/store.ts';
import { mustCaller, param, type Ctx } from '../http/context.ts';
import { badRequest, notFound } from '../errors.ts';
import { PERIOD_CLOSED, PERIOD_OPEN } from '../posting/periods.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { userName } from '../engine/document/transitions.ts';

const CLOSED = PERIOD_CLOSED;
const OPEN = PERIOD_OPEN;

/** A parameter from the query, a form body or a JSON body (the client's actions send JSON). */
function input(ctx: Ctx, name: string): string {
  const body = ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? (ctx.body as Row) : {};
  const value = param(ctx, name) ?? body[name];
  return value === undefined || value === null ? '' : String(value).trim();
}

const pad = (n: number) => String(n).padStart(2, '0');

function monthsOf(year: number): Row[] {
  return Array.from({ length: 12 }, (_, i) => {
    const month = i + 1;
    const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
    return { periodYear: year, periodCode: `${year}-${pad(month)}`, startDate: `${year}-${pad(month)}-01`, endDate: `${year}-${pad(month)}-${pad(last)}`, periodStatus: OPEN };
  });
}

async function mustPeriod(services: Services, actor: Actor, id: string): Promise<Row> {
  if (!id) throw badRequest('缺少参数 id');
  const row = await services.store.get(services.m('accounting-period'), actor.tenantId, id);
  if (!row) throw notFound('会计期间不存在');
  return row;
}

export function registerPeriodHandlers(services: Services) {
  const model = () => services.m('accounting-period');
  const all = (actor: Actor) => services.store.find(model(), actor.tenantId, { orderBy: [{ column: 'start_date', dir: 'asc' }] });

  services.register('period.generate', async (ctx) => {
    const caller = mustCaller(ctx);
    const text = input(ctx, 'periodYear');
    const year = Number(text);
    if (!/^\d{4}$/.test(text) || year < 2000 || year > 2099) throw badRequest('会计年度应在2000至2099之间', { fieldErrors: { periodYear: '会计年度应在2000至2099之间' } });
    return services.store.transaction(async () => {
      const existing = new Set((await all(caller)).map((r) => String(r.periodCode)));
      const missing = monthsOf(year).filter((p) => !existing.has(String(p.periodCode)));
      if (!missing.length) throw badRequest(`${year}年的会计期间已全部生成`);
      await services.store.insertMany(model(), caller, missing);
      return { created: missing.length };
    });
  });

  services.register('period.close', async (ctx) => {
    const caller = mustCaller(ctx);
    const who = await userName(services, caller, caller.userId);
    return services.store.transaction(async () => {
      const period = await mustPeriod(services, caller, input(ctx, 'id'));
      if (Number(period.periodStatus) === CLOSED) throw badRequest(`会计期间${period.periodCode}已结账`);
      const earlier = (await all(caller)).filter((p) => String(p.startDate) < String(period.startDate) && Number(p.periodStatus) !== CLOSED);
      if (earlier.length) throw badRequest(`请先结账之前的会计期间${earlier[0].periodCode}`);
      const now = formatDateTime();
      await services.store.updateMany(model(), caller, [{ id: period.id, periodStatus: CLOSED, closeUserName: who, closeTime: now }], now);
      return { ...period, periodStatus: CLOSED };
    });
  });

  services.register('period.reopen', async (ctx) => {
    const caller = mustCaller(ctx);
    return services.store.transaction(async () => {
      const period = await mustPeriod(services, caller, input(ctx, 'id'));
      if (Number(period.periodStatus) !== CLOSED) throw badRequest(`会计期间${period.periodCode}未结账`);
      const later = (await all(caller)).filter((p) => String(p.startDate) > String(period.startDate) && Number(p.periodStatus) === CLOSED);
      if (later.length) throw badRequest(`请先反结账之后的会计期间${later[later.length - 1].periodCode}`);
      const now = formatDateTime();
      await services.store.updateMany(model(), caller, [{ id: period.id, periodStatus: OPEN, closeUserName: '', closeTime: '' }], now);
      return { ...period, periodStatus: OPEN };
    });
  });
}
