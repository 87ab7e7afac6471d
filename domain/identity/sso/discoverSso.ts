import type { Em } from '../../../lib/db';
import type { Services } from '../../services';
import { ssoProviderOfTenant, verifiedSsoDomain } from '../store/sso';
import { emailDomain } from './ssoRules';

/** Where an address signs in through single sign-on: its organisation's provider, and whether SSO is mandatory. */
export type SsoDiscovery = { providerId: string; required: boolean } | null;

/** The single sign-on of an address's domain: verified by an organisation whose provider is enabled; else null. */
export async function ssoOfAddress(em: Em, email: string): Promise<SsoDiscovery> {
  const domain = emailDomain(email);
  const claim = domain ? await verifiedSsoDomain(em, domain) : null;
  const provider = claim ? await ssoProviderOfTenant(em, claim.tenantId) : null;
  return provider?.enabled ? { providerId: provider.id, required: provider.enforced } : null;
}

/**
 * POST /auth/sso/discover (home-realm discovery). The answer depends on the address's domain only, never on
 * whether an account exists, and names no organisation: the start URL carries the provider's id, which a
 * stranger can do nothing with but be sent to that provider's sign-in.
 */
export const discoverSso = (services: Services, email: string): Promise<SsoDiscovery> =>
  ssoOfAddress(services.orm.em.fork(), email);
