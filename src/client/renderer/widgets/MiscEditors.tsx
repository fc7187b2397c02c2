import { memo } from 'react';
import { ColorPicker, Input } from 'antd';
import type { EditorProps } from './types.ts';
import { TextAreaEditor, TextEditor } from './TextEditor.tsx';

/** Colour as hex text (dictionary tag colours). */
export const ColorEditor = memo(function ColorEditor(props: EditorProps) {
  const { id, disabled, onCommit } = props;
  const value = typeof props.value === 'string' && props.value ? props.value : undefined;
  return (
    <ColorPicker
      value={value}
      disabled={disabled}
      showText
      allowClear
      format="hex"
      onChangeComplete={(color) => onCommit(color.cleared ? '' : color.toHexString())}
      onClear={() => onCommit('')}
    >
      {/* The id lets the label focus the trigger. */}
      <Input id={id} readOnly value={value ?? ''} disabled={disabled} style={{ cursor: 'pointer' }} />
    </ColorPicker>
  );
});

/** Icon names are plain text; JSON is a monospace text area checked on blur. */
export const IconEditor = TextEditor;
export const JsonEditor = TextAreaEditor;
