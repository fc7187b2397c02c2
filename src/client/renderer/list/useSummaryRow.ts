import { useEffect, useMemo, useState } from 'react';
import type { Row } from '../common/params.ts';

type SummaryModule = typeof import('./summary.ts');
let loaded: SummaryModule | undefined;
let loading: Promise<SummaryModule> | undefined;

/** The exact sums need decimal.js: a list without a summary row never loads it. */
export function loadSummary(): Promise<SummaryModule> {
  loading ??= import('./summary.ts').then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = undefined; // a failed chunk load is tried again next time
      throw error;
    },
  );
  return loading;
}

/**
 * The grid's pinned summary row: the server's totals of the whole query when it sends them, else
 * the exact sums of the rows on screen (computed once the summing code has arrived; the grid asks
 * for it as soon as it knows it has summable columns, long before the rows come).
 */
export function useSummaryRow(rows: Row[], fields: string[], totals: Row | undefined): Row[] | undefined {
  const [ready, setReady] = useState(() => loaded !== undefined);
  const wanted = fields.length > 0 && !totals;
  useEffect(() => {
    if (!wanted || ready) return undefined;
    let live = true;
    loadSummary().then(
      () => live && setReady(true),
      () => undefined, // no summary row rather than a broken list; the next list tries again
    );
    return () => {
      live = false;
    };
  }, [wanted, ready]);
  return useMemo(() => {
    if (!fields.length) return undefined;
    if (totals) return [Object.fromEntries(fields.map((f) => [f, totals[f] ?? '']))];
    const sums = ready ? loaded?.summaryRow(rows, fields) : undefined;
    return sums ? [sums] : undefined;
  }, [rows, fields, totals, ready]);
}
