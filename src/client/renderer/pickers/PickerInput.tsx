import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Select } from 'antd';
import LoadingOutlined from '@ant-design/icons/es/icons/LoadingOutlined';
import SearchOutlined from '@ant-design/icons/es/icons/SearchOutlined';
import { isEmptyValue } from '../../../shared/expr.ts';
import { useResource } from '../common/useResource.ts';
import { useFT } from '../form/i18n.ts';
import type { Values } from '../form/types.ts';
import type { Row } from './api.ts';
import { AutocompleteInput } from './AutocompleteInput.tsx';
import { resolvePicker, type ResolvedPicker } from './definition.ts';
import { SuspenseProgress } from '../../app/ProgressBar.tsx';

// The dialogs (antd Table and Tree) load when one opens, not with every form or search bar.
const TablePickerDialog = lazy(() => import('./TablePickerDialog.tsx').then((mod) => ({ default: mod.TablePickerDialog })));
const TreePickerDialog = lazy(() => import('./TreePickerDialog.tsx').then((mod) => ({ default: mod.TreePickerDialog })));
import { usePickerRows } from './usePickerRows.ts';
import { useFeedback } from '../../feedback/FeedbackProvider.tsx';

export interface PickerInputProps {
  /** Resource whose rows are picked. */
  resource: string;
  /** Name of the resource's picker ('default' when absent). */
  picker?: string;
  /** The picked id, or ids comma-joined when multiple. */
  value?: string;
  onChange(value: string | undefined, rows: Record<string, unknown>[]): void;
  multiple?: boolean;
  disabled?: boolean;
  /** Display text when the caller knows it (a lookup field such as roleName), comma-joined. */
  text?: string;
  /** Reads the record the field belongs to: a picker's `requires` field must be filled first. */
  getRecord?: () => Values;
  /** Values already used elsewhere (lines): picking one again is refused. */
  exclude?: string[];
  placeholder?: string;
  invalid?: boolean;
  size?: 'small' | 'middle';
  id?: string;
  /** Internal: always use the tree dialog. */
  forceTree?: boolean;
}

function splitValue(value: string | undefined): string[] {
  return value ? value.split(',').filter(Boolean) : [];
}

/**
 * The input of an x-ref field: shows the picked names, opens the resource's picker (table or
 * tree dialog, or searches inline for autocomplete pickers) and reports ids with the rows.
 */
export function PickerInput(props: PickerInputProps) {
  const { value, onChange, disabled, text, getRecord, exclude, placeholder, invalid, size, id, forceTree } = props;
  const t = useFT();
  const { message } = useFeedback();
  const { resource } = useResource(props.resource);
  const picker: ResolvedPicker | undefined = useMemo(
    () => (resource ? resolvePicker(resource, props.picker, forceTree) : undefined),
    [resource, props.picker, forceTree],
  );
  const multiple = props.multiple ?? Boolean(picker?.multiple);
  const [open, setOpen] = useState(false);
  // A tree's root value (parentId 0) means "no parent": the input stays empty and shows its
  // placeholder (不选则为顶级…) instead of a bare 0.
  const rootValue = picker?.kind === 'tree' ? (resource?.table.tree?.rootValue ?? '0') : undefined;
  const values = useMemo(() => splitValue(value).filter((v) => v !== rootValue), [value, rootValue]);
  // Rows picked here name themselves: a field with no display field of its own (a prompt's
  // depotIds) shows the picked names, not ids.
  const [picked, setPicked] = useState<Row[]>([]);
  const knownRows = useMemo(() => {
    if (!picker) return [];
    const names = text ? text.split(',') : [];
    const fromText = text ? values.map((v, i) => ({ [picker.valueField]: v, [picker.labelField]: names[i] ?? v })) : [];
    return [...picked, ...fromText];
  }, [picker, text, values, picked]);
  const rows = usePickerRows(resource, picker, values, knownRows);
  const [waitingForSchema, setWaitingForSchema] = useState(false);
  useEffect(() => {
    if (!waitingForSchema || !picker) return;
    setWaitingForSchema(false);
    openDialog();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- opens once, when the schema arrives
  }, [waitingForSchema, picker]);

  if (picker?.kind === 'autocomplete' && resource) {
    return (
      <AutocompleteInput
        id={id}
        picker={picker}
        value={value}
        text={text}
        disabled={disabled}
        invalid={invalid}
        size={size}
        placeholder={placeholder}
        onChange={onChange}
      />
    );
  }

  const openDialog = () => {
    if (disabled) return;
    // The picked resource's schema may still be on its way (a slow link, a busy machine): the
    // click is remembered and the dialog opens when it arrives, instead of the click doing nothing.
    if (!picker) {
      setWaitingForSchema(true);
      return;
    }
    const required = picker.requires?.field;
    if (required && isEmptyValue(getRecord?.()[required])) {
      void message.warning(picker.requires?.message ?? t('picker.pickOne', { title: required }));
      return;
    }
    setOpen(true);
  };

  const labelOf = (row: Row) => String(row[picker?.labelField ?? 'id'] ?? row[picker?.valueField ?? 'id'] ?? '');
  const options = rows.map((row) => ({ value: String(row[picker?.valueField ?? 'id'] ?? ''), label: labelOf(row) }));
  const commit = (chosen: Row[]) => {
    setOpen(false);
    const ids = chosen.map((row) => String(row[picker!.valueField] ?? ''));
    setPicked(chosen);
    onChange(ids.length ? ids.join(',') : undefined, chosen);
  };

  return (
    <>
      <div onClick={openDialog} style={{ width: '100%' }}>
        <Select
          id={id}
          mode={multiple ? 'multiple' : undefined}
          open={false}
          value={multiple ? values : values[0]}
          options={options}
          disabled={disabled}
          placeholder={placeholder}
          status={invalid ? 'error' : undefined}
          size={size}
          allowClear={!disabled}
          maxTagCount="responsive"
          suffixIcon={waitingForSchema ? <LoadingOutlined spin /> : <SearchOutlined />}
          style={{ width: '100%' }}
          onClear={() => onChange(undefined, [])}
          onDeselect={(removed: string) => {
            const kept = rows.filter((row) => String(row[picker?.valueField ?? 'id']) !== removed);
            const ids = kept.map((row) => String(row[picker?.valueField ?? 'id']));
            onChange(ids.length ? ids.join(',') : undefined, kept);
          }}
        />
      </div>
      <Suspense fallback={<SuspenseProgress />}>
        {picker && resource && open && picker.kind === 'tree' && (
          <TreePickerDialog
            open
            picker={picker}
            multiple={multiple}
            value={values}
            onCancel={() => setOpen(false)}
            onOk={(nodes) => commit(nodes)}
          />
        )}
        {picker && resource && open && picker.kind !== 'tree' && (
          <TablePickerDialog
            open
            resource={resource}
            picker={picker}
            multiple={multiple}
            selected={rows}
            exclude={exclude}
            onCancel={() => setOpen(false)}
            onOk={commit}
          />
        )}
      </Suspense>
    </>
  );
}

/** The same input, always with the tree dialog (categories, departments, roles). */
export function TreePickerInput(props: PickerInputProps) {
  return <PickerInput {...props} forceTree />;
}
