import type { Request } from 'express';
import type { ModuleMount } from '../http/mount';
import type { Services } from '../../domain/services';
import { paymentProviderStatus } from '../../domain/billing/payments';
import { listPlans, updatePlan } from '../../domain/billing/plans';
import { User } from '../../entities/identity/user';
import { TierParams, UpdatePlanBody } from './dtos';
import { PlanList, PlanView, StripeStatusView } from './views';

/**
 * On a public route, whether the caller happens to send a valid token of a platform administrator. Any
 * problem with the token just means "anonymous" here: the route never answers 401.
 */
async function callerIsPlatformAdmin(services: Services, req: Request): Promise<boolean> {
  const token = /^Bearer (.+)$/.exec(req.get('authorization') ?? '')?.[1];
  if (!token) return false;
  try {
    const claims = services.tokens.verifyAccess(token);
    if (await services.revocations.isRevoked(claims)) return false;
    const user = await services.orm.em.fork().findOne(User, { id: claims.userId }, { fields: ['isPlatformAdmin', 'disabledAt'] });
    return !!user?.isPlatformAdmin && !user.disabledAt;
  } catch {
    return false;
  }
}

/** /api/plans: the tier catalogue and the payment provider's configuration status. */
export function planRoutes({ routes }: ModuleMount): void {
  const r = routes('Billing: plans');

  r.get(
    '/api/plans',
    {
      summary: 'Tier catalogue',
      description: 'Public, no token needed. Non-public tiers (e.g. enterprise) are listed only to a platform administrator who sends a token. Not paginated: the catalogue is a handful of tiers.',
      access: 'public',
      response: PlanList,
      // Public and without input, yet read from PostgreSQL.
      errors: { 503: 'PostgreSQL is unavailable: `dependency_unavailable`; retry shortly' },
    },
    async ({ services, req }) => {
      const includeHidden = await callerIsPlatformAdmin(services, req);
      return { items: (await listPlans(services.orm.em.fork(), { includeHidden })).map(PlanView.from) };
    },
  );

  r.get(
    '/api/plans/stripe-status',
    {
      summary: 'Payment provider configuration status',
      description: 'For owners and administrators: whether Stripe is configured (secret key, webhook secret, test or live) and which public paid tiers and active add-ons still lack a Stripe price id.',
      access: 'user',
      permission: 'billing.manage',
      response: StripeStatusView,
    },
    async ({ ctx, services }) => paymentProviderStatus(ctx.em, services),
  );

  r.put(
    '/api/plans/:tier',
    {
      summary: 'Administrators: edit a tier',
      description:
        'Fields left out are kept. `stripePriceId` links the tier to a Stripe price (unique across tiers and add-ons: 409 `stripe_price_in_use`); the free tier has no price. What the tier grants is set with PUT /api/entitlements/{tier}.',
      access: 'admin',
      params: TierParams,
      body: UpdatePlanBody,
      response: PlanView,
      errors: { 409: '`stripe_price_in_use`' },
    },
    async ({ ctx, params, body }) => PlanView.from(await updatePlan(ctx, params.tier, body)),
  );
}
