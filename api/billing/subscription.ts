import type { ModuleMount } from '../http/mount';
import { changePlan } from '../../domain/billing/changePlan';
import { editSubscription } from '../../domain/billing/editSubscription';
import { readSubscription } from '../../domain/billing/subscription';
import { chooseTrialModules, startTrial } from '../../domain/billing/trial';
import { ChangePlanBody, EditSubscriptionBody, StartTrialBody, TenantParams, TrialModulesBody } from './dtos';
import { SubscriptionView } from './views';

/** /api/subscription: the organisation's subscription, its trial and plan changes; the administrators' edit. */
export function subscriptionRoutes({ routes }: ModuleMount): void {
  const r = routes('Billing: subscription');

  r.get('/api/subscription', { summary: "My organisation's subscription", access: 'user', permission: 'billing.read', response: SubscriptionView }, async ({ ctx }) =>
    SubscriptionView.from(await readSubscription(ctx)),
  );

  r.post(
    '/api/subscription/change-plan',
    {
      summary: 'Change tier (and optionally add-ons)',
      description: `Semantics:
- to **free**: a paid Stripe subscription is cancelled at the end of its period (\`cancelAtPeriodEnd\` true, the paid tier stays until then and the webhook moves the organisation to free); without one the move is immediate;
- to a **paid** tier while a Stripe subscription exists: its items are re-priced through Stripe (prorated) and the new tier applies at once (the webhook confirms it);
- to a paid tier without one: 409 \`checkout_required\` (use POST /api/checkout/session);
- \`addons\` replaces the set of add-ons (none with the free tier; none the tier already includes); omitted keeps the current ones the tier does not include;
- the current tier and add-ons again: nothing changes, except that a subscription set to cancel is resumed.
Every change invalidates the organisation's cached entitlements on every instance.`,
      access: 'user',
      permission: 'billing.manage',
      body: ChangePlanBody,
      response: SubscriptionView,
      errors: {
        409: '`checkout_required`, `plan_not_purchasable` or `addon_not_purchasable` (no Stripe price id yet)',
        502: '`payment_provider_error` (Stripe refused the change)',
        503: '`payment_provider_not_configured` (paid targets, or cancelling a paid subscription, without STRIPE_SECRET_KEY), `payment_provider_unavailable` (Stripe unreachable)',
      },
    },
    async ({ ctx, body }) => SubscriptionView.from(await changePlan(ctx, body)),
  );

  r.post(
    '/api/subscription/start-trial',
    {
      summary: 'Start the free trial',
      description:
        'Once per organisation, TRIAL_DAYS long. `modules` chooses the paid modules it unlocks (none may be in the tier or add-ons already); omitted, it unlocks every module the organisation lacks. Gating follows at once on every instance and stops exactly at `trial.endsAt`.',
      access: 'user',
      permission: 'billing.manage',
      body: StartTrialBody,
      response: SubscriptionView,
      errors: { 409: '`trial_already_used`, or `nothing_to_trial` when the plan already includes every module' },
    },
    async ({ ctx, body }) => SubscriptionView.from(await startTrial(ctx, body)),
  );

  // Declared before PUT /api/subscription/:tenantId, which would otherwise take "trial-modules" for a tenant id.
  r.put(
    '/api/subscription/trial-modules',
    {
      summary: 'Choose the modules of the running trial',
      description: 'Replaces the paid modules the running trial unlocks; each must be missing from the tier and add-ons.',
      access: 'user',
      permission: 'billing.manage',
      body: TrialModulesBody,
      response: SubscriptionView,
      errors: { 409: '`trial_not_active`' },
    },
    async ({ ctx, body }) => SubscriptionView.from(await chooseTrialModules(ctx, body)),
  );

  r.put(
    '/api/subscription/:tenantId',
    {
      summary: "Administrators: edit an organisation's subscription",
      description:
        'Platform administrators only. Fields left out are kept: `tier` (any, public or not), `status`, `addons`, `trialEndsAt` (a future date starts or extends the trial, a past date ends it, null removes it; the status follows unless given), `trialModules`. For an organisation billed through Stripe, the next payment provider event wins for tier, add-ons and status.',
      access: 'admin',
      params: TenantParams,
      body: EditSubscriptionBody,
      response: SubscriptionView,
    },
    async ({ services, auth, params, body }) => {
      const { trialEndsAt, ...rest } = body;
      const sub = await editSubscription(services, {
        ...rest,
        tenantId: params.tenantId,
        actorId: auth.userId,
        ...(trialEndsAt !== undefined ? { trialEndsAt: trialEndsAt === null ? null : new Date(trialEndsAt) } : {}),
      });
      return SubscriptionView.from(sub);
    },
  );
}
