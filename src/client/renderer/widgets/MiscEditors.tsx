import { lazy, memo, Suspense } from 'react';
import { Input } from 'antd';
import type { EditorProps } from './types.ts';
import { TextAreaEditor, TextEditor } from './TextEditor.tsx';

const ColorPickerInput = lazy(() => import('./ColorPickerInput.tsx'));

/** Colour as hex text (dictionary tag colours); the picker loads on first use, the text shows meanwhile. */
export const ColorEditor = memo(function ColorEditor(props: EditorProps) {
  const value = typeof props.value === 'string' && props.value ? props.value : undefined;
  return (
    <Suspense fallback={<Input id={props.id} readOnly value={value ?? ''} disabled={props.disabled} />}>
      <ColorPickerInput {...props} value={value} />
    </Suspense>
  );
});

/** Icon names are plain text; JSON is a monospace text area checked on blur. */
export const IconEditor = TextEditor;
export const JsonEditor = TextAreaEditor;
