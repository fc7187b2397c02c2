import type { Services } from '../services.ts';
import { registerMenuHandlers } from './menus.ts';
import { registerUserHandlers } from './users.ts';
import { registerDictHandlers } from './dicts.ts';
import { registerConfigHandlers } from './config.ts';
import { registerResourceHandlers } from './resources.ts';
import { registerDeskHandlers } from './desk.ts';
import { registerBartererHandlers } from '../base/barterers.ts';
import { registerGoodsHandlers } from '../base/goods.ts';
import { registerStaffHandlers } from '../base/staff.ts';
import { registerRelationHandlers } from '../engine/document/http.ts';
import { registerPurchaseHandlers } from '../purchase/exceed.ts';
import { registerReplenishHandlers } from '../purchase/replenish.ts';
import { registerPurchaseProcessHandlers } from '../purchase/process.ts';

/** The hand-written handlers that schema endpoints name with `"op": "custom"`. */
export function registerSystemHandlers(services: Services) {
  registerMenuHandlers(services);
  registerUserHandlers(services);
  registerDictHandlers(services);
  registerConfigHandlers(services);
  registerResourceHandlers(services);
  registerDeskHandlers(services);
  registerBartererHandlers(services);
  registerGoodsHandlers(services);
  registerStaffHandlers(services);
  registerPurchaseHandlers(services);
  registerReplenishHandlers(services);
  registerPurchaseProcessHandlers(services);
  registerRelationHandlers(services);
}
