import type { ModuleMount } from '../http/mount';
import { listPlans } from '../../domain/billing/listPlans';
import { setTierEntitlements } from '../../domain/billing/setTierEntitlements';
import { TierEntitlementsBody, TierParams } from './dtos';
import { EntitlementsView, TierEntitlementsList, TierEntitlementsView } from './views';
import { getEntitlementsMe, putEntitlementsTier } from './entitlements.docs';

/** /api/entitlements: what organisations may use (the gating data) and what each tier grants. */
export function entitlementRoutes({ routes }: ModuleMount): void {
  const r = routes('Billing: entitlements');

  r.get(
    '/api/entitlements/me',
    {
      summary: "My organisation's entitlements",
      description: getEntitlementsMe,
      access: 'user',
      response: EntitlementsView,
    },
    async ({ services, auth }) => EntitlementsView.from(await services.entitlements.get(auth.tenantId)),
  );

  r.get(
    '/api/entitlements',
    { summary: 'Administrators: entitlements of every tier', access: 'admin', response: TierEntitlementsList },
    async ({ ctx }) => ({
      items: (await listPlans(ctx.em, { includeHidden: true })).map(TierEntitlementsView.from),
    }),
  );

  r.put(
    '/api/entitlements/:tier',
    {
      summary: "Administrators: set a tier's entitlements",
      description: putEntitlementsTier,
      access: 'admin',
      params: TierParams,
      body: TierEntitlementsBody,
      response: TierEntitlementsView,
    },
    // Stored as 0 for "no cap" (what createRoom reads), answered as null.
    async ({ ctx, params, body }) => {
      const limits = { ...body.limits, vrRooms: body.limits.vrRooms ?? 0 };
      return TierEntitlementsView.from(await setTierEntitlements(ctx, params.tier, { modules: body.modules, limits }));
    },
  );
}
