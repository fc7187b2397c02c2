/**
 * The bill's line grid (spec: 商品明细): the goods toolbar (添加商品, 删除行, a barcode box), the goods
 * picker, pasting a block of cells from a spreadsheet, and the table itself (LineTable.tsx, our own:
 * rows drawn only where they can be seen, one editor at a time, keyboard first). Goods come from the
 * picker or a barcode; the same goods and unit twice asks to merge the quantities.
 */
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button, Flex, Input, Typography } from 'antd';
import type { ResourceFile } from '../../../shared/resource.ts';
import { TablePickerDialog } from '../../renderer/pickers/TablePickerDialog.tsx';
import { resolvePicker } from '../../renderer/pickers/definition.ts';
import { useResource } from '../../renderer/common/useResource.ts';
import { useDT } from '../../renderer/document/i18n.ts';
import { parseClipboard, type LineValues } from './lineModel.ts';
import type { LineStore } from './lineStore.ts';
import type { LineColumn } from './lineGridColumns.ts';
import { LineTable, type GridCursor } from './LineTable.tsx';
import { useGoodsEntry } from './useGoodsEntry.ts';

export type { LineColumn } from './lineGridColumns.ts';

export interface LineGridProps {
  store: LineStore;
  columns: LineColumn[];
  readOnly: boolean;
  /** Values a new line starts with (warehouse, tax rate of the partner). */
  defaults(): LineValues;
  /** The partner, for its own prices. */
  partnerId?: string;
  /** sales / purchase: which list price a new line takes. */
  side: 'sales' | 'purchase';
  height?: number;
  /** Whose column widths set by hand the clerk keeps (the bill's resource; see useLineLayout.tsx). */
  layoutKey?: string;
  /** Replaces the goods toolbar (a money bill picks bills to settle instead of goods). */
  toolbar?: ReactNode;
}

export function LineGrid({ store, columns, readOnly, defaults, partnerId, side, height = 360, toolbar, layoutKey }: LineGridProps) {
  const dt = useDT();
  const [pickerOpen, setPickerOpen] = useState(false);
  const { units, loadUnits, listPrice, addGoods, barcode, setBarcode, scan } = useGoodsEntry({ store, defaults, partnerId, side });
  const goods = useResource('goods').resource as ResourceFile | undefined;
  const picker = useMemo(() => (goods ? resolvePicker(goods, 'default') : undefined), [goods]);
  // The table's active cell, read here by 删除行 and the paste.
  const cursorRef = useRef<GridCursor | undefined>(undefined);
  const openPicker = useCallback(() => setPickerOpen(true), []);

  /** A block of cells from a spreadsheet, from the active cell rightwards and down over the editable columns. */
  const onPaste = useCallback(
    (event: React.ClipboardEvent) => {
      const focused = cursorRef.current;
      if (readOnly || !focused || focused.editing) return;
      const editable = columns.filter((c) => c.kind === 'decimal' || c.kind === 'text');
      const start = editable.findIndex((c) => c.field === focused.col);
      if (start < 0) return;
      event.preventDefault();
      const block = parseClipboard(event.clipboardData.getData('text/plain'));
      const all = store.all();
      block.forEach((cells, r) => {
        const line = all[focused.row + r];
        if (!line) return;
        const patch: LineValues = {};
        cells.forEach((cell, c) => {
          const column = editable[start + c];
          if (column) patch[column.field] = cell;
        });
        store.update(line.key, patch);
      });
    },
    [columns, readOnly, store],
  );

  return (
    <Flex vertical gap={8} className="erp-line-grid" onPaste={onPaste}>
      {!readOnly && toolbar}
      {!readOnly && !toolbar && (
        <Flex gap={8} align="center" wrap>
          <Button type="primary" ghost onClick={openPicker} disabled={!picker}>
            {dt('doc.addGoods')}
          </Button>
          <Button
            danger
            onClick={() => {
              const line = cursorRef.current ? store.all()[cursorRef.current.row] : undefined;
              if (line) store.remove([line.key]);
            }}
          >
            {dt('doc.deleteLines')}
          </Button>
          <Input
            style={{ width: 260 }}
            value={barcode}
            placeholder={dt('doc.barcode')}
            onChange={(e) => setBarcode(e.target.value)}
            onPressEnter={() => scan().catch(() => undefined)}
            data-testid="line-barcode"
          />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {dt('doc.keys')}
          </Typography.Text>
        </Flex>
      )}
      <LineTable
        store={store}
        columns={columns}
        readOnly={readOnly}
        height={height}
        layoutKey={layoutKey}
        cursorRef={cursorRef}
        onInsert={toolbar ? undefined : openPicker}
        units={units}
        loadUnits={loadUnits}
        listPrice={listPrice}
      />
      {picker && goods && (
        <TablePickerDialog
          open={pickerOpen}
          resource={goods}
          picker={picker}
          multiple
          selected={[]}
          onCancel={() => setPickerOpen(false)}
          onOk={(rows) => {
            setPickerOpen(false);
            // A refused call has shown its message already.
            addGoods(rows).catch(() => undefined);
          }}
        />
      )}
    </Flex>
  );
}
