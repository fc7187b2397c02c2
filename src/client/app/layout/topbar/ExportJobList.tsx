import { Button, Empty, Flex, Progress, Tag, Typography } from 'antd';
import { useExportJobs, type ExportJob } from '../../../store/exportJobs.ts';
import { useT } from '../../i18n/index.ts';

const percentOf = (job: ExportJob) => (job.status === 'done' ? 100 : job.total > 0 ? Math.min(99, Math.floor((job.rows * 100) / job.total)) : 0);

function JobRow({ job }: { job: ExportJob }) {
  const t = useT();
  const cancel = useExportJobs((s) => s.cancel);
  const download = useExportJobs((s) => s.download);
  return (
    <div style={{ padding: '8px 0', borderBottom: '1px solid rgba(5, 5, 5, 0.06)' }} data-testid={`export-job-${job.status}`}>
      <Flex justify="space-between" align="center" gap={8}>
        <Typography.Text ellipsis style={{ maxWidth: 220 }} title={job.fileName}>
          {job.fileName}
        </Typography.Text>
        {job.status === 'running' && (
          <Button size="small" type="link" danger onClick={() => void cancel(job.id)} data-testid="export-cancel">
            {t('export.cancel')}
          </Button>
        )}
        {job.status === 'done' && (
          <Button size="small" type="link" onClick={() => void download(job)} data-testid="export-download">
            {t('export.download')}
          </Button>
        )}
        {job.status === 'failed' && <Tag color="error">{t('export.failed')}</Tag>}
        {job.status === 'cancelled' && <Tag>{t('export.cancelled')}</Tag>}
      </Flex>
      {(job.status === 'running' || job.status === 'done') && <Progress percent={percentOf(job)} size="small" status={job.status === 'running' ? 'active' : 'success'} />}
      <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="export-rows">
        {job.status === 'failed' && job.error ? job.error : t('export.rows', { rows: job.rows, total: job.total })}
      </Typography.Text>
    </div>
  );
}

/** The export jobs popover's content: loaded when the popover first opens (progress bars, tags). */
export default function ExportJobList() {
  const t = useT();
  const jobs = useExportJobs((s) => s.jobs);
  return (
    <div style={{ width: 320, maxHeight: 420, overflowY: 'auto' }} data-testid="export-jobs">
      {jobs.length ? jobs.map((job) => <JobRow key={job.id} job={job} />) : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('export.none')} />}
    </div>
  );
}
