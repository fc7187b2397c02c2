import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import { Button, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import DeleteOutlined from '@ant-design/icons/es/icons/DeleteOutlined';
import PlusOutlined from '@ant-design/icons/es/icons/PlusOutlined';
import { duplicateMessage, duplicateRows } from '../../../shared/validators.ts';
import type { ResourceFile } from '../../../shared/resource.ts';
import { useResource } from '../common/useResource.ts';
import { useFT } from '../form/i18n.ts';
import { buildFieldSpecs, type FieldSpec } from '../form/layout.ts';
import { useFieldError, useFormStore, type FormStore } from '../form/store.ts';
import type { LinesDef, Values } from '../form/types.ts';
import { checkField } from '../form/validation.ts';
import { useEntityValidator } from '../form/entityValidators.ts';
import type { EditorProps } from './types.ts';
import { editorFor } from './registry.ts';
import { ReadonlyValue } from './ReadonlyValue.tsx';
import { ApiError, http } from '../../api/http.ts';
import { endpointUrl } from '../common/endpoint.ts';
import { useFeedback } from '../../feedback/FeedbackProvider.tsx';

type Row = Values;

/** Cell widths by widget, so wide tables scroll instead of squeezing every editor. */
const CELL_WIDTHS: Partial<Record<string, number>> = {
  area: 220,
  picker: 160,
  treePicker: 160,
  select: 120,
  radio: 130,
  switch: 80,
  money: 120,
  number: 110,
  date: 140,
  datetime: 190,
  textarea: 200,
};

const asRows = (value: unknown): Row[] => (Array.isArray(value) ? (value as Row[]) : []);

/** Every problem of the lines: cells, the unique column (手机号码与第N条重复) and the minimum count. */
export function checkLines(
  name: string,
  rows: Row[],
  def: LinesDef,
  specs: FieldSpec[],
  item: ResourceFile | undefined,
  t: ReturnType<typeof useFT>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  if (item) {
    rows.forEach((row, index) => {
      for (const spec of specs) {
        if (spec.readonly) continue;
        const message = checkField(item.entity, spec, row[spec.name], row);
        if (message) errors[`${name}.${index}.${spec.name}`] = message;
      }
    });
  }
  const unique = def.uniqueBy?.field;
  if (unique) {
    duplicateRows(rows.map((row) => row[unique])).forEach((other, index) => {
      const path = `${name}.${index}.${unique}`;
      if (other !== undefined && !errors[path])
        errors[path] = duplicateMessage(def.uniqueBy?.message ?? '与第N条重复', other);
    });
  }
  if (def.min !== undefined && rows.length < def.min) errors[name] = t('lines.min', { min: def.min });
  return errors;
}

interface CellProps {
  store: FormStore | undefined;
  path: string;
  spec: FieldSpec;
  row: Row;
  index: number;
  disabled: boolean;
  onCell(index: number, patch: Values, field: string): void;
}

/** One editable cell; its error comes from the form store under `<lines>.<i>.<field>`. */
const Cell = memo(function Cell({ store, path, spec, row, index, disabled, onCell }: CellProps) {
  const error = useFieldError(store, path);
  const rowRef = useRef(row);
  rowRef.current = row;
  const Editor = editorFor(spec.widget);
  const onCommit = useCallback(
    (value: unknown) => onCell(index, { [spec.name]: value }, spec.name),
    [onCell, index, spec.name],
  );
  const onPatch = useCallback((patch: Values) => onCell(index, patch, spec.name), [onCell, index, spec.name]);
  const getRecord = useCallback(() => rowRef.current, []);
  if (spec.readonly || disabled) return <ReadonlyValue spec={spec} value={row[spec.name]} record={row} />;
  return (
    <div>
      <Editor
        id={path}
        value={row[spec.name]}
        spec={spec}
        disabled={false}
        invalid={Boolean(error)}
        compact
        onCommit={onCommit}
        onPatch={onPatch}
        getRecord={getRecord}
      />
      {error && <div className="erp-field-error erp-cell-error">{error}</div>}
    </div>
  );
});

/**
 * Editable line rows (contacts, bill lines): add and remove rows, each cell with its field's
 * widget, blur checks per cell, the unique column and min/max counts; server errors
 * `<lines>.<i>.<field>` show on their cells.
 */
export const LinesEditor = memo(function LinesEditor(props: EditorProps) {
  const { id, spec, disabled, onCommit } = props;
  const t = useFT();
  const { message } = useFeedback();
  const store = useFormStore();
  const def: LinesDef = spec.def.lines ?? { fields: [] };
  const itemName = spec.prop['x-lines'] as string | undefined;
  const { resource: item } = useResource(itemName);
  const mode = store?.mode ?? 'edit';
  // The line entity's compiled validator, for the cell checks (loads while the rows render).
  useEntityValidator(mode === 'view' ? undefined : item?.entity);
  const specs = useMemo(
    () => (item ? buildFieldSpecs(item, def.fields, mode === 'view' ? 'view' : mode) : []),
    [item, def.fields, mode],
  );
  const rows = asRows(props.value);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  // Stable row keys, kept beside the rows so local cell state follows its row on removal.
  const keys = useRef<string[]>([]);
  const nextKey = useRef(0);
  if (keys.current.length !== rows.length) keys.current = rows.map(() => `r${nextKey.current++}`);

  const name = spec.name;
  useEffect(() => {
    if (!store) return undefined;
    return store.registerCheck(name, (values) => checkLines(name, asRows(values[name]), def, specs, item, t));
  }, [store, name, def, specs, item, t]);

  const onCell = useCallback(
    (index: number, patch: Values, field: string) => {
      const next = rowsRef.current.map((row, i) => (i === index ? { ...row, ...patch } : row));
      rowsRef.current = next;
      onCommit(next);
      const cellSpec = specs.find((candidate) => candidate.name === field);
      if (store && cellSpec && item) {
        store.setError(`${name}.${index}.${field}`, checkField(item.entity, cellSpec, next[index][field], next[index]));
        const unique = def.uniqueBy?.field;
        if (unique === field) {
          // A change in the unique column can clash with, or release, any other row.
          const all = checkLines(
            name,
            next,
            def,
            specs.filter((s) => s.name === unique),
            item,
            t,
          );
          next.forEach((_, i) => store.setError(`${name}.${i}.${unique}`, all[`${name}.${i}.${unique}`]));
          const check = def.uniqueBy?.check;
          const value = next[index][field];
          const path = `${name}.${index}.${field}`;
          if (check && value !== undefined && value !== null && value !== '' && !store.errorOf(path)) {
            // The server knows the other customers' lines: ask it once the line passes its own checks.
            const row = next[index];
            const params = { [check.valueParam]: String(value), ...(check.idParam && row.id ? { [check.idParam]: String(row.id) } : {}) };
            http.get(endpointUrl(item, check.endpoint), params, { silent: true }).catch((error: unknown) => {
              // A later edit of the same cell makes this answer stale.
              if (rowsRef.current[index]?.[field] !== value) return;
              if (error instanceof ApiError && error.code >= 400 && error.code < 500) store.setError(path, error.message);
            });
          }
        }
      }
    },
    [onCommit, specs, store, item, name, def, t],
  );

  const addRow = () => {
    if (def.max !== undefined && rows.length >= def.max) {
      void message.warning(t('lines.max', { max: def.max }));
      return;
    }
    const blank: Row = {};
    for (const cell of specs) if (cell.prop.default !== undefined) blank[cell.name] = cell.prop.default;
    keys.current = [...keys.current, `r${nextKey.current++}`];
    onCommit([...rows, blank]);
  };

  const removeRow = (index: number) => {
    keys.current = keys.current.filter((_, i) => i !== index);
    onCommit(rows.filter((_, i) => i !== index));
    // Errors are indexed by row: drop them and let the next check recount.
    if (store) for (const path of store.errorPaths()) if (path.startsWith(`${name}.`)) store.setError(path, undefined);
  };

  const columns: ColumnsType<Row> = [
    { key: '__index', title: t('lines.index'), width: 56, align: 'center', render: (_, __, index) => index + 1 },
    ...specs.map((cell) => ({
      key: cell.name,
      title: (
        <span>
          {cell.required && !disabled && <span className="erp-required">*</span>}
          {cell.title}
        </span>
      ),
      width: CELL_WIDTHS[cell.widget] ?? 140,
      render: (_: unknown, row: Row, index: number) => (
        <Cell
          store={store}
          path={`${name}.${index}.${cell.name}`}
          spec={cell}
          row={row}
          index={index}
          disabled={disabled}
          onCell={onCell}
        />
      ),
    })),
  ];
  if (!disabled) {
    columns.push({
      key: '__actions',
      title: t('lines.actions'),
      width: 72,
      align: 'center',
      render: (_, __, index) => (
        <Button
          type="link"
          danger
          size="small"
          icon={<DeleteOutlined />}
          onClick={() => removeRow(index)}
          aria-label={t('lines.remove')}
        />
      ),
    });
  }

  return (
    <div id={id} className="erp-lines">
      <Table<Row>
        size="small"
        bordered
        rowKey={(_, index) => keys.current[index ?? 0] ?? String(index)}
        columns={columns}
        dataSource={rows}
        pagination={false}
        locale={{ emptyText: t('lines.empty') }}
        scroll={{ x: 'max-content' }}
      />
      {!disabled && (
        <Button type="dashed" block icon={<PlusOutlined />} onClick={addRow} style={{ marginTop: 8 }}>
          {t('lines.add')}
        </Button>
      )}
    </div>
  );
});
