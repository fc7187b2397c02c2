import { memo, useCallback, useEffect, useState } from 'react';
import { Select } from 'antd';
import { http } from '../../api/http.ts';
import { useSettings } from '../../store/settings.ts';
import type { EditorProps } from './types.ts';

interface PrintField {
  field: string;
  title: string;
  titleEn?: string;
  numeric?: boolean;
}

interface BillFields {
  head: PrintField[];
  lines: PrintField[];
}

const cache = new Map<string, Promise<BillFields>>();

function fieldsOf(billType: string): Promise<BillFields> {
  let pending = cache.get(billType);
  if (!pending) {
    pending = http.get<BillFields>('/api/blade-system/printtemplate/fields', { billType }, { silent: true });
    pending.catch(() => cache.delete(billType));
    cache.set(billType, pending);
  }
  return pending;
}

/**
 * Widget printFields (打印设置): the head fields, line columns or head amount of the bill type the
 * form's billType names, read when the editor mounts and again when its list opens (the bill type
 * may have changed). Several values travel comma-joined in the order picked: the print order.
 */
export const PrintFieldsEditor = memo(function PrintFieldsEditor(props: EditorProps) {
  const { id, spec, disabled, invalid, placeholder, onCommit, getRecord } = props;
  const source = (spec.def as { printSource?: 'head' | 'lines' | 'amount' }).printSource ?? 'head';
  const english = useSettings((s) => s.language) === 'en';
  const [fields, setFields] = useState<PrintField[]>([]);
  const load = useCallback(() => {
    const billType = getRecord?.().billType;
    if (billType === undefined || billType === null || billType === '') {
      setFields([]);
      return;
    }
    fieldsOf(String(billType)).then(
      (all) => setFields(source === 'lines' ? all.lines : source === 'amount' ? all.head.filter((f) => f.numeric) : all.head),
      () => setFields([]),
    );
  }, [getRecord, source]);
  useEffect(load, [load]);
  const options = fields.map((f) => ({ value: f.field, label: english && f.titleEn ? f.titleEn : f.title }));
  const text = typeof props.value === 'string' ? props.value : '';
  if (source === 'amount') {
    return (
      <Select
        id={id}
        value={text || undefined}
        options={options}
        disabled={disabled}
        placeholder={placeholder}
        status={invalid ? 'error' : undefined}
        allowClear
        style={{ width: '100%' }}
        onOpenChange={(open) => open && load()}
        onChange={(next: string | undefined) => onCommit(next ?? '')}
      />
    );
  }
  return (
    <Select
      id={id}
      mode="multiple"
      value={text ? text.split(',') : []}
      options={options}
      disabled={disabled}
      placeholder={placeholder}
      status={invalid ? 'error' : undefined}
      allowClear
      optionFilterProp="label"
      style={{ width: '100%' }}
      onOpenChange={(open) => open && load()}
      onChange={(next: string[]) => onCommit(next.join(','))}
    />
  );
});
