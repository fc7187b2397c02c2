/**
 * The bill's action bar, drawn from its transition table: the actions the bill's state and the
 * user's buttons allow. Saving actions send the bill; approval and rejection ask for a remark
 * (rejection requires one); dangerous ones ask first. Each click carries its own idempotency key.
 */
import { useState } from 'react';
import { Button, Input } from 'antd';
import { availableActions, NEW_BILL, type DocumentDef, type TransitionDef } from '../../../shared/document.ts';
import type { ResourceFile } from '../../../shared/resource.ts';
import { useCan } from '../common/permissions.ts';
import { useLabel } from '../common/i18n.ts';
import { runAction, type Bill } from './documentApi.ts';
import { useDT, docText } from './i18n.ts';
import { useFeedback, type Feedback } from '../../feedback/FeedbackProvider.tsx';

interface Props {
  resource: ResourceFile;
  doc: DocumentDef;
  bill: Bill | undefined;
  state: string;
  /** The bill as typed (head and lines), or undefined when a field check failed. */
  collect(): Record<string, unknown> | undefined;
  onRefused(error: unknown): void;
  onDone(bill: Bill): void;
  onNew(): void;
  depot(): unknown;
}

const AUDIT = new Set(['pass', 'reject']);

/** Asks for a remark; resolves undefined when cancelled. Required remarks may not be blank. */
function askRemark(app: Feedback, title: string, required: boolean, label: string): Promise<string | undefined> {
  let text = '';
  return new Promise((resolve) => {
    app.modal.confirm({
      title,
      content: <Input.TextArea autoFocus rows={3} maxLength={500} placeholder={label} onChange={(e) => (text = e.target.value)} data-testid="action-remark" />,
      // A rejected promise keeps the dialog open: a rejection needs its remark.
      onOk: () => {
        if (required && !text.trim()) {
          void app.message.warning(docText('doc.remarkRequired'));
          return Promise.reject(new Error('remark required'));
        }
        resolve(text.trim());
        return undefined;
      },
      onCancel: () => resolve(undefined),
    });
  });
}

export function DocumentActions({ resource, doc, bill, state, collect, onRefused, onDone, onNew, depot }: Props) {
  const dt = useDT();
  const can = useCan();
  const label = useLabel();
  const app = useFeedback();
  const { modal, message } = app;
  const [busy, setBusy] = useState<string>();
  const actions = availableActions(doc, state, can);

  const run = async (t: TransitionDef) => {
    const title = label(t.title ?? t.action, t.titleEn);
    let payload: Record<string, unknown>;
    if (t.save) {
      const body = collect();
      if (!body) return;
      if (doc.lines && !(body[doc.lines] as unknown[]).length) {
        void message.warning(dt('doc.noLines'));
        return;
      }
      payload = { ...body, ...(bill ? { id: bill.id, version: bill.version } : {}) };
    } else {
      if (!bill) {
        void message.warning(dt('doc.saveFirst'));
        return;
      }
      payload = { id: bill.id, version: bill.version };
      const wantsRemark = t.requires?.includes('remark') || t.params?.includes('remark');
      if (wantsRemark) {
        const remark = await askRemark(app, title, Boolean(t.requires?.includes('remark')), AUDIT.has(t.action) ? dt('doc.remark') : dt('doc.reason'));
        if (remark === undefined) return;
        payload.remark = remark;
      } else if (t.danger && !(await modal.confirm({ title: dt('doc.confirm', { action: title }) }))) return;
      if (t.params?.includes('depotId') && depot()) payload.depotId = depot();
    }
    setBusy(t.action);
    try {
      const next = await runAction(resource, t, payload);
      void message.success(dt('doc.done', { action: title }));
      onDone(next);
    } catch (error) {
      onRefused(error);
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <>
      {state !== NEW_BILL && (
        <Button onClick={onNew} data-testid="doc-new">
          {dt('doc.new')}
        </Button>
      )}
      {actions.map((t) => (
        <Button
          key={t.action}
          type={t.action === 'submit' || t.effect === 'post' || t.action === 'pass' ? 'primary' : 'default'}
          danger={t.danger}
          loading={busy === t.action}
          disabled={Boolean(busy) && busy !== t.action}
          onClick={() => void run(t)}
          data-testid={`doc-action-${t.action}`}
        >
          {label(t.title ?? t.action, t.titleEn)}
        </Button>
      ))}
    </>
  );
}
