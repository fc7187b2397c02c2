/**
 * Report queries (统计分析 and the dashboard): one small module per report family, each registering
 * the custom handlers its schema's endpoints name. Shapes and meanings are in each report's schema.
 */
import type { Services } from '../services.ts';
import { registerPurchaseReportHandlers } from './purchase.ts';
import { registerPeopleHandlers } from './people.ts';
import { registerSalesReportHandlers } from './sales.ts';
import { registerSalesStatisticsHandlers } from './sales-statistics.ts';
import { registerDashboardHandlers } from './dashboard.ts';
import { registerInventoryAnalysisHandlers } from './inventory-analysis.ts';
import { registerBusinessAnalysisHandlers } from './business-analysis.ts';
import { registerPartnerBalanceHandlers } from './partner-balance.ts';
import { registerInvoiceReportHandlers } from './invoice.ts';
import { registerCashFlowHandlers } from './cash-flow.ts';
import { registerMarketingReportHandlers } from './marketing.ts';
import { registerMallReportHandlers } from './mall.ts';

export function registerReportHandlers(services: Services) {
  registerPurchaseReportHandlers(services);
  registerPeopleHandlers(services);
  registerSalesReportHandlers(services);
  registerSalesStatisticsHandlers(services);
  registerDashboardHandlers(services);
  registerInventoryAnalysisHandlers(services);
  registerBusinessAnalysisHandlers(services);
  registerPartnerBalanceHandlers(services);
  registerInvoiceReportHandlers(services);
  registerCashFlowHandlers(services);
  registerMarketingReportHandlers(services);
  registerMallReportHandlers(services);
}
