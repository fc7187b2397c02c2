import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Button, Flex, Space, Tooltip } from 'antd';
import PlusOutlined from '@ant-design/icons/es/icons/PlusOutlined';
import DeleteOutlined from '@ant-design/icons/es/icons/DeleteOutlined';
import DownloadOutlined from '@ant-design/icons/es/icons/DownloadOutlined';
import UploadOutlined from '@ant-design/icons/es/icons/UploadOutlined';
import ReloadOutlined from '@ant-design/icons/es/icons/ReloadOutlined';
import PrinterOutlined from '@ant-design/icons/es/icons/PrinterOutlined';
import type { EndpointDef, ResourceFile } from '../../../shared/resource.ts';
import { useLabel, useRT } from '../common/i18n.ts';
import type { ActionDef } from '../common/views.ts';
import { SuspenseProgress } from '../../app/ProgressBar.tsx';

// The import dialog (upload, result table) loads when 导入 is clicked.
const ImportDialog = lazy(() => import('./ImportDialog.tsx').then((mod) => ({ default: mod.ImportDialog })));

interface ListToolbarProps {
  resource: ResourceFile;
  canAdd: boolean;
  addDisabled?: boolean;
  canDelete: boolean;
  actions: ActionDef[];
  exportEndpoint?: EndpointDef;
  importEndpoint?: EndpointDef;
  title?: ReactNode;
  right?: ReactNode;
  onAdd(): void;
  onDelete(): void;
  onAction(action: ActionDef): void;
  onExport?(): Promise<void>;
  /** Shows 导出 (a report exports what it shows even without a catalogue export call). */
  canExport?: boolean;
  onImported(): void;
  onRefresh(): void;
  /** A bill list: 打印 prints the one selected bill. */
  onPrint?(): Promise<void>;
}

/** 新增 / 删除 / declared toolbar actions / 导入 / 导出 on the left; refresh and column settings right. */
export function ListToolbar(props: ListToolbarProps) {
  const { resource, canAdd, addDisabled, canDelete, actions, exportEndpoint, importEndpoint, title, right } = props;
  const t = useRT();
  const label = useLabel();
  const [exporting, setExporting] = useState(false);
  const [importing, setImporting] = useState(false);
  const [printing, setPrinting] = useState(false);

  return (
    <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 8 }} data-testid="list-toolbar">
      <Space wrap size={8}>
        {title}
        {canAdd && (
          <Button type="primary" icon={<PlusOutlined />} disabled={addDisabled} onClick={props.onAdd}>
            {t('list.add')}
          </Button>
        )}
        {canDelete && (
          <Button danger icon={<DeleteOutlined />} onClick={props.onDelete}>
            {t('list.batchDelete')}
          </Button>
        )}
        {actions.map((action) => (
          <Button key={action.key} danger={action.danger} onClick={() => props.onAction(action)}>
            {label(action.label, action.labelEn)}
          </Button>
        ))}
        {importEndpoint && (
          <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
            {t('list.import')}
          </Button>
        )}
        {importEndpoint && importing && (
          <Suspense fallback={<SuspenseProgress />}>
            <ImportDialog
              resource={resource}
              importEndpoint={importEndpoint}
              exportEndpoint={exportEndpoint}
              onClose={() => setImporting(false)}
              onImported={props.onImported}
            />
          </Suspense>
        )}
        {(props.canExport ?? Boolean(exportEndpoint)) && props.onExport && (
          <Button
            icon={<DownloadOutlined />}
            loading={exporting}
            onClick={() => {
              setExporting(true);
              props.onExport!()
                .catch(() => undefined)
                .finally(() => setExporting(false));
            }}
          >
            {t('list.export')}
          </Button>
        )}
        {props.onPrint && (
          <Button
            icon={<PrinterOutlined />}
            loading={printing}
            data-testid="list-print"
            onClick={() => {
              setPrinting(true);
              props.onPrint!().finally(() => setPrinting(false));
            }}
          >
            {t('list.print')}
          </Button>
        )}
      </Space>
      <Space size={8}>
        <Tooltip title={t('list.refresh')}>
          <Button icon={<ReloadOutlined />} aria-label={t('list.refresh')} onClick={props.onRefresh} />
        </Tooltip>
        {right}
      </Space>
    </Flex>
  );
}
