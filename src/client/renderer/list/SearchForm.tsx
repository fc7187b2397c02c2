import { lazy, Suspense, useMemo } from 'react';
import { Button, Col, Form, Input, Row, Select, Space } from 'antd';
import SearchOutlined from '@ant-design/icons/es/icons/SearchOutlined';
import ReloadOutlined from '@ant-design/icons/es/icons/ReloadOutlined';
import type { FieldSchema, ResourceFile } from '../../../shared/resource.ts';
import { PickerInput, TreePickerInput } from '../pickers/PickerInput.tsx';
import { useLabel, useRT } from '../common/i18n.ts';
import { useDictionary } from '../common/useDictionary.ts';
import { fieldOf, type SearchFieldDef } from '../common/views.ts';
import { searchOpOf } from './searchParams.ts';

const DateSearch = lazy(() => import('./SearchDates.tsx'));

interface InputProps {
  def: SearchFieldDef;
  field: FieldSchema | undefined;
  title: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
}

function DictSelect({ field, title, value, onChange, multiple }: InputProps & { multiple: boolean }) {
  const t = useRT();
  const label = useLabel();
  const items = useDictionary(field);
  const options = useMemo(
    () => items.map((item) => ({ value: String(item.dictKey), label: label(item.dictValue, item.valueEn) })),
    [items, label],
  );
  return (
    <Select
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
  const { def, field, title, value, onChange } = props;
  const t = useRT();
  const op = searchOpOf(def, field);
  if (field?.['x-dict'] || field?.['x-dictBiz']) return <DictSelect {...props} multiple={op === 'in'} />;
  if (field?.['x-ref'] && def.widget !== 'input') {
    const Picker = def.widget === 'treePicker' ? TreePickerInput : PickerInput;
    return (
      <Picker
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
        <DateSearch range={range} placeholder={placeholder} value={value} onChange={(next) => onChange?.(next)} />
      </Suspense>
    );
  }
  if (op === 'range') {
    const [from, to] = Array.isArray(value) ? (value as string[]) : [];
    return (
      <Space.Compact block>
        <Input
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

/** The inline search grid above a list: schema fields, then 搜索 / 重置. */
export function SearchForm({ resource, defs, initialValues, fieldSpan, onSearch }: SearchFormProps) {
  const [form] = Form.useForm();
  const t = useRT();
  const label = useLabel();
  if (!defs.length) return null;
  return (
    <Form
      form={form}
      layout="inline"
      initialValues={initialValues}
      onFinish={(values: Record<string, unknown>) => onSearch(values)}
      style={{ display: 'block', marginBottom: 12 }}
      data-testid="list-search"
    >
      <Row gutter={[12, 12]} style={{ width: '100%' }}>
        {defs.map((def) => {
          const field = fieldOf(resource, def.field);
          const title = def.title ?? label(field?.title ?? def.field, field?.['x-titleEn']);
          const span = def.span ?? 6;
          const sizes = fieldSpan ? { span: fieldSpan } : { xs: 24, sm: 12, lg: Math.max(span, 8), xl: span };
          return (
            <Col key={def.field} {...sizes}>
              <Form.Item name={def.field} label={title} style={{ marginInlineEnd: 0, width: '100%' }}>
                <SearchInput def={def} field={field} title={title} />
              </Form.Item>
            </Col>
          );
        })}
        <Col flex="none">
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
              {t('list.search')}
            </Button>
            <Button
              icon={<ReloadOutlined />}
              onClick={() => {
                form.resetFields();
                onSearch(form.getFieldsValue(true) as Record<string, unknown>);
              }}
            >
              {t('list.reset')}
            </Button>
          </Space>
        </Col>
      </Row>
    </Form>
  );
}
