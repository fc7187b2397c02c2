/**
 * Generating a bill from its source: an inbound or outbound from an approved order (a list of the
 * open orders to pick from), a return from a posted bill by its number (soNo / poNo).
 */
import { useEffect, useState } from 'react';
import { Button, Input, Modal, Space, Table } from 'antd';
import type { DocumentDef } from '../../../shared/document.ts';
import type { ResourceFile } from '../../../shared/resource.ts';
import { http } from '../../api/http.ts';
import { formatDecimal } from '../common/format.ts';
import { useLabel } from '../common/i18n.ts';
import { useResource } from '../common/useResource.ts';
import { endpointUrl } from '../common/endpoint.ts';
import { fromSource, opEndpoint, type Bill } from './documentApi.ts';
import { useDT } from './i18n.ts';

interface Props {
  resource: ResourceFile;
  doc: DocumentDef;
  onDraft(draft: Bill): void;
}

export function SourceButton({ resource, doc, onDraft }: Props) {
  const dt = useDT();
  const label = useLabel();
  const source = useResource(doc.source?.resource).resource;
  const [open, setOpen] = useState(false);
  const [number, setNumber] = useState('');
  const [rows, setRows] = useState<Bill[]>([]);
  const [loading, setLoading] = useState(false);
  const byNumber = Boolean(doc.source?.numberParam);

  useEffect(() => {
    if (!open || byNumber || !source) return;
    const list = opEndpoint(source, 'page');
    setLoading(true);
    http
      .get<{ records: Bill[] }>(endpointUrl(source, list?.path ?? 'list'), { current: 1, size: 50, billStatus_equal: doc.source?.states?.[0], descs: 'create_time' })
      .then((page) => setRows(page.records))
      .finally(() => setLoading(false));
  }, [open, byNumber, source, doc.source]);

  if (!source) return null;
  const title = label(source.title, source.titleEn);
  const header = (field: string) => {
    const prop = source.entity.properties[field];
    return label(prop?.title ?? field, prop?.['x-titleEn'] as string | undefined);
  };
  const take = async (key: { id?: string; number?: string }) => {
    const draft = await fromSource(resource, doc, key);
    setOpen(false);
    setNumber('');
    onDraft(draft);
  };

  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="doc-from-source">
        {dt('doc.fromSource', { title })}
      </Button>
      <Modal open={open} title={dt('doc.pickSource', { title })} width={byNumber ? 420 : 820} footer={null} onCancel={() => setOpen(false)} destroyOnHidden>
        {byNumber ? (
          <Space.Compact style={{ width: '100%' }}>
            <Input value={number} placeholder={dt('doc.sourceNo', { title })} onChange={(e) => setNumber(e.target.value)} onPressEnter={() => void take({ number })} data-testid="source-number" />
            <Button type="primary" disabled={!number.trim()} onClick={() => void take({ number: number.trim() })}>
              {dt('doc.generate')}
            </Button>
          </Space.Compact>
        ) : (
          <Table<Bill>
            size="small"
            rowKey={(r) => String(r.id)}
            loading={loading}
            dataSource={rows}
            pagination={false}
            scroll={{ y: 360 }}
            onRow={(row) => ({ onDoubleClick: () => void take({ id: String(row.id) }), style: { cursor: 'pointer' } })}
            data-testid="source-list"
            columns={[
              { title: header('billNo'), dataIndex: 'billNo', width: 170 },
              { title: header('billDate'), dataIndex: 'billDate', width: 110 },
              { title: header('bartererName'), dataIndex: 'bartererName' },
              { title: header('totalAmt'), dataIndex: 'totalAmt', align: 'right', width: 120, render: (v) => formatDecimal(v, 2) },
              { title: '', key: 'take', width: 80, render: (_, row) => <Button size="small" type="link" onClick={() => void take({ id: String(row.id) })}>{dt('doc.generate')}</Button> },
            ]}
          />
        )}
      </Modal>
    </>
  );
}
