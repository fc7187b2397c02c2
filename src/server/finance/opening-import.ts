/**
 * 期初财务 exportCustomerInfo / exportSupplierInfo (POST multipart `file`, .xlsx): a tenant's
 * opening receivables (payables) typed in a sheet, one bill per row, saved as 待审核 so that
 * batchPass can approve them together after review.
 *
 * Row 1 holds the titles: 编码 (客户编码 / 供应商编码) and 金额 (required), 日期 (原单日期) and 备注.
 * Each row: the partner found by its code, the signed amount (not 0; rounded to the amount
 * places), the original date (yyyy-MM-dd, yyyy/M/d), the remark, checked against the bill's field
 * rules. All rows or none: any bad row refuses the whole file (400, nothing written) with every
 * problem named by row number in the message and in `data.errors`; otherwise every bill is saved
 * in one transaction and answered (id, billNo, partner, amount).
 */
import type { Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller, type Ctx } from '../http/context.ts';
import type { Model } from '../engine/model.ts';
import { badRequest } from '../errors.ts';
import { readUploadedSheet } from '../files/xlsx-rows.ts';
import { documentModel, tenantPlaces } from '../engine/document/context.ts';
import { saveBill } from '../engine/document/transitions.ts';
import { validateEntity } from '../engine/validate.ts';
import { normalDate, partnersByCode, signedAmount } from './party-rows.ts';

const MAX_ROWS = 2000;
const KINDS = {
  customer: { type: 1, field: 'customerId', title: '客户编码' },
  supplier: { type: 2, field: 'supplierId', title: '供应商编码' },
} as const;

async function importOpenings(services: Services, ctx: Ctx, model: Model, which: keyof typeof KINDS) {
  const caller = mustCaller(ctx);
  const dm = documentModel(services, model);
  const entity = model.resource!.entity;
  const kind = KINDS[which];
  const rows = await readUploadedSheet(ctx, {
    columns: { code: ['编码', kind.title, 'bartererCode'], amount: ['金额', '期初金额', 'finalAmt'], date: ['日期', '原单日期', 'originalDate'], remark: ['备注', 'remark'] },
    required: ['code', 'amount'],
    titles: '第1行应为列标题：编码、金额（可选：日期、备注）',
    max: MAX_ROWS,
  });
  const partners = await partnersByCode(services, caller.tenantId, which, rows.map((r) => r.cells.code));
  const places = await tenantPlaces(services, caller.tenantId);
  const errors: string[] = [];
  const heads: { number: number; head: Row; name: string }[] = [];
  for (const { number, cells } of rows) {
    const fail = (message: string) => errors.push(`第${number}行：${message}`);
    const found = cells.code ? partners.get(cells.code) : undefined;
    if (!found) {
      fail(cells.code ? `${kind.title}「${cells.code}」不存在` : `请填写${kind.title}`);
      continue;
    }
    const amount = signedAmount(cells.amount, places.amount);
    if ('error' in amount) {
      fail(amount.error);
      continue;
    }
    const date = cells.date ? normalDate(cells.date) : undefined;
    if (cells.date && !date) {
      fail(`日期「${cells.date}」格式应为 yyyy-MM-dd`);
      continue;
    }
    const head: Row = { bartererType: kind.type, [kind.field]: String(found.id), finalAmt: amount.amount, ...(date ? { originalDate: date } : {}), ...(cells.remark ? { remark: cells.remark } : {}) };
    try {
      validateEntity(entity, head);
    } catch (error) {
      fail((error as Error).message);
      continue;
    }
    heads.push({ number, head, name: String(found.bartererName ?? '') });
  }
  if (errors.length) {
    throw badRequest(`导入失败，未写入任何数据。${errors.slice(0, 20).join('；')}${errors.length > 20 ? `；等共${errors.length}处错误` : ''}`, { errors });
  }
  const records = await services.store.transaction(async () => {
    const saved: Row[] = [];
    for (const { number, head, name } of heads) {
      try {
        const bill = await saveBill(services, caller, dm, 'submit', head);
        saved.push({ row: number, id: bill.id, billNo: bill.billNo, billStatus: bill.billStatus, [kind.field]: head[kind.field], bartererName: name, finalAmt: bill.finalAmt, version: bill.version });
      } catch (error) {
        throw badRequest(`导入失败，未写入任何数据。第${number}行：${(error as Error).message}`, { errors: [`第${number}行：${(error as Error).message}`] });
      }
    }
    return saved;
  });
  return { total: rows.length, count: records.length, records };
}

export function registerOpeningImport(services: Services) {
  services.register('openingBarterer.importCustomers', (ctx, model) => importOpenings(services, ctx, model, 'customer'));
  services.register('openingBarterer.importSuppliers', (ctx, model) => importOpenings(services, ctx, model, 'supplier'));
}
