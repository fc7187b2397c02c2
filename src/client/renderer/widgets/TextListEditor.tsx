import { memo, useEffect, useRef, useState } from 'react';
import { Button, Input } from 'antd';
import MinusCircleOutlined from '@ant-design/icons/es/icons/MinusCircleOutlined';
import PlusOutlined from '@ant-design/icons/es/icons/PlusOutlined';
import { useFT } from '../form/i18n.ts';
import type { EditorProps } from './types.ts';

/** The filled items of a list value (blank ones are rows still to be written). */
export function filledItems(value: unknown): string[] {
  return Array.isArray(value) ? value.map((item) => String(item ?? '').trim()).filter(Boolean) : [];
}

function rowsFor(value: unknown, min: number): string[] {
  const items = filledItems(value);
  return items.length >= min ? items : [...items, ...Array<string>(min - items.length).fill('')];
}

/**
 * An array of short texts (近三个月主要工作业绩: at least three): one numbered input per item,
 * as many rows as minItems from the start, add and remove within minItems..maxItems. Commits
 * the filled items on blur; blank rows stay on screen but are not part of the value.
 */
export const TextListEditor = memo(function TextListEditor(props: EditorProps) {
  const { id, spec, disabled, invalid, placeholder, onCommit, onPending } = props;
  const t = useFT();
  const min = Math.max(1, spec.prop.minItems ?? 1);
  const max = spec.prop.maxItems;
  const itemMax = (spec.prop.items as { maxLength?: number } | undefined)?.maxLength;
  const [rows, setRows] = useState(() => rowsFor(props.value, min));
  const committed = useRef(JSON.stringify(filledItems(props.value)));

  // A value set from outside (a reset, a loaded record) replaces the rows.
  useEffect(() => {
    const incoming = JSON.stringify(filledItems(props.value));
    if (incoming !== committed.current) {
      committed.current = incoming;
      setRows(rowsFor(props.value, min));
    }
  }, [props.value, min]);

  const commit = (next: string[]) => {
    const items = filledItems(next);
    committed.current = JSON.stringify(items);
    onCommit(items);
  };
  const change = (index: number, text: string) => {
    const next = rows.map((row, i) => (i === index ? text : row));
    setRows(next);
    onPending?.(filledItems(next));
  };
  const remove = (index: number) => {
    const next = rows.filter((_, i) => i !== index);
    setRows(next);
    commit(next);
  };

  return (
    <div className="erp-text-list" id={id}>
      {rows.map((row, index) => (
        <div className="erp-text-list-row" key={index}>
          <span className="erp-text-list-index">{index + 1}.</span>
          <Input
            id={`${id}.${index}`}
            value={row}
            disabled={disabled}
            maxLength={itemMax}
            placeholder={placeholder}
            status={invalid && !row.trim() ? 'error' : undefined}
            onChange={(event) => change(index, event.target.value)}
            onBlur={() => commit(rows)}
            onPressEnter={() => commit(rows)}
          />
          {rows.length > min && !disabled && (
            <Button
              type="text"
              aria-label={t('form.removeItem')}
              icon={<MinusCircleOutlined />}
              onClick={() => remove(index)}
            />
          )}
        </div>
      ))}
      {!disabled && (max === undefined || rows.length < max) && (
        <Button type="dashed" size="small" icon={<PlusOutlined />} onClick={() => setRows([...rows, ''])}>
          {t('form.addItem')}
        </Button>
      )}
    </div>
  );
});
