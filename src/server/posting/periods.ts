/**
 * Which dates ledger rows may carry (会计期间): a posting takes its bill date and is refused when that
 * date lies in a closed period; a reversal (冲红) is dated today, so flushing a bill of a closed
 * period books the mirror rows in the open period and leaves the original rows as they were. Dates
 * outside every defined period are open. The periods themselves: finance/periods.ts.
 */
import type { Services } from '../services.ts';
import { badRequest } from '../errors.ts';
import { formatDate } from '../../shared/dates.ts';

export const PERIOD_CLOSED = 2;
export const PERIOD_OPEN = 1;

export interface ClosedPeriod {
  code: string;
  start: string;
  end: string;
}

/** The tenant's closed periods; cached like the system parameters (a close shows on every node within 2 s). */
export async function closedPeriods(services: Services, tenantId: string): Promise<ClosedPeriod[]> {
  const model = services.m('accounting-period');
  return services.store.cached(model.table, `closed|${tenantId}`, 2000, async () => {
    const rows = await services.store.find(model, tenantId, { where: { periodStatus: PERIOD_CLOSED } });
    return rows.map((r) => ({ code: String(r.periodCode), start: String(r.startDate), end: String(r.endDate) }));
  });
}

const dayOf = (value: unknown) => String(value ?? '').slice(0, 10);

function periodOf(periods: ClosedPeriod[], day: string): ClosedPeriod | undefined {
  return periods.find((p) => p.start <= day && day <= p.end);
}

/**
 * The date a posting's ledger rows carry, refused when it falls in a closed period: the bill date
 * for a posting, today for a reversal.
 */
export function postingDate(periods: ClosedPeriod[], entry: 'post' | 'reverse', billDate: unknown, today = formatDate()): string {
  if (entry === 'reverse') {
    const closed = periodOf(periods, today);
    if (closed) throw badRequest(`当前日期${today}所在会计期间${closed.code}已结账，不能冲红，请先反结账`);
    return today;
  }
  const day = dayOf(billDate) || today;
  const closed = periodOf(periods, day);
  if (closed) throw badRequest(`单据日期${day}所在会计期间${closed.code}已结账，不能记账`);
  return day;
}

