/**
 * The tables posting and the document engine own. Ledgers are insert-only (the store refuses an
 * update or delete); balances are caches of the ledgers, written in the same transaction.
 * A unique key allows one posting and one reversal per bill line and per bill.
 */
import { internalModel } from '../engine/model.ts';

export function ledgerModels() {
  return {
    stockLedger: internalModel(
      'erp_stock_ledger',
      {
        depotId: ['string', 32],
        commInfoId: ['string', 32],
        billType: ['string', 8],
        billId: ['string', 32],
        billNo: ['string', 32],
        lineId: ['string', 32],
        sourceLineId: ['string', 32],
        entry: ['string', 8],
        qty: 'decimal',
        value: 'decimal',
        unitCost: 'decimal',
        balanceQty: 'decimal',
        balanceValue: 'decimal',
        seq: 'integer',
      },
      [{ fields: ['lineId', 'entry'], message: '单据行已记账' }],
      { insertOnly: true, title: '库存流水', indexes: [['depotId', 'commInfoId', 'seq'], ['billId'], ['sourceLineId']] },
    ),
    stockBalance: internalModel(
      'erp_stock_balance',
      { depotId: ['string', 32], commInfoId: ['string', 32], qty: 'decimal', value: 'decimal', unitCost: 'decimal', seq: 'integer' },
      [{ fields: ['depotId', 'commInfoId'], message: '库存余额已存在' }],
      { title: '库存余额', indexes: [['commInfoId']] },
    ),
    partyLedger: internalModel(
      'erp_party_ledger',
      {
        kind: ['string', 2],
        partyId: ['string', 32],
        billType: ['string', 8],
        billId: ['string', 32],
        billNo: ['string', 32],
        billDate: ['string', 19],
        entry: ['string', 8],
        amount: 'decimal',
      },
      [{ fields: ['billId', 'entry'], message: '单据已记账' }],
      { insertOnly: true, title: '往来流水', indexes: [['kind', 'partyId']] },
    ),
    partyBalance: internalModel(
      'erp_party_balance',
      { kind: ['string', 2], partyId: ['string', 32], amount: 'decimal' },
      [{ fields: ['kind', 'partyId'], message: '往来余额已存在' }],
      { title: '往来余额' },
    ),
    billPosting: internalModel(
      'erp_bill_posting',
      { resource: ['string', 64], billId: ['string', 32], entry: ['string', 8] },
      [{ fields: ['billId', 'entry'], message: '单据已记账' }],
      { insertOnly: true, title: '记账记录' },
    ),
    billAction: internalModel(
      'erp_bill_action',
      {
        resource: ['string', 64],
        billId: ['string', 32],
        action: ['string', 32],
        actionName: ['string', 32],
        fromStatus: ['string', 8],
        toStatus: ['string', 8],
        remark: ['string', 500],
        userName: ['string', 64],
      },
      undefined,
      { insertOnly: true, title: '单据操作记录', indexes: [['billId']] },
    ),
    idempotency: internalModel(
      'erp_idempotency',
      { idemKey: ['string', 128], userId: ['string', 32], endpoint: ['string', 200], answer: 'text' },
      [{ fields: ['idemKey'], message: '重复请求' }],
      { insertOnly: true, title: '幂等记录' },
    ),
  };
}
