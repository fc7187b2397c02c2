import { Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { HistoryStep } from './flowApi.ts';
import { useFlowT } from './i18n.ts';

/** 流转历史: each step with who handled it, when, how long, the result and the comment. */
export function FlowHistory({ history }: { history: HistoryStep[] }) {
  const t = useFlowT();
  const result = (step: HistoryStep) => {
    if (step.historyActivityType !== 'userTask') return null;
    if (step.status === 'finish') return Number(step.pass) === 1 ? <Tag color="success">{t('flow.pass')}</Tag> : <Tag color="error">{t('flow.reject')}</Tag>;
    if (step.status === 'cancelled') return <Tag>{t('flow.cancelled')}</Tag>;
    return <Tag color="processing">{step.status === 'claim' ? t('flow.waitingClaim') : t('flow.waiting')}</Tag>;
  };
  const columns: ColumnsType<HistoryStep> = [
    { title: t('flow.step'), dataIndex: 'historyActivityName', width: 130 },
    { title: t('flow.handler'), dataIndex: 'assigneeName', width: 110, render: (v: string | null) => v ?? '' },
    { title: t('flow.arrived'), dataIndex: 'createTime', width: 170 },
    { title: t('flow.completed'), dataIndex: 'endTime', width: 170 },
    { title: t('flow.duration'), dataIndex: 'historyActivityDurationTime', width: 120 },
    { title: t('flow.result'), key: 'result', width: 90, render: (_, step) => result(step) },
    { title: t('flow.comment'), dataIndex: 'comment', render: (v: string | null) => v ?? '' },
  ];
  return (
    <Table<HistoryStep>
      size="small"
      rowKey={(step, i) => `${step.historyActivityId}-${step.taskId ?? ''}-${i ?? 0}`}
      columns={columns}
      dataSource={history}
      pagination={false}
      data-testid="flow-history"
      scroll={{ x: 900 }}
    />
  );
}
