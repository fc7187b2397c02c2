import { lazy, Suspense } from 'react';
import { linesResourceOf } from '../../../shared/document.ts';
import type { ResourceFile } from '../../../shared/resource.ts';
import { SuspenseProgress } from '../../app/ProgressBar.tsx';
import { loadResource } from '../common/useResource.ts';
import { loadEntityValidator } from './entityValidators.ts';

/**
 * The form engine (rjsf, date pickers, uploads) and a bill's editor (the line grid) are not needed
 * to paint a list: they load when a dialog or bill opens, or sooner in idle time once the list is
 * on screen (`prefetchRecordDialog`).
 */
const loadFormDialog = () => import('./FormDialog.tsx');
const FormDialog = lazy(loadFormDialog);

type DrawerModule = typeof import('../document/DocumentDrawer.tsx');
let drawerModule: DrawerModule | undefined;
let drawerLoad: Promise<DrawerModule> | undefined;
function loadDocumentDrawer(): Promise<DrawerModule> {
  drawerLoad ??= import('../document/DocumentDrawer.tsx').then(
    (module) => (drawerModule = module),
    (error: unknown) => {
      drawerLoad = undefined; // a failed chunk load is tried again on the next open
      throw error;
    },
  );
  return drawerLoad;
}
/**
 * The bill editor. When its module has loaded already (prefetched), React.lazy is given it through
 * a thenable that calls back at once, and renders it in the same pass: through a promise, even a
 * settled one, lazy suspends for a turn and React then holds the reveal back up to 300 ms after
 * the fallback.
 */
const DocumentDrawer = lazy(() => (drawerModule ? calledBackAtOnce(drawerModule) : loadDocumentDrawer()));
function calledBackAtOnce<T>(value: T): Promise<T> {
  return { then: (onFulfilled?: (loaded: T) => unknown) => void onFulfilled?.(value) } as unknown as Promise<T>;
}

/** Resources whose dialog has been prefetched (the code once; each resource's schema parts). */
const prefetched = new Set<string>();

/**
 * Loads what the resource's 新增/编辑/查看 needs in the browser's idle time, so it opens without
 * waiting for code: the form engine, or for a bill the editor with its line grid (its largest
 * chunk: measured, the 查看 of a 1,000-line bill spent ~0.5 s of its ~1 s loading and running
 * it), the schemas its line grid reads, and the entity's compiled validator.
 */
export function prefetchRecordDialog(resource: ResourceFile): void {
  if (prefetched.has(resource.resource)) return;
  prefetched.add(resource.resource);
  const load = () => {
    const code: Promise<unknown> = resource.document ? loadDocumentDrawer() : loadFormDialog();
    code.catch(() => prefetched.delete(resource.resource));
    void loadEntityValidator(resource.entity);
    // A bill's line grid reads its line resource's schema, and goods' for its picker.
    const lines = linesResourceOf(resource);
    for (const name of lines ? [lines, 'goods'] : []) loadResource(name).catch(() => undefined);
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
