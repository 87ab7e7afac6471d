import type { ModuleMount } from '../http/mount';
import { listPlans, setTierEntitlements } from '../../domain/billing/plans';
import { TierEntitlementsBody, TierParams } from './dtos';
import { EntitlementsView, TierEntitlementsList, TierEntitlementsView } from './views';

/** /api/entitlements: what organisations may use (the gating data) and what each tier grants. */
export function entitlementRoutes({ routes }: ModuleMount): void {
  const r = routes('Billing: entitlements');

  r.get(
    '/api/entitlements/me',
    {
      summary: "My organisation's entitlements",
      description:
        'The effective set every module gates on: tier modules + add-ons + running trial, and the tier limits. Any member may read it. Served from the shared entitlement cache (TTL 5 min, invalidated on every subscription change); `validUntil` tells when it changes by itself (trial end).',
      access: 'user',
      response: EntitlementsView,
    },
    async ({ services, auth }) => EntitlementsView.from(await services.entitlements.get(auth.tenantId)),
  );

  r.get('/api/entitlements', { summary: 'Administrators: entitlements of every tier', access: 'admin', response: TierEntitlementsList }, async ({ ctx }) => ({
    items: (await listPlans(ctx.em, { includeHidden: true })).map(TierEntitlementsView.from),
  }));

  r.put(
    '/api/entitlements/:tier',
    {
      summary: "Administrators: set a tier's entitlements",
      description:
        'Replaces the modules (keys of the module catalogue) and all limits of the tier. Every organisation on the tier is affected at once: the whole entitlement cache is invalidated on every instance.',
      access: 'admin',
      params: TierParams,
      body: TierEntitlementsBody,
      response: TierEntitlementsView,
    },
    // Stored as 0 for "no cap" (what createRoom reads), answered as null.
    async ({ ctx, params, body }) => TierEntitlementsView.from(await setTierEntitlements(ctx, params.tier, { modules: body.modules, limits: { ...body.limits, vrRooms: body.limits.vrRooms ?? 0 } })),
  );
}
