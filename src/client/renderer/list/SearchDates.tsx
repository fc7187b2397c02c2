/**
 * The date inputs of a search bar, in a chunk of their own: antd's date picker is loaded only by
 * lists that search by date (SearchForm loads this lazily, showing a plain input meanwhile).
 */
import { DatePicker } from 'antd';

interface DateSearchProps {
  id: string;
  range: boolean;
  placeholder: string | [string, string];
  value: unknown;
  onChange(next: unknown): void;
}

export default function DateSearch({ id, range, placeholder, value, onChange }: DateSearchProps) {
  if (range) {
    return (
      <DatePicker.RangePicker
        id={id}
        style={{ width: '100%' }}
        placeholder={placeholder as [string, string]}
        value={value as never}
        onChange={(next) => onChange(next ?? undefined)}
      />
    );
  }
  return (
    <DatePicker
      id={id}
      style={{ width: '100%' }}
      placeholder={placeholder as string}
      value={value as never}
      onChange={(next) => onChange(next ?? undefined)}
    />
  );
}
