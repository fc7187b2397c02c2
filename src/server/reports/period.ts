/**
 * The period a report covers: bill dates from billDate_datege to billDate_datele (both inclusive),
 * or a day, month or year named by queryDate and dateType; and the calendar arithmetic reports use.
 */
import type { Ctx } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { valueParam } from '../system/params.ts';
import { addDays, addMonths } from '../../shared/dates.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A period of bill dates, both ends inclusive (yyyy-MM-dd); an open end is no bound. */
export interface Period {
  from?: string;
  to?: string;
}


export { addDays, addMonths };

export function lastDayOf(month: string): string {
  return addDays(`${addMonths(month, 1)}-01`, -1);
}

export function validDay(text: string): boolean {
  if (!DAY.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

export function dayParam(ctx: Ctx, name: string, title: string): string | undefined {
  const raw = valueParam(ctx, name);
  if (raw === undefined) return undefined;
  const day = raw.trim().slice(0, 10);
  if (!validDay(day)) throw badRequest(`${title}格式应为 yyyy-MM-dd`, { fieldErrors: { [name]: `${title}格式应为 yyyy-MM-dd` } });
  return day;
}

/**
 * The period a call names: billDate_datege / billDate_datele; else queryDate with dateType
 * (1/day, 2/month, 3/year; without dateType the length of queryDate decides); else none.
 */
export function periodOf(ctx: Ctx): Period {
  const from = dayParam(ctx, 'billDate_datege', '开始日期');
  const to = dayParam(ctx, 'billDate_datele', '结束日期');
  if (from || to) {
    if (from && to && from > to) throw badRequest('开始日期不能晚于结束日期');
    return { from, to };
  }
  const queryDate = valueParam(ctx, 'queryDate')?.trim();
  if (!queryDate) return {};
  const raw = (valueParam(ctx, 'dateType') ?? '').trim().toLowerCase();
  const type = ['1', 'day'].includes(raw) ? 'day' : ['2', 'month'].includes(raw) ? 'month' : ['3', 'year'].includes(raw) ? 'year' : raw ? 'bad' : undefined;
  if (type === 'bad') throw badRequest('dateType 只能是 1（日）、2（月）或 3（年）');
  const shape = /^\d{4}$/.test(queryDate) ? 'year' : /^\d{4}-\d{2}$/.test(queryDate) ? 'month' : 'day';
  const kind = type ?? shape;
  const day = shape === 'year' ? `${queryDate}-01-01` : shape === 'month' ? `${queryDate}-01` : queryDate.slice(0, 10);
  if (!validDay(day)) throw badRequest('查询日期格式应为 yyyy、yyyy-MM 或 yyyy-MM-dd', { fieldErrors: { queryDate: '查询日期格式不正确' } });
  if (kind === 'day') return { from: day, to: day };
  if (kind === 'month') return { from: `${day.slice(0, 7)}-01`, to: lastDayOf(day.slice(0, 7)) };
  return { from: `${day.slice(0, 4)}-01-01`, to: `${day.slice(0, 4)}-12-31` };
}
