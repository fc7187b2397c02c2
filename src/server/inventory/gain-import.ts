/**
 * 报溢单 readExcel (POST /blade-warehouse/profitinventory/readExcel, multipart field `file`, the
 * warehouse in the `depotId` request header): the lines a stock count found, read from an .xlsx
 * for the clerk to review before submitting. Nothing is written.
 *
 * Row 1 holds the column titles: 商品编码 and 数量 (required), 单位, 成本单价 and 备注 (optional).
 * Each later row becomes a line with its goods resolved by code (unit: the 单位 column among the
 * goods' units, else its 库存单位, else its base unit), its quantity and optional unit cost checked
 * as a save checks them, and the goods' stock and moving-average unit cost in that warehouse
 * beside it (so a line that would enter at the average shows at what). Problems — unknown codes,
 * units the goods does not have, bad figures — are answered in `errors` by row number (第N行：…)
 * and their rows left out; `warnings` names kept lines that will need a unit cost (goods never
 * moved in the warehouse have no average). The file itself is refused only when it is not a
 * readable .xlsx within the upload limit with those titles, or the warehouse is missing.
 */
import type { Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { readUploadedSheet } from '../files/xlsx-rows.ts';
import { fillLookups } from '../engine/lookups.ts';
import { tenantPlaces } from '../engine/document/context.ts';
import { computeLineValue, Dec, fixed, MoneyInputError, toDec } from '../../shared/money/index.ts';

/** Column titles accepted for each field (the Chinese title first, as the template shows it). */
const COLUMNS: Record<string, string[]> = {
  commInfoCode: ['商品编码', '编码', '商品代码', 'commInfoCode'],
  qty: ['数量', '盘点数量', '报溢数量', 'qty'],
  unitName: ['单位', '计量单位', 'unitName'],
  costPrice: ['成本单价', '单价', '成本价', 'costPrice'],
  remark: ['备注', 'remark'],
};

/** More lines than a count sheet plausibly holds is refused rather than read. */
const MAX_LINES = 5000;

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

export function registerGainImportHandlers(services: Services) {
  services.register('profitInventory.readExcel', async (ctx) => {
    const caller = mustCaller(ctx);
    const { store } = services;
    const header = ctx.req.headers.depotid;
    const depotId = (Array.isArray(header) ? header[0] : header)?.trim();
    if (!depotId) throw badRequest('请选择仓库（请求头 depotId）');
    const depot = await store.get(services.m('depot'), caller.tenantId, depotId);
    if (!depot) throw badRequest('仓库不存在或已被删除');
    const read = await readUploadedSheet(ctx, {
      columns: COLUMNS,
      required: ['commInfoCode', 'qty'],
      titles: '第1行应为列标题：商品编码、数量（可选：单位、成本单价、备注）',
      max: MAX_LINES,
    });

    // Goods by code (one read per 500 codes), their units with names, and their balances here.
    const codes = [...new Set(read.map((r) => r.cells.commInfoCode).filter(Boolean))];
    const goods = new Map<string, Row>();
    for (let i = 0; i < codes.length; i += 500) {
      for (const g of await store.find(services.m('goods'), caller.tenantId, { where: { commInfoCode: codes.slice(i, i + 500) } })) goods.set(String(g.commInfoCode), g);
    }
    const goodsIds = [...new Set([...goods.values()].map((g) => String(g.id)))];
    const unitModel = services.m('goods-unit');
    const units = goodsIds.length ? await fillLookups(services, unitModel, caller.tenantId, await store.find(unitModel, caller.tenantId, { where: { commInfoId: goodsIds } })) : [];
    const balances = new Map(
      (goodsIds.length ? await store.find(services.internal.stockBalance, caller.tenantId, { where: { depotId, commInfoId: goodsIds } }) : []).map((b) => [String(b.commInfoId), b]),
    );

    const places = await tenantPlaces(services, caller.tenantId);
    const errors: string[] = [];
    const warnings: string[] = [];
    const lines: Row[] = [];
    for (const { number, cells } of read) {
      const fail = (message: string) => errors.push(`第${number}行：${message}`);
      const code = cells.commInfoCode;
      if (!code) {
        fail('请填写商品编码');
        continue;
      }
      const g = goods.get(code);
      if (!g) {
        fail(`商品编码「${code}」不存在`);
        continue;
      }
      const goodsId = String(g.id);
      let unitId = String(g.depotUnit || g.unitId || '');
      if (cells.unitName) {
        const unit = units.find((u) => String(u.commInfoId) === goodsId && String(u.unitName ?? '') === cells.unitName);
        if (!unit) {
          fail(`商品「${g.commInfoName}」没有单位「${cells.unitName}」`);
          continue;
        }
        unitId = String(unit.unitId);
      }
      if (!unitId) {
        fail(`商品「${g.commInfoName}」没有设置单位`);
        continue;
      }
      const qty = toDec(cells.qty);
      if (!cells.qty) {
        fail('请填写数量');
        continue;
      }
      if (!qty) {
        fail(`数量「${cells.qty}」不是有效数字`);
        continue;
      }
      if (!qty.gt(0)) {
        fail('数量必须大于0');
        continue;
      }
      const quantity = fixed(qty, places.quantity);
      let value: { price?: string; amount?: string };
      try {
        value = computeLineValue(quantity, cells.costPrice, places, { required: false, label: '成本单价' });
      } catch (error) {
        if (!(error instanceof MoneyInputError)) throw error;
        fail(`${error.message}（${cells.costPrice}）`);
        continue;
      }
      const balance = balances.get(goodsId);
      // A balance that never moved has no average: such a line needs a unit cost to be posted.
      const costed = balance && Number(balance.seq ?? 0) > 0;
      lines.push({
        row: number,
        commInfoId: goodsId,
        unitId,
        qty: quantity,
        costPrice: value.price ?? null,
        costAmt: value.amount ?? null,
        remark: blank(cells.remark) ? null : cells.remark,
        stockQty: fixed(new Dec(String(balance?.qty ?? '0')), places.quantity),
        stockUnitCost: costed ? fixed(new Dec(String(balance!.unitCost ?? '0')), places.price) : null,
      });
      if (!value.price && !costed) warnings.push(`第${number}行：商品「${g.commInfoName}」在仓库「${depot.depotName}」尚无成本，请填写成本单价`);
    }
    await fillLookups(services, services.m('profit-inventory-body'), caller.tenantId, lines);
    return {
      depotId,
      depotName: depot.depotName,
      bodyList: lines,
      errors,
      warnings,
      total: read.length,
    };
  });
}
