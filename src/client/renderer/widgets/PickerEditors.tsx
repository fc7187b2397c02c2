import { memo, useCallback } from 'react';
import { AreaCascader } from '../pickers/AreaCascader.tsx';
import { PickerInput, TreePickerInput } from '../pickers/PickerInput.tsx';
import type { Values } from '../form/types.ts';
import type { EditorProps } from './types.ts';

type Row = Record<string, unknown>;

function joined(rows: Row[], field: string): string {
  return rows.map((row) => String(row[field] ?? '')).join(',');
}

/**
 * x-ref fields: the picked id(s) plus the fields the form copies from the picked rows — the
 * declared `fill` (this form's field ← picked row's field), else every entity lookup reading
 * from the id (roleId → roleName; goodsId → code and name). Tree nodes carry their name as `title`.
 */
export function fillFromRows(spec: EditorProps['spec'], rows: Row[]): Values {
  const patch: Values = {};
  const read = (row: Row, field: string) => row[field] ?? (field.endsWith('Name') ? row.title : undefined) ?? '';
  if (spec.def.fill) {
    for (const [target, source] of Object.entries(spec.def.fill)) {
      patch[target] = rows.length === 1 ? read(rows[0], source) : rows.map((row) => read(row, source)).join(',');
    }
  } else {
    for (const { field, take } of spec.lookups ?? (spec.lookup ? [spec.lookup] : [])) {
      const display = field === spec.lookup?.field;
      patch[field] = rows.map((row) => String(row[take] ?? (display ? row.title : undefined) ?? '')).join(',');
    }
  }
  return patch;
}

export const PickerEditor = memo(function PickerEditor(props: EditorProps) {
  const { id, spec, disabled, invalid, placeholder, onCommit, onPatch, getRecord, compact } = props;
  const text = spec.lookup ? (getRecord?.()[spec.lookup.field] as string | undefined) : undefined;
  const onChange = useCallback(
    (value: string | undefined, rows: Row[]) => {
      // Free text typed into a lookup (no row picked) leaves the filled fields as they are.
      const fill = rows.length || !value ? fillFromRows(spec, rows) : {};
      if (onPatch) onPatch({ [spec.name]: value ?? '', ...fill });
      else onCommit(value ?? '');
    },
    [spec, onPatch, onCommit],
  );
  const Input = spec.widget === 'treePicker' ? TreePickerInput : PickerInput;
  return (
    <Input
      id={id}
      resource={spec.ref ?? ''}
      picker={spec.def.picker}
      value={props.value === null || props.value === undefined || props.value === '' ? undefined : String(props.value)}
      // An entity's x-ref field is single unless x-multi; a prompt's parameter (no x-ref) follows
      // its picker's own `multiple` (角色配置's roleIds, 仓库分配's depotIds).
      multiple={spec.prop['x-ref'] ? Boolean(spec.prop['x-multi']) : undefined}
      disabled={disabled}
      invalid={invalid}
      placeholder={placeholder}
      text={text || undefined}
      getRecord={getRecord}
      size={compact ? 'small' : undefined}
      onChange={onChange}
    />
  );
});

/** Region cascader: the last code of the path, and the names joined into the area-name field. */
export const AreaEditor = memo(function AreaEditor(props: EditorProps) {
  const { id, spec, disabled, invalid, placeholder, onCommit, onPatch, compact } = props;
  const nameField =
    spec.def.area?.nameField ?? (spec.name.endsWith('Code') ? spec.name.replace(/Code$/, 'Name') : undefined);
  return (
    <AreaCascader
      id={id}
      value={props.value ? String(props.value) : undefined}
      levels={spec.def.area?.levels ?? 3}
      disabled={disabled}
      invalid={invalid}
      placeholder={placeholder}
      size={compact ? 'small' : undefined}
      onChange={(code, names) => {
        if (nameField && onPatch) onPatch({ [spec.name]: code ?? '', [nameField]: names.join('') });
        else onCommit(code ?? '');
      }}
    />
  );
});
