/** Pickers other parts of the renderer use: x-ref inputs, tree pickers and the area cascader. */
export { PickerInput, TreePickerInput, type PickerInputProps } from './PickerInput.tsx';
export { AreaCascader, type AreaCascaderProps } from './AreaCascader.tsx';
export { TablePickerDialog, TABLE_HEIGHT, KEYWORD_DEBOUNCE_MS } from './TablePickerDialog.tsx';
export { TreePickerDialog, ROOT_KEY } from './TreePickerDialog.tsx';
export { AutocompleteInput, AUTOCOMPLETE_SIZE } from './AutocompleteInput.tsx';
export { resolvePicker, pickerSubject, type ResolvedPicker } from './definition.ts';
