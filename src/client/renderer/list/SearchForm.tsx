import { lazy, Suspense, useId, useMemo, useState, type CSSProperties, type FormEvent } from 'react';
import { Button, Select, Space } from 'antd';
// The plain input, not antd's index entry, whose Input carries TextArea, Password, Search and OTP along.
import Input from 'antd/es/input/Input';
import SearchOutlined from '@ant-design/icons/es/icons/SearchOutlined';
import ReloadOutlined from '@ant-design/icons/es/icons/ReloadOutlined';
import type { FieldSchema, ResourceFile } from '../../../shared/resource.ts';
import { PickerInput, TreePickerInput } from '../pickers/PickerInput.tsx';
import { useLabel, useRT } from '../common/i18n.ts';
import { useDictionary } from '../common/useDictionary.ts';
import { fieldOf, type SearchFieldDef } from '../common/views.ts';
import { searchOpOf } from './searchParams.ts';
import './searchForm.css';

const DateSearch = lazy(() => import('./SearchDates.tsx'));

interface InputProps {
  id: string;
  def: SearchFieldDef;
  field: FieldSchema | undefined;
  title: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
}

function DictSelect({ id, field, title, value, onChange, multiple }: InputProps & { multiple: boolean }) {
  const t = useRT();
  const label = useLabel();
  const items = useDictionary(field);
  const options = useMemo(
    () => items.map((item) => ({ value: String(item.dictKey), label: label(item.dictValue, item.valueEn) })),
    [items, label],
  );
  return (
    <Select
      id={id}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      mode={multiple ? 'multiple' : undefined}
      placeholder={t('list.placeholderSelect', { title })}
      options={options}
      value={value as string | string[] | undefined}
      onChange={(next) => onChange?.(next)}
    />
  );
}

/** One search input, chosen from the field: dictionary select, picker, date, date range, range, text. */
function SearchInput(props: InputProps) {
  const { id, def, field, title, value, onChange } = props;
  const t = useRT();
  const op = searchOpOf(def, field);
  if (field?.['x-dict'] || field?.['x-dictBiz']) return <DictSelect {...props} multiple={op === 'in'} />;
  if (field?.['x-ref'] && def.widget !== 'input') {
    const Picker = def.widget === 'treePicker' ? TreePickerInput : PickerInput;
    return (
      <Picker
        id={id}
        resource={field['x-ref']}
        value={value as string | undefined}
        multiple={op === 'in'}
        onChange={(next) => onChange?.(next)}
      />
    );
  }
  if (op === 'daterange' || def.widget === 'date') {
    const range = op === 'daterange';
    const placeholder: string | [string, string] = range ? [t('list.rangeStart'), t('list.rangeEnd')] : t('list.placeholderSelect', { title });
    return (
      <Suspense fallback={<Input disabled placeholder={Array.isArray(placeholder) ? placeholder.join(' ~ ') : placeholder} />}>
        <DateSearch id={id} range={range} placeholder={placeholder} value={value} onChange={(next) => onChange?.(next)} />
      </Suspense>
    );
  }
  if (op === 'range') {
    const [from, to] = Array.isArray(value) ? (value as string[]) : [];
    return (
      <Space.Compact block>
        <Input
          id={id}
          allowClear
          placeholder={t('list.rangeStart')}
          value={from}
          onChange={(e) => onChange?.([e.target.value, to])}
        />
        <Input
          allowClear
          placeholder={t('list.rangeEnd')}
          value={to}
          onChange={(e) => onChange?.([from, e.target.value])}
        />
      </Space.Compact>
    );
  }
  return (
    <Input
      id={id}
      allowClear
      placeholder={t('list.placeholderInput', { title })}
      value={value as string | undefined}
      onChange={(e) => onChange?.(e.target.value)}
    />
  );
}

interface SearchFormProps {
  resource: ResourceFile;
  defs: SearchFieldDef[];
  initialValues: Record<string, unknown>;
  /** Span of every field when the form sits in a narrow pane (the grid's breakpoints follow the window). */
  fieldSpan?: number;
  onSearch(values: Record<string, unknown>): void;
}

/**
 * The inline search grid above a list: schema fields, then 搜索 / 重置. A plain form with its own
 * state: antd's Form (and its validator) would load with every list for fields that validate nothing.
 */
export function SearchForm({ resource, defs, initialValues, fieldSpan, onSearch }: SearchFormProps) {
  const [values, setValues] = useState<Record<string, unknown>>(initialValues);
  const formId = useId();
  const t = useRT();
  const label = useLabel();
  if (!defs.length) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(values);
  };
  return (
    <form className="erp-search" onSubmit={submit} data-testid="list-search">
      <div className="erp-search-row">
        {defs.map((def) => {
          const field = fieldOf(resource, def.field);
          const title = def.title ?? label(field?.title ?? def.field, field?.['x-titleEn']);
          const span = def.span ?? 6;
          // Columns of 24 as antd's Col (xs 24, sm 12, lg at least 8, xl the schema's span), in CSS.
          const spans: Record<string, number> = fieldSpan ? { '--erp-span-fixed': fieldSpan } : { '--erp-span-lg': Math.max(span, 8), '--erp-span-xl': span };
          const id = `${formId}${def.field}`;
          return (
            <div key={def.field} className={fieldSpan ? 'erp-search-col erp-search-col-fixed' : 'erp-search-col'} style={spans as CSSProperties}>
              <div className="erp-search-item">
                <label htmlFor={id} title={title}>
                  {title}
                </label>
                <div className="erp-search-control">
                  <SearchInput
                    id={id}
                    def={def}
                    field={field}
                    title={title}
                    value={values[def.field]}
                    onChange={(next) => setValues((before) => ({ ...before, [def.field]: next }))}
                  />
                </div>
              </div>
            </div>
          );
        })}
        <div className="erp-search-buttons">
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
              {t('list.search')}
            </Button>
            <Button
              icon={<ReloadOutlined />}
              onClick={() => {
                setValues(initialValues);
                onSearch(initialValues);
              }}
            >
              {t('list.reset')}
            </Button>
          </Space>
        </div>
      </div>
    </form>
  );
}
