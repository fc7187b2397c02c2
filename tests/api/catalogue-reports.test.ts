/**
 * Acceptance 1 of the reports issue: every Reports call of the spec's catalogue (spec 001 §7
 * Reports, transcribed below with our paths) and the 统计分析 pages' own calls answer with the
 * contract envelope: never 404, never 5xx. Called bare, a call may refuse with a Chinese message
 * (a partner report without its partner); the figures are checked in the reports-* suites.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signedIn, type Api } from '../support/client.ts';
import { unanswered, type Call } from '../support/catalogue.ts';

const get = (base: string, paths: string[]): Call[] => paths.map((p) => ['GET', `${base}/${p}`]);

const REPORTS: Call[] = [
  ...get('/blade-report/businessbalance', ['arlist', 'arlistsumtotal', 'arYwcheck', 'arYwcheckSearchType', 'aplist', 'aplistsumtotal', 'apYwcheck', 'apYwcheckSearchType', 'apcheck']),
  ...get('/blade-report/salesStatistics', ['cashList', 'deptList', 'total', 'payTypeList']),
  ...get('/blade-report/salesanalysis', ['salesAnalysis', 'salesAnalysisDetail', 'salesAnalysisSumtotal', 'customersalesanalysis']),
  ...get('/blade-report/purchaseanalysis', ['purchaseAnalysis', 'purchaseAnalysisDetail', 'supplierpurchaseAnalysis']),
  ...get('/blade-report/customerrecommendrank', ['page', 'customerrecommenddetailanalysis']),
  ...get('/blade-report/bartererinvoice', ['arinvoice', 'arinvoicebyorder', 'arinvoicedistribution', 'selectArIsChargeById', 'apinvoice', 'apinvoicebyorder', 'apinvoicedistribution']),
  ...get('/blade-report/bartererbalance', ['arlist', 'archeck', 'arlistsumtotal']),
  ...get('/blade-report/salesProfit', ['list', 'distribution']),
  ...get('/blade-report/staffreport', ['list']),
  ...get('/blade-report/driverreport', ['list', 'detailList']),
  ...get('/blade-report/srminforeport', ['logininfolist']),
  ...get('/blade-desk/index', ['artop10', 'invoicetop10', 'indexBusinessHistory', 'exin', 'staffview', 'indexcount']),
  // The menu's own report pages.
  ...get('/blade-report/inventoryanalysis', ['list', 'sumtotal', 'classify']),
  ...get('/blade-report/businessanalysis', ['list', 'total']),
  ...get('/blade-report/cashflow', ['list', 'sumtotal', 'daily']),
];

describe.each(databases())('the Reports catalogue ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
  });
  afterAll(async () => server?.close());

  test(`${REPORTS.length} calls answer with the envelope, none 404 or 5xx`, async () => {
    expect(await unanswered(admin, REPORTS)).toEqual([]);
  });
});
