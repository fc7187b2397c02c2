/**
 * Export jobs (导出任务): an export runs on the server as a job (POST /api/erp-export/start); the
 * jobs of the signed-in user are listed from the server, so their progress survives a page reload,
 * and polled once a second while one is running. A job started in this tab downloads its file
 * when it is done.
 */
import { create } from 'zustand';
import { http, request, type QueryValue } from '../api/http.ts';

export type ExportStatus = 'running' | 'done' | 'failed' | 'cancelled';

export interface ExportJob {
  id: string;
  status: ExportStatus;
  rows: number;
  total: number;
  fileName: string;
  resource?: string;
  error?: string;
  createTime?: string;
}

interface ExportJobsState {
  jobs: ExportJob[];
  /** Jobs started in this tab: downloaded when done. */
  mine: string[];
  load(): Promise<void>;
  start(resource: string, endpoint: string | undefined, params: Record<string, QueryValue>, fileName: string): Promise<ExportJob>;
  cancel(id: string): Promise<void>;
  download(job: ExportJob): Promise<void>;
  reset(): void;
}

const BASE = '/api/erp-export';
const POLL_MS = 1000;
let timer: ReturnType<typeof setTimeout> | undefined;

function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export const useExportJobs = create<ExportJobsState>((set, get) => {
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (get().jobs.some((j) => j.status === 'running')) timer = setTimeout(() => void get().load(), POLL_MS);
  };
  return {
    jobs: [],
    mine: [],
    async load() {
      const before = new Map(get().jobs.map((j) => [j.id, j.status]));
      const jobs = await http.get<ExportJob[]>(`${BASE}/list`, undefined, { silent: true, background: true }).catch(() => get().jobs);
      set({ jobs: Array.isArray(jobs) ? jobs : [] });
      for (const job of get().jobs) {
        if (job.status === 'done' && before.get(job.id) === 'running' && get().mine.includes(job.id)) void get().download(job);
      }
      schedule();
    },
    async start(resource, endpoint, params, fileName) {
      const job = await http.post<ExportJob>(`${BASE}/start`, { resource, endpoint, params, fileName });
      set((s) => ({ jobs: [job, ...s.jobs.filter((j) => j.id !== job.id)], mine: [...s.mine, job.id] }));
      schedule();
      return job;
    },
    async cancel(id) {
      await http.post(`${BASE}/cancel`, { id });
      await get().load();
    },
    async download(job) {
      const blob = await request<Blob>(`${BASE}/file`, { params: { id: job.id }, responseType: 'blob', timeout: 'export' });
      if (blob instanceof Blob) saveBlob(blob, job.fileName);
    },
    reset() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      set({ jobs: [], mine: [] });
    },
  };
});
