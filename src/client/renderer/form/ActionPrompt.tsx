import { useEffect, useMemo, useState } from 'react';
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
  onCancel(): void;
  onOk(values: Record<string, unknown>): void;
}

/**
 * Asks for an action's parameters (remark, tag, staff …) with the same fields and checks as
 * the form dialog; the caller runs the call and keeps the prompt open when it fails.
 */
export function ActionPrompt({ title, fields, resource, open, onCancel, onOk }: ActionPromptProps) {
  const t = useFT();
  const layout = useMemo(() => buildLayout(resource, 'add', { fields, span: 24, width: 520 }), [resource, fields]);
  const [store, setStore] = useState<FormStore>();
  useEffect(() => {
    if (open) setStore(new FormStore(resource.entity, layout, 'add', defaultsOf(layout)));
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
