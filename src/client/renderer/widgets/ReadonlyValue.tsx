import { memo } from 'react';
import { Image, Typography } from 'antd';
import { decimalPlaces, formatDecimal } from '../common/format.ts';
import { useFT } from '../form/i18n.ts';
import type { Values } from '../form/types.ts';
import type { FieldSpec } from '../form/layout.ts';
import { splitMulti, useChoiceOptions } from './options.ts';
import { asFiles } from './uploadRules.ts';
import { switchValues } from './ChoiceEditors.tsx';

interface Props {
  spec: FieldSpec;
  value: unknown;
  record: Values;
}

const blank = (value: unknown) => value === null || value === undefined || value === '';

function ChoiceText({ spec, value }: Omit<Props, 'record'>) {
  const t = useFT();
  const options = useChoiceOptions(spec.prop);
  if (spec.widget === 'switch') {
    const { on } = switchValues(
      spec.prop.type,
      options.map((option) => String(option.value)),
    );
    const match = options.find((option) => String(option.value) === String(value));
    return <>{match?.label ?? (String(value) === String(on) ? t('form.yes') : t('form.no'))}</>;
  }
  const labels = splitMulti(spec.prop, value).map(
    (key) => options.find((option) => String(option.value) === String(key))?.label ?? String(key),
  );
  return <>{labels.join(', ')}</>;
}

function decimalText(spec: FieldSpec, value: unknown): string {
  const kind = spec.prop['x-decimal'];
  const places = typeof kind === 'number' ? kind : kind ? decimalPlaces(kind) : 2;
  return formatDecimal(value, places);
}

/** How a field reads in view mode (and for `readonly` fields): text, labels, links, images. */
export const ReadonlyValue = memo(function ReadonlyValue({ spec, value, record }: Props) {
  if (spec.widget === 'upload') {
    const files = asFiles(value);
    return (
      <div className="erp-readonly">
        {files.map((file) => (
          <div key={file.link}>
            <Typography.Link href={file.link} target="_blank" rel="noreferrer">
              {file.originalName ?? file.name ?? file.link}
            </Typography.Link>
          </div>
        ))}
      </div>
    );
  }
  if (spec.widget === 'image') {
    return (
      <div className="erp-readonly">
        {typeof value === 'string' && value ? <Image src={value} width={58} height={58} /> : null}
      </div>
    );
  }
  if (blank(value) && !(spec.lookup && record[spec.lookup.field])) return <div className="erp-readonly" />;
  let content: React.ReactNode;
  switch (spec.widget) {
    case 'select':
    case 'radio':
    case 'checkbox':
    case 'switch':
      content = <ChoiceText spec={spec} value={value} />;
      break;
    case 'picker':
    case 'treePicker':
      content = String((spec.lookup && record[spec.lookup.field]) || value);
      break;
    case 'area': {
      const nameField = spec.def.area?.nameField;
      content = String((nameField && record[nameField]) || value);
      break;
    }
    case 'money':
      content = decimalText(spec, value);
      break;
    case 'password':
      content = '******';
      break;
    case 'textList':
      content = Array.isArray(value) ? (
        <ol className="erp-readonly-list">
          {value.map((item, index) => (
            <li key={index}>{String(item)}</li>
          ))}
        </ol>
      ) : (
        String(value)
      );
      break;
    case 'daterange':
      content = Array.isArray(value) ? value.join(' ~ ') : String(value);
      break;
    default:
      content = typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return (
    <div
      className={
        spec.widget === 'textarea' || spec.widget === 'json' ? 'erp-readonly erp-readonly-multiline' : 'erp-readonly'
      }
    >
      {content}
    </div>
  );
});
