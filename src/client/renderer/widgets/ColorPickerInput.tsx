import { useState } from 'react';
import { ColorPicker, Input } from 'antd';
import type { EditorProps } from './types.ts';

/** antd's colour picker around a read-only hex input; a chunk of its own (only dictionaries use it). */
export default function ColorPickerInput({
  id,
  disabled,
  value,
  onCommit,
  openAtFirst = false,
}: EditorProps & { value: string | undefined; /** The field was clicked while this was loading. */ openAtFirst?: boolean }) {
  const [open, setOpen] = useState(openAtFirst);
  return (
    <ColorPicker
      open={open}
      onOpenChange={setOpen}
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
}
