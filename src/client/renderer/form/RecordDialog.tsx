import { lazy, Suspense } from 'react';
import type { ResourceFile } from '../../../shared/resource.ts';
import { SuspenseProgress } from '../../app/ProgressBar.tsx';
import { loadEntityValidator } from './entityValidators.ts';

// A bill opens in the document editor (with the line grid), loaded only when a bill is opened.
const DocumentDrawer = lazy(() => import('../document/DocumentDrawer.tsx'));

/**
 * The form engine (rjsf, date pickers, uploads) is not needed to paint a list: it loads when a
 * dialog opens, or sooner in idle time once the list is on screen (`prefetchRecordDialog`).
 */
const loadFormDialog = () => import('./FormDialog.tsx');
const FormDialog = lazy(loadFormDialog);
let prefetched = false;

/** Loads the form engine in the browser's idle time, so 新增/编辑 open without waiting for code. */
export function prefetchRecordDialog(resource: ResourceFile): void {
  if (prefetched || resource.document) return;
  prefetched = true;
  const load = () => {
    void loadFormDialog().catch(() => (prefetched = false));
    void loadEntityValidator(resource.entity);
  };
  if (window.requestIdleCallback) window.requestIdleCallback(load, { timeout: 2_000 });
  else window.setTimeout(load, 200);
}

/** Which record dialog a page has open: add (with preset values), edit or view of an id. */
export type RecordDialogState = { mode: 'add' | 'edit' | 'view'; id?: string; initial?: Record<string, unknown> };

/** The add/edit/view dialog of a list or tree page; `onDone(true)` after a save so the page reloads. */
export function RecordDialog(props: { resource: ResourceFile; state: RecordDialogState | undefined; onDone(saved: boolean): void }) {
  const { resource, state, onDone } = props;
  if (!state) return null;
  if (resource.document) {
    return (
      <Suspense fallback={null}>
        <DocumentDrawer resource={resource} id={state.mode === 'add' ? undefined : state.id} onClose={(changed) => onDone(changed)} />
      </Suspense>
    );
  }
  return (
    <Suspense fallback={<SuspenseProgress />}>
      <FormDialog
        resource={resource}
        mode={state.mode}
        id={state.id}
        initial={state.initial}
        open
        onClose={() => onDone(false)}
        onSaved={() => onDone(true)}
      />
    </Suspense>
  );
}
