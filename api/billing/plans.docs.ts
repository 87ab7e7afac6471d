import { prose } from '../http/docs';

/** Long descriptions of the routes of plans.ts (the OpenAPI text). */

/** GET /api/plans */
export const getPlans = prose`
  Public, no token needed. Non-public tiers (e.g. enterprise) are listed only to a platform administrator who sends a
  token. Not paginated: the catalogue is a handful of tiers.
`;

/** GET /api/plans/stripe-status */
export const getPlansStripeStatus = prose`
  For owners and administrators: whether Stripe is configured (secret key, webhook secret, test or live) and which
  public paid tiers and active add-ons still lack a Stripe price id.
`;

/** PUT /api/plans/:tier */
export const putPlansTier = prose`
  Fields left out are kept. \`stripePriceId\` links the tier to a Stripe price (unique across tiers and add-ons: 409
  \`stripe_price_in_use\`); the free tier has no price. What the tier grants is set with PUT /api/entitlements/{tier}.
`;
