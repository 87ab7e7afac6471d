import type { Configuration } from 'openid-client';
import { AppError } from '../../../lib/errors';
import { onFirstUse } from '../../../lib/lazy';
import type { SsoProvider } from '../../../entities/identity/sso';
import type { Services } from '../../services';
import { addressPolicyOf } from '../../webhooks/addressPolicy';
import { pinnedFetch } from '../../webhooks/pinnedFetch';
import { openClientSecret } from './clientSecret';

/**
 * openid-client (an ES module: Node 20.19+ requires it as is) and its passport Strategy, loaded by the first single
 * sign-on: a web dyno that never sees one does not hold them.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const openid = onFirstUse(() => require('openid-client') as typeof import('openid-client'));
export const openidPassport = onFirstUse(
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  () => require('openid-client/passport') as typeof import('openid-client/passport'),
);

/** How long a discovered configuration (metadata; the key set is cached by openid-client itself) is reused. */
const DISCOVERY_TTL_MS = 10 * 60_000;
const DISCOVERY_TIMEOUT_SECONDS = 10;

const cache = new Map<string, { at: number; configuration: Promise<Configuration> }>();

export const discoveryFailed = (issuer: string, reason: string) =>
  new AppError(422, 'sso_discovery_failed', `The OpenID provider ${issuer} could not be discovered: ${reason}`);

/** Discovers an issuer for a client (openid-client checks that the document names this very issuer). */
export async function discoverIssuer(
  services: Services,
  issuer: string,
  clientId: string,
  clientSecret: string,
): Promise<Configuration> {
  const client = openid();
  const insecure = services.config.SSO_ALLOW_INSECURE_ISSUERS === 'true';
  // An organisation's admin names the issuer: every request to it (discovery, token, keys) goes through the
  // webhooks' address policy, so a provider URL cannot reach the internal network.
  const policy = addressPolicyOf({ WEBHOOK_ALLOWED_HOSTS: services.config.SSO_ALLOWED_HOSTS, NODE_ENV: 'development' });
  const fetcher = pinnedFetch(policy, { timeoutMs: DISCOVERY_TIMEOUT_SECONDS * 1000, maxBytes: 1024 * 1024 });
  try {
    return await client.discovery(new URL(issuer), clientId, clientSecret, undefined, {
      timeout: DISCOVERY_TIMEOUT_SECONDS,
      [client.customFetch]: fetcher,
      ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
    });
  } catch (err) {
    // openid-client wraps a failed request ("something went wrong"): its cause says what went wrong.
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
    throw discoveryFailed(issuer, cause instanceof Error ? cause.message : String(cause));
  }
}

/**
 * The client configuration of an organisation's provider, discovered once per provider version (a change of
 * the configuration makes a new one) and reused for DISCOVERY_TTL_MS; a failed discovery is not kept.
 */
export function providerConfiguration(services: Services, provider: SsoProvider): Promise<Configuration> {
  const key = `${provider.id}:${provider.updatedAt.getTime()}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.configuration;
  for (const old of cache.keys()) if (old.startsWith(`${provider.id}:`)) cache.delete(old);
  if (provider.protocol !== 'oidc' || !provider.clientId || !provider.clientSecretSealed)
    return Promise.reject(new Error('Not an OpenID provider'));
  const secret = openClientSecret(services, provider.clientSecretSealed);
  const configuration = discoverIssuer(services, provider.issuer, provider.clientId, secret);
  cache.set(key, { at: Date.now(), configuration });
  configuration.catch(() => cache.delete(key));
  return configuration;
}
