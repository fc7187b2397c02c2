import type { ComponentType } from 'react';
import type { Widget } from '../form/types.ts';
import type { EditorProps } from './types.ts';
import { CheckboxEditor, RadioEditor, SelectEditor, SwitchEditor } from './ChoiceEditors.tsx';
import { DateEditor, DateRangeEditor } from './DateEditor.tsx';
import { ColorEditor, IconEditor, JsonEditor } from './MiscEditors.tsx';
import { DecimalEditor, NumberEditor } from './NumberEditor.tsx';
import { AreaEditor, PickerEditor } from './PickerEditors.tsx';
import { TextAreaEditor, TextEditor } from './TextEditor.tsx';
import { ImageEditor, UploadEditor } from './UploadEditors.tsx';
import { TextListEditor } from './TextListEditor.tsx';
import { BpmnEditor } from './BpmnEditor.tsx';
import { PrintFieldsEditor } from './PrintFieldsEditor.tsx';
import { PageLayoutEditor } from './PageLayoutEditor.tsx';

/**
 * The editor of each widget name of the meta-schema. `lines` is registered by the form theme
 * (the lines editor itself renders cells through this map).
 */
const editors: Record<Exclude<Widget, 'lines'>, ComponentType<EditorProps>> = {
  input: TextEditor,
  password: TextEditor,
  textarea: TextAreaEditor,
  number: NumberEditor,
  money: DecimalEditor,
  select: SelectEditor,
  radio: RadioEditor,
  checkbox: CheckboxEditor,
  switch: SwitchEditor,
  date: DateEditor,
  datetime: DateEditor,
  daterange: DateRangeEditor,
  picker: PickerEditor,
  treePicker: PickerEditor,
  area: AreaEditor,
  upload: UploadEditor,
  image: ImageEditor,
  icon: IconEditor,
  color: ColorEditor,
  json: JsonEditor,
  textList: TextListEditor,
  bpmn: BpmnEditor,
  printFields: PrintFieldsEditor,
  pageLayout: PageLayoutEditor,
};

export function editorFor(widget: Widget): ComponentType<EditorProps> {
  return widget === 'lines' ? TextEditor : editors[widget];
}
