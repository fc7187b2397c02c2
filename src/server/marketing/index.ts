/** 营销管理: campaigns, coupons and the pricing that uses them. */
import type { Services } from '../services.ts';
import { registerCampaignHandlers } from './campaigns.ts';
import { registerCouponHandlers } from './coupons.ts';
import { registerPointsHandlers } from './points.ts';
import { registerSmsCampaignHandlers } from './sms.ts';
import { registerPopupAdHandlers } from './ads.ts';
import { registerRecommendedWithdrawHandlers } from './promotion.ts';

export function registerMarketingHandlers(services: Services) {
  registerCampaignHandlers(services);
  registerCouponHandlers(services);
  registerPointsHandlers(services);
  registerSmsCampaignHandlers(services);
  registerPopupAdHandlers(services);
  registerRecommendedWithdrawHandlers(services);
}
