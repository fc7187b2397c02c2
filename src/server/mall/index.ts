/** 商城管理: buyer accounts and the storefront's order calls. */
import type { Services } from '../services.ts';
import { registerBuyerHandlers } from './buyers.ts';
import { registerIntakeHandlers } from './intake.ts';
import { registerMallSettingsHandlers } from './settings.ts';
import { registerMallOrderHandlers } from './orders.ts';
import { registerMallReturnHandlers } from './returns.ts';
import { registerPaymentHandlers } from './payments.ts';
import { registerMallCouponHandlers } from './coupons.ts';

export function registerMallHandlers(services: Services) {
  registerBuyerHandlers(services);
  registerIntakeHandlers(services);
  registerMallSettingsHandlers(services);
  registerMallOrderHandlers(services);
  registerMallReturnHandlers(services);
  registerPaymentHandlers(services);
  registerMallCouponHandlers(services);
}
