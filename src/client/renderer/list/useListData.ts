import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { http, type QueryValue } from '../../api/http.ts';
import type { Page } from '../../api/types.ts';
import type { EndpointDef, ResourceFile } from '../../../shared/resource.ts';
import { endpointUrl } from '../common/endpoint.ts';
import type { Row } from '../common/params.ts';
import { endpointByOp, endpointByPath, viewsOf } from '../common/views.ts';
import { takePrefetchedList } from './prefetchedCalls.ts';

export interface SortKey {
  column: string;
  dir: 'asc' | 'desc';
}

export interface RowsAnswer {
  rows: Row[];
  total: number;
}

/** Page objects and plain arrays (list/childList answers) read the same way. */
export function readRows(data: unknown): RowsAnswer {
  if (Array.isArray(data)) return { rows: data as Row[], total: data.length };
  const page = data as Partial<Page<Row>> | null | undefined;
  const rows = Array.isArray(page?.records) ? page.records : [];
  return { rows, total: Number(page?.total ?? rows.length) };
}

/** The endpoint serving a resource's list: declared, else the first page/list endpoint. */
export function listEndpointOf(resource: ResourceFile, override?: string): EndpointDef | undefined {
  const path = override ?? viewsOf(resource).list?.endpoint;
  if (path) return endpointByPath(resource, path) ?? { path, method: 'GET', op: 'page' };
  return endpointByOp(resource, 'page', 'list');
}

export function sortParams(sort: SortKey[]): Record<string, QueryValue> {
  const pick = (dir: 'asc' | 'desc') =>
    sort
      .filter((s) => s.dir === dir)
      .map((s) => s.column)
      .join(',');
  return { ascs: pick('asc') || undefined, descs: pick('desc') || undefined };
}

export interface ListQuery {
  current: number;
  size: number;
  sort: SortKey[];
  filters: Record<string, QueryValue>;
}

interface Options {
  resource: ResourceFile;
  endpointPath?: string;
  /** Sent with every call (a dictionary's parentId); undefined skips loading entirely. */
  fixedParams?: Record<string, QueryValue>;
  enabled?: boolean;
  pageSize: number;
  /** An endpoint answering the totals of the whole query (list.summaryEndpoint). */
  summaryPath?: string;
}

/** Server paging, sorting and filtering of one list; stale answers are dropped. */
export function useListData({ resource, endpointPath, fixedParams, enabled = true, pageSize, summaryPath }: Options) {
  const endpoint = useMemo(() => listEndpointOf(resource, endpointPath), [resource, endpointPath]);
  const [query, setQuery] = useState<ListQuery>({ current: 1, size: pageSize, sort: [], filters: {} });
  const [answer, setAnswer] = useState<RowsAnswer>({ rows: [], total: 0 });
  /** Whether any answer has arrived (the page is on screen with its rows). */
  const [answered, setAnswered] = useState(false);
  const [loading, setLoading] = useState(false);
  const [totals, setTotals] = useState<Row | undefined>();
  const [reloadCount, setReloadCount] = useState(0);
  const sequence = useRef(0);
  const fixedKey = JSON.stringify(fixedParams ?? {});

  // Another parent (dictionary child list) starts again at page 1.
  useEffect(() => {
    setQuery((q) => (q.current === 1 ? q : { ...q, current: 1 }));
  }, [fixedKey]);

  useEffect(() => {
    if (!endpoint || !enabled) {
      setAnswer({ rows: [], total: 0 });
      return;
    }
    const mine = ++sequence.current;
    const params: Record<string, QueryValue> = {
      ...query.filters,
      ...(JSON.parse(fixedKey) as Record<string, QueryValue>),
      ...sortParams(query.sort),
      current: query.current,
      size: query.size,
    };
    setLoading(true);
    const url = endpointUrl(resource, endpoint.path);
    // The first page may already be on its way (requested with the route: listPrefetch.ts). Only
    // the list's first load may take it: a refresh after an action must see the server's rows now.
    const prefetched = mine === 1 && endpoint.method !== 'POST' ? takePrefetchedList(url, params) : undefined;
    const call = endpoint.method === 'POST' ? http.postParams<unknown>(url, params) : (prefetched ?? http.get<unknown>(url, params));
    call.then(
      (data) => {
        if (mine !== sequence.current) return;
        // Marks data arrival for the render-time figure (tests/bench reads the measure).
        performance.mark('erp:list-data');
        const read = readRows(data);
        // A removal that emptied the last page steps back one page.
        if (!read.rows.length && read.total > 0 && query.current > 1) {
          setQuery((q) => ({ ...q, current: Math.max(1, Math.ceil(read.total / q.size)) }));
          return;
        }
        setAnswer(read);
        setAnswered(true);
        setLoading(false);
      },
      () => {
        // The HTTP layer already showed the error.
        if (mine === sequence.current) setLoading(false);
      },
    );
  }, [resource, endpoint, enabled, query, fixedKey, reloadCount]);

  // The totals depend on the search only, not on the page or the sort.
  const filtersKey = JSON.stringify(query.filters);
  useEffect(() => {
    if (!summaryPath || !enabled) {
      setTotals(undefined);
      return undefined;
    }
    let active = true;
    const params = { ...(JSON.parse(filtersKey) as Record<string, QueryValue>), ...(JSON.parse(fixedKey) as Record<string, QueryValue>) };
    http.get<Row | null>(endpointUrl(resource, summaryPath), params, { silent: true }).then(
      (data) => active && setTotals(data ?? undefined),
      () => active && setTotals(undefined),
    );
    return () => {
      active = false;
    };
  }, [resource, summaryPath, enabled, filtersKey, fixedKey, reloadCount]);

  const setPage = useCallback((current: number, size: number) => setQuery((q) => ({ ...q, current, size })), []);
  const setSort = useCallback((sort: SortKey[]) => setQuery((q) => ({ ...q, sort, current: 1 })), []);
  const setFilters = useCallback(
    (filters: Record<string, QueryValue>) => setQuery((q) => ({ ...q, filters, current: 1 })),
    [],
  );
  const reload = useCallback(() => setReloadCount((n) => n + 1), []);

  return { endpoint, query, rows: answer.rows, total: answer.total, totals, loading, answered, setPage, setSort, setFilters, reload };
}
