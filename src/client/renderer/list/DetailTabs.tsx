import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Pagination, Spin, Tabs } from 'antd';
import { ApiError, http } from '../../api/http.ts';
import { notifier } from '../../api/notify.ts';
import type { ResourceFile } from '../../../shared/resource.ts';
import { endpointUrl } from '../common/endpoint.ts';
import { useLabel, useRT } from '../common/i18n.ts';
import { resolveParams, type Row } from '../common/params.ts';
import { asColumn, viewsOf, type DetailTabDef } from '../common/views.ts';
import { readRows, type RowsAnswer } from './useListData.ts';

const TAB_PAGE_SIZE = 10;

// The view dialog also opens from tree and card pages: the tabs' grids load only when a tab shows.
const DataGrid = lazy(() => import('./DataGrid.tsx').then((m) => ({ default: m.DataGrid })));

/** One related list: a small read-only paged grid; a 404 (call not built yet) is an empty table. */
function DetailTabGrid({ resource, tab, row }: { resource: ResourceFile; tab: DetailTabDef; row: Row }) {
  const t = useRT();
  const columns = useMemo(() => (tab.columns ?? []).map(asColumn), [tab.columns]);
  const [page, setPage] = useState({ current: 1, size: TAB_PAGE_SIZE });
  const [answer, setAnswer] = useState<RowsAnswer>({ rows: [], total: 0 });
  const [loading, setLoading] = useState(false);
  const paramsKey = JSON.stringify(resolveParams(tab.params, row));

  useEffect(() => {
    let active = true;
    setLoading(true);
    const params = { ...(JSON.parse(paramsKey) as Record<string, string>), current: page.current, size: page.size };
    http.get<unknown>(endpointUrl(resource, tab.endpoint), params, { silent: true }).then(
      (data) => {
        if (!active) return;
        setAnswer(readRows(data));
        setLoading(false);
      },
      (error: unknown) => {
        if (!active) return;
        setAnswer({ rows: [], total: 0 });
        setLoading(false);
        if (error instanceof ApiError && error.code !== 404) notifier().error(error.message);
      },
    );
    return () => {
      active = false;
    };
  }, [resource, tab.endpoint, paramsKey, page]);

  return (
    <div data-testid="detail-tab">
      <Suspense fallback={<Spin style={{ display: 'block', margin: '120px auto' }} />}>
        <DataGrid
          resource={resource}
          columns={columns}
          rows={answer.rows}
          loading={loading}
          offset={(page.current - 1) * page.size}
          selectable={false}
          summary={tab.summary}
          titles={tab.titles}
          style={{ height: 300 }}
        />
      </Suspense>
      <Pagination
        style={{ marginTop: 8 }}
        align="end"
        size="small"
        current={page.current}
        pageSize={page.size}
        total={answer.total}
        showSizeChanger={false}
        showTotal={(total) => t('list.total', { total })}
        onChange={(current, size) => setPage({ current, size })}
      />
    </div>
  );
}

/**
 * The resource's related lists (customer: 销售历史, 收款记录 …) for the view dialog.
 * FormDialog renders `<DetailTabs resource={resource} row={row} />` in view mode.
 */
export function DetailTabs({ resource, row }: { resource: ResourceFile; row: Row }) {
  const label = useLabel();
  const tabs = viewsOf(resource).detailTabs ?? [];
  if (!tabs.length || !row) return null;
  return (
    <Tabs
      size="small"
      destroyOnHidden
      items={tabs.map((tab, index) => ({
        key: String(index),
        label: label(tab.title, tab.titleEn),
        children: <DetailTabGrid resource={resource} tab={tab} row={row} />,
      }))}
    />
  );
}

export default DetailTabs;
