import { Input, Select } from 'antd';
import type { FieldSchema } from '../../../shared/resource.ts';
import type { SearchFieldDef } from '../common/views.ts';
import { useFT } from '../form/i18n.ts';
import { useChoiceOptions } from '../widgets/options.ts';
import { PickerInput } from './PickerInput.tsx';

interface Props {
  def: SearchFieldDef;
  field: FieldSchema | undefined;
  title: string;
  value: string;
  onChange(value: string): void;
  onEnter(): void;
}

const WIDTH = 180;

function DictSearch({ field, title, value, onChange }: Props & { field: FieldSchema }) {
  const t = useFT();
  const options = useChoiceOptions(field);
  return (
    <Select
      allowClear
      style={{ width: WIDTH }}
      placeholder={t('form.placeholderSelect', { title })}
      value={value || undefined}
      options={options.map((option) => ({ label: option.label, value: String(option.value) }))}
      onChange={(next: string | undefined) => onChange(next ?? '')}
    />
  );
}

/** One search box of a picker dialog: a picker for references, a select for dictionaries, else text. */
export function SearchInput(props: Props) {
  const { def, field, title, value, onChange, onEnter } = props;
  const t = useFT();
  const ref = field?.['x-ref'];
  if (ref && def.widget !== 'input') {
    return (
      <div style={{ width: WIDTH }}>
        <PickerInput
          resource={ref}
          forceTree={def.widget === 'treePicker'}
          value={value || undefined}
          placeholder={t('form.placeholderSelect', { title })}
          onChange={(next) => onChange(next ?? '')}
        />
      </div>
    );
  }
  if (field && (field['x-dict'] || field['x-dictBiz'])) return <DictSearch {...props} field={field} />;
  return (
    <Input
      allowClear
      style={{ width: WIDTH }}
      placeholder={t('form.placeholderInput', { title })}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onPressEnter={onEnter}
    />
  );
}
