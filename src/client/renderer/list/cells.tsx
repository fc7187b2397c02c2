import { lazy, Suspense } from 'react';
import { Tag, theme } from 'antd';
import CheckOutlined from '@ant-design/icons/es/icons/CheckOutlined';
import type { FieldSchema } from '../../../shared/resource.ts';
import { formatCell } from '../common/format.ts';
import { useLabel } from '../common/i18n.ts';
import { dictItemOf, type DictEntry } from '../common/useDictionary.ts';
import type { ColumnDef } from '../common/views.ts';

// antd's Image (with its preview) loads with the first image column shown.
const Image = lazy(() => import('antd/es/image'));

export interface ValueCellProps {
  field: FieldSchema | undefined;
  column: ColumnDef;
  value: unknown;
  dictionary: DictEntry[] | undefined;
}

/** A dictionary item marked `icon: check` (1503 settled) shows as a tick. */
function Tick({ label }: { label: string }) {
  const { token } = theme.useToken();
  return <CheckOutlined aria-label={label} title={label} style={{ color: token.colorSuccess, fontSize: 15 }} />;
}

/** A dictionary value as a tag in the item's colour (antd preset or status names). */
function DictTag({ item, asTag }: { item: DictEntry; asTag: boolean }) {
  const label = useLabel();
  const text = label(item.dictValue, item.valueEn);
  if (item.icon === 'check') return <Tick label={text} />;
  if (!asTag) return <>{text}</>;
  return (
    <Tag color={item.color || 'default'} style={{ marginInlineEnd: 0 }}>
      {text}
    </Tag>
  );
}

/** Renders a value by its column: tags and ticks, images, links; text otherwise. */
export function ValueCell({ field, column, value, dictionary }: ValueCellProps) {
  if (value === null || value === undefined || value === '') return null;
  if (dictionary?.length) {
    const keys = field?.['x-multi'] && typeof value === 'string' ? value.split(',') : [value];
    const items = keys.map((key) => dictItemOf(dictionary, key));
    if (items.every(Boolean) && (column.tag || items.some((item) => item?.icon === 'check'))) {
      return (
        <span style={{ display: 'inline-flex', gap: 4 }}>
          {items.map((item) => (
            <DictTag key={item!.dictKey} item={item!} asTag={Boolean(column.tag)} />
          ))}
        </span>
      );
    }
  }
  const text = formatCell(field, column, value, dictionary);
  if (column.format === 'image') {
    return (
      <Suspense fallback={<img src={String(value)} alt={text} height={24} style={{ objectFit: 'contain' }} />}>
        <Image src={String(value)} alt={text} height={24} style={{ objectFit: 'contain' }} preview={{ mask: false }} />
      </Suspense>
    );
  }
  if (column.format === 'link') {
    return (
      <a href={String(value)} target="_blank" rel="noreferrer" style={{ color: 'var(--ant-color-link)' }}>
        {text}
      </a>
    );
  }
  return <>{text}</>;
}
