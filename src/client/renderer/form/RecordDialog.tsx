import { lazy, Suspense } from 'react';
import type { ResourceFile } from '../../../shared/resource.ts';
import { FormDialog } from './FormDialog.tsx';

// A bill opens in the document editor (with the line grid), loaded only when a bill is opened.
const DocumentDrawer = lazy(() => import('../document/DocumentDrawer.tsx'));

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
    <FormDialog
      resource={resource}
      mode={state.mode}
      id={state.id}
      initial={state.initial}
      open
      onClose={() => onDone(false)}
      onSaved={() => onDone(true)}
    />
  );
}
