import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';

import { http, requestData, type QueryValue } from '../../api/http.ts';
import { notifier } from '../../api/notify.ts';
import { evaluate, type Expr } from '../../../shared/expr.ts';
import type { ResourceFile } from '../../../shared/resource.ts';
import { endpointUrl } from '../common/endpoint.ts';
import { useLabel, useRT } from '../common/i18n.ts';
import { resolveParams, type Row } from '../common/params.ts';
import { endpointPermission } from '../common/permissions.ts';
import { actionRoute, dutyEndpoint, endpointByPath, type ActionDef } from '../common/views.ts';
import { SuspenseProgress } from '../../app/ProgressBar.tsx';

// An action's prompt is a form (the form engine): it loads when an action asks for input.
const ActionPrompt = lazy(() => import('../form/ActionPrompt.tsx'));
import { useOpenLocation } from '../../app/menu/useMenus.ts';
import { loadResource } from '../common/useResource.ts';
import { exportRows } from './transfer.ts';
import { announceChange } from '../../api/events.ts';
import { useFeedback } from '../../feedback/FeedbackProvider.tsx';

/** Calls one of the resource's endpoints with query parameters, by its declared method. */
export function callEndpoint(
  resource: ResourceFile,
  path: string,
  params: Record<string, QueryValue>,
): Promise<unknown> {
  const def = endpointByPath(resource, path);
  const url = endpointUrl(resource, path);
  const options = { timeout: def?.timeout };
  return def?.method === 'GET' ? http.get<unknown>(url, params, options) : http.postParams<unknown>(url, params, options);
}

/** The permission an action needs: its own, else its endpoint's. */
export function actionPermission(resource: ResourceFile, action: ActionDef): string | undefined {
  return action.perm ?? endpointPermission(resource, endpointByPath(resource, action.endpoint));
}

/** visibleIf on a row; a broken expression hides the action rather than crash the list. */
export function isActionVisible(action: ActionDef, row: Row | undefined): boolean {
  if (action.visibleIf === undefined || !row) return true;
  try {
    return Boolean(evaluate(action.visibleIf as Expr, row));
  } catch {
    return false;
  }
}

/** The file the user picks in the browser's chooser (accept: e.g. ".xlsx,.pdf"); undefined when cancelled. */
function chooseFile(accept: string): Promise<File | undefined> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = accept;
    input.addEventListener('change', () => resolve(input.files?.[0] ?? undefined), { once: true });
    input.addEventListener('cancel', () => resolve(undefined), { once: true });
    input.click();
  });
}

function idOf(row: Row): string {
  return String(row.id ?? '');
}

function promptValues(values: Record<string, unknown>): Record<string, QueryValue> {
  return resolveParams(values, undefined);
}

interface PendingPrompt {
  action: ActionDef;
  rows: Row[];
  /** The resource the call belongs to: the list's own, or the action's `resource`. */
  target: ResourceFile;
  /** Current values read by the action's `prefill` (the role's grants). */
  current: Record<string, unknown>;
}

/** The values a prompt opens with: its `prefill` call's answer, when exactly one row is chosen. */
async function prefillValues(action: ActionDef, rows: Row[]): Promise<Record<string, unknown>> {
  const prefill = action.prefill;
  if (!prefill || rows.length !== 1) return {};
  const answer = await http.get<Record<string, unknown> | null>(prefill.endpoint, resolveParams(prefill.params, rows[0]));
  const out: Record<string, unknown> = {};
  for (const [field, key] of Object.entries(prefill.fields)) {
    const value = answer?.[key];
    if (value !== undefined && value !== null) out[field] = Array.isArray(value) ? value.join(',') : value;
  }
  return out;
}

/** The action's own parameters: declared ones, else the selected ids or the row's id. */
function baseParams(action: ActionDef, rows: Row[]): Record<string, QueryValue> {
  const ids = rows.map(idOf);
  if (action.params) return resolveParams(action.params, rows[0], ids);
  if (action.batch) return { ids: ids.join(',') };
  return rows[0] ? { id: idOf(rows[0]) } : {};
}

/**
 * Runs schema actions and deletes with the list's rules: select-first for batches, confirm,
 * optional prompt, the call, the success message (操作成功!), then `onDone` to refresh.
 */
