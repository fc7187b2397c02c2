/**
 * A report's chart (schema `list.chart`): bar, line or pie over the table's rows or over the rows of
 * its own endpoint with the same search. Loaded lazily with echarts (only the bar, line and pie
 * charts and the components they use), so pages without a chart never fetch it.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Card, Empty, theme } from 'antd';
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { ResourceFile } from '../../../shared/resource.ts';
import { http, type QueryValue } from '../../api/http.ts';
import { endpointUrl } from '../common/endpoint.ts';
import { useLabel, useRT } from '../common/i18n.ts';
import type { Row } from '../common/params.ts';
import type { ChartDef } from '../common/views.ts';
import { useSettings } from '../../store/settings.ts';
import { chartShape, pieSlices } from './chartData.ts';
import { readRows } from './useListData.ts';

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

interface Props {
  resource: ResourceFile;
  chart: ChartDef;
  /** The table's rows (used when the chart has no endpoint of its own). */
  rows: Row[];
  /** The search in force (sent to the chart's endpoint). */
  filters: Record<string, QueryValue>;
  /** Drawn inside another card (a dashboard panel): no card of its own. */
  bare?: boolean;
}

export default function ReportChart({ resource, chart, rows, filters, bare }: Props) {
  const label = useLabel();
  const rt = useRT();
  const { token } = theme.useToken();
  const dark = useSettings((s) => s.theme) === 'dark';
  const host = useRef<HTMLDivElement>(null);
  const [ownRows, setOwnRows] = useState<Row[] | undefined>();
  const filterKey = JSON.stringify(filters);

  useEffect(() => {
    if (!chart.endpoint) return undefined;
    let active = true;
    const params = { ...(JSON.parse(filterKey) as Record<string, QueryValue>), current: 1, size: chart.limit ?? 100 };
    http.get<unknown>(endpointUrl(resource, chart.endpoint), params, { silent: true }).then(
      (data) => active && setOwnRows(readRows(data).rows),
      () => active && setOwnRows([]),
    );
    return () => {
      active = false;
    };
  }, [resource, chart.endpoint, chart.limit, filterKey]);

  const drawn = chart.endpoint ? (ownRows ?? []) : rows;
  const titleOf = (field: string) => {
    const prop = resource.entity.properties[field];
    return label(prop?.title ?? field, prop?.['x-titleEn'] as string | undefined);
  };
  const option = useMemo((): echarts.EChartsCoreOption => {
    const base = { backgroundColor: 'transparent', textStyle: { fontFamily: token.fontFamily }, tooltip: { trigger: chart.type === 'pie' ? 'item' : 'axis' } };
    if (chart.type === 'pie') {
      const slices = pieSlices(drawn, chart.category, chart.values[0], chart.limit ?? 10, rt('chart.other'));
      return {
        ...base,
        legend: { type: 'scroll', orient: 'vertical', right: 8, top: 'middle' },
        series: [{ type: 'pie', name: titleOf(chart.values[0]), radius: ['35%', '70%'], center: ['40%', '50%'], data: slices.map((s) => ({ name: s.name, value: Number(s.value) })), label: { formatter: '{b}: {d}%' } }],
      };
    }
    const shape = chartShape(drawn, chart.category, chart.values, chart.limit);
    return {
      ...base,
      legend: { top: 0 },
      grid: { left: 8, right: 16, top: 32, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: shape.categories, axisLabel: { hideOverlap: true, width: 96, overflow: 'truncate' } },
      yAxis: { type: 'value' },
      series: shape.series.map((s) => ({ type: chart.type, name: titleOf(s.field), data: s.values.map(Number), smooth: false })),
    };
    // titleOf reads the resource and language (label) only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [drawn, chart, token.fontFamily, label, rt, resource]);

  useEffect(() => {
    if (!host.current) return undefined;
    const instance = echarts.init(host.current, dark ? 'dark' : undefined);
    const resize = new ResizeObserver(() => instance.resize());
    resize.observe(host.current);
    instance.setOption(option);
    return () => {
      resize.disconnect();
      instance.dispose();
    };
  }, [option, dark]);

  const height = chart.height ?? 280;
  const title = chart.title ? label(chart.title, chart.titleEn) : undefined;
  const drawing =
    drawn.length === 0 ? (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} style={{ height: height - 16, margin: 0, display: 'flex', flexDirection: 'column', justifyContent: 'center' }} />
    ) : (
      <div ref={host} style={{ height }} data-chart-type={chart.type} data-chart-points={drawn.length} />
    );
  if (bare) return <div data-testid={`chart-${resource.resource}`}>{drawing}</div>;
  return (
    <Card size="small" title={title} style={{ marginBottom: 12 }} styles={{ body: { padding: 8 } }} data-testid={`chart-${resource.resource}`}>
      {drawing}
    </Card>
  );
}
