import dayjs from 'dayjs';
import { uploadErrorLog } from '../api/shell.ts';
import { getAccessToken } from './cookies.ts';
import { getStore, setStore } from './storage.ts';

/** View errors kept locally ({type, message, stack, url, time}) until they are uploaded. */
export interface ErrorLogEntry {
  type: string;
  message: string;
  stack: string;
  url: string;
  time: string;
}

const STORE_NAME = 'errorLog';
const MAX_ENTRIES = 50;

export function readErrorLog(): ErrorLogEntry[] {
  const entries = getStore<ErrorLogEntry[]>(STORE_NAME);
  return Array.isArray(entries) ? entries : [];
}

export function recordError(type: string, error: unknown): void {
  const err = error instanceof Error ? error : new Error(typeof error === 'string' ? error : JSON.stringify(error));
  const entry: ErrorLogEntry = {
    type,
    message: err.message,
    stack: err.stack ?? '',
    url: window.location.href,
    time: dayjs().format('YYYY-MM-DD HH:mm:ss'),
  };
  // Oldest entries go first when the log is full.
  setStore(STORE_NAME, [...readErrorLog(), entry].slice(-MAX_ENTRIES));
}

let uploading = false;

/** Sends stored errors to the error log, one by one; those that fail stay for the next round. */
export async function uploadErrors(): Promise<void> {
  if (uploading || !getAccessToken()) return;
  uploading = true;
  try {
    for (const entry of readErrorLog()) {
      try {
        await uploadErrorLog({
          errorType: 'view',
          message: `[${entry.type}] ${entry.message}`,
          stackTrace: entry.stack,
          url: entry.url,
          time: entry.time,
        });
      } catch {
        return;
      }
      setStore(
        STORE_NAME,
        readErrorLog().filter((e) => !(e.time === entry.time && e.message === entry.message)),
      );
    }
  } finally {
    uploading = false;
  }
}

/** Catches errors React does not see: uncaught exceptions and unhandled rejections. */
export function installGlobalErrorHandlers(): void {
  window.addEventListener('error', (event) => {
    // Resource load errors (img/script) have no `error` object and are not view errors.
    if (event.error || event.message) recordError('window.error', event.error ?? event.message);
  });
  window.addEventListener('unhandledrejection', (event) => {
    const reason: unknown = event.reason;
    // API failures were already shown to the user and are logged by the server.
    if (reason instanceof Error && reason.name === 'ApiError') return;
    recordError('unhandledrejection', reason);
  });
}
