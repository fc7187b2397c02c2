/**
 * The local print service the browser sends labels to (protocol: scripts/print-service.ts and
 * README → Printing): GET /version tells whether one is installed and how new it is, POST /print
 * takes a self-contained HTML page and the paper size in millimetres. Plain fetch: the service is
 * on this machine, not the ERP server, and gets no token.
 */
import { useSession } from '../../../store/session.ts';

export const DEFAULT_SERVICE_URL = 'http://127.0.0.1:18000';
/** The oldest service version whose /print this client's jobs work with. */
export const REQUIRED_VERSION = '1.0.0';
const PROBE_TIMEOUT_MS = 3000;

export type ServiceState = { ok: true; version: string } | { ok: false; reason: 'missing' } | { ok: false; reason: 'old'; version: string };

/** The service's address: system config PRINT_SERVICE_URL, else the default port on this machine. */
export function serviceUrl(): string {
  const configured = useSession.getState().config.PRINT_SERVICE_URL;
  return (typeof configured === 'string' && configured.trim() ? configured.trim() : DEFAULT_SERVICE_URL).replace(/\/+$/, '');
}

/** True when dotted version `a` is older than `b` (1.2.0 < 1.10.0). */
export function olderThan(a: string, b: string): boolean {
  const pa = a.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const pb = b.split('.').map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) < (pb[i] ?? 0);
  }
  return false;
}

export async function checkService(url: string): Promise<ServiceState> {
  try {
    const res = await fetch(`${url}/version`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    if (!res.ok) return { ok: false, reason: 'missing' };
    const info = (await res.json()) as { version?: unknown };
    const version = typeof info.version === 'string' ? info.version : '0';
    return olderThan(version, REQUIRED_VERSION) ? { ok: false, reason: 'old', version } : { ok: true, version };
  } catch {
    return { ok: false, reason: 'missing' };
  }
}

export interface PrintJob {
  title: string;
  html: string;
  paper: { width: number; height: number };
  copies?: number;
}

export async function sendJob(url: string, job: PrintJob): Promise<{ pages: number; file?: string }> {
  const res = await fetch(`${url}/print`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(job) });
  const answer = (await res.json().catch(() => ({}))) as { ok?: boolean; msg?: string; pages?: number; file?: string };
  if (!res.ok || !answer.ok) throw new Error(answer.msg || `HTTP ${res.status}`);
  return { pages: Number(answer.pages ?? 0), file: answer.file };
}
