import { lazy, memo, Suspense, useState } from 'react';
import { Input } from 'antd';
import type { EditorProps } from './types.ts';
import { TextAreaEditor, TextEditor } from './TextEditor.tsx';

const ColorPickerInput = lazy(() => import('./ColorPickerInput.tsx'));

/**
 * Colour as hex text (dictionary tag colours); the picker loads on first use, the text shows
 * meanwhile, and a click on it then opens the picker once it has loaded (the click is not lost).
 */
export const ColorEditor = memo(function ColorEditor(props: EditorProps) {
  const value = typeof props.value === 'string' && props.value ? props.value : undefined;
  const [clickedEarly, setClickedEarly] = useState(false);
  const fallback = (
    <Input id={props.id} readOnly value={value ?? ''} disabled={props.disabled} onClick={() => setClickedEarly(!props.disabled)} />
  );
  return (
    <Suspense fallback={fallback}>
      <ColorPickerInput {...props} value={value} openAtFirst={clickedEarly} />
    </Suspense>
  );
});

/** Icon names are plain text; JSON is a monospace text area checked on blur. */
export const IconEditor = TextEditor;
export const JsonEditor = TextAreaEditor;
