/** The contract's wire format for date-times: `yyyy-MM-dd HH:mm:ss`, local time of the server. */
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function formatDateTime(date: Date = new Date()): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

export function formatDate(date: Date = new Date()): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export const DATE_TIME_PATTERN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Accepts `yyyy-MM-dd`, `yyyy-MM-dd HH:mm:ss` or ISO text; returns the wire format or null. */
export function normalizeDateTime(text: string): string | null {
  if (DATE_TIME_PATTERN.test(text)) return text;
  if (DATE_PATTERN.test(text)) return `${text} 00:00:00`;
  const parsed = new Date(text);
  return Number.isNaN(parsed.getTime()) ? null : formatDateTime(parsed);
}

/** yyyy-MM-dd plus n days (calendar arithmetic in UTC, so no time zone shifts a day). */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** yyyy-MM plus n months. */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number);
  const k = y * 12 + (m - 1) + n;
  return `${Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, '0')}`;
}
