import type { CacheProvider, SamlConfig } from '@node-saml/node-saml';
import type { SsoProvider } from '../../../entities/identity/sso';
import type { Services } from '../../services';
import { samlAcsUrl, samlEntityId } from './samlEndpoints';

/**
 * The AuthnRequest ids this service issued, kept in Redis for SSO_STATE_TTL_SECONDS (node-saml's InResponseTo
 * check, `validateInResponseTo: always`): a response answers a request of ours, once (node-saml removes the id when
 * it accepts the response), on whichever instance the IdP posts it to. Unsolicited (IdP-initiated) responses are
 * refused: they carry no proof the browser asked.
 */
function requestCache(services: Services, providerId: string): CacheProvider {
  const keyOf = (id: string) => services.key('sso', 'saml-request', providerId, id);
  const ttl = services.config.SSO_STATE_TTL_SECONDS * 1000;
  return {
    async saveAsync(id, value) {
      const saved = await services.redis.set(keyOf(id), value, 'PX', ttl, 'NX');
      return saved ? { value, createdAt: Date.now() } : null;
    },
    getAsync: (id) => services.redis.get(keyOf(id)),
    async removeAsync(id) {
      if (id === null) return null;
      return (await services.redis.del(keyOf(id))) ? id : null;
    },
  };
}

/**
 * node-saml's settings for an organisation's SAML IdP: HTTP-Redirect AuthnRequests to its sign-in URL, responses
 * posted to our ACS, accepted only when the assertion is signed by the configured certificate (SHA-256), issued by
 * the configured entity id, addressed to our entity id (Audience), answering a request of ours (InResponseTo), within
 * its validity (5 s of clock skew). The NameID asked is the e-mail address.
 */
export function samlOptions(services: Services, provider: SsoProvider): SamlConfig {
  const publicUrl = services.config.PUBLIC_URL;
  return {
    entryPoint: provider.samlSsoUrl ?? undefined,
    idpCert: provider.samlCertificate ?? '',
    idpIssuer: provider.issuer,
    issuer: samlEntityId(publicUrl, provider.id),
    audience: samlEntityId(publicUrl, provider.id),
    callbackUrl: samlAcsUrl(publicUrl, provider.id),
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    signatureAlgorithm: 'sha256',
    acceptedClockSkewMs: 5000,
    validateInResponseTo: 'always',
    requestIdExpirationPeriodMs: services.config.SSO_STATE_TTL_SECONDS * 1000,
    cacheProvider: requestCache(services, provider.id),
    disableRequestedAuthnContext: true,
  } as SamlConfig;
}
