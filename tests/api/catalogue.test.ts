/**
 * Acceptance 1 of the purchasing/sales/retail issue: every Sales and Purchase call of the spec's
 * catalogue (spec 001 §7, transcribed below) answers with the contract envelope: never 404, never
 * 5xx. Called bare (no id, empty body), a call may refuse with a Chinese message; what each does
 * with real data is in its own suite (docs/calls.md says which call does what).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signedIn, type Api } from '../support/client.ts';
import { unanswered, type Call } from '../support/catalogue.ts';

const SALES_AND_PURCHASE: Call[] = [
  ['GET', '/blade-sales/salesorderhead/list'], ['GET', '/blade-sales/salesorderhead/unSendPage'], ['GET', '/blade-sales/salesorderhead/detail'],
  ['GET', '/blade-sales/salesorderhead/demand'], ['GET', '/blade-sales/salesorderhead/purchase'], ['POST', '/blade-sales/salesorderhead/draft'],
  ['POST', '/blade-sales/salesorderhead/submit'], ['POST', '/blade-sales/salesorderhead/updateRemark'],
  ['POST', '/blade-sales/salesorderhead/cancel'], ['GET', '/blade-sales/salesorderhead/queryFreightInfo'],
  ['GET', '/blade-sales/salesorderhead/custormerOwn'], ['GET', '/blade-sales/salesorderhead/selectSalesHistoryByCustomerId'],
  ['GET', '/blade-sales/scddsalesorderhead/list'], ['GET', '/blade-sales/scddsalesorderhead/purchase'], ['GET', '/blade-sales/salesorderbody/list'],
  ['GET', '/blade-sales/scddsalesorderbody/list'], ['GET', '/blade-sales/salesorderbody/salesOrderTrack'],
  ['GET', '/blade-sales/salesexception/list'], ['GET', '/dy-erp/openorder/scdddetail'], ['GET', '/blade-sales/saveSalesToPurchase'],
  ['GET', '/blade-desk/billrelation/sale'], ['GET', '/blade-sales/salesreturnorderhead/list'], ['POST', '/blade-sales/salesreturnorderhead/draft'],
  ['POST', '/blade-sales/salesreturnorderhead/submit'], ['GET', '/blade-sales/salesreturnorderhead/detail'],
  ['POST', '/blade-sales/salesreturnorderhead/cancel'], ['GET', '/blade-sales/salesreturnorderhead/generate'],
  ['GET', '/blade-sales/salesreturnorderhead/generateOutRefund'], ['GET', '/blade-sales/scthdsalesorderhead/list'],
  ['POST', '/blade-sales/scthdsalesorderhead/draft'], ['POST', '/blade-sales/scthdsalesorderhead/submit'],
  ['GET', '/blade-sales/scthdsalesorderhead/generate'], ['POST', '/blade-sales/salesouthead/updateCourierNo'],
  ['POST', '/blade-sales/salesouthead/cancel'], ['POST', '/blade-sales/salesouthead/flush'], ['GET', '/blade-sales/salesouthead/list'],
  ['GET', '/blade-sales/salesouthead/detail'], ['GET', '/blade-sales/salesouthead/accountingById'], ['GET', '/blade-sales/salesouthead/flush'],
  ['GET', '/blade-sales/salesouthead/pullOrderById'], ['GET', '/blade-sales/salesouthead/updateDepot'],
  ['GET', '/blade-sales/salesouthead/queryFreightInfo'], ['GET', '/blade-sales/salesouthead/updateSignBackById'],
  ['GET', '/blade-sales/salesouthead/checkPullOrderById'], ['POST', '/blade-sales/salesouthead/draft'],
  ['POST', '/blade-sales/salesouthead/accounting'], ['POST', '/blade-sales/salesouthead/submit'], ['GET', '/blade-base/express/list'],
  ['GET', '/blade-sales/salesdistributionhead/addsoout'], ['GET', '/blade-sales/salesdistributionhead/list'],
  ['GET', '/blade-sales/salesdistributionhead/detail'], ['POST', '/blade-sales/salesdistributionhead/save'],
  ['GET', '/blade-sales/salesoutperiod/list'], ['GET', '/blade-sales/salesoutperiod/staffList'], ['GET', '/blade-sales/salesoutperiod/customerList'],
  ['GET', '/blade-sales/driverdistribution/dirverdistribution'], ['GET', '/blade-sales/salesoutsettle/list'],
  ['GET', '/blade-sales/salesinvoicehead/list'], ['GET', '/blade-sales/salesinvoicehead/detail'],
  ['GET', '/blade-sales/salesinvoicehead/detailGroupOrder'], ['GET', '/blade-sales/salesinvoicehead/accountingById'],
  ['POST', '/blade-sales/salesinvoicehead/accounting'], ['GET', '/blade-sales/salesinvoicehead/flush'],
  ['GET', '/blade-sales/salesinvoicehead/cancel'], ['POST', '/blade-sales/salesinvoicehead/selectByCustomerId'],
  ['POST', '/blade-sales/salesinvoicehead/selectByCustomerIdGroupOrder'], ['POST', '/blade-sales/salesinvoicehead/draft'],
  ['POST', '/blade-sales/salesinvoicehead/submit'], ['GET', '/blade-sales/inquiryinfo/list'], ['GET', '/blade-sales/inquiryinfo/detail'],
  ['GET', '/blade-sales/lsdsalesorderhead/list'], ['GET', '/blade-sales/lsdsalesorderhead/detail'],
  ['POST', '/blade-sales/lsdsalesorderhead/account'], ['GET', '/blade-sales/lsthdsalesorderhead/generate'],
  ['GET', '/blade-sales/lsthdsalesorderhead/list'], ['GET', '/blade-base/comminfo/selectByBarCode'], ['GET', '/blade-base/settlement/retail'],
  ['GET', '/blade-sales/salesoutinterest/list'], ['GET', '/blade-sales/customeranalysis/list'], ['GET', '/blade-sales/customeranalysis/detail'],
  ['GET', '/blade-sales/customerprofit/recently'], ['GET', '/blade-sales/customerprofit/recentlyTrend'],
  ['POST', '/blade-sales/customerprofit/preference'], ['GET', '/blade-purchase/purchaseorderhead/list'],
  ['GET', '/blade-purchase/purchaseorderhead/unReceivePage'], ['GET', '/blade-purchase/purchaseorderhead/detail'],
  ['GET', '/blade-purchase/purchaseorderhead/cancel'], ['POST', '/blade-purchase/purchaseorderhead/submit'],
  ['POST', '/blade-purchase/purchaseorderhead/draft'], ['POST', '/blade-purchase/purchaseorderhead/saveFreight'],
  ['GET', '/blade-purchase/purchaseorderhead/pushSrm'], ['GET', '/blade-purchase/purchaseorderhead/purchaseCompletionRate'],
  ['POST', '/blade-purchase/purchaseorderhead/updateRemark'], ['GET', '/blade-purchase/purchaseorderhead/queryFreightInfo'],
  ['GET', '/blade-purchase/purchaseorderhead/purchaseWholeProcess'], ['GET', '/blade-purchase/purchaseorderhead/toUse'],
  ['GET', '/blade-purchase/purchaseorderbody/list'], ['GET', '/blade-purchase/purchaseorderbody/detail'],
  ['POST', '/blade-purchase/purchaseorderbody/updateRemark'], ['GET', '/blade-purchase/purchaseorderbody/purchaseOrderTrack'],
  ['POST', '/blade-purchase/purchaseorderexceed/saveBatchOrderExceed'], ['GET', '/blade-purchase/purchasereturnorderhead/list'],
  ['POST', '/blade-purchase/purchasereturnorderhead/draft'], ['POST', '/blade-purchase/purchasereturnorderhead/submit'],
  ['GET', '/blade-purchase/purchasereturnorderhead/detail'], ['POST', '/blade-purchase/purchasereturnorderhead/cancel'],
  ['GET', '/blade-purchase/purchasereturnorderhead/generate'], ['GET', '/blade-purchase/purchasereturnorderhead/generateUnRefund'],
  ['GET', '/blade-purchase/purchaseinhead/list'], ['GET', '/blade-purchase/purchaseinhead/detail'],
  ['POST', '/blade-purchase/purchaseinhead/remove'], ['POST', '/blade-purchase/purchaseinhead/submit'],
  ['POST', '/blade-purchase/purchaseinhead/draft'], ['POST', '/blade-purchase/purchaseinhead/accounting'],
  ['POST', '/blade-purchase/purchaseinhead/cancel'], ['POST', '/blade-purchase/purchaseinhead/flush'],
  ['GET', '/blade-purchase/purchaseinhead/accountingById'], ['GET', '/blade-purchase/purchaseinhead/pullOrderById'],
  ['GET', '/blade-purchase/purchaseinhead/queryFreightInfo'], ['POST', '/blade-purchase/purchaseinhead/updateCourierNo'],
  ['GET', '/blade-purchase/purchaseinhead/checkPullOrderById'], ['GET', '/blade-purchase/purchaseinvoicehead/list'],
  ['GET', '/blade-purchase/purchaseinvoicehead/detail'], ['GET', '/blade-purchase/purchaseinvoicehead/detailGroupOrder'],
  ['POST', '/blade-purchase/purchaseinvoicehead/draft'], ['POST', '/blade-purchase/purchaseinvoicehead/draftGroupOrder'],
  ['POST', '/blade-purchase/purchaseinvoicehead/submit'], ['POST', '/blade-purchase/purchaseinvoicehead/selectBySupplierId'],
  ['POST', '/blade-purchase/purchaseinvoicehead/selectBySupplierIdGroupOrder'], ['GET', '/blade-purchase/purchaseinvoicehead/flush'],
  ['GET', '/blade-purchase/purchaseinvoicehead/cancel'], ['GET', '/blade-purchase/purchaseinvoicehead/accountingById'],
  ['POST', '/blade-purchase/purchaseinvoicehead/accounting'], ['GET', '/blade-purchase/purchaseinvoicehead/manualInvoice'],
  ['GET', '/blade-purchase/purchaseexception/list'], ['GET', '/blade-purchase/syncwjpyinventory/list'],
  ['GET', '/blade-purchase/syncwjpyinventory/pushwjyp'], ['GET', '/blade-purchase/demandbody/list'], ['POST', '/blade-purchase/demandhead/purchase'],
  ['GET', '/blade-purchase/demandhead/list'], ['GET', '/blade-purchase/demandhead/detail'], ['POST', '/blade-purchase/demandhead/submit'],
  ['POST', '/blade-purchase/demandhead/remove'], ['GET', '/blade-desk/billrelation/purchase'], ['GET', '/blade-system/depot/listByType'],
  ['GET', '/blade-material/usehead/list'], ['GET', '/blade-material/usehead/productUseList'], ['GET', '/blade-material/usehead/unReceivePage'],
  ['GET', '/blade-material/usehead/detail'], ['POST', '/blade-material/usehead/cancel'], ['POST', '/blade-material/usehead/submit'],
  ['POST', '/blade-material/usehead/draft'], ['POST', '/blade-material/usehead/flush'],
  ['GET', '/blade-sales/salesinvoiceheadmall/list'], ['GET', '/blade-sales/salesinvoiceheadmall/detail'], ['POST', '/blade-sales/salesinvoiceheadmall/draft'],
  ['POST', '/blade-sales/salesinvoiceheadmall/submit'], ['POST', '/blade-sales/salesinvoiceheadmall/accounting'],
  ['GET', '/blade-sales/salesinvoiceheadmall/accountingById'], ['GET', '/blade-sales/salesinvoiceheadmall/flush'],
  ['GET', '/blade-sales/salesinvoiceheadmall/selectByCustomerId'], ['POST', '/blade-sales/salesinvoiceheadmall/selectCustomerInvoices'],
  ['GET', '/blade-sales/salesinvoiceheadmall/cancel'], ['GET', '/blade-base/billrule/mallgenerate'],
  ['POST', '/blade-sales/salesreturnorderhead/createPrecpInfo'], ['GET', '/blade-sales/salesreturnorderhead/generateUnOutRefund'],
  ['POST', '/blade-purchase/purchasereturnorderhead/createPrecpInfo'], ['GET', '/blade-purchase/purchasereturnorderhead/generateUnInRefund'],
  ['POST', '/blade-purchase/purchaseinvoicehead/selectPurchaseExins'],
  // Named by the catalogue without a path (spec 001 §7 Sales): ours.
  ['GET', '/blade-base/comminfo/scoreList'], ['GET', '/blade-purchase/supplierTicketOwn'],
];

describe.each(databases())('the Sales and Purchase catalogue ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
  });
  afterAll(async () => server?.close());

  test(`${SALES_AND_PURCHASE.length} calls answer with the envelope, none 404 or 5xx`, async () => {
    expect(await unanswered(admin, SALES_AND_PURCHASE)).toEqual([]);
  });

});
