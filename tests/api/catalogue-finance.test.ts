/**
 * Acceptance 1 of the inventory and finance issue: every Inventory and Finance call of the spec's
 * catalogue (spec 001 §7 Inventory and Finance, transcribed below with our paths), pushap on every
 * posted bill kind included, answers with the contract envelope: never 404, never 5xx. Called bare
 * (no id, empty body), a call may refuse with a Chinese message; what each does with real data is in
 * its own suite (docs/calls.md says which call does what).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signedIn, type Api } from '../support/client.ts';
import { unanswered, type Call } from '../support/catalogue.ts';

const INVENTORY_AND_FINANCE: Call[] = [
  ['POST', '/blade-finance/apsettle/accounting'], ['GET', '/blade-finance/apsettle/audit'], ['POST', '/blade-finance/apsettle/cancel'],
  ['GET', '/blade-finance/apsettle/detail'], ['POST', '/blade-finance/apsettle/flush'], ['GET', '/blade-finance/apsettle/list'], ['GET', '/blade-finance/apsettle/mergepay'],
  ['GET', '/blade-finance/apsettle/pushap'], ['GET', '/blade-finance/apsettle/settlebodydist'], ['POST', '/blade-finance/apsettle/submit'],
  ['GET', '/blade-finance/apsettle/unprepayment'], ['POST', '/blade-finance/apsupplement/accounting'], ['POST', '/blade-finance/apsupplement/audit'],
  ['POST', '/blade-finance/apsupplement/cancel'], ['GET', '/blade-finance/apsupplement/detail'], ['POST', '/blade-finance/apsupplement/edit'],
  ['POST', '/blade-finance/apsupplement/exportInfo'], ['POST', '/blade-finance/apsupplement/flush'], ['GET', '/blade-finance/apsupplement/initAdd'],
  ['GET', '/blade-finance/apsupplement/list'], ['GET', '/blade-finance/apsupplement/pushap'], ['POST', '/blade-finance/apsupplement/submit'],
  ['POST', '/blade-finance/arsettle/accounting'], ['GET', '/blade-finance/arsettle/audit'], ['POST', '/blade-finance/arsettle/batchaudit'],
  ['POST', '/blade-finance/arsettle/cancel'], ['GET', '/blade-finance/arsettle/detail'], ['POST', '/blade-finance/arsettle/flush'], ['GET', '/blade-finance/arsettle/list'],
  ['GET', '/blade-finance/arsettle/mergecollect'], ['GET', '/blade-finance/arsettle/pushap'], ['GET', '/blade-finance/arsettle/settlebodydist'],
  ['POST', '/blade-finance/arsettle/submit'], ['GET', '/blade-finance/arsettle/unreceipt'], ['POST', '/blade-finance/arsupplement/accounting'],
  ['POST', '/blade-finance/arsupplement/audit'], ['POST', '/blade-finance/arsupplement/cancel'], ['GET', '/blade-finance/arsupplement/detail'],
  ['POST', '/blade-finance/arsupplement/edit'], ['POST', '/blade-finance/arsupplement/exportInfo'], ['POST', '/blade-finance/arsupplement/flush'],
  ['GET', '/blade-finance/arsupplement/initAdd'], ['GET', '/blade-finance/arsupplement/list'], ['GET', '/blade-finance/arsupplement/pushap'],
  ['POST', '/blade-finance/arsupplement/submit'], ['GET', '/blade-finance/billsettlement/detail'], ['GET', '/blade-finance/businessHistory/getTypeList'],
  ['GET', '/blade-finance/businessHistory/list'], ['POST', '/blade-finance/exinhead/accounting'], ['GET', '/blade-finance/exinhead/detail'],
  ['POST', '/blade-finance/exinhead/draft'], ['POST', '/blade-finance/exinhead/edit'], ['POST', '/blade-finance/exinhead/flush'], ['GET', '/blade-finance/exinhead/initAdd'],
  ['GET', '/blade-finance/exinhead/list'], ['GET', '/blade-finance/exinhead/pushap'], ['POST', '/blade-finance/exinhead/submit'], ['POST', '/blade-finance/openingBarerter/batchPass'],
  ['GET', '/blade-finance/openingBarerter/detail'], ['POST', '/blade-finance/openingBarerter/exportCustomerInfo'], ['POST', '/blade-finance/openingBarerter/exportSupplierInfo'],
  ['GET', '/blade-finance/openingBarerter/openingCustomerPage'], ['GET', '/blade-finance/openingBarerter/openingSupplierPage'], ['GET', '/blade-finance/openingBarerter/pushap'],
  ['GET', '/blade-finance/payment/pushap'], ['POST', '/blade-finance/prepayment/accounting'], ['GET', '/blade-finance/prepayment/audit'],
  ['POST', '/blade-finance/prepayment/batchUpdateRemark'], ['GET', '/blade-finance/prepayment/billlist'], ['GET', '/blade-finance/prepayment/cancel'],
  ['GET', '/blade-finance/prepayment/detail'], ['POST', '/blade-finance/prepayment/edit'], ['POST', '/blade-finance/prepayment/flush'],
  ['GET', '/blade-finance/prepayment/initAdd'], ['GET', '/blade-finance/prepayment/list'], ['GET', '/blade-finance/prepayment/precplist'],
  ['GET', '/blade-finance/prepayment/pushap'], ['POST', '/blade-finance/prepayment/submit'], ['POST', '/blade-finance/prepayment/updateRemark'],
  ['POST', '/blade-finance/receipt/accounting'], ['GET', '/blade-finance/receipt/audit'], ['GET', '/blade-finance/receipt/billlist'], ['GET', '/blade-finance/receipt/cancel'],
  ['GET', '/blade-finance/receipt/detail'], ['POST', '/blade-finance/receipt/edit'], ['POST', '/blade-finance/receipt/flush'], ['GET', '/blade-finance/receipt/getDictBizByKey'],
  ['GET', '/blade-finance/receipt/initAdd'], ['GET', '/blade-finance/receipt/list'], ['GET', '/blade-finance/receipt/precplist'], ['GET', '/blade-finance/receipt/pushap'],
  ['POST', '/blade-finance/receipt/submit'], ['GET', '/blade-material/usebody/productUseBodyList'], ['GET', '/blade-material/usehead/pushap'],
  ['GET', '/blade-purchase/purchaseexchangehead/pushap'], ['GET', '/blade-purchase/purchasefeehead/pushap'], ['GET', '/blade-purchase/purchaseinhead/pushap'],
  ['GET', '/blade-purchase/purchasereturnorderhead/pushap'], ['GET', '/blade-sales/lsdsalesorderhead/pushap'], ['GET', '/blade-sales/lsthdsalesorderhead/pushap'],
  ['GET', '/blade-sales/salesouthead/pushap'], ['GET', '/blade-sales/salesreturnorderhead/pushap'], ['GET', '/blade-sales/scthdsalesorderhead/pushap'],
  ['POST', '/blade-warehouse/balanceconfig/balance'], ['GET', '/blade-warehouse/balanceconfig/list'], ['GET', '/blade-warehouse/balanceconfig/unbalance'],
  ['POST', '/blade-warehouse/balanceconfig/unbalance'], ['GET', '/blade-warehouse/borrowinhead/pushap'], ['GET', '/blade-warehouse/borrowinreturnhead/pushap'],
  ['GET', '/blade-warehouse/borrowouthead/pushap'], ['GET', '/blade-warehouse/borrowoutreturnhead/pushap'], ['POST', '/blade-warehouse/checkinventory/accounting'],
  ['GET', '/blade-warehouse/checkinventory/audit'], ['POST', '/blade-warehouse/checkinventory/audit'], ['GET', '/blade-warehouse/checkinventory/cancel'],
  ['POST', '/blade-warehouse/checkinventory/cancel'], ['GET', '/blade-warehouse/checkinventory/detail'], ['GET', '/blade-warehouse/checkinventory/flush'],
  ['POST', '/blade-warehouse/checkinventory/flush'], ['GET', '/blade-warehouse/checkinventory/list'], ['GET', '/blade-warehouse/checkinventory/pushap'],
  ['GET', '/blade-warehouse/inventory/basicList'], ['GET', '/blade-warehouse/inventory/distribution'], ['GET', '/blade-warehouse/inventory/exportInventoryInfoByCode'],
  ['GET', '/blade-warehouse/inventory/getInvotoryBackLogInfo'], ['GET', '/blade-warehouse/inventory/list'], ['POST', '/blade-warehouse/inventory/merge'],
  ['POST', '/blade-warehouse/inventory/selectDepotList'], ['POST', '/blade-warehouse/inventory/selectList'], ['POST', '/blade-warehouse/inventory/selectListByProject'],
  ['GET', '/blade-warehouse/inventory/selectMergeNum'], ['GET', '/blade-warehouse/inventory/selectSplitNum'], ['POST', '/blade-warehouse/inventory/split'],
  ['GET', '/blade-warehouse/inventory/sumtotal'], ['GET', '/blade-warehouse/inventorybalance/check'], ['GET', '/blade-warehouse/inventorybalance/checksumtotal'],
  ['GET', '/blade-warehouse/inventorybalance/list'], ['GET', '/blade-warehouse/inventorybalance/sumtotal'], ['POST', '/blade-warehouse/lossinventory/accounting'],
  ['GET', '/blade-warehouse/lossinventory/audit'], ['POST', '/blade-warehouse/lossinventory/audit'], ['GET', '/blade-warehouse/lossinventory/cancel'],
  ['POST', '/blade-warehouse/lossinventory/cancel'], ['GET', '/blade-warehouse/lossinventory/detail'], ['POST', '/blade-warehouse/lossinventory/edit'],
  ['GET', '/blade-warehouse/lossinventory/flush'], ['POST', '/blade-warehouse/lossinventory/flush'], ['GET', '/blade-warehouse/lossinventory/initAdd'],
  ['GET', '/blade-warehouse/lossinventory/list'], ['GET', '/blade-warehouse/lossinventory/pushap'], ['POST', '/blade-warehouse/lossinventory/submit'],
  ['POST', '/blade-warehouse/moveinventory/accounting'], ['GET', '/blade-warehouse/moveinventory/callin'], ['POST', '/blade-warehouse/moveinventory/callin'],
  ['GET', '/blade-warehouse/moveinventory/callout'], ['POST', '/blade-warehouse/moveinventory/callout'], ['GET', '/blade-warehouse/moveinventory/cancel'],
  ['POST', '/blade-warehouse/moveinventory/cancel'], ['GET', '/blade-warehouse/moveinventory/detail'], ['GET', '/blade-warehouse/moveinventory/detailList'],
  ['POST', '/blade-warehouse/moveinventory/edit'], ['GET', '/blade-warehouse/moveinventory/flush'], ['POST', '/blade-warehouse/moveinventory/flush'],
  ['GET', '/blade-warehouse/moveinventory/initAdd'], ['GET', '/blade-warehouse/moveinventory/list'], ['GET', '/blade-warehouse/moveinventory/pushap'],
  ['POST', '/blade-warehouse/moveinventory/submit'], ['GET', '/blade-warehouse/moveinventoryhead/detail'], ['GET', '/blade-warehouse/moveinventoryhead/list'],
  ['POST', '/blade-warehouse/moveinventoryhead/remove'], ['POST', '/blade-warehouse/moveinventoryhead/submit'], ['GET', '/blade-warehouse/openinginventoryhead/pushap'],
  ['GET', '/blade-warehouse/otherinhead/pushap'], ['GET', '/blade-warehouse/otherouthead/pushap'], ['POST', '/blade-warehouse/profitinventory/accounting'],
  ['GET', '/blade-warehouse/profitinventory/audit'], ['POST', '/blade-warehouse/profitinventory/audit'], ['GET', '/blade-warehouse/profitinventory/cancel'],
  ['POST', '/blade-warehouse/profitinventory/cancel'], ['GET', '/blade-warehouse/profitinventory/detail'], ['POST', '/blade-warehouse/profitinventory/edit'],
  ['GET', '/blade-warehouse/profitinventory/flush'], ['POST', '/blade-warehouse/profitinventory/flush'], ['GET', '/blade-warehouse/profitinventory/initAdd'],
  ['GET', '/blade-warehouse/profitinventory/list'], ['GET', '/blade-warehouse/profitinventory/pushap'], ['POST', '/blade-warehouse/profitinventory/readExcel'],
  ['POST', '/blade-warehouse/profitinventory/submit'],
  ['GET', '/blade-finance/costhead/cancel'], ['POST', '/blade-finance/costhead/cancel'], ['GET', '/blade-finance/costhead/flush'], ['POST', '/blade-finance/costhead/flush'],
  ['GET', '/blade-finance/costhead/pushap'], ['GET', '/blade-finance/precpbody/detail'], ['GET', '/blade-finance/precpbody/list'], ['POST', '/blade-finance/precpbody/remove'],
  ['POST', '/blade-finance/precpbody/submit'], ['GET', '/blade-finance/transportbody/list'], ['POST', '/blade-finance/transporthead/cancel'],
  ['GET', '/blade-finance/transporthead/detail'], ['POST', '/blade-finance/transporthead/draft'], ['POST', '/blade-finance/transporthead/flush'],
  ['GET', '/blade-finance/transporthead/list'], ['GET', '/blade-finance/transporthead/pushap'], ['POST', '/blade-finance/transporthead/putTransportheadFile'],
  ['POST', '/blade-finance/transporthead/readExcel'], ['POST', '/blade-finance/transporthead/rematch'], ['GET', '/blade-finance/transporthead/repeatExport'],
  ['POST', '/blade-finance/transporthead/submit'], ['POST', '/blade-finance/transporthead/transportApply'], ['GET', '/blade-material/productinhead/cancel'],
  ['POST', '/blade-material/productinhead/cancel'], ['GET', '/blade-material/productinhead/detail'], ['POST', '/blade-material/productinhead/draft'],
  ['GET', '/blade-material/productinhead/flush'], ['POST', '/blade-material/productinhead/flush'], ['GET', '/blade-material/productinhead/list'],
  ['GET', '/blade-material/productinhead/pushap'], ['POST', '/blade-material/productinhead/submit'], ['GET', '/fi-cost-body/costbody/detail'],
  ['GET', '/fi-cost-body/costbody/list'], ['POST', '/fi-cost-body/costbody/remove'], ['POST', '/fi-cost-body/costbody/submit'],
];

describe.each(databases())('the Inventory and Finance catalogue ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
  });
  afterAll(async () => server?.close());

  test(`${INVENTORY_AND_FINANCE.length} calls answer with the envelope, none 404 or 5xx`, async () => {
    expect(await unanswered(admin, INVENTORY_AND_FINANCE)).toEqual([]);
  });
});
