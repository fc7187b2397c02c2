import { memo, type ChangeEvent } from 'react';
import { Input } from 'antd';
import type { EditorProps } from './types.ts';
import { useLocalValue } from './useLocalValue.ts';
import { PlainTextInput } from './PlainTextInput.tsx';
import { PlainTextArea } from './PlainTextArea.tsx';
import { asText } from './useTypedText.ts';

/** Single-line text and passwords; commits on blur and on Enter. */
export const TextEditor = memo(function TextEditor(props: EditorProps) {
  return props.compact || props.spec.widget === 'password' ? <AntdTextEditor {...props} /> : <PlainTextInput {...props} />;
});

/** A line cell's compact text and passwords: antd's Input, the typed text in React state. */
const AntdTextEditor = memo(function AntdTextEditor(props: EditorProps) {
  const { id, spec, disabled, invalid, placeholder, onCommit, onPending, compact } = props;
  const { local, change, commit } = useLocalValue(asText(props.value), onCommit, onPending);
  const maxLength = typeof spec.prop.maxLength === 'number' ? spec.prop.maxLength : undefined;
  const common = {
    id,
    value: local,
    disabled,
    placeholder,
    maxLength,
    size: compact ? ('small' as const) : undefined,
    status: invalid ? ('error' as const) : undefined,
    onChange: (event: ChangeEvent<HTMLInputElement>) => change(event.target.value),
    onBlur: () => commit(),
    onPressEnter: () => commit(),
  };
  if (spec.widget === 'password') return <Input.Password {...common} autoComplete="new-password" />;
  return <Input {...common} allowClear={!compact && !disabled} />;
});

/** Long text; commits on blur. */
export const TextAreaEditor = memo(function TextAreaEditor(props: EditorProps) {
  return props.compact ? <AntdTextAreaEditor {...props} /> : <PlainTextArea {...props} />;
});

/** A line cell's long text: antd's TextArea, the typed text in React state. */
const AntdTextAreaEditor = memo(function AntdTextAreaEditor(props: EditorProps) {
  const { id, spec, disabled, invalid, placeholder, onCommit, onPending } = props;
  const { local, change, commit } = useLocalValue(asText(props.value), onCommit, onPending);
  const maxLength = typeof spec.prop.maxLength === 'number' ? spec.prop.maxLength : undefined;
  return (
    <Input.TextArea
      id={id}
      value={local}
      disabled={disabled}
      placeholder={placeholder}
      maxLength={maxLength}
      status={invalid ? 'error' : undefined}
      // Fixed rows: autoSize measures every text area with a forced reflow when a form opens.
      rows={spec.widget === 'json' ? 4 : 2}
      style={spec.widget === 'json' ? { fontFamily: 'monospace' } : undefined}
      onChange={(event) => change(event.target.value)}
      onBlur={() => commit()}
    />
  );
});
