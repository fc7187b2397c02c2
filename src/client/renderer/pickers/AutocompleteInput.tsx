import { useEffect, useMemo, useRef, useState } from 'react';
import { AutoComplete, Select } from 'antd';
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

function useSearch(picker: ResolvedPicker) {
  const [rows, setRows] = useState<Row[]>([]);
  const [loading, setLoading] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  const request = useRef(0);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const load = (keyword: string) => {
    const ticket = ++request.current;
    setLoading(true);
    fetchPage(picker.url, keyword ? { [picker.labelField]: keyword } : {}, 1, AUTOCOMPLETE_SIZE)
      .then((page) => ticket === request.current && setRows(page.records))
      .catch(() => ticket === request.current && setRows([]))
      .finally(() => ticket === request.current && setLoading(false));
  };
  const search = (keyword: string) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => load(keyword.trim()), TYPING_PAUSE_MS);
  };
  return { rows, loading, load, search };
}

/**
 * Inline search on the picker's endpoint (label contains the typed text, page 1, size 100).
 * When the picker's value is its label (a company name lookup) the text is free: typing keeps
 * what was typed, picking a suggestion also reports its row so the form can fill from it.
 */
export function AutocompleteInput({ id, picker, value, text, disabled, invalid, size, placeholder, onChange }: Props) {
  const t = useFT();
  const { rows, loading, load, search } = useSearch(picker);
  const freeText = picker.valueField === picker.labelField;
  const [typed, setTyped] = useState(value ?? '');
  useEffect(() => setTyped(value ?? ''), [value]);

  const options = useMemo(() => {
    const list = rows.map((row) => ({ value: String(row[picker.valueField] ?? ''), label: String(row[picker.labelField] ?? '') }));
    if (!freeText && value && !list.some((option) => option.value === value)) list.unshift({ value, label: text ?? value });
    return list;
  }, [rows, picker, value, text, freeText]);

  if (freeText) {
    return (
      <AutoComplete
        id={id}
        value={typed}
        options={options.map((option) => ({ value: option.value }))}
        disabled={disabled}
        size={size}
        status={invalid ? 'error' : undefined}
        placeholder={placeholder}
        style={{ width: '100%' }}
        onSearch={search}
        onChange={(next: string) => setTyped(next ?? '')}
        onSelect={(next: string) => {
          setTyped(next);
          onChange(next, rows.filter((row) => String(row[picker.valueField]) === next).slice(0, 1));
        }}
        onBlur={() => {
          if (typed !== (value ?? '')) onChange(typed || undefined, []);
        }}
      />
    );
  }

  return (
    <Select
      id={id}
      showSearch={{ filterOption: false, onSearch: search }}
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
