/**
 * 应收调整单 / 应付调整单 exportInfo (POST multipart `file`, .xlsx): adjustments typed in a sheet,
 * answered as unsaved bills for the clerk to review and submit one by one. Nothing is written.
 *
 * Row 1 holds the titles: 客户编码 (供应商编码; 编码 also accepted), 金额 and 原因 (required), 备注.
 * Each later row becomes one bill head: the partner found by its code, the signed amount (not 0,
 * rounded to the amount places as posting rounds it), the reason matched in the business
 * dictionary by name or key, the remark; the head is checked against the bill's own field rules.
 * Problems are answered in `errors` by row number (第3行：客户编码「X」不存在) and those rows left
 * out of `records`; the file is refused only when it is not a readable .xlsx with those titles.
 */
import type { Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller } from '../http/context.ts';
import { readUploadedSheet } from '../files/xlsx-rows.ts';
import { documentModel, tenantPlaces } from '../engine/document/context.ts';
import { fillLookups } from '../engine/lookups.ts';
import { validateEntity } from '../engine/validate.ts';
import { formatDate } from '../../shared/dates.ts';
import { bizDictItems, dictKeyOf, partnersByCode, signedAmount } from './party-rows.ts';

const MAX_ROWS = 2000;
const REASON = 'reasonType';

export function registerSupplementImport(services: Services) {
  services.register('supplement.readExcel', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const { doc } = documentModel(services, model);
    const entity = model.resource!.entity;
    const partnerField = doc.partnerField ?? 'bartererId';
    const partner = entity.properties[partnerField];
    const ref = String(partner['x-ref']);
    const codeTitle = `${partner.title}编码`;
    const rows = await readUploadedSheet(ctx, {
      columns: { code: [codeTitle, '编码', 'bartererCode'], amount: ['金额', entity.properties.finalAmt.title, 'finalAmt'], reason: ['原因', entity.properties[REASON].title, REASON], remark: ['备注', 'remark'] },
      required: ['code', 'amount', 'reason'],
      titles: `第1行应为列标题：${codeTitle}、金额、原因（可选：备注）`,
      max: MAX_ROWS,
    });
    const partners = await partnersByCode(services, caller.tenantId, ref, rows.map((r) => r.cells.code));
    const reasons = await bizDictItems(services, caller.tenantId, String(entity.properties[REASON]['x-dictBiz']));
    const places = await tenantPlaces(services, caller.tenantId);
    const today = formatDate();
    const errors: string[] = [];
    const records: Row[] = [];
    for (const { number, cells } of rows) {
      const fail = (message: string) => errors.push(`第${number}行：${message}`);
      if (!cells.code) {
        fail(`请填写${codeTitle}`);
        continue;
      }
      const found = partners.get(cells.code);
      if (!found) {
        fail(`${codeTitle}「${cells.code}」不存在`);
        continue;
      }
      const amount = signedAmount(cells.amount, places.amount);
      if ('error' in amount) {
        fail(amount.error);
        continue;
      }
      const reason = cells.reason ? dictKeyOf(reasons, cells.reason) : undefined;
      if (!reason) {
        fail(cells.reason ? `原因「${cells.reason}」不存在（可选：${[...reasons.values()].join('、')}）` : '请填写原因');
        continue;
      }
      const head: Row = { [partnerField]: String(found.id), [REASON]: reason, finalAmt: amount.amount, billDate: today, ...(cells.remark ? { remark: cells.remark } : {}) };
      try {
        validateEntity(entity, head);
      } catch (error) {
        fail((error as Error).message);
        continue;
      }
      records.push({ row: number, billType: doc.billType, ...head });
    }
    await fillLookups(services, model, caller.tenantId, records);
    return { total: rows.length, records, errors };
  });
}
