import { prose } from '../http/docs';

/** Long descriptions of the routes of entitlements.ts (the OpenAPI text). */

/** GET /api/entitlements/me */
export const getEntitlementsMe = prose`
  The effective set every module gates on: tier modules + add-ons + running trial, and the tier limits. Any member may
  read it. Served from the shared entitlement cache (TTL 5 min, invalidated on every subscription change);
  \`validUntil\` tells when it changes by itself (trial end).
`;

/** PUT /api/entitlements/:tier */
export const putEntitlementsTier = prose`
  Replaces the modules (keys of the module catalogue) and all limits of the tier. Every organisation on the tier is
  affected at once: the whole entitlement cache is invalidated on every instance.
`;
