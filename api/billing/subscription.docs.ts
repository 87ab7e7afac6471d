import { prose } from '../http/docs';

/** Long descriptions of the routes of subscription.ts (the OpenAPI text). */

/** POST /api/subscription/change-plan */
// One line per item of the Markdown list.
export const postSubscriptionChangePlan = [
  prose`Semantics:`,
  prose`
    - to **free**: a paid Stripe subscription is cancelled at the end of its period (\`cancelAtPeriodEnd\` true, the
    paid tier stays until then and the webhook moves the organisation to free); without one the move is immediate;
  `,
  prose`
    - to a **paid** tier while a Stripe subscription exists: its items are re-priced through Stripe (prorated) and the
    new tier applies at once (the webhook confirms it);
  `,
  prose`- to a paid tier without one: 409 \`checkout_required\` (use POST /api/checkout/session);`,
  prose`
    - \`addons\` replaces the set of add-ons (none with the free tier; none the tier already includes); omitted keeps
    the current ones the tier does not include;
  `,
  prose`- the current tier and add-ons again: nothing changes, except that a subscription set to cancel is resumed.`,
  prose`Every change invalidates the organisation's cached entitlements on every instance.`,
].join('\n');

/** POST /api/subscription/start-trial */
export const postSubscriptionStartTrial = prose`
  Once per organisation, TRIAL_DAYS long. \`modules\` chooses the paid modules it unlocks (none may be in the tier or
  add-ons already); omitted, it unlocks every module the organisation lacks. Gating follows at once on every instance
  and stops exactly at \`trial.endsAt\`.
`;

/** PUT /api/subscription/trial-modules */
export const putSubscriptionTrialModules = prose`
  Replaces the paid modules the running trial unlocks; each must be missing from the tier and add-ons.
`;

/** PUT /api/subscription/:tenantId */
export const putSubscriptionTenantId = prose`
  Platform administrators only. Fields left out are kept: \`tier\` (any, public or not), \`status\`, \`addons\`,
  \`trialEndsAt\` (a future date starts or extends the trial, a past date ends it, null removes it; the status follows
  unless given), \`trialModules\`. For an organisation billed through Stripe, the next payment provider event wins for
  tier, add-ons and status.
`;
