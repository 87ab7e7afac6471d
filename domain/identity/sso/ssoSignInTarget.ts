import type { Configuration } from 'openid-client';
import type { SsoProvider } from '../../../entities/identity/sso';
import { notFound } from '../../../lib/errors';
import type { Services } from '../../services';
import { usableSsoProvider } from '../store/sso';
import { providerConfiguration } from './oidcClient';

export interface SsoSignInTarget {
  provider: SsoProvider;
  configuration: Configuration;
}

/**
 * The provider a sign-in goes to, with its discovered configuration: 404 for an unknown or disabled provider
 * (or a suspended organisation), alike, so the path tells a stranger nothing more; 422 `sso_discovery_failed`
 * when the issuer cannot be reached now.
 */
export async function ssoSignInTarget(services: Services, providerId: string): Promise<SsoSignInTarget> {
  const provider = await enabledSsoProvider(services, providerId, 'oidc');
  return { provider, configuration: await providerConfiguration(services, provider) };
}

/** The enabled provider of this id (of this protocol when one is named), or 404 alike for anything else. */
export async function enabledSsoProvider(
  services: Services,
  providerId: string,
  protocol?: 'oidc' | 'saml',
): Promise<SsoProvider> {
  const provider = await usableSsoProvider(services.orm.em.fork(), providerId);
  if (!provider?.enabled || (protocol && provider.protocol !== protocol)) throw notFound('Single sign-on provider');
  return provider;
}
