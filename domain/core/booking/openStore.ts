import type { Business } from '../../../entities/core/business';
import { notFound } from '../../../lib/errors';
import type { Lean } from '../../../lib/lean';
import { tenantContext, type TenantContext } from '../../context';
import type { Services } from '../../services';
import { isModuleActive } from '../org/activeModules';
import { findBusinessBySlug } from '../org/findBusinessBySlug';

/** An open storefront: its business and a context bound to its organisation (the tenant id stays inside). */
export interface Store {
  business: Lean<Business>;
  ctx: TenantContext;
}

/**
 * The storefront of a public slug: 404 unless a business has it, its public profile is published and the core
 * module is active for its organisation (suspended organisations have none).
 */
export async function openStore(services: Services, slug: string): Promise<Store> {
  const found = await findBusinessBySlug(services, slug);
  if (!found || !found.business.publicProfile.published) throw notFound('Store');
  const entitlements = await services.entitlements.get(found.tenantId);
  if (!isModuleActive(found.business, entitlements, 'core')) throw notFound('Store');
  return { business: found.business, ctx: tenantContext(services, found.tenantId) };
}
