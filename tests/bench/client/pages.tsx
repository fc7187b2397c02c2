/**
 * Client bench pages (issue 17), built only by tests/bench/client-bench.ts, drivable by selectors
 * alone (no globals): `?page=form200` opens the 200-field add form (each field box carries
 * `data-field-index="N"`, 1-based; `&mount=all` mounts all 200 editors at once instead of the
 * first screenful), `?page=crud200` / `?page=crud10k` the generic list page over 200 / 10,000
 * static rows (each row carries `row-index`, as ag-grid's do), with its 5-field search form. The list's calls are
 * answered inside the page, so nothing but rendering is measured.
 */
import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConfigProvider } from 'antd';
import { FeedbackProvider } from '../../../src/client/feedback/FeedbackProvider.tsx';
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'virtual:antd-styles.css';
import { MemoryRouter } from 'react-router';
import { antdThemeOf } from '../../../src/client/app/theme/antdTheme.ts';
import { setEagerFieldCount } from '../../../src/client/renderer/form/activation.ts';
import { crudResource, crudRow, form200Resource, FORM_FIELDS } from './pagesResource.ts';

dayjs.locale('zh-cn');
const query = new URLSearchParams(location.search);
const pageName = query.get('page') ?? 'form200';
const crudRows = pageName === 'crud10k' ? 10_000 : 200;

/** The static rows, made once; list calls are answered from them (contains-search on 列1…列5). */
function answerListCalls(): void {
  const rows = Array.from({ length: crudRows }, (_, index) => crudRow(index));
  const realFetch = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    if (!url.pathname.startsWith('/api/bench/crud/')) return realFetch(input, init);
    const current = Number(url.searchParams.get('current') ?? 1);
    const size = Number(url.searchParams.get('size') ?? crudRows);
    const filters = [...url.searchParams].filter(([name, value]) => /^c0[1-5]$/.test(name) && value);
    const matched = filters.length ? rows.filter((row) => filters.every(([name, value]) => row[name].includes(value))) : rows;
    const records = matched.slice((current - 1) * size, current * size);
    const body = { code: 200, success: true, msg: '操作成功', data: { records, total: matched.length, size, current } };
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
  };
}

/** Only the chosen page's code is loaded (as the app loads a route's), so JS+CSS is per page. */
async function pageElement(): Promise<ReactNode> {
  if (pageName === 'crud200' || pageName === 'crud10k') {
    const { default: ListPage } = await import('../../../src/client/renderer/list/ListPage.tsx');
    return (
      <div style={{ height: '100vh', padding: 12, boxSizing: 'border-box', display: 'flex', flexDirection: 'column' }}>
        <ListPage resource={crudResource(crudRows)} />
      </div>
    );
  }
  const { FormDialog } = await import('../../../src/client/renderer/form/FormDialog.tsx');
  return <FormDialog resource={form200Resource()} mode="add" open onClose={() => undefined} onSaved={() => undefined} />;
}

if (query.get('mount') === 'all') setEagerFieldCount(FORM_FIELDS);
answerListCalls();
void pageElement().then((page) =>
  createRoot(document.getElementById('root')!).render(
    <ConfigProvider theme={antdThemeOf('default')} locale={zhCN} button={{ autoInsertSpace: false }}>
      <FeedbackProvider>
        {/* Not the page's own URL: a list reads its query as a report's drill-down preset
            (?page=crud200 showed 从报表钻取 over the rows and sent page=crud200 with each call). */}
        <MemoryRouter initialEntries={['/bench']}>{page}</MemoryRouter>
      </FeedbackProvider>
    </ConfigProvider>,
  ),
);
