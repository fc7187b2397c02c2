/**
 * Saving a money bill (document.settle: receipt, payment, prepayment, refund): its amount above zero,
 * its lines' Σ within it, and each line's bill the partner's, posted, live and open by at least
 * the line's amount (as things stand now; posting checks again under lock). Lines get their
 * bill's number, type, amount and open amount for display.
 */
import type { Services } from '../../services.ts';
import type { Actor, Row } from '../store.ts';
import { badRequest } from '../../errors.ts';
import { Dec, fixed, type Places } from '../../../shared/money/index.ts';
import type { DocumentModel } from './context.ts';
import { openAmount, partnerItems } from '../../posting/settlement.ts';
import { partyKindOf } from '../../posting/party.ts';

const blank = (v: unknown) => v === undefined || v === null || v === '';

export async function checkSettle(services: Services, actor: Actor, dm: DocumentModel, head: Row, lines: Row[], places: Places): Promise<void> {
  const settle = dm.doc.settle!;
  const props = dm.model.resource?.entity.properties ?? {};
  const title = props[settle.amount]?.title ?? settle.amount;
  const refuse = (message: string) => badRequest(message, { fieldErrors: { [settle.amount]: message } });
  if (settle.fromLines) {
    // 按单收款: the money is what the chosen bills are paid; Σ lines, at least one.
    if (!lines.length) throw badRequest('请选择要核销的单据');
    head[settle.amount] = fixed(
      lines.reduce((sum, l) => sum.plus(String(l[settle.lineAmount!] ?? '0')), new Dec(0)),
      places.amount,
    );
  }
  const raw = String(head[settle.amount] ?? '').trim();
  const schema = props[settle.amount];
  // The field's own rule and message (预收金额必须是不小于0的数字) before any arithmetic.
  const patternMessage = (schema?.errorMessage as { pattern?: string } | undefined)?.pattern ?? `${title}不是有效数字`;
  if (blank(head[settle.amount])) throw refuse(`请输入${title}`);
  if (schema?.pattern && !new RegExp(schema.pattern).test(raw)) throw refuse(patternMessage);
  let amount: string;
  try {
    amount = fixed(raw, places.amount);
  } catch {
    throw refuse(patternMessage);
  }
  if (!new Dec(amount).gt(0)) throw refuse(`${title}必须大于0`);
  head[settle.amount] = amount;
  if (!settle.target || !settle.lineAmount) return;
  const total = lines.reduce((sum, l) => sum.plus(String(l[settle.lineAmount!] ?? '0')), new Dec(0));
  if (total.gt(amount)) throw refuse(`核销金额合计 ${fixed(total, places.amount)} 超过${title} ${amount}`);
  if (settle.applied) head[settle.applied] = fixed(total, places.amount);
  if (!lines.length) return;
  const partnerField = dm.doc.partnerField;
  const partyId = partnerField ? String(head[partnerField] ?? '') : '';
  const kind = partyKindOf(dm.doc, head) ?? 'AR';
  // A refund (settle.refund) pays back credits (a return, money received or paid ahead); other money bills settle debits.
  const open = new Map((partyId ? await partnerItems(services, actor, kind, partyId, settle.refund ? 'credit' : 'debit') : []).map((i) => [i.billId, i]));
  lines.forEach((line, i) => {
    const item = open.get(String(line[settle.target!]));
    if (!item) throw badRequest(settle.refund ? `第${i + 1}行：单据不是该往来单位已记账且尚有余额的退货、预收或预付单据` : `第${i + 1}行：单据不是该往来单位已记账且未结清的${kind === 'AR' ? '应收' : '应付'}单据`);
    const left = openAmount(item);
    const want = new Dec(String(line[settle.lineAmount!]));
    if (want.gt(left)) throw badRequest(`第${i + 1}行：${settle.refund ? '退款' : '核销'}金额 ${fixed(want, places.amount)} 超过单据${item.billNo}的${settle.refund ? '可退余额' : '未结金额'} ${fixed(left, places.amount)}`);
    Object.assign(line, { sourceBillNo: item.billNo, sourceBillType: item.billType, sourceBillDate: item.billDate, billAmt: fixed(item.amount.abs(), places.amount), openAmt: fixed(left, places.amount) });
  });
}
