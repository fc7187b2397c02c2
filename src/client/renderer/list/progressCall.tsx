/**
 * A long call with visible progress (action.progress, 批量发放): the call goes out with a key the
 * browser chose, and while it runs a dialog polls the progress endpoint with that key every half
 * second and shows how far it got. The dialog closes when the call answers, either way.
 */
import { Progress, Typography } from 'antd';
import type { ModalStaticFunctions } from 'antd/es/modal/confirm';
import { http, type QueryValue } from '../../api/http.ts';
import type { RendererTranslate } from '../common/i18n.ts';

export interface ProgressReport {
  total?: number;
  sent?: number;
  skipped?: number;
  message?: string;
}

const POLL_MS = 500;

function body(report: ProgressReport | undefined, t: RendererTranslate) {
  const total = Number(report?.total ?? 0);
  const done = Number(report?.sent ?? 0) + Number(report?.skipped ?? 0);
  const percent = total > 0 ? Math.min(100, Math.floor((done * 100) / total)) : 0;
  return (
    <div data-testid="action-progress">
      <Progress percent={percent} status="active" />
      <Typography.Text type="secondary">
        {total > 0 ? t('list.progress', { done: String(done), total: String(total), skipped: String(report?.skipped ?? 0) }) : t('list.progressStarting')}
      </Typography.Text>
    </div>
  );
}

/** Runs `call(params with the key)` while showing the progress read from `progressUrl`. */
export async function callWithProgress<T>(
  modal: Pick<ModalStaticFunctions, 'info'>,
  title: string,
  progressUrl: string,
  param: string,
  call: (key: Record<string, QueryValue>) => Promise<T>,
  t: RendererTranslate,
): Promise<T> {
  const key = `P${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
  const dialog = modal.info({ title, content: body(undefined, t), okButtonProps: { style: { display: 'none' } }, closable: false, maskClosable: false });
  let running = true;
  const poll = async () => {
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      if (!running) break;
      // A failed poll only skips one update; the call itself decides the outcome.
      const report = await http.get<ProgressReport>(progressUrl, { [param]: key }, { silent: true }).catch(() => undefined);
      if (running && report) dialog.update({ content: body(report, t) });
    }
  };
  void poll();
  try {
    return await call({ [param]: key });
  } finally {
    running = false;
    dialog.destroy();
  }
}
