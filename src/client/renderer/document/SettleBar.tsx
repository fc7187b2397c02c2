/**
 * The line toolbar of a money bill (receipt, payment): 选择单据 lists the partner's posted bills
 * still open (billlist) and adds the chosen ones as lines settling what each has open; the clerk
 * lowers an amount in the grid to settle part of a bill. A refund (settle.refund) lists the
 * partner's credits instead (precplist: returns, money received or paid ahead) to pay back. Without a
 * partner it asks for one first.
 */
import { useState } from 'react';
import { Button, Flex, Modal, Table } from 'antd';
import type { DocumentDef } from '../../../shared/document.ts';
import type { ResourceFile } from '../../../shared/resource.ts';
import { http } from '../../api/http.ts';
import type { LineStore } from '../../bespoke/lines/lineStore.ts';
import { formatDecimal } from '../common/format.ts';
import { endpointUrl } from '../common/endpoint.ts';
import { useDT } from './i18n.ts';
import { DeleteLastLine } from './ItemsBar.tsx';
import { useFeedback } from '../../feedback/FeedbackProvider.tsx';

interface OpenBill {
  billId: string;
  billNo: string;
  billType: string;
  billTypeName: string;
  billDate: string;
  billAmt: string;
  settledAmt: string;
  openAmt: string;
}

interface Props {
  resource: ResourceFile;
  doc: DocumentDef;
  lines: LineStore;
  partnerId?: string;
}

export function SettleBar({ resource, doc, lines, partnerId }: Props) {
  const dt = useDT();
  const { message } = useFeedback();
  const [open, setOpen] = useState(false);
  const [rows, setRows] = useState<OpenBill[]>([]);
  const [chosen, setChosen] = useState<string[]>([]);
  const [loading, setLoading] = useState(false);
  const target = doc.settle?.target ?? 'sourceBillId';
  const amount = doc.settle?.lineAmount ?? 'settleAmt';

  const pick = () => {
    if (!partnerId) {
      void message.warning(dt('doc.needPartner'));
      return;
    }
    setOpen(true);
    setChosen([]);
    setLoading(true);
    const taken = new Set(lines.all().map((l) => String(l.values[target] ?? '')));
    http
      // A refund pays back the partner's credits (precplist); other money bills settle open bills.
      .get<OpenBill[]>(endpointUrl(resource, doc.settle?.refund ? 'precplist' : 'billlist'), { bartererId: partnerId })
      .then((found) => setRows(found.filter((r) => !taken.has(r.billId))))
      .finally(() => setLoading(false));
  };

  const add = () => {
    for (const row of rows.filter((r) => chosen.includes(r.billId))) {
      lines.add({
        [target]: row.billId,
        sourceBillNo: row.billNo,
        sourceBillType: row.billType,
        sourceBillDate: row.billDate,
        billAmt: row.billAmt,
        openAmt: row.openAmt,
        [amount]: row.openAmt,
      });
    }
    setOpen(false);
  };

  return (
    <Flex gap={8} align="center" wrap>
      <Button type="primary" ghost onClick={pick} data-testid="settle-pick">
        {dt('doc.pickBills')}
      </Button>
      <DeleteLastLine lines={lines} />
      <Modal open={open} title={dt('doc.pickBillsTitle')} width={820} onCancel={() => setOpen(false)} onOk={add} okButtonProps={{ disabled: !chosen.length }} destroyOnHidden>
        <Table<OpenBill>
          size="small"
          rowKey="billId"
          loading={loading}
          dataSource={rows}
          pagination={false}
          scroll={{ y: 360 }}
          locale={{ emptyText: dt('doc.noOpenBills') }}
          rowSelection={{ selectedRowKeys: chosen, onChange: (keys) => setChosen(keys.map(String)) }}
          onRow={(row) => ({ onClick: () => setChosen((c) => (c.includes(row.billId) ? c.filter((id) => id !== row.billId) : [...c, row.billId])), style: { cursor: 'pointer' } })}
          data-testid="settle-list"
          columns={[
            { title: dt('doc.billNo'), dataIndex: 'billNo', width: 170 },
            { title: dt('doc.billType'), dataIndex: 'billTypeName', width: 110 },
            { title: dt('doc.billDate'), dataIndex: 'billDate', width: 110 },
            { title: dt('doc.billAmt'), dataIndex: 'billAmt', align: 'right', render: (v) => formatDecimal(v, 2) },
            { title: dt('doc.settledAmt'), dataIndex: 'settledAmt', align: 'right', render: (v) => formatDecimal(v, 2) },
            { title: dt('doc.openAmt'), dataIndex: 'openAmt', align: 'right', render: (v) => formatDecimal(v, 2) },
          ]}
        />
      </Modal>
    </Flex>
  );
}
