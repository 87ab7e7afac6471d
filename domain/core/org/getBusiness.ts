import { Business, emptyPublicProfile } from '../../../entities/core/business';
import { newId } from '../../../entities/base';
import { Organization } from '../../../entities/identity/organization';
import type { TenantContext } from '../../context';
import { insertBusinessOnce } from './store';

/**
 * The organisation's business record, created on first access with defaults from the organisation (its
 * name as trade and legal name, Europe/Paris, EUR, fr-FR, no public slug). Concurrent first reads insert
 * once (on conflict do nothing on the tenant's unique key) and read the same row.
 * Invoicing reads the seller details from it, booking the time zone and publicSlug.
 */
export async function getBusiness(ctx: TenantContext): Promise<Business> {
  const existing = await ctx.em.findOne(Business, { tenantId: ctx.tenantId });
  if (existing) return existing;
  const org = await ctx.em.findOneOrFail(Organization, { id: ctx.tenantId });
  await insertBusinessOnce(ctx.em, {
    id: newId(),
    tenantId: ctx.tenantId,
    name: org.name,
    legalName: org.name,
    publicProfile: emptyPublicProfile(),
    disabledModules: [],
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  return ctx.em.findOneOrFail(Business, { tenantId: ctx.tenantId });
}
