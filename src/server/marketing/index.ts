/** 营销管理: campaigns, coupons and the pricing that uses them. */
import type { Services } from '../services.ts';
import { registerCampaignHandlers } from './campaigns.ts';
import { registerCouponHandlers } from './coupons.ts';

export function registerMarketingHandlers(services: Services) {
  registerCampaignHandlers(services);
  registerCouponHandlers(services);
}