export function useActionRunner(
  resource: ResourceFile,
  onDone: () => void,
): {
  run(action: ActionDef, rows: Row[]): void;
  remove(rows: Row[], batch: boolean): void;
  element: ReactNode;
} {
  const { modal } = useFeedback();
  const t = useRT();
  const label = useLabel();
  const [prompt, setPrompt] = useState<PendingPrompt | undefined>();
  const openLocation = useOpenLocation();

  const execute = useCallback(
    async (action: ActionDef, rows: Row[], target: ResourceFile, typed: Record<string, unknown> = {}) => {
      const base = baseParams(action, rows);
      const endpoint = endpointByPath(target, action.endpoint);
      if (action.download) {
        // The call answers a file: saved under the action's label (and the row's number), no refresh.
        const number = rows[0]?.billNo ?? rows[0]?.code;
        await exportRows(target, endpoint ?? { path: action.endpoint, method: 'GET', op: 'custom' }, { ...base, ...promptValues(typed) }, `${label(action.label, action.labelEn)}${number ? `-${String(number)}` : ''}.xlsx`);
        return;
      }
      if (action.upload) {
        // The call takes a file: the browser's chooser, then one multipart `file` with the parameters.
        const file = await chooseFile(action.upload);
        if (!file) return;
        const form = new FormData();
        form.append('file', file);
        await requestData<unknown>(endpointUrl(target, action.endpoint), { method: 'post', body: form, params: { ...base, ...promptValues(typed) }, timeout: 'export' });
      } else if (endpoint?.op === 'submit' || action.json) {
        // A submit takes the record as a JSON body, typed values (lists, numbers) as they are; so
        // does an action carrying a secret (action.json), which must not travel in the URL.
        await http.post<unknown>(endpointUrl(target, action.endpoint), { ...base, ...typed });
      } else if (action.progress) {
        // A long call (批量发放): its progress shows while it runs, its own message when it ends.
        const { endpoint: progressPath, param } = action.progress;
        // Its dialog (antd's Progress) loads with the first such action, not with every list.
        const { callWithProgress } = await import('./progressCall.tsx');
        const answer = await callWithProgress(modal, label(action.label, action.labelEn), endpointUrl(target, progressPath), param, (key) => callEndpoint(target, action.endpoint, { ...base, ...promptValues(typed), ...key }), t);
        const message = (answer as { message?: unknown } | null)?.message;
        notifier().success(typeof message === 'string' && message ? message : (action.success ?? t('list.operateSuccess')));
        announceChange(target.resource);
        onDone();
        return;
      } else {
        await callEndpoint(target, action.endpoint, { ...base, ...promptValues(typed) });
      }
      notifier().success(action.success ?? t('list.operateSuccess'));
      announceChange(target.resource);
      onDone();
    },
    [onDone, t, label, modal],
  );

  const run = useCallback(
    (action: ActionDef, rows: Row[]) => {
      if (action.batch && !rows.length) {
        notifier().warning(t('list.selectAtLeastOne'));
        return;
      }
      // A route action opens its page (办理 a task) instead of calling.
      if (action.open) {
        openLocation(actionRoute(action.open, rows[0]));
        return;
      }
      // A receipt action prints what its call answers (the mall receipt) instead of refreshing.
      if (action.print === 'receipt') {
        const url = endpointUrl(resource, action.endpoint);
        void import('../../bespoke/print/receipt/printReceipt.ts').then((m) => m.printReceipt(url, idOf(rows[0]))).catch(() => undefined);
        return;
      }
      // A label action sends the chosen rows to the local print service instead of calling.
      if (action.labels) {
        const labels = action.labels;
        void import('../../bespoke/print/labels/printLabels.ts').then((m) => m.printLabels(labels, rows, resource, modal));
        return;
      }
      const proceed = async () => {
        const target = action.resource ? await loadResource(action.resource).catch(() => undefined) : resource;
        if (!target) return;
        if (action.prompt?.length) {
          // A failed read (already reported) opens nothing: an empty prompt would look like
          // "no grants" and save so.
          const current = await prefillValues(action, rows).catch(() => undefined);
          if (current) setPrompt({ action, rows, target, current });
          return;
        }
        return execute(action, rows, target).catch(() => undefined);
      };
      if (action.confirm) {
        modal.confirm({
          title: t('list.tip'),
          content: action.confirm,
          okText: t('list.ok'),
          cancelText: t('list.cancel'),
          onOk: proceed,
        });
      } else void proceed();
    },
    [execute, modal, t, resource, openLocation],
  );

  const remove = useCallback(
    (rows: Row[], batch: boolean) => {
      const endpoint = dutyEndpoint(resource, 'remove');
      if (!endpoint) return;
      if (!rows.length) {
        notifier().warning(t('list.selectAtLeastOne'));
        return;
      }
      modal.confirm({
        title: t('list.tip'),
        content: t(batch ? 'list.confirmBatchDelete' : 'list.confirmDelete'),
        okText: t('list.ok'),
        cancelText: t('list.cancel'),
        okButtonProps: { danger: true },
        onOk: () =>
          callEndpoint(resource, endpoint.path, { ids: rows.map(idOf).join(',') }).then(
            () => {
              notifier().success(t('list.operateSuccess'));
              announceChange(resource.resource);
              onDone();
            },
            () => undefined,
          ),
      });
    },
    [resource, modal, onDone, t],
  );

  const element = prompt ? (
    <Suspense fallback={<SuspenseProgress />}>
      <ActionPrompt
        title={label(prompt.action.label, prompt.action.labelEn)}
        fields={prompt.action.prompt ?? []}
        resource={prompt.target}
        initial={{ ...baseParams(prompt.action, prompt.rows), ...prompt.current }}
        open
        onCancel={() => setPrompt(undefined)}
        onOk={(values) => {
          const pending = prompt;
          execute(pending.action, pending.rows, pending.target, values).then(
            () => setPrompt(undefined),
            // A failed call keeps the prompt open with what the user typed.
            () => undefined,
          );
        }}
      />
    </Suspense>
  ) : null;

  return { run, remove, element };
}
