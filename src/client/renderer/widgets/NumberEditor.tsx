import { memo, type ChangeEvent } from 'react';
import { Input, InputNumber } from 'antd';
import Decimal from 'decimal.js';
import { decimalPlaces } from '../common/format.ts';
import type { EditorProps } from './types.ts';
import { useLocalValue } from './useLocalValue.ts';

/** Integers and plain numbers; the value is a number (or undefined when cleared). */
export const NumberEditor = memo(function NumberEditor(props: EditorProps) {
  const { id, spec, disabled, invalid, placeholder, onCommit, onPending, compact } = props;
  const initial = props.value === null || props.value === undefined || props.value === '' ? null : Number(props.value);
  const { local, change, commit } = useLocalValue<number | null>(
    Number.isNaN(initial) ? null : initial,
    (value) => onCommit(value ?? undefined),
    onPending,
  );
  const { minimum, maximum } = spec.prop;
  return (
    <InputNumber<number>
      id={id}
      value={local}
      disabled={disabled}
      placeholder={placeholder}
      size={compact ? 'small' : undefined}
      status={invalid ? 'error' : undefined}
      precision={spec.prop.type === 'integer' ? 0 : undefined}
      min={typeof minimum === 'number' ? minimum : undefined}
      max={typeof maximum === 'number' ? maximum : undefined}
      style={{ width: '100%' }}
      onChange={(value) => change(value ?? null)}
      onBlur={() => commit()}
      onPressEnter={() => commit()}
    />
  );
});

const PARTIAL_DECIMAL = /^-?\d*(\.\d*)?$/;

function scaleOf(spec: EditorProps['spec']): number {
  const kind = spec.prop['x-decimal'];
  if (typeof kind === 'number') return kind;
  return kind ? decimalPlaces(kind) : 2;
}

/** Trims a typed decimal to its canonical text ("1." → "1", "01.50" → "1.50"); bad text is kept for the check. */
function normalise(text: string): string {
  const trimmed = text.trim();
  if (!trimmed || !/^-?\d+(\.\d*)?$/.test(trimmed)) return trimmed;
  const [whole, fraction] = trimmed.replace(/\.$/, '').split('.');
  const integer = new Decimal(whole).toFixed(0);
  return fraction === undefined ? integer : `${whole.startsWith('-') && integer === '0' ? '-0' : integer}.${fraction}`;
}

/**
 * Exact decimals (money, prices, quantities): the value stays a string end to end, never a JS
 * number; typing is limited to digits, one point and a leading minus.
 */
export const DecimalEditor = memo(function DecimalEditor(props: EditorProps) {
  const { id, spec, disabled, invalid, placeholder, onCommit, onPending, compact } = props;
  const text = props.value === null || props.value === undefined ? '' : String(props.value);
  const { local, change, commit } = useLocalValue(text, onCommit, onPending);
  const scale = scaleOf(spec);
  return (
    <Input
      id={id}
      value={local}
      disabled={disabled}
      placeholder={placeholder}
      inputMode="decimal"
      size={compact ? 'small' : undefined}
      status={invalid ? 'error' : undefined}
      style={{ textAlign: 'right' }}
      onChange={(event: ChangeEvent<HTMLInputElement>) => {
        const next = event.target.value;
        const [, fraction = ''] = next.split('.');
        if (PARTIAL_DECIMAL.test(next) && fraction.length <= scale) change(next);
      }}
      onBlur={() => commit(normalise(local))}
      onPressEnter={() => commit(normalise(local))}
    />
  );
});
