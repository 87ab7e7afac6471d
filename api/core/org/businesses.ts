import type { ModuleMount } from '../../http/mount';
import { IdParams } from '../../http/dtos';
import type { TenantContext } from '../../../domain/context';
import type { Business } from '../../../entities/core/business';
import { activeModulesOf } from '../../../domain/core/org/activeModules';
import { checkPublicSlug } from '../../../domain/core/org/checkPublicSlug';
import { getBusiness } from '../../../domain/core/org/getBusiness';
import { setActiveModules } from '../../../domain/core/org/setActiveModules';
import { updateBusiness } from '../../../domain/core/org/updateBusiness';
import { notFound } from '../../../lib/errors';
import { BusinessView, SlugCheckView } from './businessViews';
import { SetModulesBody, SlugQuery, UpdateBusinessBody } from './dtos';
import {
  businessRecordOrganisationDoc,
  whetherPublicSlugFreeDoc,
  editBusinessRecordDoc,
  setActiveModulesDoc,
} from './businesses.docs';

/** The business record with its active and entitled modules. */
async function present(ctx: TenantContext, business: Business): Promise<BusinessView> {
  const entitlements = await ctx.services.entitlements.get(ctx.tenantId);
  return BusinessView.from(
    business,
    activeModulesOf(business, entitlements),
    entitlements.suspended ? [] : entitlements.modules,
  );
}

/** /api/businesses: the organisation's business record (one per organisation), its modules and public slug. */
export function businessRoutes({ routes }: ModuleMount): void {
  const r = routes('Core: organisation');
  const gate = { access: 'user', module: 'core' } as const;

  r.get(
    '/api/businesses',
    {
      ...gate,
      summary: 'The business record of my organisation',
      description: businessRecordOrganisationDoc,
      response: BusinessView,
    },
    async ({ ctx }) => present(ctx, await getBusiness(ctx)),
  );

  r.get(
    '/api/businesses/slug-availability',
    {
      ...gate,
      permission: 'core.settings.manage',
      summary: 'Whether a public slug is free',
      description: whetherPublicSlugFreeDoc,
      query: SlugQuery,
      response: SlugCheckView,
    },
    async ({ ctx, query }) => SlugCheckView.from(await checkPublicSlug(ctx, query.slug)),
  );

  r.get(
    '/api/businesses/:id',
    {
      ...gate,
      summary: 'The business record by id',
      description: "Only the own organisation's record exists for the caller (another id: 404).",
      params: IdParams,
      response: BusinessView,
    },
    async ({ ctx, params }) => {
      const business = await getBusiness(ctx);
      if (business.id !== params.id) throw notFound('Business');
      return present(ctx, business);
    },
  );

  r.patch(
    '/api/businesses/:id',
    {
      ...gate,
      permission: 'core.settings.manage',
      summary: 'Edit the business record',
      description: editBusinessRecordDoc,
      params: IdParams,
      body: UpdateBusinessBody,
      response: BusinessView,
      errors: { 409: '`slug_taken`' },
    },
    async ({ ctx, params, body }) => present(ctx, await updateBusiness(ctx, params.id, body)),
  );

  r.patch(
    '/api/businesses/:id/modules',
    {
      ...gate,
      permission: 'core.settings.manage',
      summary: 'Set the active modules',
      description: setActiveModulesDoc,
      params: IdParams,
      body: SetModulesBody,
      response: BusinessView,
    },
    async ({ ctx, params, body }) => present(ctx, await setActiveModules(ctx, params.id, body.modules)),
  );
}
