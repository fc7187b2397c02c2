import { memo } from 'react';
import { Checkbox, Radio, Select, Switch } from 'antd';
import type { EditorProps } from './types.ts';
import { splitMulti, typedKey, useChoiceOptions } from './options.ts';
import { useDictionary } from '../common/useDictionary.ts';

const isBlank = (value: unknown) => value === null || value === undefined || value === '';

/** Dictionary or enum select; multi (x-multi) values travel comma-joined. Commits on select. */
export const SelectEditor = memo(function SelectEditor(props: EditorProps) {
  const { id, spec, disabled, invalid, placeholder, onCommit, compact } = props;
  const options = useChoiceOptions(spec.prop);
  const multiple = Boolean(spec.prop['x-multi']);
  if (multiple) {
    return (
      <Select
        id={id}
        mode="multiple"
        value={splitMulti(spec.prop, props.value)}
        options={options}
        disabled={disabled}
        placeholder={placeholder}
        size={compact ? 'small' : undefined}
        status={invalid ? 'error' : undefined}
        allowClear
        maxTagCount="responsive"
        optionFilterProp="label"
        style={{ width: '100%' }}
        onChange={(next: (string | number)[]) => onCommit(next.join(','))}
      />
    );
  }
  return (
    <Select
      id={id}
      value={isBlank(props.value) ? undefined : typedKey(spec.prop, props.value)}
      options={options}
      disabled={disabled}
      placeholder={placeholder}
      size={compact ? 'small' : undefined}
      status={invalid ? 'error' : undefined}
      allowClear
      showSearch={options.length > 8 ? { optionFilterProp: 'label' } : undefined}
      style={{ width: '100%' }}
      onChange={(next: string | number | undefined) => onCommit(next ?? '')}
    />
  );
});

export const RadioEditor = memo(function RadioEditor(props: EditorProps) {
  const { id, spec, disabled, onCommit } = props;
  const options = useChoiceOptions(spec.prop);
  return (
    <Radio.Group
      id={id}
      value={isBlank(props.value) ? undefined : typedKey(spec.prop, props.value)}
      options={options}
      disabled={disabled}
      onChange={(event) => onCommit(event.target.value)}
    />
  );
});

export const CheckboxEditor = memo(function CheckboxEditor(props: EditorProps) {
  const { id, spec, disabled, onCommit } = props;
  const options = useChoiceOptions(spec.prop);
  if (!options.length) {
    return (
      <Checkbox
        id={id}
        checked={props.value === true}
        disabled={disabled}
        onChange={(event) => onCommit(event.target.checked)}
      />
    );
  }
  return (
    <Checkbox.Group
      value={splitMulti(spec.prop, props.value)}
      options={options}
      disabled={disabled}
      onChange={(next) => onCommit((next as (string | number)[]).join(','))}
    />
  );
});

/**
 * On/off: a yes_no style dictionary maps on to its "是" key (2) and off to "否" (1); a boolean
 * field holds true/false; anything else 1/0.
 */
export const SwitchEditor = memo(function SwitchEditor(props: EditorProps) {
  const { id, spec, disabled, onCommit, compact } = props;
  const items = useDictionary(spec.prop);
  const { on, off } = switchValues(
    spec.prop.type,
    items.map((item) => String(item.dictKey)),
  );
  const typed = (value: string | number | boolean) => (typeof value === 'boolean' ? value : typedKey(spec.prop, value));
  return (
    <Switch
      id={id}
      size={compact ? 'small' : undefined}
      checked={!isBlank(props.value) && String(props.value) === String(on)}
      disabled={disabled}
      onChange={(checked) => onCommit(typed(checked ? on : off))}
    />
  );
});

export function switchValues(
  type: unknown,
  keys: string[],
): { on: string | number | boolean; off: string | number | boolean } {
  if (type === 'boolean') return { on: true, off: false };
  if (keys.includes('2') && keys.includes('1')) return { on: '2', off: '1' };
  return { on: '1', off: '0' };
}
