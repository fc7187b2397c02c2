import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, Drawer, Modal, Result, Space, Spin } from 'antd';
import type { ResourceFile } from '../../../shared/resource.ts';
import { persistDrafts, registerDraft, takeDraft } from '../../store/drafts.ts';
import { useLabel } from '../common/i18n.ts';
import { viewsOf } from '../common/views.ts';
import { DetailTabs } from '../list/DetailTabs.tsx';
import { useFT } from './i18n.ts';
import { buildLayout } from './layout.ts';
import { defaultsOf, fieldErrorsOf, loadRecord, saveRecord } from './record.ts';
import { SchemaForm } from './SchemaForm.tsx';
import { FormStore } from './store.ts';
import type { FormMode, Values } from './types.ts';
import { useFeedback } from '../../feedback/FeedbackProvider.tsx';

export interface FormDialogProps {
  resource: ResourceFile;
  mode: FormMode;
  id?: string;
  initial?: Record<string, unknown>;
  open: boolean;
  onClose(): void;
  onSaved(row: Record<string, unknown>): void;
}

/** Commits the field being typed in (its blur), so a save sees the last keystroke. */
export function commitFocusedField(): void {
  const active = document.activeElement;
  if (active instanceof HTMLElement) active.blur();
}

/**
 * Add / edit / view dialog of a resource (Modal, or Drawer when form.mode is drawer). What the
 * user typed survives a failed save, a token refresh and a forced re-login: the form is a draft
 * source while open, is written to storage after a failed save, comes back when the dialog
 * opens again for the same record, and is forgotten after a successful save.
 */
export function FormDialog({ resource, mode, id, initial, open, onClose, onSaved }: FormDialogProps) {
  const t = useFT();
  const label = useLabel();
  const { message } = useFeedback();
  const layout = useMemo(() => buildLayout(resource, mode), [resource, mode]);
  const recordId = id ?? (initial?.id !== undefined ? String(initial.id) : undefined);
  const draftKey = `form:${resource.resource}:${mode === 'add' ? 'new' : (recordId ?? 'new')}`;
  const [store, setStore] = useState<FormStore>();
  const [loadFailed, setLoadFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  // A draft is kept on close once a save failed or a draft was restored.
  const keepDraft = useRef(false);
  const taken = useRef<{ key: string; draft: Values | undefined }>(undefined);
  const initialRef = useRef(initial);
  initialRef.current = initial;
  // Read through a ref: a language switch must not reload (and lose) the open form.
  const notice = useRef({ message, t });
  notice.current = { message, t };

  useEffect(() => {
    if (!open) return undefined;
    // Taken once per opening, even when effects run twice (StrictMode).
    if (taken.current?.key !== draftKey) {
      taken.current = { key: draftKey, draft: mode === 'view' ? undefined : takeDraft<Values>(draftKey) };
    }
    const draft = taken.current.draft;
    let active = true;
    const base = initialRef.current ?? {};
    const start = (record: Values) => {
      const values = mode === 'add' ? { ...defaultsOf(layout), ...base } : { ...base, ...record };
      keepDraft.current = Boolean(draft);
      setStore(new FormStore(resource.entity, layout, mode, draft ? { ...values, ...draft } : values));
      if (draft) void notice.current.message.info(notice.current.t('form.draftRestored'));
    };
    setLoadFailed(false);
    if (mode === 'add' || !recordId) {
      // Nothing to read: the form renders in the same pass.
      start({});
    } else {
      setStore(undefined);
      loadRecord(resource, recordId).then(
        (record) => active && start(record),
        () => active && setLoadFailed(true),
      );
    }
    return () => {
      active = false;
    };
  }, [open, resource, mode, recordId, layout, draftKey]);

  useEffect(() => {
    if (!store || mode === 'view') return undefined;
    const unregister = registerDraft(draftKey, () => store.snapshot());
    // A restored draft stays stored until a save succeeds (a closed tab must not lose it).
    if (keepDraft.current) persistDrafts();
    return unregister;
  }, [store, draftKey, mode]);

  const close = useCallback(() => {
    if (store && keepDraft.current && mode !== 'view') {
      commitFocusedField();
      persistDrafts();
    }
    onClose();
  }, [store, mode, onClose]);

  const save = async () => {
    if (!store || saving) return;
    commitFocusedField();
    const problems = store.validateAll();
    if (problems.length) {
      store.revealField(problems[0]);
      return;
    }
    setSaving(true);
    try {
      const saved = await saveRecord(resource, mode, store.snapshot());
      takeDraft(draftKey);
      keepDraft.current = false;
      void message.success(t(mode === 'add' ? 'form.addSuccess' : 'form.editSuccess'));
      onSaved(saved);
      onClose();
    } catch (error) {
      // The shell has shown the server's message; the fields show theirs.
      const fieldErrors = fieldErrorsOf(error, layout);
      const paths = Object.keys(fieldErrors);
      if (paths.length) {
        store.setErrors(fieldErrors);
        store.revealField(paths[0]);
      }
      keepDraft.current = true;
      persistDrafts();
    } finally {
      setSaving(false);
    }
  };

  const entityTitle = typeof resource.entity.title === 'string' ? resource.entity.title : resource.title;
  const action = t(mode === 'add' ? 'form.add' : mode === 'edit' ? 'form.edit' : 'form.view');
  const title = label(`${action}${entityTitle}`, resource.titleEn ? `${action} · ${resource.titleEn}` : undefined);
  const hasDetailTabs = mode === 'view' && Boolean(viewsOf(resource).detailTabs?.length);

  const body = loadFailed ? (
    <Result status="warning" title={t('form.loadFailed')} />
  ) : store ? (
    <>
      <SchemaForm store={store} labelsOnTop={layout.container === 'drawer' && layout.width < 480} />
      {hasDetailTabs && <DetailTabs resource={resource} row={store.getValues()} />}
    </>
  ) : (
    <div style={{ minHeight: 160, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Spin tip={t('form.loading')}>
        <div style={{ width: 120, height: 60 }} />
      </Spin>
    </div>
  );

  const footer =
    mode === 'view' ? (
      <Button onClick={close}>{t('form.close')}</Button>
    ) : (
      <Space>
        <Button onClick={close}>{t('form.cancel')}</Button>
        <Button type="primary" loading={saving} disabled={!store} onClick={() => void save()}>
          {t('form.save')}
        </Button>
      </Space>
    );

  if (layout.container === 'drawer') {
    return (
      <Drawer
        open={open}
        title={title}
        size={layout.width}
        onClose={close}
        footer={<div style={{ textAlign: 'right' }}>{footer}</div>}
        destroyOnHidden
      >
        {body}
      </Drawer>
    );
  }
  return (
    <Modal
      open={open}
      title={title}
      width={layout.width}
      onCancel={close}
      footer={footer}
      destroyOnHidden
      mask={{ closable: false }}
      styles={{ body: { maxHeight: 'calc(100vh - 220px)', overflowY: 'auto', overflowX: 'hidden', paddingTop: 8 } }}
    >
      {body}
    </Modal>
  );
}

export default FormDialog;
