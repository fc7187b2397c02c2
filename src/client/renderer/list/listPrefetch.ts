/**
 * Starts what a list page needs as soon as its route is known (issue 17), instead of one step
 * after another (page chunk → schema → list chunk and grid → first rows): the schema, the list
 * page's code, its columns' dictionaries and the first page of rows are requested together. The rows wait here, keyed by
 * the exact call, until the page's own first request asks for the same call (prefetchedCalls.ts);
 * any other call (a saved sort, a preset filter) simply misses and is made as usual.
 */
import { http } from '../../api/http.ts';
import type { PageMenu } from '../../app/pages.ts';
import { endpointUrl } from '../common/endpoint.ts';
import { loadResource } from '../common/useResource.ts';
import { fieldOf, listColumnsOf, menuViewOf, pageKindOf, viewsOf } from '../common/views.ts';
import { loadFieldDictionary } from '../common/useDictionary.ts';
import { pageByPath } from '../../../generated/pages.ts';
import { pageTargetOf } from '../page/pageTarget.ts';
import { listEndpointOf } from './useListData.ts';
import { prefetchList } from './prefetchedCalls.ts';
import { loadSummary } from './useSummaryRow.ts';

const loadListPage = () => import('./ListPage.tsx');

/**
 * For a menu that shows a plain list: loads the list page's code, and once the schema is in,
 * requests the first page the page will ask for (page 1, the schema's page size, no filter).
 */
export function prefetchListPage(menu: PageMenu): void {
  const target = pageTargetOf(menu);
  if (!target.resource || target.layout || target.billType) return;
  loadResource(target.resource).then(
    (resource) => {
      const plainList = pageKindOf(resource) === 'list' && (!resource.document || Boolean(menu.historyOf));
      if (!plainList || menuViewOf(resource, menu.path)) return;
      void loadListPage().catch(() => undefined);
      // The columns' dictionaries too: the grid shows its rows once their labels are in.
      for (const column of listColumnsOf(resource)) void loadFieldDictionary(fieldOf(resource, column.field)).catch(() => undefined);
      // And the summing code of a list with a summary row (decimal.js), which plain lists never load.
      if (viewsOf(resource).list?.summary) void loadSummary().catch(() => undefined);
      const endpoint = listEndpointOf(resource);
      if (!endpoint || endpoint.method === 'POST') return;
      const params = { current: 1, size: viewsOf(resource).list?.pageSize ?? 10 };
      const url = endpointUrl(resource, endpoint.path);
      prefetchList(url, params, () => http.get<unknown>(url, params));
    },
    () => undefined,
  );
}

/**
 * The same at page load, before the menus are known (session/bootPrefetch.ts): the path names
 * the resource; the page's code starts too. Document lists wait for their menu (a history route
 * is told apart by it).
 */
export function prefetchListByPath(path: string): void {
  if (!pageByPath[path]) return;
  void import('../page/SchemaPage.tsx').catch(() => undefined);
  prefetchListPage({ path, code: '' } as PageMenu);
}
