import { useState } from 'react';
import { Alert, Button, Modal, Typography, Upload } from 'antd';
import InboxOutlined from '@ant-design/icons/es/icons/InboxOutlined';
import DownloadOutlined from '@ant-design/icons/es/icons/DownloadOutlined';
import { ApiError } from '../../api/http.ts';
import { notifier } from '../../api/notify.ts';
import type { EndpointDef, ResourceFile } from '../../../shared/resource.ts';
import { useLabel, useRT } from '../common/i18n.ts';
import { exportRows, importRows } from './transfer.ts';

interface Props {
  resource: ResourceFile;
  importEndpoint: EndpointDef;
  /** The export call: with `template=1` it gives the title row to fill in. */
  exportEndpoint?: EndpointDef;
  onClose(): void;
  onImported(): void;
}

/**
 * 导入: the template to fill in (the export's title row), the rule (all rows or none), a drop
 * zone for the xlsx, and the server's row errors kept on screen until the next try.
 */
export function ImportDialog({ resource, importEndpoint, exportEndpoint, onClose, onImported }: Props) {
  const t = useRT();
  const label = useLabel();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const title = label(resource.title, resource.titleEn);

  const upload = (file: File) => {
    setBusy(true);
    setProblem(undefined);
    // Silent: the dialog shows the server's row errors itself, and keeps them on screen.
    importRows(resource, importEndpoint, file, true)
      .then(() => {
        notifier().success(t('list.importSuccess'));
        onImported();
        onClose();
      })
      .catch((error: unknown) => setProblem(error instanceof ApiError ? error.message : String(error)))
      .finally(() => setBusy(false));
  };

  return (
    <Modal open title={`${t('list.import')} · ${title}`} footer={null} width={560} onCancel={onClose} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('list.importRule')}</Typography.Paragraph>
      {exportEndpoint && (
        <Button
          icon={<DownloadOutlined />}
          style={{ marginBottom: 12 }}
          onClick={() => void exportRows(resource, exportEndpoint, { template: 1 }, `${title}${t('list.importTemplateFile')}`).catch(() => undefined)}
        >
          {t('list.importTemplate')}
        </Button>
      )}
      <Upload.Dragger
        accept=".xlsx,.xls"
        showUploadList={false}
        disabled={busy}
        customRequest={({ file }) => upload(file as File)}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{busy ? t('list.importing') : t('list.importDrop')}</p>
      </Upload.Dragger>
      {problem && <Alert style={{ marginTop: 12, whiteSpace: 'pre-wrap' }} type="error" showIcon title={problem} />}
    </Modal>
  );
}
