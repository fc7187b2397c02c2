import { lazy, Suspense, useEffect } from 'react';
import { Badge, Button, Popover } from 'antd';
import CloudDownloadOutlined from '@ant-design/icons/es/icons/CloudDownloadOutlined';
import { useExportJobs } from '../../../store/exportJobs.ts';
import { useT } from '../../i18n/index.ts';

const ExportJobList = lazy(() => import('./ExportJobList.tsx'));

/** 导出任务: the user's exports with their progress, cancel and download. */
export function ExportJobsButton() {
  const t = useT();
  const jobs = useExportJobs((s) => s.jobs);
  const load = useExportJobs((s) => s.load);
  useEffect(() => {
    void load();
  }, [load]);
  const running = jobs.filter((j) => j.status === 'running').length;
  const content = (
    <Suspense fallback={<div style={{ width: 320, minHeight: 60 }} />}>
      <ExportJobList />
    </Suspense>
  );
  return (
    <Popover content={content} title={t('export.title')} trigger="click" placement="bottomRight">
      <Badge count={running} size="small" offset={[-4, 4]}>
        <Button type="text" icon={<CloudDownloadOutlined />} aria-label={t('export.title')} title={t('export.title')} data-testid="export-jobs-button" />
      </Badge>
    </Popover>
  );
}
