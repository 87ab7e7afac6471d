import type { ModuleMount } from '../http/mount';
import { getPaymentProviderStatus } from '../../domain/billing/getPaymentProviderStatus';
import { listCatalogue } from '../../domain/billing/listPlans';
import { updatePlan } from '../../domain/billing/updatePlan';
import { TierParams, UpdatePlanBody } from './dtos';
import { PlanList, PlanView, StripeStatusView } from './views';
import { getPlans, getPlansStripeStatus, putPlansTier } from './plans.docs';

/** /api/plans: the tier catalogue and the payment provider's configuration status. */
export function planRoutes({ routes }: ModuleMount): void {
  const r = routes('Billing: plans');

  r.get(
    '/api/plans',
    {
      summary: 'Tier catalogue',
      description: getPlans,
      access: 'public',
      response: PlanList,
      // Public and without input, yet read from PostgreSQL.
      errors: { 503: 'PostgreSQL is unavailable: `dependency_unavailable`; retry shortly' },
    },
    async ({ services, req }) => ({
      items: (await listCatalogue(services, req.get('authorization'))).map(PlanView.from),
    }),
  );

  r.get(
    '/api/plans/stripe-status',
    {
      summary: 'Payment provider configuration status',
      description: getPlansStripeStatus,
      access: 'user',
      permission: 'billing.manage',
      response: StripeStatusView,
    },
    async ({ ctx, services }) => getPaymentProviderStatus(ctx.em, services),
  );

  r.put(
    '/api/plans/:tier',
    {
      summary: 'Administrators: edit a tier',
      description: putPlansTier,
      access: 'admin',
      params: TierParams,
      body: UpdatePlanBody,
      response: PlanView,
      errors: { 409: '`stripe_price_in_use`' },
    },
    async ({ ctx, params, body }) => PlanView.from(await updatePlan(ctx, params.tier, body)),
  );
}
