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

/** The business record with its active and entitled modules. */
async function present(ctx: TenantContext, business: Business): Promise<BusinessView> {
  const entitlements = await ctx.services.entitlements.get(ctx.tenantId);
  return BusinessView.from(business, activeModulesOf(business, entitlements), entitlements.suspended ? [] : entitlements.modules);
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
      description:
        'Every organisation has exactly one business record: this answers it (created on first read from the organisation: its name as trade and legal name, Europe/Paris, EUR, fr-FR, no public slug). Every member may read it; invoices print its seller details.',
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
      description: 'The slug is normalised (lower-case) first; the reason says why one is not available (form, reserved word, used by another business). The organisation\'s own slug is available to it.',
      query: SlugQuery,
      response: SlugCheckView,
    },
    async ({ ctx, query }) => SlugCheckView.from(await checkPublicSlug(ctx, query.slug)),
  );

  r.get('/api/businesses/:id', { ...gate, summary: 'The business record by id', description: 'Only the own organisation\'s record exists for the caller (another id: 404).', params: IdParams, response: BusinessView }, async ({ ctx, params }) => {
    const business = await getBusiness(ctx);
    if (business.id !== params.id) throw notFound('Business');
    return present(ctx, business);
  });

  r.patch(
    '/api/businesses/:id',
    {
      ...gate,
      permission: 'core.settings.manage',
      summary: 'Edit the business record',
      description:
        'Partial update; null clears an optional field. Checked: SIREN/SIRET checksums and that the SIRET starts with the SIREN, a French VAT number\'s key against the SIREN, IBAN checksum, BIC, IANA time zone (one PostgreSQL also knows, e.g. not US/Pacific-New), ISO 4217 currency. publicSlug is normalised to lower case, refused when reserved (400) or used by another business (409 `slug_taken`); publishing the public profile needs a slug. publicProfile is merged into the current one.',
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
      description:
        'The complete list of modules to use. Each must be in the organisation\'s entitlements (403 `module_not_entitled` otherwise); core cannot be left out. Active modules shape the workspace (sidebar, dashboard summary, onboarding); access to a module\'s API stays governed by the entitlements. A module bought later starts active.',
      params: IdParams,
      body: SetModulesBody,
      response: BusinessView,
    },
    async ({ ctx, params, body }) => present(ctx, await setActiveModules(ctx, params.id, body.modules)),
  );
}
