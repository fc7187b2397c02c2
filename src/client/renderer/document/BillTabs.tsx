/** The history (every action: who, when, from → to, remark) and the ledger rows a bill posted. */
import { useEffect, useState } from 'react';
import { Table, Tag } from 'antd';
import type { ResourceFile } from '../../../shared/resource.ts';
import { formatDecimal } from '../common/format.ts';
import { http } from '../../api/http.ts';
import { readExtra } from './documentApi.ts';
import { useDT } from './i18n.ts';

type Row = Record<string, unknown>;

function useExtra<T>(resource: ResourceFile, op: 'documentHistory' | 'documentPostings', id: string, version: number): T | undefined {
  const [data, setData] = useState<T>();
  useEffect(() => {
    let active = true;
    readExtra<T>(resource, op, id).then((d) => active && setData(d), () => undefined);
    return () => {
      active = false;
    };
  }, [resource, op, id, version]);
  return data;
}

export function BillHistory({ resource, id, version }: { resource: ResourceFile; id: string; version: number }) {
  const dt = useDT();
  const rows = useExtra<Row[]>(resource, 'documentHistory', id, version) ?? [];
  return (
    <Table<Row>
      size="small"
      rowKey={(r) => String(r.id)}
      pagination={false}
      dataSource={rows}
      data-testid="bill-history"
      columns={[
        { title: dt('doc.when'), dataIndex: 'createTime', width: 170 },
        { title: dt('doc.who'), dataIndex: 'userName', width: 120 },
        { title: dt('doc.action'), dataIndex: 'actionName', width: 110 },
        { title: dt('doc.from'), dataIndex: 'fromStatusName', width: 100 },
        { title: dt('doc.to'), dataIndex: 'toStatusName', width: 100 },
        { title: dt('doc.reason'), dataIndex: 'remark' },
      ]}
    />
  );
}

export function BillPostings({ resource, id, version }: { resource: ResourceFile; id: string; version: number }) {
  const dt = useDT();
  const data = useExtra<{ stock: Row[]; party: Row[] }>(resource, 'documentPostings', id, version);
  const money = (v: unknown) => formatDecimal(v, 2);
  const entry = (v: unknown) => <Tag color={v === 'reverse' ? 'red' : 'blue'}>{dt(v === 'reverse' ? 'doc.reverse' : 'doc.post')}</Tag>;
  return (
    <div data-testid="bill-postings">
      <Table<Row>
        size="small"
        rowKey={(r) => String(r.id)}
        pagination={false}
        dataSource={data?.stock ?? []}
        columns={[
          { title: dt('doc.entry'), dataIndex: 'entry', width: 70, render: entry },
          { title: dt('doc.goods'), dataIndex: 'commInfoName', width: 180 },
          { title: dt('doc.depot'), dataIndex: 'depotName', width: 140 },
          { title: dt('doc.qty'), dataIndex: 'qty', align: 'right', render: (v) => formatDecimal(v, 2) },
          { title: dt('doc.value'), dataIndex: 'value', align: 'right', render: money },
          { title: dt('doc.unitCost'), dataIndex: 'unitCost', align: 'right', render: (v) => formatDecimal(v, 5) },
          { title: dt('doc.balanceQty'), dataIndex: 'balanceQty', align: 'right', render: (v) => formatDecimal(v, 2) },
          { title: dt('doc.balanceValue'), dataIndex: 'balanceValue', align: 'right', render: money },
        ]}
      />
      <Table<Row>
        style={{ marginTop: 12 }}
        size="small"
        rowKey={(r) => String(r.id)}
        pagination={false}
        dataSource={data?.party ?? []}
        columns={[
          { title: dt('doc.entry'), dataIndex: 'entry', width: 70, render: entry },
          { title: dt('doc.party'), dataIndex: 'kind', width: 80, render: (v) => dt(v === 'AR' ? 'doc.ar' : 'doc.ap') },
          { title: dt('doc.when'), dataIndex: 'createTime', width: 170 },
          { title: dt('doc.amount'), dataIndex: 'amount', align: 'right', render: money },
        ]}
      />
    </div>
  );
}

/** 单据关联: the chain of bills this one belongs to (order → inbound/outbound → return). */
export function BillRelations({ resource, id, billType, version }: { resource: ResourceFile; id: string; billType: string; version: number }) {
  const dt = useDT();
  const [rows, setRows] = useState<Row[]>([]);
  useEffect(() => {
    let active = true;
    const chain = resource.module === 'purchase' ? 'purchase' : 'sale';
    http.get<Row[]>(`/api/blade-desk/billrelation/${chain}`, { id, billType }, { silent: true }).then(
      (r) => active && setRows(r),
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, [resource.module, id, billType, version]);
  return (
    <Table<Row>
      size="small"
      rowKey={(r) => String(r.id)}
      pagination={false}
      dataSource={rows}
      data-testid="bill-relations"
      rowClassName={(r) => (r.current ? 'ant-table-row-selected' : '')}
      columns={[
        { title: dt('doc.billType'), dataIndex: 'billTypeName', width: 120 },
        { title: dt('doc.billNo'), dataIndex: 'billNo', width: 180 },
        { title: dt('doc.billDate'), dataIndex: 'billDate', width: 110 },
        { title: dt('doc.status'), dataIndex: 'billStatusName', width: 90 },
        { title: dt('doc.qty'), dataIndex: 'totalQty', align: 'right', render: (v) => formatDecimal(v, 2) },
        { title: dt('doc.amount'), dataIndex: 'totalAmt', align: 'right', render: (v) => formatDecimal(v, 2) },
      ]}
    />
  );
}
