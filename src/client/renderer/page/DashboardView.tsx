/**
 * A schema's dashboard (`dashboard` block; the home page's 工作台): figure cards from one endpoint,
 * then panels of small tables and charts, each reading its own endpoint; a card or panel names the
 * report page it opens. A panel whose call is refused (no permission) shows 暂无数据, never an error.
 */
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Card, Col, Empty, Row as GridRow, Statistic, Table, Typography } from 'antd';
import type { Dashboard } from '../../../generated/meta.ts';
import type { ResourceFile } from '../../../shared/resource.ts';
import { http } from '../../api/http.ts';
import { leavesOf } from '../../app/menu/menuTree.ts';
import { useOpenMenu, useVisibleMenus } from '../../app/menu/useMenus.ts';
import { endpointUrl } from '../common/endpoint.ts';
import { decimalPlaces, formatCell, formatDecimal } from '../common/format.ts';
import { useLabel, useRT } from '../common/i18n.ts';
import type { Row } from '../common/params.ts';
import { useDictionaries } from '../common/useDictionary.ts';
import type { ColumnDef } from '../common/views.ts';
import { readRows } from '../list/useListData.ts';

const ReportChart = lazy(() => import('../list/ReportChart.tsx'));

type Panel = Dashboard['panels'][number];

function useAnswer<T>(resource: ResourceFile, path: string | undefined): T | undefined {
  const [data, setData] = useState<T | undefined>();
  useEffect(() => {
    if (!path) return undefined;
    let active = true;
    http.get<T>(endpointUrl(resource, path), {}, { silent: true }).then(
      (answer) => active && setData(answer),
      () => active && setData(undefined),
    );
    return () => {
      active = false;
    };
  }, [resource, path]);
  return data;
}

function useMenuOpener() {
  const menus = useVisibleMenus();
  const openMenu = useOpenMenu();
  return useMemo(() => {
    const leaves = leavesOf(menus);
    return (code: string | undefined) => {
      const menu = code ? leaves.find((m) => m.code === code) : undefined;
      return menu ? () => openMenu(menu) : undefined;
    };
  }, [menus, openMenu]);
}

function Stats({ resource, stats }: { resource: ResourceFile; stats: NonNullable<Dashboard['stats']> }) {
  const label = useLabel();
  const opener = useMenuOpener();
  const data = useAnswer<Row | null>(resource, stats.endpoint);
  return (
    <GridRow gutter={[12, 12]} data-testid="dashboard-stats">
      {stats.items.map((item) => {
        const prop = resource.entity.properties[item.field];
        const open = opener(item.menu);
        const raw = data?.[item.field];
        const shown = item.format === 'money' ? formatDecimal(raw ?? 0, decimalPlaces('amount')) : item.format === 'quantity' ? formatDecimal(raw ?? 0, decimalPlaces('quantity')) : String(raw ?? 0);
        return (
          <Col key={item.field} xs={12} md={8} xl={4}>
            <Card size="small" hoverable={Boolean(open)} onClick={open} data-testid={`stat-${item.field}`}>
              <Statistic title={label(prop?.title ?? item.field, prop?.['x-titleEn'] as string | undefined)} value={shown} />
            </Card>
          </Col>
        );
      })}
    </GridRow>
  );
}

function PanelCard({ resource, panel }: { resource: ResourceFile; panel: Panel }) {
  const label = useLabel();
  const rt = useRT();
  const opener = useMenuOpener();
  const data = useAnswer<unknown>(resource, panel.endpoint);
  const rows = useMemo(() => (data === undefined ? [] : readRows(data).rows), [data]);
  const columns = useMemo(
    () => (panel.columns ?? []).map((c): ColumnDef => (typeof c === 'string' ? { field: c } : c)),
    [panel.columns],
  );
  const fields = useMemo(() => Object.fromEntries(columns.map((c) => [c.field, resource.entity.properties[c.field]])), [columns, resource]);
  const dictionaries = useDictionaries(fields);
  const open = opener(panel.menu);
  const height = panel.height ?? 280;
  let body;
  if (!rows.length) body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} style={{ margin: '24px 0' }} />;
  else if (panel.chart)
    body = (
      <Suspense fallback={<div style={{ height }} />}>
        <ReportChart resource={resource} chart={{ ...panel.chart, endpoint: undefined, height }} rows={rows} filters={{}} bare />
      </Suspense>
    );
  else
    body = (
      <Table<Row>
        size="small"
        pagination={false}
        rowKey={(_, i) => String(i)}
        dataSource={rows}
        scroll={{ y: height }}
        columns={columns.map((c) => {
          const prop = resource.entity.properties[c.field];
          const numeric = ['number', 'integer'].includes(String(prop?.type)) || Boolean(prop?.['x-decimal']);
          return {
            key: c.field,
            title: label(c.title ?? prop?.title ?? c.field, c.titleEn ?? (prop?.['x-titleEn'] as string | undefined)),
            dataIndex: c.field,
            width: c.width,
            ellipsis: true,
            align: numeric ? 'right' : undefined,
            render: (value: unknown) => formatCell(prop, c, value, dictionaries[c.field]),
          };
        })}
      />
    );
  return (
    <Card
      size="small"
      title={label(panel.title, panel.titleEn)}
      extra={open ? <Typography.Link onClick={open}>{rt('dashboard.more')}</Typography.Link> : undefined}
      styles={{ body: { padding: 8, minHeight: height } }}
      data-testid={`panel-${panel.endpoint}`}
    >
      {body}
    </Card>
  );
}

export default function DashboardView({ resource }: { resource: ResourceFile }) {
  const dashboard = resource.dashboard;
  if (!dashboard) return null;
  return (
    <>
      {dashboard.stats && <Stats resource={resource} stats={dashboard.stats} />}
      <GridRow gutter={[12, 12]}>
        {dashboard.panels.map((panel) => (
          <Col key={panel.endpoint} xs={24} xl={panel.span ?? 12}>
            <PanelCard resource={resource} panel={panel} />
          </Col>
        ))}
      </GridRow>
    </>
  );
}
