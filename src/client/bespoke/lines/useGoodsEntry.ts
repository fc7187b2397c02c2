/**
 * Goods into a bill's lines: from the goods picker or a scanned barcode, each with its unit and
 * list price (the partner's own where it has one); the same goods and unit again asks to merge
 * the quantities, and a stock count points out goods it already counts.
 */
import { useCallback, useRef, useState } from 'react';
import { http } from '../../api/http.ts';
import { useFeedback } from '../../feedback/FeedbackProvider.tsx';
import { docText } from '../../renderer/document/i18n.ts';
import { addQuantities, countedLineOf, duplicateOf, priceInputField, type LineValues } from './lineModel.ts';
import type { LineStore } from './lineStore.ts';

export interface UnitRow {
  unitId: string;
  unitName?: string;
  retailPrice?: string;
  wholesalePrice?: string;
  purchasePrice?: string;
  finalPrice?: string;
}

interface GoodsEntryOptions {
  store: LineStore;
  /** Values a new line starts with (warehouse, tax rate of the partner). */
  defaults(): LineValues;
  /** The partner, for its own prices. */
  partnerId?: string;
  /** sales / purchase: which list price a new line takes. */
  side: 'sales' | 'purchase';
}

export function useGoodsEntry({ store, defaults, partnerId, side }: GoodsEntryOptions) {
  const { modal, message } = useFeedback();
  /** The units (and their prices) of the goods read so far, by goods id. */
  const units = useRef(new Map<string, UnitRow[]>()).current;
  const [barcode, setBarcode] = useState('');

  const loadUnits = useCallback(
    async (goodsIds: string[]) => {
      const missing = goodsIds.filter((id) => !units.has(id));
      if (!missing.length) return;
      const rows = await http.postParams<(UnitRow & { commInfoId: string })[]>('/api/blade-base/communit/selectByCommInfoIds', { commInfoIds: missing.join(','), bartererId: partnerId });
      for (const id of missing) units.set(id, rows.filter((r) => String(r.commInfoId) === id));
    },
    [partnerId],
  );

  const listPrice = useCallback(
    (goodsId: string, unitId: string): string | undefined => {
      const unit = units.get(goodsId)?.find((u) => String(u.unitId) === unitId);
      if (!unit) return undefined;
      const price = side === 'purchase' ? unit.purchasePrice : unit.finalPrice || unit.wholesalePrice || unit.retailPrice;
      return price ? String(price) : undefined;
    },
    [side],
  );

  /** Adds goods as lines; the same goods and unit again asks to merge the quantities. */
  const addGoods = useCallback(
    async (rows: Record<string, unknown>[]) => {
      await loadUnits(rows.map((r) => String(r.id)));
      for (const row of rows) {
        const goodsId = String(row.id);
        const unitId = String(row.unitId ?? units.get(goodsId)?.[0]?.unitId ?? '');
        // A count has one line per goods: the same goods again is pointed out, not merged.
        const counted = store.doc.count ? countedLineOf(store.all(), goodsId) : undefined;
        if (counted) {
          void message.warning(docText('doc.countDuplicate', { line: store.all().indexOf(counted) + 1 }));
          continue;
        }
        const existing = duplicateOf(store.all(), goodsId, unitId);
        if (existing) {
          const line = store.all().indexOf(existing) + 1;
          const merge = await modal.confirm({ title: docText('doc.duplicateTitle'), content: docText('doc.duplicate', { line }) });
          if (merge) store.update(existing.key, { qty: addQuantities(existing.values.qty, '1', store.places.quantity) });
          continue;
        }
        const price = store.doc.amounts ? listPrice(goodsId, unitId) : undefined;
        store.add({
          ...defaults(),
          commInfoId: goodsId,
          commInfoCode: row.commInfoCode,
          commInfoName: row.commInfoName,
          standard: row.standard,
          unitId,
          unitName: row.unitName ?? units.get(goodsId)?.find((u) => String(u.unitId) === unitId)?.unitName,
          // A count's line waits for the counted quantity; its difference is computed from it.
          ...(store.doc.count ? {} : { qty: '1' }),
          ...(price ? { [priceInputField(store.doc)]: price } : {}),
        });
      }
    },
    [loadUnits, store, modal, message, defaults, listPrice],
  );

  const scan = useCallback(async () => {
    const code = barcode.trim();
    if (!code) return;
    const found = await http.get<Record<string, unknown>[]>('/api/blade-base/comminfo/selectByBarCode', { barCode: code });
    setBarcode('');
    if (!found.length) {
      void message.warning(docText('doc.barcodeMissing', { code }));
      return;
    }
    const hit = found[0];
    await addGoods([{ ...hit, id: hit.commInfoId, unitId: hit.unitId }]);
  }, [barcode, addGoods, message]);

  return { units, loadUnits, listPrice, addGoods, barcode, setBarcode, scan };
}
