import { memo } from 'react';
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { EditorProps } from './types.ts';

export const DATE_FORMAT = 'YYYY-MM-DD';
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

function parse(value: unknown): Dayjs | null {
  if (value === null || value === undefined || value === '') return null;
  const parsed = dayjs(String(value));
  return parsed.isValid() ? parsed : null;
}

/** A field stored as a date-time (BladeX keeps most dates as `yyyy-MM-dd 00:00:00`). */
export function storesTime(prop: EditorProps['spec']['prop']): boolean {
  return prop.format === 'date-time' || (typeof prop.pattern === 'string' && prop.pattern.includes(':')) || prop.maxLength === 19;
}

/**
 * Dates travel as `yyyy-MM-dd`, date-times as `yyyy-MM-dd HH:mm:ss` (the contract's format); a
 * date picked for a date-time field is sent as the start of that day.
 */
export const DateEditor = memo(function DateEditor(props: EditorProps) {
  const { id, spec, disabled, invalid, placeholder, onCommit, compact } = props;
  const withTime = spec.widget === 'datetime';
  const format = withTime ? DATE_TIME_FORMAT : DATE_FORMAT;
  const sent = withTime || storesTime(spec.prop) ? DATE_TIME_FORMAT : DATE_FORMAT;
  return (
    <DatePicker
      id={id}
      value={parse(props.value)}
      showTime={withTime}
      format={format}
      disabled={disabled}
      placeholder={placeholder}
      size={compact ? 'small' : undefined}
      status={invalid ? 'error' : undefined}
      style={{ width: '100%' }}
      onChange={(next: Dayjs | null) => onCommit(next ? (withTime ? next : next.startOf('day')).format(sent) : '')}
    />
  );
});

/** A pair of dates, [from, to], each `yyyy-MM-dd`. */
export const DateRangeEditor = memo(function DateRangeEditor(props: EditorProps) {
  const { id, disabled, invalid, onCommit, compact } = props;
  const pair = Array.isArray(props.value) ? props.value : [];
  return (
    <DatePicker.RangePicker
      id={id}
      value={[parse(pair[0]), parse(pair[1])]}
      format={DATE_FORMAT}
      disabled={disabled}
      size={compact ? 'small' : undefined}
      status={invalid ? 'error' : undefined}
      style={{ width: '100%' }}
      onChange={(next) =>
        onCommit(next && next[0] && next[1] ? [next[0].format(DATE_FORMAT), next[1].format(DATE_FORMAT)] : [])
      }
    />
  );
});
