import type { ModuleMount } from '../http/mount';
import { addonRoutes } from './addons';
import { checkoutRoutes } from './checkout';
import { entitlementRoutes } from './entitlements';
import { internalBillingRoutes } from './internal';
import { planRoutes } from './plans';
import { promotionRoutes } from './promotions';
import { subscriptionRoutes } from './subscription';
import { stripeWebhookRoutes } from './webhooks';

/** Billing: /api/subscription, /api/entitlements, /api/plans, /api/addons, /api/promo, /api/checkout, the Stripe webhook, internal trials. */
export function billingApi(mount: ModuleMount): void {
  subscriptionRoutes(mount);
  entitlementRoutes(mount);
  planRoutes(mount);
  addonRoutes(mount);
  promotionRoutes(mount);
  checkoutRoutes(mount);
  stripeWebhookRoutes(mount);
  internalBillingRoutes(mount);
}
