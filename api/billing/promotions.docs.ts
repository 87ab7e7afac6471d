import { prose } from '../http/docs';

/** Long descriptions of the routes of promotions.ts (the OpenAPI text). */

// The spec names GET /api/promo/{code} and PUT, DELETE /api/promo/{id}: one path template with two names
// (linters report the identical paths; bin/lint-openapi.ts lists it as the spec's own).
const sharedPath =
  ' This path is shared: GET takes a promotion code, PUT and DELETE a promotion id (as the spec names them).';

/** GET /api/promo/:code */
export const getPromoCode =
  prose`
  Case-insensitive. Answers whether the code can be used now (and for \`?tier=\`), with its discount; \`reason\` says
  why not (expired, exhausted, not_applicable). Unknown and deactivated codes are both 404, and lookups are rate-limited
  per user, so codes cannot be probed.
` + sharedPath;

/** PUT /api/promo/:id */
export const putPromoId =
  prose`
  Upsert: the body is the whole promotion. An unknown id creates it (201 with Location), a known id replaces it (200);
  \`redemptions\` is counted by the system and kept. Exactly one of \`percentOff\` or \`amountOffCents\` (+
  \`currency\`). Codes are unique case-insensitively (409 \`promotion_code_taken\`). The discount applies to the first
  invoice of the checkout that uses it. \`maxRedemptions\` and \`expiresAt\` hold when a checkout completes, not only
  when it opens: the Stripe coupon carries them, so Stripe refuses to complete a checkout once the code is used up or
  expired (editing them, or the discount, makes the next checkout use a new coupon); a completion past them that still
  arrives (a checkout opened with an older coupon) keeps its subscription but is not counted.
` + sharedPath;

/** DELETE /api/promo/:id */
export const deletePromoId = sharedPath.trim();
