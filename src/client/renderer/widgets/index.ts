/** Field editors shared by the form dialog and the lines editor. */
export type { EditorProps } from './types.ts';
export { editorFor } from './registry.ts';
export { LinesEditor, checkLines } from './LinesEditor.tsx';
export { ReadonlyValue } from './ReadonlyValue.tsx';
export { UploadEditor, ImageEditor } from './UploadEditors.tsx';
export { PickerEditor, AreaEditor, fillFromRows } from './PickerEditors.tsx';
export * from './uploadRules.ts';
