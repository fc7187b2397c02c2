import { useEffect, useMemo, useRef, useState } from 'react';
import { Select } from 'antd';
import { useFT } from '../form/i18n.ts';
import { fetchPage, type Row } from './api.ts';
import type { ResolvedPicker } from './definition.ts';

/** Spec §9: the autocomplete asks for page 1 with size 100. */
export const AUTOCOMPLETE_SIZE = 100;
const TYPING_PAUSE_MS = 300;

interface Props {
  id?: string;
  picker: ResolvedPicker;
  value?: string;
  text?: string;
  disabled?: boolean;
  invalid?: boolean;
  size?: 'small' | 'middle';
  placeholder?: string;
  onChange(value: string | undefined, rows: Row[]): void;
}

/** Inline search on the picker's endpoint (label contains the typed text), one choice. */
export function AutocompleteInput({ id, picker, value, text, disabled, invalid, size, placeholder, onChange }: Props) {
  const t = useFT();
  const [rows, setRows] = useState<Row[]>([]);
  const [loading, setLoading] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  const request = useRef(0);

  const load = (keyword: string) => {
    const ticket = ++request.current;
    setLoading(true);
    fetchPage(picker.url, keyword ? { [picker.labelField]: keyword } : {}, 1, AUTOCOMPLETE_SIZE)
      .then((page) => ticket === request.current && setRows(page.records))
      .catch(() => ticket === request.current && setRows([]))
      .finally(() => ticket === request.current && setLoading(false));
  };

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const options = useMemo(() => {
    const list = rows.map((row) => ({ value: String(row[picker.valueField] ?? ''), label: String(row[picker.labelField] ?? '') }));
    if (value && !list.some((option) => option.value === value)) list.unshift({ value, label: text ?? value });
    return list;
  }, [rows, picker, value, text]);

  return (
    <Select
      id={id}
      showSearch={{ filterOption: false, onSearch: (keyword: string) => {
        window.clearTimeout(timer.current);
        timer.current = window.setTimeout(() => load(keyword.trim()), TYPING_PAUSE_MS);
      } }}
      value={value || undefined}
      options={options}
      loading={loading}
      disabled={disabled}
      allowClear
      size={size}
      status={invalid ? 'error' : undefined}
      placeholder={placeholder}
      notFoundContent={loading ? undefined : t('picker.empty')}
      style={{ width: '100%' }}
      onOpenChange={(open) => open && !rows.length && load('')}
      onChange={(next: string | undefined) => {
        const row = rows.find((candidate) => String(candidate[picker.valueField]) === next);
        onChange(next || undefined, row ? [row] : []);
      }}
    />
  );
}
