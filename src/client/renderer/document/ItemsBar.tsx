/**
 * The line toolbar of an item bill (document.items, 收支单): 添加<item> opens the item resource's
 * picker, narrowed to the head's values the items must match (expendType of the bill), and adds
 * each picked item as a line with its display fields (the line resource's lookups); the clerk
 * types the amounts in the grid. An item that is a typed key rather than a reference (a waybill
 * number, 运输费用单) has no picker: 添加行 adds an empty line to type it in.
 */
import { useMemo, useState } from 'react';
import { Button, Flex } from 'antd';
import type { DocumentDef } from '../../../shared/document.ts';
import type { ResourceFile } from '../../../shared/resource.ts';
import type { QueryValue } from '../../api/http.ts';
import type { LineStore } from '../../bespoke/lines/lineStore.ts';
import { useLabel } from '../common/i18n.ts';
import { useResource } from '../common/useResource.ts';
import { resolvePicker } from '../pickers/definition.ts';
import { TablePickerDialog } from '../pickers/TablePickerDialog.tsx';
import { useDT } from './i18n.ts';

interface Props {
  lineResource: ResourceFile;
  doc: DocumentDef;
  lines: LineStore;
  /** The head as typed (values the items must match). */
  head(): Record<string, unknown>;
}

export function ItemsBar({ lineResource, doc, lines, head }: Props) {
  const dt = useDT();
  const label = useLabel();
  const [open, setOpen] = useState(false);
  const [params, setParams] = useState<Record<string, QueryValue>>({});
  const { item } = doc.items!;
  const prop = lineResource.entity.properties[item];
  const itemResource = useResource(typeof prop?.['x-ref'] === 'string' ? prop['x-ref'] : undefined).resource;
  const picker = useMemo(() => (itemResource ? resolvePicker(itemResource, 'default') : undefined), [itemResource]);
  const fills = (lineResource.lookups ?? []).flatMap((l) => (l.from === item && l.take ? [{ field: l.field, take: l.take }] : []));
  const typed = typeof prop?.['x-ref'] !== 'string';

  const pick = () => {
    const values = head();
    setParams(Object.fromEntries(Object.entries(doc.items?.match ?? {}).map(([itemField, headField]) => [itemField, values[headField] as QueryValue])));
    setOpen(true);
  };

  return (
    <Flex gap={8} align="center" wrap>
      <Button type="primary" ghost onClick={typed ? () => lines.add({}) : pick} disabled={!typed && !picker} data-testid="items-pick">
        {typed ? dt('doc.addRow') : dt('doc.addItems', { title: label(String(prop?.title ?? ''), prop?.['x-titleEn'] as string | undefined) })}
      </Button>
      <DeleteLastLine lines={lines} />
      {picker && itemResource && (
        <TablePickerDialog
          open={open}
          resource={itemResource}
          picker={picker}
          multiple
          selected={[]}
          params={params}
          onCancel={() => setOpen(false)}
          onOk={(rows) => {
            setOpen(false);
            for (const row of rows) lines.add({ [item]: row[picker.valueField], ...Object.fromEntries(fills.map((l) => [l.field, row[l.take]])) });
          }}
        />
      )}
    </Flex>
  );
}

/**
 * The line toolbar of rule lines with no goods (整单促销's tiers): 添加行 adds an empty line to
 * type in, 删除行 takes the last one away.
 */
export function RowsBar({ lines }: { lines: LineStore }) {
  const dt = useDT();
  return (
    <Flex gap={8} align="center" wrap>
      <Button type="primary" ghost onClick={() => lines.add({})} data-testid="rows-add">
        {dt('doc.addRow')}
      </Button>
      <DeleteLastLine lines={lines} />
    </Flex>
  );
}

/** 删除行 of the line toolbars: takes the last line away (the grid's own keys delete chosen ones). */
export function DeleteLastLine({ lines }: { lines: LineStore }) {
  const dt = useDT();
  return (
    <Button
      danger
      onClick={() => {
        const last = lines.all().at(-1);
        if (last) lines.remove([last.key]);
      }}
    >
      {dt('doc.deleteLines')}
    </Button>
  );
}
