import type { Business } from '../../../entities/core/business';
import { Business as BusinessEntity } from '../../../entities/core/business';
import { Organization } from '../../../entities/identity/organization';
import type { Em } from '../../../lib/db';
import { normaliseSlug, PUBLIC_SLUG_PATTERN } from './publicSlug';

/** A business found by its public slug. `tenantId` is for the caller's own queries: never put it in an answer. */
export interface PublicBusiness {
  tenantId: string;
  business: Business;
}

/**
 * Anonymous lookup of the storefront and the public knowledge base: the business with this public slug
 * (any case), or null when none has it or its organisation is suspended. Whether the profile is published
 * and the module active is the caller's rule to apply (see isModuleActive).
 */
export async function findBusinessBySlug(em: Em, slug: string): Promise<PublicBusiness | null> {
  const key = normaliseSlug(slug);
  if (!PUBLIC_SLUG_PATTERN.test(key)) return null;
  const business = await em.findOne(BusinessEntity, { publicSlug: key }, { filters: { tenant: false } });
  if (!business) return null;
  const org = await em.findOne(Organization, { id: business.tenantId }, { fields: ['suspendedAt'] });
  if (!org || org.suspendedAt) return null;
  return { tenantId: business.tenantId, business };
}
