import type { ResourceFile } from '../../../shared/resource.ts';
import { FormDialog } from './FormDialog.tsx';

/** Which record dialog a page has open: add (with preset values), edit or view of an id. */
export type RecordDialogState = { mode: 'add' | 'edit' | 'view'; id?: string; initial?: Record<string, unknown> };

/** The add/edit/view dialog of a list or tree page; `onDone(true)` after a save so the page reloads. */
export function RecordDialog(props: { resource: ResourceFile; state: RecordDialogState | undefined; onDone(saved: boolean): void }) {
  const { resource, state, onDone } = props;
  if (!state) return null;
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
