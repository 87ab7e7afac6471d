import { Business } from '../../../entities/core/business';
import { withoutTenant, type Lean, type LeanScope } from '../../../lib/lean';
import { normaliseSlug, PUBLIC_SLUG_PATTERN } from './publicSlug';
import { businessBySlug } from './store';

/** A business found by its public slug. `tenantId` is for the caller's own queries: never put it in an answer. */
export interface PublicBusiness {
  tenantId: string;
  business: Lean<Business>;
}

/**
 * Anonymous lookup of the storefront and the public knowledge base: the business with this public slug
 * (any case), or null when none has it or its organisation is suspended. Whether the profile is published
 * and the module active is the caller's rule to apply (see isModuleActive). A lean read: every storefront
 * request starts here.
 */
export async function findBusinessBySlug(
  services: LeanScope['services'],
  slug: string,
): Promise<PublicBusiness | null> {
  const key = normaliseSlug(slug);
  if (!PUBLIC_SLUG_PATTERN.test(key)) return null;
  const business = await businessBySlug.one(withoutTenant(services), key);
  return business ? { tenantId: business.tenantId, business } : null;
}
