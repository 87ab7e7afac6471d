import type { ModuleMount } from '../http/mount';
import { changePlan } from '../../domain/billing/changePlan';
import { editSubscription } from '../../domain/billing/editSubscription';
import { readSubscription } from '../../domain/billing/subscription';
import { chooseTrialModules } from '../../domain/billing/chooseTrialModules';
import { startTrial } from '../../domain/billing/startTrial';
import { ChangePlanBody, EditSubscriptionBody, StartTrialBody, TenantParams, TrialModulesBody } from './dtos';
import { SubscriptionView } from './views';
import {
  postSubscriptionChangePlan,
  postSubscriptionStartTrial,
  putSubscriptionTenantId,
  putSubscriptionTrialModules,
} from './subscription.docs';

/** /api/subscription: the organisation's subscription, its trial and plan changes; the administrators' edit. */
export function subscriptionRoutes({ routes }: ModuleMount): void {
  const r = routes('Billing: subscription');

  r.get(
    '/api/subscription',
    {
      summary: "My organisation's subscription",
      access: 'user',
      permission: 'billing.read',
      response: SubscriptionView,
    },
    async ({ ctx }) => SubscriptionView.from(await readSubscription(ctx)),
  );

  r.post(
    '/api/subscription/change-plan',
    {
      summary: 'Change tier (and optionally add-ons)',
      description: postSubscriptionChangePlan,
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
      description: postSubscriptionStartTrial,
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
      description: putSubscriptionTrialModules,
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
      description: putSubscriptionTenantId,
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
