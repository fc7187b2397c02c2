import { useMemo } from 'react';
import { Modal } from 'antd';
import type { ResourceFile } from '../../../shared/resource.ts';
import type { FormFieldDef } from '../common/views.ts';
import { useFT } from './i18n.ts';
import { buildLayout } from './layout.ts';
import { defaultsOf } from './record.ts';
import { SchemaForm } from './SchemaForm.tsx';
import { FormStore } from './store.ts';

export interface ActionPromptProps {
  title: string;
  fields: FormFieldDef[];
  resource: ResourceFile;
  open: boolean;
  /** Values the prompt starts from (the action's parameters: the applicant's name, dept …). */
  initial?: Record<string, unknown>;
  onCancel(): void;
  onOk(values: Record<string, unknown>): void;
}

/**
 * Asks for an action's parameters (remark, tag, staff …) with the same fields and checks as
 * the form dialog; the caller runs the call and keeps the prompt open when it fails.
 */
export function ActionPrompt({ title, fields, resource, open, initial, onCancel, onOk }: ActionPromptProps) {
  const t = useFT();
  const layout = useMemo(() => {
    const built = buildLayout(resource, 'add', { fields, span: 24, width: 520 });
    // One column in a narrow dialog: the labels take what the longest title needs (within reason).
    const longest = Math.max(0, ...[...built.specs.values()].map((spec) => [...(spec.title ?? '')].length));
    return { ...built, labelWidth: Math.min(180, Math.max(built.labelWidth, longest * 14 + 30)) };
  }, [resource, fields]);
  // Made while rendering the open prompt (not in an effect), so OK never meets a prompt without
  // its store: a quick click is checked like any other. `initial` is read once, when it opens.
  const store = useMemo(() => {
    if (!open) return undefined;
    // Only the prompt's own fields take initial values; the rest travel as the call's parameters.
    const given = Object.fromEntries(
      Object.entries(initial ?? {}).filter(([name, value]) => layout.order.includes(name) && value !== undefined),
    );
    return new FormStore(resource.entity, layout, 'add', { ...defaultsOf(layout), ...given });
  }, [open, resource, layout]);

  const confirm = () => {
    if (!store) return;
    const active = document.activeElement;
    if (active instanceof HTMLElement) active.blur();
    const problems = store.validateAll();
    if (problems.length) return;
    const values = store.snapshot();
    onOk(Object.fromEntries(layout.order.map((name) => [name, values[name]])));
  };

  return (
    <Modal
      open={open}
      title={title}
      width={layout.width}
      okText={t('form.ok')}
      cancelText={t('form.cancel')}
      onCancel={onCancel}
      onOk={confirm}
      destroyOnHidden
    >
      {store && <SchemaForm store={store} />}
    </Modal>
  );
}

export default ActionPrompt;
